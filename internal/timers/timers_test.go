package timers

import (
	"context"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestSetCancelPopDue(t *testing.T) {
	s := New()
	k := func(id uint64) Key { return Key{Kind: 1, ID: id} }
	s.Set(k(1), t0.Add(3*time.Second))
	s.Set(k(2), t0.Add(1*time.Second))
	s.Set(k(3), t0.Add(2*time.Second))
	s.Set(k(1), t0.Add(500*time.Millisecond)) // moved earlier
	if !s.Cancel(k(3)) || s.Cancel(k(3)) {
		t.Fatal("Cancel should report the entry once")
	}
	if n, ok := s.Next(); !ok || n.Key != k(1) {
		t.Fatalf("Next = %v, %v", n, ok)
	}
	if at, ok := s.Deadline(k(2)); !ok || !at.Equal(t0.Add(time.Second)) {
		t.Errorf("Deadline(2) = %v, %v", at, ok)
	}
	if due := s.PopDue(t0.Add(499*time.Millisecond), nil); len(due) != 0 {
		t.Fatalf("due before any deadline: %v", due)
	}
	due := s.PopDue(t0.Add(time.Second), nil) // a deadline exactly now is due
	if len(due) != 2 || due[0].Key != k(1) || due[1].Key != k(2) {
		t.Fatalf("due = %v", due)
	}
	if s.Len() != 0 {
		t.Errorf("Len = %d after popping all", s.Len())
	}
}

// TestMatchesModel checks the heap against a sorted map under random operations.
func TestMatchesModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s := New()
	model := map[Key]time.Time{}
	now := t0
	for step := range 20000 {
		key := Key{Kind: Kind(r.IntN(3)), ID: uint64(r.IntN(200))}
		switch r.IntN(4) {
		case 0, 1:
			at := now.Add(time.Duration(r.IntN(10000)) * time.Millisecond)
			s.Set(key, at)
			model[key] = at
		case 2:
			_, had := model[key]
			if s.Cancel(key) != had {
				t.Fatalf("step %d: Cancel(%v) disagrees with the model", step, key)
			}
			delete(model, key)
		case 3:
			now = now.Add(time.Duration(r.IntN(500)) * time.Millisecond)
			due := s.PopDue(now, nil)
			var want []Entry
			for k, at := range model {
				if !at.After(now) {
					want = append(want, Entry{k, at})
					delete(model, k)
				}
			}
			if len(due) != len(want) {
				t.Fatalf("step %d: %d due, model has %d", step, len(due), len(want))
			}
			if !sort.SliceIsSorted(due, func(i, j int) bool { return due[i].At.Before(due[j].At) }) {
				t.Fatalf("step %d: due entries out of order", step)
			}
			for _, e := range due {
				if w, ok := findEntry(want, e.Key); !ok || !w.Equal(e.At) {
					t.Fatalf("step %d: popped %v, not due in the model", step, e)
				}
			}
		}
		if s.Len() != len(model) {
			t.Fatalf("step %d: Len %d, model %d", step, s.Len(), len(model))
		}
	}
}

func findEntry(es []Entry, k Key) (time.Time, bool) {
	for _, e := range es {
		if e.Key == k {
			return e.At, true
		}
	}
	return time.Time{}, false
}

func TestRunFiresInOrderAndWakesForEarlierDeadlines(t *testing.T) {
	s := New()
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var fired []uint64
	done := make(chan struct{})
	go func() {
		s.Run(ctx, SystemClock{}, func(e Entry) {
			mu.Lock()
			fired = append(fired, e.Key.ID)
			n := len(fired)
			mu.Unlock()
			if n == 3 {
				close(done)
			}
		})
	}()
	now := time.Now()
	s.Set(Key{ID: 3}, now.Add(time.Hour)) // Run sleeps on this one...
	time.Sleep(5 * time.Millisecond)
	s.Set(Key{ID: 2}, now.Add(30*time.Millisecond)) // ...and must wake for these
	s.Set(Key{ID: 1}, now.Add(10*time.Millisecond))
	s.Set(Key{ID: 3}, now.Add(50*time.Millisecond))
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("deadlines did not fire")
	}
	cancel()
	mu.Lock()
	defer mu.Unlock()
	if len(fired) != 3 || fired[0] != 1 || fired[1] != 2 || fired[2] != 3 {
		t.Errorf("fired %v, want [1 2 3]", fired)
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	s := New()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error)
	go func() { errc <- s.Run(ctx, SystemClock{}, func(Entry) {}) }()
	cancel()
	select {
	case err := <-errc:
		if err != context.Canceled {
			t.Errorf("Run returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop")
	}
}

func TestManualClock(t *testing.T) {
	c := NewManualClock(t0)
	if got := c.Advance(time.Minute); !got.Equal(t0.Add(time.Minute)) || !c.Now().Equal(got) {
		t.Errorf("Advance = %v", got)
	}
	c.Set(t0)
	if !c.Now().Equal(t0) {
		t.Errorf("Set: %v", c.Now())
	}
}

func BenchmarkSetPop(b *testing.B) {
	s := New()
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 10000 {
		s.Set(Key{ID: uint64(i)}, t0.Add(time.Duration(r.IntN(1e9))))
	}
	b.ResetTimer()
	var buf []Entry
	for i := 0; b.Loop(); i++ {
		s.Set(Key{ID: uint64(i % 10000)}, t0.Add(time.Duration(r.IntN(1e9))))
		buf = s.PopDue(t0, buf[:0])
	}
}

// BenchmarkRunLateness fires 10,000 deadlines spread over three seconds with a trivial
// handler and reports the 99th percentile of how late Run fired them (p99-late-ms): the
// scheduler's own precision, without any work behind it.
func BenchmarkRunLateness(b *testing.B) {
	const n = 10000
	for b.Loop() {
		s := New()
		start := time.Now().Add(100 * time.Millisecond)
		for i := range n {
			s.Set(Key{ID: uint64(i)}, start.Add(time.Duration(i)*3*time.Second/n))
		}
		late := make([]time.Duration, 0, n)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			s.Run(ctx, SystemClock{}, func(e Entry) {
				late = append(late, time.Since(e.At))
				if len(late) == n {
					close(done)
				}
			})
		}()
		<-done
		cancel()
		sort.Slice(late, func(i, j int) bool { return late[i] < late[j] })
		b.ReportMetric(float64(late[n*99/100])/float64(time.Millisecond), "p99-late-ms")
	}
}
