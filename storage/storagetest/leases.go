// leases.go: the conformance suite's leases: the records, the instances' beats,
// LeaseTable's rules, one winner among racing takers, lease managers over the store.

package storagetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

// handles returns n handles on one backend's store, as n processes have: on
// PostgreSQL n pools on one database; the bbolt file admits one process, so its n
// handles are one store.
func handles(t *testing.T, b backend, n int) []storage.Store {
	t.Helper()
	out := make([]storage.Store, n)
	for i := range out {
		if !b.multiProcess && i > 0 {
			out[i] = out[0]
			continue
		}
		out[i] = b.open(t)
	}
	return out
}

func testLeaseRecords(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		if _, err := storage.Read(t.Context(), db, func(tx storage.Tx) (lease.Lease, error) { return tx.Lease("games", 3) }); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("a lease never taken: %v, want ErrNotFound", err)
		}
		put := []struct {
			set string
			l   lease.Lease
		}{
			{"games", lease.Lease{Partition: 63, Holder: "a", Expires: testrecords.T0.Add(time.Second), Epoch: 4}},
			{"games", lease.Lease{Partition: 0, Holder: "b", Epoch: 1}}, // released: zero expiry
			{"gamesx", lease.Lease{Partition: 1, Holder: "c", Expires: testrecords.T0, Epoch: 1 << 40}},
			{"shards", lease.Lease{Partition: 65535, Holder: "a", Expires: testrecords.T0, Epoch: 2}},
		}
		if err := db.Update(t.Context(), func(tx storage.Tx) error {
			for _, p := range put {
				if err := tx.PutLease(p.set, p.l); err != nil {
					return err
				}
			}
			return tx.PutLease("games", lease.Lease{Partition: 63, Holder: "b", Expires: testrecords.T0.Add(2 * time.Second), Epoch: 5})
		}); err != nil {
			t.Fatal(err)
		}
		games, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]lease.Lease, error) { return tx.Leases("games") })
		want := []lease.Lease{{Partition: 0, Holder: "b", Epoch: 1}, {Partition: 63, Holder: "b", Expires: testrecords.T0.Add(2 * time.Second), Epoch: 5}}
		if err != nil || fmt.Sprint(games) != fmt.Sprint(want) {
			t.Errorf("games leases %v, %v; want %v", games, err, want)
		}
		if !games[0].Expires.IsZero() {
			t.Errorf("a released lease reads back expiring at %v, want the zero instant", games[0].Expires)
		}
		l, err := storage.Read(t.Context(), db, func(tx storage.Tx) (lease.Lease, error) { return tx.Lease("gamesx", 1) })
		if err != nil || l != put[2].l {
			t.Errorf("gamesx/1 = %+v, %v; want %+v", l, err, put[2].l)
		}
		if l, err := storage.Read(t.Context(), db, func(tx storage.Tx) (lease.Lease, error) { return tx.Lease("shards", 65535) }); err != nil || l.Holder != "a" {
			t.Errorf("shards/65535 = %+v, %v", l, err)
		}

		bad := []struct {
			name string
			set  string
			l    lease.Lease
		}{
			{"no set", "", lease.Lease{Partition: 1, Holder: "a", Epoch: 1}},
			{"negative partition", "games", lease.Lease{Partition: -1, Holder: "a", Epoch: 1}},
			{"partition too large", "games", lease.Lease{Partition: storage.MaxLeasePartitions, Holder: "a", Epoch: 1}},
			{"no holder", "games", lease.Lease{Partition: 1, Epoch: 1}},
			{"epoch 0", "games", lease.Lease{Partition: 1, Holder: "a"}},
		}
		for _, c := range bad {
			if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutLease(c.set, c.l) }); err == nil {
				t.Errorf("%s: stored", c.name)
			}
		}

		if err := db.Update(t.Context(), func(tx storage.Tx) error {
			for _, b := range []struct {
				set, instance string
				at            time.Time
			}{{"games", "b", testrecords.T0}, {"games", "a", testrecords.T0.Add(time.Second)}, {"shards", "c", testrecords.T0}, {"games", "b", testrecords.T0.Add(3 * time.Second)}, {"games", "c", time.Time{}}} {
				if err := tx.PutLeaseBeat(b.set, b.instance, b.at); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		beats, err := storage.Read(t.Context(), db, func(tx storage.Tx) ([]storage.InstanceBeat, error) { return tx.LeaseBeats("games") })
		wantBeats := []storage.InstanceBeat{{Instance: "a", At: testrecords.T0.Add(time.Second)}, {Instance: "b", At: testrecords.T0.Add(3 * time.Second)}, {Instance: "c"}}
		if err != nil || fmt.Sprint(beats) != fmt.Sprint(wantBeats) {
			t.Errorf("games beats %v, %v; want %v", beats, err, wantBeats)
		}
		if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutLeaseBeat("games", "", testrecords.T0) }); err == nil {
			t.Error("a beat without an instance was stored")
		}
		testrecords.CheckStore(t, db)
	})
}

func testHeartbeatsListsEveryInstance(t *testing.T, be Backend) {
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		if hb, err := storage.Read(t.Context(), db, storage.Tx.Heartbeats); err != nil || len(hb) != 0 {
			t.Fatalf("a fresh store's heartbeats: %v, %v", hb, err)
		}
		db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutHeartbeat("web-2", testrecords.T0.Add(time.Hour)) })
		db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutHeartbeat("web-1", testrecords.T0) })
		db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutHeartbeat("play", testrecords.T0.Add(2*time.Hour)) })
		hb, err := storage.Read(t.Context(), db, storage.Tx.Heartbeats)
		want := []storage.InstanceBeat{{Instance: "play", At: testrecords.T0.Add(2 * time.Hour)}, {Instance: "web-1", At: testrecords.T0}, {Instance: "web-2", At: testrecords.T0.Add(time.Hour)}}
		if err != nil || fmt.Sprint(hb) != fmt.Sprint(want) {
			t.Errorf("heartbeats %v, %v; want %v", hb, err, want)
		}
	})
}

// testLeaseTableRules runs one lease set through takes, renewals and releases.
func testLeaseTableRules(t *testing.T, be Backend) {
	const ttl = 9 * time.Second
	type step struct {
		name    string
		op      string // acquire, renew, release
		holder  string
		epoch   uint64 // renew, release
		at      time.Duration
		ok      bool   // acquire, renew
		holds   string // the lease's holder afterwards
		epochIs uint64 // the lease's epoch afterwards
	}
	steps := []step{
		{"take a free partition", "acquire", "a", 0, 0, true, "a", 1},
		{"another cannot take a held one", "acquire", "b", 0, time.Second, false, "a", 1},
		{"the holder takes it again, same epoch", "acquire", "a", 0, 2 * time.Second, true, "a", 1},
		{"renew", "renew", "a", 1, 3 * time.Second, true, "a", 1},
		{"another cannot renew it", "renew", "b", 1, 4 * time.Second, false, "a", 1},
		{"a stale epoch does not renew", "renew", "a", 0, 4 * time.Second, false, "a", 1},
		{"still held just before expiry", "acquire", "b", 0, 3*time.Second + ttl - time.Nanosecond, false, "a", 1},
		{"an expired lease does not renew", "renew", "a", 1, 3*time.Second + ttl, false, "a", 1},
		{"another takes an expired one, next epoch", "acquire", "b", 0, 3*time.Second + ttl, true, "b", 2},
		{"the old holder's epoch no longer renews", "renew", "a", 1, 13 * time.Second, false, "b", 2},
		{"the old holder cannot release it", "release", "a", 1, 13 * time.Second, false, "b", 2},
		{"the holder releases it", "release", "b", 2, 14 * time.Second, false, "b", 2},
		{"a released lease does not renew", "renew", "b", 2, 14 * time.Second, false, "b", 2},
		{"a released lease is free: next epoch even for its holder", "acquire", "b", 0, 15 * time.Second, true, "b", 3},
		{"released, then taken by another", "release", "b", 3, 16 * time.Second, false, "b", 3},
		{"taken by another", "acquire", "a", 0, 16 * time.Second, true, "a", 4},
	}
	forEachBackend(t, be, func(t *testing.T, db storage.Store) {
		tab := storage.LeaseTable(db, storage.LeaseSetGames)
		for _, s := range steps {
			now := testrecords.T0.Add(s.at)
			var ok bool
			var err error
			switch s.op {
			case "acquire":
				_, ok, err = tab.Acquire(7, s.holder, now, ttl)
			case "renew":
				_, ok, err = tab.Renew(7, s.holder, s.epoch, now, ttl)
			case "release":
				err = tab.Release(7, s.holder, s.epoch)
			}
			if err != nil || ok != s.ok {
				t.Fatalf("%s: ok %v, %v; want %v", s.name, ok, err, s.ok)
			}
			l, err := storage.Read(t.Context(), db, func(tx storage.Tx) (lease.Lease, error) { return tx.Lease(storage.LeaseSetGames, 7) })
			if err != nil || l.Holder != s.holds || l.Epoch != s.epochIs {
				t.Fatalf("%s: stored %+v, %v; want holder %s epoch %d", s.name, l, err, s.holds, s.epochIs)
			}
		}
		// Another set is apart.
		if ls, err := storage.LeaseTable(db, storage.LeaseSetShards).Leases(); err != nil || len(ls) != 0 {
			t.Errorf("shards leases %v, %v; want none", ls, err)
		}
		if err := storage.LeaseTable(db, storage.LeaseSetShards).Beat("a", testrecords.T0); err != nil {
			t.Fatal(err)
		}
		if live, err := tab.Live(testrecords.T0.Add(-time.Second)); err != nil || len(live) != 0 {
			t.Errorf("games live %v, %v: a beat in shards counted", live, err)
		}
		if err := tab.Beat("a", testrecords.T0); err != nil {
			t.Fatal(err)
		}
		if err := tab.Beat("b", testrecords.T0.Add(-2*time.Second)); err != nil {
			t.Fatal(err)
		}
		if live, err := tab.Live(testrecords.T0.Add(-time.Second)); err != nil || fmt.Sprint(live) != "[a]" {
			t.Errorf("live %v, %v; want [a]", live, err)
		}
		testrecords.CheckStore(t, db)
	})
}

// testLeaseTableAcquireIsAtomic has processes race to take the same partitions at the
// same instant: each partition goes to exactly one of them.
func testLeaseTableAcquireIsAtomic(t *testing.T, be Backend) {
	const procs, parts = 4, 16
	eachBackend(t, be, func(t *testing.T, b backend) {
		stores := handles(t, b, procs)
		var mu sync.Mutex
		wins := map[int][]string{}
		var wg sync.WaitGroup
		for i, st := range stores {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tab := storage.LeaseTable(st, storage.LeaseSetGames)
				name := fmt.Sprintf("p%d", i)
				for p := range parts {
					l, ok, err := tab.Acquire(p, name, testrecords.T0, 9*time.Second)
					if err != nil {
						t.Errorf("%s acquire %d: %v", name, p, err)
						return
					}
					if ok {
						mu.Lock()
						wins[p] = append(wins[p], name+fmt.Sprint(l.Epoch))
						mu.Unlock()
					}
				}
			}()
		}
		wg.Wait()
		leases, err := storage.LeaseTable(stores[0], storage.LeaseSetGames).Leases()
		if err != nil || len(leases) != parts {
			t.Fatalf("%d leases, %v; want %d", len(leases), err, parts)
		}
		for _, l := range leases {
			if w := wins[l.Partition]; len(w) != 1 || w[0] != l.Holder+"1" {
				t.Errorf("partition %d: won by %v, stored %s at epoch %d; want one winner at epoch 1", l.Partition, w, l.Holder, l.Epoch)
			}
		}
	})
}

// testLeaseManagersOverTheStore runs the lease manager over the store: two processes
// share the partitions, the survivor of one that stops takes them all within the
// lease's lifetime at greater epochs, and a closed manager's share passes at once.
func testLeaseManagersOverTheStore(t *testing.T, be Backend) {
	eachBackend(t, be, func(t *testing.T, b backend) {
		stores := handles(t, b, 2)
		gains := map[string]int{}
		mk := func(name string, st storage.Store) *lease.Manager {
			return lease.New(storage.LeaseTable(st, storage.LeaseSetGames), lease.Options{Instance: name,
				OnGain: func(int, uint64) { gains[name]++ }})
		}
		a, c := mk("a", stores[0]), mk("c", stores[1])
		now := testrecords.T0
		tick := func(ms ...*lease.Manager) {
			for _, m := range ms {
				if err := m.Tick(now); err != nil {
					t.Fatal(err)
				}
			}
		}
		tick(a) // alone: a takes everything
		if n := len(a.Held()); n != lease.DefaultPartitions {
			t.Fatalf("a alone holds %d", n)
		}
		for range 3 {
			now = now.Add(a.Interval())
			tick(c, a)
		}
		if na, nc := len(a.Held()), len(c.Held()); na != 32 || nc != 32 {
			t.Fatalf("a holds %d, c %d; want 32 and 32", na, nc)
		}
		for _, p := range a.Held() {
			if c.Holds(p) {
				t.Fatalf("both hold %d", p)
			}
		}
		// a stops renewing (killed): within the lease's lifetime c holds everything.
		before, err := storage.LeaseTable(stores[1], storage.LeaseSetGames).Leases()
		if err != nil {
			t.Fatal(err)
		}
		deadline := now.Add(lease.DefaultTTL)
		for len(c.Held()) < lease.DefaultPartitions {
			now = now.Add(c.Interval())
			if now.After(deadline.Add(c.Interval())) {
				t.Fatalf("c holds %d partitions %v after a stopped", len(c.Held()), now.Sub(deadline))
			}
			tick(c)
		}
		after, err := storage.LeaseTable(stores[1], storage.LeaseSetGames).Leases()
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range after {
			if before[i].Holder == "a" && (l.Holder != "c" || l.Epoch <= before[i].Epoch) {
				t.Errorf("partition %d: %+v after a's %+v; want c at a greater epoch", l.Partition, l, before[i])
			}
		}
		// a comes back, shares, then closes: c takes its share at its next tick.
		a = mk("a", stores[0])
		for range 4 {
			now = now.Add(a.Interval())
			tick(a, c)
		}
		if na := len(a.Held()); na != 32 {
			t.Fatalf("a back holds %d, want 32", na)
		}
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Millisecond)
		tick(c)
		if n := len(c.Held()); n != lease.DefaultPartitions {
			t.Errorf("after a closed, c holds %d at its next tick; want all", n)
		}
		if live, err := storage.LeaseTable(stores[1], storage.LeaseSetGames).Live(now.Add(-lease.DefaultTTL)); err != nil || fmt.Sprint(live) != "[c]" {
			t.Errorf("live %v, %v; want [c]", live, err)
		}
		testrecords.CheckStore(t, stores[0])
	})
}
