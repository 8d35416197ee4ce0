// vacations.go: the conformance suite's vacations: kept per server and player, written
// only from their stored version, listed while open, refused when they cannot be kept.

package storagetest

import (
	"errors"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

// sampleVacation is an open vacation of user in guild.
func sampleVacation(guild, user string) *storage.Vacation {
	t0 := testrecords.T0
	return &storage.Vacation{GuildID: guild, UserID: user, Year: t0.Year(), Used: 3, Start: t0, Until: t0.Add(5 * storage.VacationDay),
		AutoOptIn: true, Taken: 1}
}

func putVacation(t *testing.T, db storage.Store, v *storage.Vacation) error {
	t.Helper()
	return db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutVacation(v) })
}

func readVacation(t *testing.T, db storage.Store, guild, user string) (*storage.Vacation, error) {
	t.Helper()
	return storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Vacation, error) { return tx.Vacation(guild, user) })
}

func testVacations(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		got, err := readVacation(t, db, "g1", "100")
		if !errors.Is(err, storage.ErrNotFound) || got == nil || got.GuildID != "g1" || got.UserID != "100" || got.Version != 0 {
			t.Fatalf("Vacation never written = %+v, %v; want an empty record of the key and ErrNotFound", got, err)
		}
		v := sampleVacation("g1", "100")
		if err := putVacation(t, db, v); err != nil {
			t.Fatal(err)
		}
		if v.Version != 0 {
			t.Errorf("PutVacation changed the version of its argument to %d", v.Version)
		}
		if got, err = readVacation(t, db, "g1", "100"); err != nil {
			t.Fatal(err)
		}
		v.Version = 1
		if !reflect.DeepEqual(got, v) {
			t.Errorf("read back:\n%+v\nwant\n%+v", got, v)
		}
		// The same user in another guild, and another user whose key would run into the
		// first one's if the guild were not delimited.
		other := sampleVacation("g2", "100")
		closed := &storage.Vacation{GuildID: "g1", UserID: "1000", Year: 2020, Used: 14}
		tricky := &storage.Vacation{GuildID: "g11", UserID: "00", Year: 2020, Used: 1}
		for _, w := range []*storage.Vacation{other, closed, tricky} {
			if err := putVacation(t, db, w); err != nil {
				t.Fatal(err)
			}
		}
		// Closing the vacation from the stored version lands and moves the version on.
		got.Close(got.Start.Add(36 * time.Hour))
		if err := putVacation(t, db, got); err != nil {
			t.Fatal(err)
		}
		again, err := readVacation(t, db, "g1", "100")
		if err != nil || again.Version != 2 || again.Open() || again.Used != 5 {
			t.Errorf("after closing 36 h in: %+v (%v), want version 2, closed, 3+2 days used", again, err)
		}
		open, err := storage.Read(t.Context(), db, storage.Tx.OpenVacations)
		if err != nil {
			t.Fatal(err)
		}
		if len(open) != 1 || open[0].GuildID != "g2" || open[0].UserID != "100" {
			t.Errorf("OpenVacations = %+v, want only the one in g2", open)
		}
		var all []string
		if err := db.View(t.Context(), func(tx storage.Tx) error {
			return tx.EachVacation(func(v *storage.Vacation) error { all = append(all, v.GuildID+"/"+v.UserID); return nil })
		}); err != nil {
			t.Fatal(err)
		}
		slices.Sort(all)
		if want := []string{"g1/100", "g1/1000", "g11/00", "g2/100"}; !reflect.DeepEqual(all, want) {
			t.Errorf("EachVacation = %v, want %v", all, want)
		}
	})
}

func testVacationRefusals(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		for _, c := range []struct {
			name string
			edit func(v *storage.Vacation)
		}{
			{"no guild", func(v *storage.Vacation) { v.GuildID = "" }},
			{"no user", func(v *storage.Vacation) { v.UserID = "" }},
			{"user id too long", func(v *storage.Vacation) { v.UserID = string(make([]byte, storage.MaxIDLen+1)) }},
			{"negative days", func(v *storage.Vacation) { v.Used = -1 }},
			{"too many days", func(v *storage.Vacation) { v.Used = storage.MaxVacationDays + 1 }},
			{"start without end", func(v *storage.Vacation) { v.Until = time.Time{} }},
			{"end before start", func(v *storage.Vacation) { v.Until = v.Start.Add(-time.Hour) }},
			{"longer than a year", func(v *storage.Vacation) { v.Until = v.Start.Add((storage.MaxVacationDays + 1) * storage.VacationDay) }},
			{"automatic without a vacation", func(v *storage.Vacation) { v.Start, v.Until, v.Automatic = time.Time{}, time.Time{}, true }},
		} {
			t.Run(c.name, func(t *testing.T) {
				v := sampleVacation("g1", "100")
				c.edit(v)
				if err := putVacation(t, db, v); err == nil {
					t.Fatalf("PutVacation of %+v succeeded, want an error", v)
				}
				if _, err := readVacation(t, db, "g1", "100"); !errors.Is(err, storage.ErrNotFound) {
					t.Errorf("a refused vacation was stored (%v)", err)
				}
			})
		}
		if err := putVacation(t, db, sampleVacation("g1", "100")); err != nil {
			t.Fatal(err)
		}
		stale := sampleVacation("g1", "100") // version 0, the stored one is 1
		if err := putVacation(t, db, stale); !errors.Is(err, storage.ErrConflict) {
			t.Errorf("a write from a stale version: %v, want ErrConflict", err)
		}
	})
}

// testVacationOneWriterPerVersion: processes closing one vacation from one read of it
// (the owner's timer, a takeover, /vacation end) land exactly one write: its days are
// counted once.
func testVacationOneWriterPerVersion(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		if err := putVacation(t, db, sampleVacation("g1", "100")); err != nil {
			t.Fatal(err)
		}
		read, err := readVacation(t, db, "g1", "100")
		if err != nil {
			t.Fatal(err)
		}
		const writers = 8
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for i := range writers {
			wg.Go(func() {
				v := read.Clone()
				v.Close(v.Start.Add(time.Duration(i+1) * time.Hour))
				errs[i] = putVacation(t, db, v)
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, storage.ErrConflict):
				t.Errorf("a racing writer failed with %v, want nil or ErrConflict", err)
			}
		}
		if won != 1 {
			t.Errorf("%d writers from one version landed, want exactly 1", won)
		}
		got, err := readVacation(t, db, "g1", "100")
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != read.Version+1 || got.Used != read.Used+1 {
			t.Errorf("after the race: version %d, %d days used; want %d and %d (one day counted once)", got.Version, got.Used, read.Version+1, read.Used+1)
		}
	})
}
