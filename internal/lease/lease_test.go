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
	if !ok || l.Holder != holder || l.Epoch != epoch || l.Expires.IsZero() {
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

// fakeClock is a wall clock and a monotonic clock that advance together, by hand.
type fakeClock struct {
	mu   sync.Mutex
	wall time.Time
	mono time.Duration
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.wall, c.mono = c.wall.Add(d), c.mono+d
	c.mu.Unlock()
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wall
}

func (c *fakeClock) elapsed() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mono
}

// slowTable is a Table whose every call takes delay on the clock before the table
// decides (a slow or stuck store).
type slowTable struct {
	*memTable
	clk   *fakeClock
	delay time.Duration
}

func (t *slowTable) Acquire(p int, holder string, now time.Time, ttl time.Duration) (Lease, bool, error) {
	t.clk.advance(t.delay)
	return t.memTable.Acquire(p, holder, now, ttl)
}

func (t *slowTable) Renew(p int, holder string, epoch uint64, now time.Time, ttl time.Duration) (Lease, bool, error) {
	t.clk.advance(t.delay)
	return t.memTable.Renew(p, holder, epoch, now, ttl)
}

// ownedByBoth returns the partitions a and b both own now.
func ownedByBoth(a, b *Manager) []int {
	var both []int
	for p := range DefaultPartitions {
		if a.Owns(p) && b.Owns(p) {
			both = append(both, p)
		}
	}
	return both
}

// TestPausedHolderStopsOwningBeforeTakeover: a holder paused past its lease (no tick,
// its monotonic clock running on) stops owning within TTL - Margin of its last
// renewal, before the survivor may take its partitions; at no instant do both own a
// partition. Before owning was bounded on the holder's side, the paused holder owned
// its 32 partitions until its next tick, while the survivor owned them too.
func TestPausedHolderStopsOwningBeforeTakeover(t *testing.T) {
	clk := &fakeClock{wall: t0}
	tab := newMemTable()
	opts := func(name string) Options { return Options{Instance: name, Monotonic: clk.elapsed} }
	a, b := New(tab, opts("a")), New(tab, opts("b"))
	for range 3 {
		tickAll(t, clk.now(), a, b)
		clk.advance(a.Interval())
	}
	if len(a.Held()) != 32 || len(b.Held()) != 32 {
		t.Fatalf("a holds %d, b %d; want 32 each", len(a.Held()), len(b.Held()))
	}
	tickAll(t, clk.now(), a, b)
	// a is paused from now on; b ticks every 100 ms.
	lastRenewal := clk.elapsed()
	for step := time.Duration(0); step < 2*DefaultTTL; step += 100 * time.Millisecond {
		clk.advance(100 * time.Millisecond)
		tickAll(t, clk.now(), b)
		if both := ownedByBoth(a, b); len(both) > 0 {
			t.Fatalf("%v after a's pause: partitions %v owned by both", clk.elapsed()-lastRenewal, both)
		}
		owned := 0
		for p := range DefaultPartitions {
			if a.Owns(p) {
				owned++
			}
		}
		if elapsed := clk.elapsed() - lastRenewal; elapsed >= DefaultTTL-DefaultMargin && owned > 0 {
			t.Fatalf("a paused %v still owns %d partitions", elapsed, owned)
		}
	}
	if len(b.Held()) != DefaultPartitions {
		t.Fatalf("b holds %d partitions after a's leases expired, want all", len(b.Held()))
	}
	// a resumes: its renewals are refused, it owns nothing.
	tickAll(t, clk.now(), a)
	if len(a.Held()) != 0 || len(ownedByBoth(a, b)) != 0 {
		t.Fatalf("a holds %v after it resumed", a.Held())
	}
}

// TestSlowStoreRenewalsStampedWhenSent: on a store that takes 200 ms per call, a tick
// renewing 64 partitions lasts 12.8 s, longer than a lease. Each renewal is stamped
// with the instant it is sent, not the tick's start, and the holder owns a partition
// no longer than the store keeps it minus the margin.
func TestSlowStoreRenewalsStampedWhenSent(t *testing.T) {
	clk := &fakeClock{wall: t0}
	tab := &slowTable{memTable: newMemTable(), clk: clk}
	a := New(tab, Options{Instance: "a", Monotonic: clk.elapsed})
	tickAll(t, clk.now(), a)
	if len(a.Held()) != DefaultPartitions {
		t.Fatalf("a holds %d partitions", len(a.Held()))
	}
	tab.delay = 200 * time.Millisecond
	for range 3 {
		clk.advance(a.Interval())
		tickAll(t, clk.now(), a)
	}
	if len(a.Held()) != DefaultPartitions {
		t.Fatalf("a holds %d partitions after slow ticks, want all (no renewal refused)", len(a.Held()))
	}
	leases, _ := tab.Leases()
	for _, l := range leases {
		until, ok := a.Until(l.Partition)
		if !ok {
			t.Fatalf("partition %d not held", l.Partition)
		}
		// The wall clock and the monotonic clock advance together from t0.
		ownedTo := t0.Add(until)
		if !ownedTo.Add(DefaultMargin).Equal(l.Expires) {
			t.Errorf("partition %d: owned to %v, stored to %v; want the stored end %v after", l.Partition,
				ownedTo.Sub(t0), l.Expires.Sub(t0), DefaultMargin)
		}
	}
	// The last renewal of the tick went out 12.6 s after the first: its lease ends that
	// much later.
	first, last := leases[0].Expires, leases[0].Expires
	for _, l := range leases {
		first, last = minTime(first, l.Expires), maxTime(last, l.Expires)
	}
	if got, want := last.Sub(first), 63*tab.delay; got != want {
		t.Errorf("the tick's renewals end %v apart, want %v (each stamped when sent)", got, want)
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// TestRenewalAfterAnOutageKeepsTheLease: a lone holder whose renewals fail for longer
// than a lease (the store unreachable) stops owning when its time is up, keeps the
// partitions held, and owns them again at the same epochs at the first renewal that
// gets through, without a loss or a gain; OnResume reports each.
func TestRenewalAfterAnOutageKeepsTheLease(t *testing.T) {
	clk := &fakeClock{wall: t0}
	tab := &failingTable{memTable: newMemTable()}
	var gains, losses, resumes int
	a := New(tab, Options{Instance: "a", Monotonic: clk.elapsed,
		OnGain: func(int, uint64) { gains++ }, OnLoss: func(int) { losses++ }, OnResume: func(int) { resumes++ }})
	tickAll(t, clk.now(), a)
	epochs := map[int]uint64{}
	for _, l := range a.held {
		epochs[l.Partition] = l.Epoch
	}
	tab.failing = true
	for range 4 { // 12 s without a renewal
		clk.advance(a.Interval())
		if err := a.Tick(clk.now()); err == nil {
			t.Fatal("a tick on a failing store reported no error")
		}
	}
	if a.Owns(0) || len(a.Held()) != DefaultPartitions {
		t.Fatalf("after 12 s of failed renewals: owns %v, holds %d", a.Owns(0), len(a.Held()))
	}
	tab.failing = false
	clk.advance(a.Interval())
	tickAll(t, clk.now(), a)
	for p := range DefaultPartitions {
		if !a.Owns(p) || a.held[p].Epoch != epochs[p] {
			t.Fatalf("partition %d after the outage: owned %v, epoch %d; want owned at epoch %d", p, a.Owns(p), a.held[p].Epoch, epochs[p])
		}
	}
	if gains != DefaultPartitions || losses != 0 || resumes != DefaultPartitions {
		t.Errorf("gains %d, losses %d, resumes %d; want %d, 0, %d", gains, losses, resumes, DefaultPartitions, DefaultPartitions)
	}
}

// failingTable is a Table whose beats fail while failing is set (the store unreachable).
type failingTable struct {
	*memTable
	failing bool
}

func (t *failingTable) Beat(holder string, now time.Time) error {
	if t.failing {
		return fmt.Errorf("store unreachable")
	}
	return t.memTable.Beat(holder, now)
}
