// digests.go: the conformance suite's checks of the daily digest's fields of a user
// record: the choice (on, hour), the day last claimed and the pending note, the list of
// the users whose digest is on, and the refusal of an hour or a day out of range.

package storagetest

import (
	"slices"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func testDigestUsers(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		on := storage.User{ID: "on", Name: "On", Updated: testrecords.T0, DigestSent: "2026-03-01",
			Prefs: storage.UserPrefs{Reminders: true, Digest: true, DigestHour: 23}}
		off := storage.User{ID: "off", Name: "Off", Updated: testrecords.T0,
			Prefs: storage.UserPrefs{DigestHour: 7, DigestRefused: true}}
		early := storage.User{ID: "early", Name: "Early", Updated: testrecords.T0, Prefs: storage.UserPrefs{Digest: true}}
		if err := db.Update(t.Context(), func(tx storage.Tx) error {
			for _, u := range []storage.User{on, off, early} {
				if err := tx.PutUser(u); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, want := range []storage.User{on, off, early} {
			got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.User, error) { return tx.User(want.ID) })
			if err != nil || got.Prefs != want.Prefs || got.DigestSent != want.DigestSent {
				t.Errorf("user %s = %+v, %v; want prefs %+v, digest day %q", want.ID, got, err, want.Prefs, want.DigestSent)
			}
		}
		users, err := storage.Read(t.Context(), db, storage.Tx.DigestUsers)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, u := range users {
			ids = append(ids, u.ID)
		}
		if !slices.Equal(ids, []string{"early", "on"}) {
			t.Errorf("digest users = %v, want [early on]", ids)
		}

		for _, bad := range []storage.User{
			{ID: "on", Prefs: storage.UserPrefs{Digest: true, DigestHour: 24}},
			{ID: "on", Prefs: storage.UserPrefs{Digest: true, DigestHour: -1}},
			{ID: "on", Prefs: storage.UserPrefs{Digest: true}, DigestSent: "2026-3-1"},
			{ID: "on", Prefs: storage.UserPrefs{Digest: true}, DigestSent: "yesterday"},
		} {
			if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutUser(bad) }); err == nil {
				t.Errorf("stored a user with digest hour %d, day %q", bad.Prefs.DigestHour, bad.DigestSent)
			}
		}
		got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.User, error) { return tx.User("on") })
		if err != nil || got.Prefs != on.Prefs || got.DigestSent != on.DigestSent {
			t.Errorf("after the refused writes user on = %+v, %v; want it unchanged", got, err)
		}
	})
}
