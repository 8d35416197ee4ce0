package commands

import (
	"sync"
	"time"
)

// ledger.go: who posts what. The game service reports every change to the notifier
// (package bot), including the changes an interaction made; the interaction's own
// answer already shows them when it is posted where the game lives. So a handler
// reserves in the post ledger the posts its answer will stand for before it acts, and
// the notifier posts only what nobody reserved: exactly one message per event,
// whichever way it came.
//
// A reservation belongs to the request that made it. A handler reserves only once the
// request is authorised (the asker may make this change at this ply: see play and act),
// so a request that cannot succeed never hides another's post; and a request that
// fails gives back its own reservation only, never one a concurrent request (a double
// click, the other player, the engine) still stands behind.

// Post names one message about a game or challenge: the event it shows ("turn",
// "over", "started", "draw-offer", "declined", ...) at a ply.
type Post struct {
	Kind  string // "game" or "challenge"
	ID    uint64
	Ply   int
	Event string
}

// PostLedger records the posts interactions' answers stand for. Entries are dropped
// when the notifier consumes them, when the request that made them releases them, or
// after a minute. The nil ledger records nothing.
type PostLedger struct {
	mu sync.Mutex
	// posts holds, for each post, the reservations of the requests standing for it.
	posts map[Post][]*reservation
	now   func() time.Time
}

// reservation is one request's claim on its posts; its address tells it from another
// request's claim on the same post.
type reservation struct{ at time.Time }

// reservationTTL bounds how long an unconsumed reservation lives (the event comes
// within milliseconds of the commit).
const reservationTTL = time.Minute

// sweepAbove is the number of reserved posts above which Reserve drops expired ones.
const sweepAbove = 1024

// NewPostLedger returns an empty ledger reading the time from now (nil: time.Now).
func NewPostLedger(now func() time.Time) *PostLedger {
	if now == nil {
		now = time.Now
	}
	return &PostLedger{posts: map[Post][]*reservation{}, now: now}
}

// Reserve records that one request's answer stands for the posts, and returns the
// function that gives back this request's reservations the notifier has not consumed
// yet (call it when the request failed). Call Reserve only for a request that is
// authorised to make the change the posts show.
func (l *PostLedger) Reserve(posts ...Post) (release func()) {
	if l == nil {
		return func() {}
	}
	l.mu.Lock()
	now := l.now()
	if len(l.posts) > sweepAbove {
		l.sweepLocked(now)
	}
	res := &reservation{at: now}
	for _, p := range posts {
		l.posts[p] = append(l.posts[p], res)
	}
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		for _, p := range posts {
			l.dropLocked(p, res)
		}
	}
}

// dropLocked removes res from the reservations of p.
func (l *PostLedger) dropLocked(p Post, res *reservation) {
	rs := l.posts[p]
	for i, r := range rs {
		if r == res {
			rs = append(rs[:i:i], rs[i+1:]...)
			break
		}
	}
	if len(rs) == 0 {
		delete(l.posts, p)
		return
	}
	l.posts[p] = rs
}

// sweepLocked drops the expired reservations.
func (l *PostLedger) sweepLocked(now time.Time) {
	for p, rs := range l.posts {
		live := rs[:0:0]
		for _, r := range rs {
			if now.Sub(r.at) <= reservationTTL {
				live = append(live, r)
			}
		}
		if len(live) == 0 {
			delete(l.posts, p)
		} else {
			l.posts[p] = live
		}
	}
}

// Consume reports whether an answer stands for the post, consuming every reservation
// of it: the event happened once, and whichever request made it answers with it (the
// others fail, at a ply that is gone).
func (l *PostLedger) Consume(p Post) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	rs, ok := l.posts[p]
	if !ok {
		return false
	}
	delete(l.posts, p)
	now := l.now()
	for _, r := range rs {
		if now.Sub(r.at) <= reservationTTL {
			return true
		}
	}
	return false
}

// GamePost names a post about a game.
func GamePost(gameID uint64, ply int, event string) Post {
	return Post{Kind: "game", ID: gameID, Ply: ply, Event: event}
}

// ChallengePost names a post about a challenge.
func ChallengePost(challengeID uint64, event string) Post {
	return Post{Kind: "challenge", ID: challengeID, Event: event}
}
