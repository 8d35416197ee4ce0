// linkedaccounts.go: the conformance suite's Linked Roles connections: written from
// their stored version, refused when out of bounds, one writer per version among
// racers (two processes refreshing one grant record one refresh).

package storagetest

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func sampleLinkedAccount(user string) *storage.LinkedAccount {
	return &storage.LinkedAccount{UserID: user, Tokens: []byte("sealed:" + user), Expires: testrecords.T0.Add(7 * 24 * time.Hour),
		Linked: testrecords.T0, Pushed: map[string]string{"blitz_rating": "1810", "rated_games": "12"}}
}

func putLinkedAccount(t *testing.T, db storage.Store, a *storage.LinkedAccount) error {
	t.Helper()
	return db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutLinkedAccount(a) })
}

func readLinkedAccount(t *testing.T, db storage.Store, user string) (*storage.LinkedAccount, error) {
	t.Helper()
	return storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.LinkedAccount, error) { return tx.LinkedAccount(user) })
}

func testLinkedAccounts(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		if a, err := readLinkedAccount(t, db, "100"); !errors.Is(err, storage.ErrNotFound) || a == nil || a.UserID != "100" || a.Version != 0 {
			t.Fatalf("a connection never written: %+v, %v", a, err)
		}
		a := sampleLinkedAccount("100")
		if err := putLinkedAccount(t, db, a); err != nil {
			t.Fatal(err)
		}
		if a.Version != 0 {
			t.Errorf("PutLinkedAccount changed its argument (version %d)", a.Version)
		}
		got, err := readLinkedAccount(t, db, "100")
		want := a.Clone()
		want.Version = 1
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("read back %+v, %v; want %+v", got, err, want)
		}
		got.Tokens, got.Pushed = []byte("sealed:new"), map[string]string{"blitz_rating": "1850"}
		if err := putLinkedAccount(t, db, got); err != nil {
			t.Fatal(err)
		}
		if err := putLinkedAccount(t, db, sampleLinkedAccount("200")); err != nil {
			t.Fatal(err)
		}
		var users []string
		err = db.View(t.Context(), func(tx storage.Tx) error {
			return tx.EachLinkedAccount(func(a *storage.LinkedAccount) error { users = append(users, a.UserID+":"+string(a.Tokens)); return nil })
		})
		if err != nil || !reflect.DeepEqual(users, []string{"100:sealed:new", "200:sealed:200"}) {
			t.Errorf("each: %v, %v", users, err)
		}
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.DeleteLinkedAccount("100") }); err != nil {
			t.Fatal(err)
		}
		if _, err := readLinkedAccount(t, db, "100"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("after the delete: %v", err)
		}
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.DeleteLinkedAccount("999") }); err != nil {
			t.Errorf("delete of a connection never written: %v", err)
		}
	})
}

func testLinkedAccountRefusals(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		for _, c := range []struct {
			name string
			edit func(a *storage.LinkedAccount)
		}{
			{"no user", func(a *storage.LinkedAccount) { a.UserID = "" }},
			{"user id too long", func(a *storage.LinkedAccount) { a.UserID = string(make([]byte, storage.MaxIDLen+1)) }},
			{"no tokens", func(a *storage.LinkedAccount) { a.Tokens = nil }},
			{"tokens too long", func(a *storage.LinkedAccount) { a.Tokens = make([]byte, storage.MaxSealedTokens+1) }},
			{"six values", func(a *storage.LinkedAccount) {
				a.Pushed = map[string]string{"a": "1", "b": "1", "c": "1", "d": "1", "e": "1", "f": "1"}
			}},
			{"empty key", func(a *storage.LinkedAccount) { a.Pushed = map[string]string{"": "1"} }},
		} {
			t.Run(c.name, func(t *testing.T) {
				a := sampleLinkedAccount("100")
				c.edit(a)
				if err := putLinkedAccount(t, db, a); err == nil {
					t.Fatalf("PutLinkedAccount of %+v succeeded, want an error", a)
				}
				if _, err := readLinkedAccount(t, db, "100"); !errors.Is(err, storage.ErrNotFound) {
					t.Errorf("a refused connection was stored (%v)", err)
				}
			})
		}
		if err := putLinkedAccount(t, db, sampleLinkedAccount("100")); err != nil {
			t.Fatal(err)
		}
		if err := putLinkedAccount(t, db, sampleLinkedAccount("100")); !errors.Is(err, storage.ErrConflict) {
			t.Errorf("a write from a stale version: %v, want ErrConflict", err)
		}
	})
}

// testLinkedAccountOneWriterPerVersion: processes refreshing one grant from one read of
// it land exactly one write.
func testLinkedAccountOneWriterPerVersion(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		if err := putLinkedAccount(t, db, sampleLinkedAccount("100")); err != nil {
			t.Fatal(err)
		}
		read, err := readLinkedAccount(t, db, "100")
		if err != nil {
			t.Fatal(err)
		}
		const writers = 8
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for i := range writers {
			wg.Go(func() {
				a := read.Clone()
				a.Tokens = []byte{'r', byte('0' + i)}
				errs[i] = putLinkedAccount(t, db, a)
			})
		}
		wg.Wait()
		won := -1
		for i, err := range errs {
			switch {
			case err == nil && won >= 0:
				t.Errorf("writers %d and %d both landed", won, i)
			case err == nil:
				won = i
			case !errors.Is(err, storage.ErrConflict):
				t.Errorf("a racing writer failed with %v, want nil or ErrConflict", err)
			}
		}
		got, err := readLinkedAccount(t, db, "100")
		if err != nil || won < 0 || got.Version != read.Version+1 || string(got.Tokens) != string([]byte{'r', byte('0' + won)}) {
			t.Errorf("after the race: %+v, %v (winner %d)", got, err, won)
		}
	})
}
