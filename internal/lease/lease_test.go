package lease

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// memTable is a Table in memory, with the rules a store's lease table keeps.
type memTable struct {
	mu     sync.Mutex
	leases map[int]Lease
	beats  map[string]time.Time
}

func newMemTable() *memTable {
	return &memTable{leases: map[int]Lease{}, beats: map[string]time.Time{}}
}

func (t *memTable) Leases() ([]Lease, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []Lease
	for _, l := range t.leases {
		out = append(out, l)
	}
	return out, nil
}

func (t *memTable) Acquire(p int, holder string, now time.Time, ttl time.Duration) (Lease, bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l, ok := t.leases[p]
	if ok && now.Before(l.Expires) && l.Holder != holder {
		return l, false, nil
	}
	if !ok || l.Holder != holder || !now.Before(l.Expires) {
		l.Epoch++
	}
	l.Partition, l.Holder, l.Expires = p, holder, now.Add(ttl)
	t.leases[p] = l
	return l, true, nil
}

func (t *memTable) Renew(p int, holder string, epoch uint64, now time.Time, ttl time.Duration) (Lease, bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l, ok := t.leases[p]
	if !ok || l.Holder != holder || l.Epoch != epoch || !now.Before(l.Expires) {
		return l, false, nil
	}
	l.Expires = now.Add(ttl)
	t.leases[p] = l
	return l, true, nil
}

func (t *memTable) Release(p int, holder string, epoch uint64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if l, ok := t.leases[p]; ok && l.Holder == holder && l.Epoch == epoch {
		l.Expires = time.Time{}
		t.leases[p] = l
	}
	return nil
}

func (t *memTable) Beat(holder string, now time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.beats[holder] = now
	return nil
}

func (t *memTable) Live(since time.Time) ([]string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for h, at := range t.beats {
		if at.After(since) {
			out = append(out, h)
		}
	}
	return out, nil
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// recorder counts a manager's gains and losses.
type recorder struct {
	gains  map[int][]uint64
	losses map[int]int
}

func newManager(t *testing.T, tab Table, instance string) (*Manager, *recorder) {
	t.Helper()
	r := &recorder{gains: map[int][]uint64{}, losses: map[int]int{}}
	return New(tab, Options{Instance: instance,
		OnGain: func(p int, epoch uint64) { r.gains[p] = append(r.gains[p], epoch) },
		OnLoss: func(p int) { r.losses[p]++ }}), r
}

// tickAll ticks each manager at now.
func tickAll(t *testing.T, now time.Time, ms ...*Manager) {
	t.Helper()
	for _, m := range ms {
		if err := m.Tick(now); err != nil {
			t.Fatal(err)
		}
	}
}

// checkDisjoint fails unless the managers' partitions are disjoint and number want in all.
func checkDisjoint(t *testing.T, want int, ms ...*Manager) {
	t.Helper()
	seen := map[int]bool{}
	for _, m := range ms {
		for _, p := range m.Held() {
			if seen[p] {
				t.Fatalf("partition %d held twice", p)
			}
			seen[p] = true
		}
	}
	if len(seen) != want {
		t.Fatalf("%d partitions held, want %d", len(seen), want)
	}
}

func TestTwoManagersShareFairly(t *testing.T) {
	tab := newMemTable()
	a, _ := newManager(t, tab, "a")
	b, _ := newManager(t, tab, "b")
	now := t0
	tickAll(t, now, a) // a alone takes everything
	if len(a.Held()) != DefaultPartitions {
		t.Fatalf("a alone holds %d partitions", len(a.Held()))
	}
	for range 3 {
		now = now.Add(a.Interval())
		tickAll(t, now, b, a)
		checkDisjoint(t, len(a.Held())+len(b.Held()), a, b)
	}
	if len(a.Held()) != 32 || len(b.Held()) != 32 {
		t.Fatalf("a holds %d, b %d; want 32 each", len(a.Held()), len(b.Held()))
	}
	checkDisjoint(t, DefaultPartitions, a, b)
}

func TestSurvivorTakesOverWithinTTL(t *testing.T) {
	tab := newMemTable()
	a, ra := newManager(t, tab, "a")
	b, rb := newManager(t, tab, "b")
	now := t0
	for range 4 {
		tickAll(t, now, a, b)
		now = now.Add(a.Interval())
	}
	checkDisjoint(t, DefaultPartitions, a, b)
	before := map[int]uint64{}
	gainsBefore := map[int]int{}
	for p, e := range ra.gains {
		gainsBefore[p] = len(e)
	}
	leases, _ := tab.Leases()
	for _, l := range leases {
		before[l.Partition] = l.Epoch
	}
	bHeld := b.Held()
	stopped := now.Add(-a.Interval()) // b's last renewal
	// b stops renewing; a keeps ticking every third of the TTL.
	deadline := stopped.Add(DefaultTTL)
	for ; !now.After(deadline) && len(a.Held()) < DefaultPartitions; now = now.Add(a.Interval()) {
		tickAll(t, now, a)
	}
	if len(a.Held()) != DefaultPartitions {
		t.Fatalf("a holds %d partitions %v after b's leases expired, want all", len(a.Held()), now.Sub(stopped))
	}
	for _, p := range bHeld {
		epochs := ra.gains[p][gainsBefore[p]:]
		if len(epochs) != 1 || epochs[0] <= before[p] {
			t.Errorf("partition %d: a gained it with epochs %v, b held it at epoch %d; want one gain at a greater epoch", p, epochs, before[p])
		}
	}
	// b comes back: its renewals fail, it reports the losses and holds nothing it lost.
	tickAll(t, now, b)
	for _, p := range bHeld {
		if rb.losses[p] != 1 {
			t.Errorf("partition %d: b reported %d losses, want 1", p, rb.losses[p])
		}
	}
	checkDisjoint(t, DefaultPartitions, a, b)
}

func TestCloseHandsOver(t *testing.T) {
	tab := newMemTable()
	a, _ := newManager(t, tab, "a")
	b, _ := newManager(t, tab, "b")
	now := t0
	for range 3 {
		tickAll(t, now, a, b)
		now = now.Add(a.Interval())
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if len(a.Held()) != 0 {
		t.Fatalf("a holds %v after Close", a.Held())
	}
	tickAll(t, now, b)
	if len(b.Held()) != DefaultPartitions {
		t.Fatalf("b holds %d partitions at its first tick after a closed, want all", len(b.Held()))
	}
}

func TestPartition(t *testing.T) {
	counts := make([]int, DefaultPartitions)
	for i := range 6400 {
		id := fmt.Sprint(100000000000000000 + i*7919)
		p := Partition(id, DefaultPartitions)
		if p < 0 || p >= DefaultPartitions || p != Partition(id, DefaultPartitions) {
			t.Fatalf("partition of %s: %d", id, p)
		}
		counts[p]++
	}
	for p, n := range counts {
		if n == 0 {
			t.Errorf("partition %d never used by 6400 ids", p)
		}
	}
}
