// notifyqueue.go: the notifier's queues, one per channel, so that a channel that is slow
// to post to (rate limited, or Discord slow to answer) delays only its own posts.

package bot

import (
	"context"
	"sync"
	"time"

	"github.com/gambitchess/gambit/service/games"
)

// Bounds of the notifier's queues.
const (
	// maxQueuedPerChannel is the most events one channel may have waiting. Beyond it the
	// channel is hopelessly behind (Discord lets a channel have about one post a second):
	// a new event for it is dropped, with an error in the log and in
	// gambit_notifications_dropped_total, rather than let one channel hold up the others.
	maxQueuedPerChannel = 256
	// maxQueuedTotal is the most events waiting in all channels together. When it is
	// reached, Notify waits for room (back-pressure on the game service's event queue,
	// which never holds up a game): memory stays bounded when everything is slow.
	maxQueuedTotal = 4096
)

// postQueues deliver events in order within a channel and in parallel across channels:
// each channel with events waiting has one goroutine draining its queue, which ends
// when the queue is empty. The total of events waiting is bounded.
type postQueues struct {
	deliver func(ctx context.Context, e games.Event)
	// dropped is told of an event refused because its channel's queue is full.
	dropped func(key string, e games.Event)

	ctx    context.Context // the drainers'; cancelled by close after its grace
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	changed  *sync.Cond // broadcast when an event leaves a queue or a drainer ends
	queues   map[string]*channelQueue
	total    int // events waiting or being delivered
	maxKey   int
	maxTotal int
	closed   bool
}

// channelQueue is one channel's waiting events.
type channelQueue struct {
	events []games.Event
}

func newPostQueues(deliver func(context.Context, games.Event), dropped func(string, games.Event)) *postQueues {
	ctx, cancel := context.WithCancel(context.Background())
	q := &postQueues{deliver: deliver, dropped: dropped, ctx: ctx, cancel: cancel,
		queues: map[string]*channelQueue{}, maxKey: maxQueuedPerChannel, maxTotal: maxQueuedTotal}
	q.changed = sync.NewCond(&q.mu)
	return q
}

// push queues e behind the other events of its channel (key). It waits while the total
// is at its bound; it drops e (telling dropped) when the channel's own queue is full.
// After close it delivers e itself, at once.
func (q *postQueues) push(key string, e games.Event) {
	q.mu.Lock()
	for q.total >= q.maxTotal && !q.closed {
		q.changed.Wait()
	}
	if q.closed {
		q.mu.Unlock()
		q.deliver(q.ctx, e)
		return
	}
	cq := q.queues[key]
	if cq != nil && len(cq.events) >= q.maxKey {
		q.mu.Unlock()
		q.dropped(key, e)
		return
	}
	q.total++
	if cq != nil {
		cq.events = append(cq.events, e)
		q.mu.Unlock()
		return
	}
	cq = &channelQueue{events: []games.Event{e}}
	q.queues[key] = cq
	q.wg.Add(1)
	q.mu.Unlock()
	go q.drain(key, cq)
}

// drain delivers a channel's events in order until its queue is empty.
func (q *postQueues) drain(key string, cq *channelQueue) {
	defer q.wg.Done()
	for {
		q.mu.Lock()
		if len(cq.events) == 0 {
			delete(q.queues, key)
			q.changed.Broadcast()
			q.mu.Unlock()
			return
		}
		e := cq.events[0]
		cq.events[0] = nil
		cq.events = cq.events[1:]
		q.mu.Unlock()

		q.deliver(q.ctx, e)

		q.mu.Lock()
		q.total--
		q.changed.Broadcast()
		q.mu.Unlock()
	}
}

// flush waits until every event pushed so far has been delivered, or ctx ends.
func (q *postQueues) flush(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		q.mu.Lock()
		q.changed.Broadcast()
		q.mu.Unlock()
	})
	defer stop()
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.total > 0 || len(q.queues) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		q.changed.Wait()
	}
	return nil
}

// close waits up to grace for the queues to empty, then cancels the posts still in
// flight and waits for the drainers. Events pushed later are delivered at once by their
// pusher. It returns the flush's error (nil when everything was delivered in time).
func (q *postQueues) close(grace time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := q.flush(ctx)
	q.mu.Lock()
	q.closed = true
	q.changed.Broadcast()
	q.mu.Unlock()
	q.cancel()
	q.wg.Wait()
	return err
}
