// reservations.go: reservations (ReserveEffect) on every backend: one holder at a
// time, expiry, renewal, and one winner among concurrent takers (two stores on one
// database as two processes).

package storagetest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
)

// take takes key's reservation for holder at now in its own transaction.
func take(t *testing.T, db storage.Store, key, holder string, now time.Time, ttl time.Duration) storage.Reservation {
	t.Helper()
	c, err := storage.Write(t.Context(), db, func(tx storage.Tx) (storage.Reservation, error) {
		return storage.ReserveEffect(tx, key, holder, now, ttl)
	})
	if err != nil {
		t.Fatalf("take %s for %s at %v: %v", key, holder, now, err)
	}
	return c
}

func testReservationHolderExpiryAndRenewal(t *testing.T, be Backend) {
	const ttl = 2 * time.Minute
	t0 := time.Date(2026, 3, 1, 9, 0, 10, 0, time.UTC)
	steps := []struct {
		name   string
		holder string
		at     time.Duration       // after t0
		want   storage.Reservation // Until as an offset from t0 in wantUntil
		until  time.Duration
	}{
		{"a takes a free reservation", "a", 0, storage.Reservation{Held: true, Holder: "a"}, ttl},
		{"b is refused while a holds it", "b", time.Minute, storage.Reservation{Holder: "a"}, ttl},
		{"a holds it still", "a", time.Minute, storage.Reservation{Held: true, Holder: "a"}, ttl},
		{"a renews it in the next window", "a", 110 * time.Second, storage.Reservation{Held: true, Holder: "a"}, 110*time.Second + ttl},
		{"b is refused until the renewal expires", "b", 110*time.Second + ttl - time.Nanosecond, storage.Reservation{Holder: "a"}, 110*time.Second + ttl},
		{"b takes it once expired", "b", 110*time.Second + ttl, storage.Reservation{Held: true, Holder: "b"}, 110*time.Second + 2*ttl},
		{"a is refused now", "a", 110*time.Second + ttl + time.Second, storage.Reservation{Holder: "b"}, 110*time.Second + 2*ttl},
		{"a takes it long after", "a", time.Hour, storage.Reservation{Held: true, Holder: "a"}, time.Hour + ttl},
	}
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		for _, s := range steps {
			got := take(t, db, "daily/g1/2026-03-01", s.holder, t0.Add(s.at), ttl)
			want := s.want
			want.Until = t0.Add(s.until)
			if got.Held != want.Held || got.Holder != want.Holder || !got.Until.Equal(want.Until) {
				t.Fatalf("%s: got %+v, want %+v", s.name, got, want)
			}
		}
		// Another key is free.
		if c := take(t, db, "daily/g1/2026-03-02", "b", t0, ttl); !c.Held {
			t.Fatalf("another key: %+v", c)
		}
	})
}

func testReservationRefusesBadArguments(t *testing.T, be Backend) {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		name, key, holder string
		ttl               time.Duration
		want              string
	}{
		{"no key", "", "a", time.Minute, "key"},
		{"long key", strings.Repeat("k", storage.MaxReservationKeyLen+1), "a", time.Minute, "key"},
		{"no holder", "k", "", time.Minute, "holder"},
		{"no lifetime", "k", "a", 0, "lifetime"},
	}
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		for _, c := range cases {
			_, err := storage.Write(t.Context(), db, func(tx storage.Tx) (storage.Reservation, error) {
				return storage.ReserveEffect(tx, c.key, c.holder, now, c.ttl)
			})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: err %v, want one about the %s", c.name, err, c.want)
			}
		}
	})
}

// Many takers at once, on two stores of one database (two processes) for PostgreSQL:
// exactly one holds the reservation.
func testReservationOneWinnerAmongConcurrentTakers(t *testing.T, be Backend) {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	eachBackend(t, be, func(t *testing.T, b backend) {
		stores := []storage.Store{b.open(t)}
		if b.multiProcess {
			stores = append(stores, b.open(t))
		}
		for round := range 5 {
			key := fmt.Sprint("race/", round)
			var wg sync.WaitGroup
			held := make([]bool, 8)
			errs := make([]error, len(held))
			for i := range held {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c, err := storage.Write(t.Context(), stores[i%len(stores)], func(tx storage.Tx) (storage.Reservation, error) {
						return storage.ReserveEffect(tx, key, fmt.Sprint("p", i), now, time.Minute)
					})
					held[i], errs[i] = c.Held, err
				}()
			}
			wg.Wait()
			n := 0
			for i := range held {
				if errs[i] != nil {
					t.Fatalf("taker %d: %v", i, errs[i])
				}
				if held[i] {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("round %d: %d takers hold the reservation, want 1", round, n)
			}
		}
	})
}
