// Package timers is a scheduler of deadlines: a binary heap under one lock, with one
// goroutine (Run) waiting on one timer for the earliest, so that a game costs one heap
// entry, not a goroutine or a ticker. Each service that keeps deadlines owns one: the
// game service (flag falls, correspondence deadlines, reminders, abort timers,
// challenge expiries, housekeeping), the tournament service (arena ends) and the puzzle
// service (daily posts).
//
// The scheduler knows nothing of games: an entry is a Key (a kind and an id) and an
// instant. The owner rebuilds the entries from storage at start-up and keeps them up to
// date after each change (Set moves an entry, Cancel drops it). Run fires entries as
// their deadline passes; PopDue hands over the due entries at a given instant, so tests
// drive the scheduler with a fake clock and never sleep.
package timers

import (
	"container/heap"
	"context"
	"sync"
	"time"
)

// Kind says what a deadline is for; the owner gives kinds their meaning.
type Kind uint8

// Key names one deadline: at most one entry per key.
type Key struct {
	Kind Kind
	ID   uint64
}

// Entry is a deadline.
type Entry struct {
	Key Key
	At  time.Time
}

// Clock tells the time. Production uses SystemClock; tests use a ManualClock.
type Clock interface{ Now() time.Time }

// SystemClock is the real clock.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// ManualClock is a clock that moves only when told to, for tests. Its zero value reads
// the zero time; it is safe for concurrent use.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a manual clock reading t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{now: t} }

// Now returns the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set sets the clock to t.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// Advance moves the clock forward by d and returns the new time.
func (c *ManualClock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}

// item is a heap entry; at is unix nanoseconds to keep entries small.
type item struct {
	at    int64
	key   Key
	index int
}

type itemHeap []*item

func (h itemHeap) Len() int { return len(h) }
func (h itemHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	if h[i].key.Kind != h[j].key.Kind { // a stable order for equal deadlines
		return h[i].key.Kind < h[j].key.Kind
	}
	return h[i].key.ID < h[j].key.ID
}
func (h itemHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *itemHeap) Push(x any) {
	it := x.(*item)
	it.index = len(*h)
	*h = append(*h, it)
}
func (h *itemHeap) Pop() any {
	old := *h
	n := len(old)
	it := old[n-1]
	old[n-1] = nil
	*h = old[:n-1]
	it.index = -1
	return it
}

// Scheduler is a set of deadlines. Its methods are safe for concurrent use.
type Scheduler struct {
	mu    sync.Mutex
	heap  itemHeap
	byKey map[Key]*item
	wake  chan struct{}
}

// New returns an empty scheduler.
func New() *Scheduler {
	return &Scheduler{byKey: make(map[Key]*item), wake: make(chan struct{}, 1)}
}

func nanos(t time.Time) int64 { return t.UnixNano() }

// Set schedules key at the instant at, replacing any deadline the key had. An instant
// already past fires at the next chance.
func (s *Scheduler) Set(key Key, at time.Time) {
	ns := nanos(at)
	s.mu.Lock()
	if it, ok := s.byKey[key]; ok {
		it.at = ns
		heap.Fix(&s.heap, it.index)
	} else {
		it = &item{at: ns, key: key}
		heap.Push(&s.heap, it)
		s.byKey[key] = it
	}
	first := s.heap[0].key == key
	s.mu.Unlock()
	if first {
		s.poke()
	}
}

// Cancel drops key's deadline and reports whether it had one.
func (s *Scheduler) Cancel(key Key) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.byKey[key]
	if !ok {
		return false
	}
	heap.Remove(&s.heap, it.index)
	delete(s.byKey, key)
	return true
}

// Deadline returns key's deadline, if it has one.
func (s *Scheduler) Deadline(key Key) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.byKey[key]
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(0, it.at), true
}

// Len returns the number of deadlines.
func (s *Scheduler) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.heap)
}

// Next returns the earliest deadline, if there is one.
func (s *Scheduler) Next() (Entry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.heap) == 0 {
		return Entry{}, false
	}
	it := s.heap[0]
	return Entry{Key: it.key, At: time.Unix(0, it.at)}, true
}

// PopDue removes every deadline at or before now and appends them to buf, earliest
// first.
func (s *Scheduler) PopDue(now time.Time, buf []Entry) []Entry {
	ns := nanos(now)
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.heap) > 0 && s.heap[0].at <= ns {
		it := heap.Pop(&s.heap).(*item)
		delete(s.byKey, it.key)
		buf = append(buf, Entry{Key: it.key, At: time.Unix(0, it.at)})
	}
	return buf
}

// poke wakes Run to look at the head again.
func (s *Scheduler) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// idleWait is how long Run sleeps when there is no deadline (a Set wakes it sooner).
const idleWait = time.Hour

// Run fires deadlines as they pass, reading the time from clock, until ctx is done;
// it returns ctx.Err(). fire is called on Run's goroutine, earliest first, without the
// scheduler's lock (it may Set and Cancel); it should hand slow work to another
// goroutine, since later deadlines wait for it. Only one Run may be active.
func (s *Scheduler) Run(ctx context.Context, clock Clock, fire func(Entry)) error {
	timer := time.NewTimer(idleWait)
	defer timer.Stop()
	var due []Entry
	for {
		wait := idleWait
		if next, ok := s.Next(); ok {
			wait = next.At.Sub(clock.Now())
		}
		if wait > 0 {
			timer.Reset(wait)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-s.wake:
				continue
			case <-timer.C:
			}
		} else if ctx.Err() != nil {
			return ctx.Err()
		}
		due = s.PopDue(clock.Now(), due[:0])
		for _, e := range due {
			fire(e)
		}
	}
}
