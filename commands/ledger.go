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

// Post names one message about a game or challenge: the event it shows ("turn",
// "over", "started", "draw-offer", "declined", ...) at a ply.
type Post struct {
	Kind  string // "game" or "challenge"
	ID    uint64
	Ply   int
	Event string
}

// PostLedger records the posts interactions' answers stand for. Entries are dropped
// when the notifier consumes them, when the handler releases them, or after a minute.
// The nil ledger records nothing.
type PostLedger struct {
	mu    sync.Mutex
	posts map[Post]time.Time
	now   func() time.Time
}

// reservationTTL bounds how long an unconsumed reservation lives (the event comes
// within milliseconds of the commit).
const reservationTTL = time.Minute

// NewPostLedger returns an empty ledger reading the time from now (nil: time.Now).
func NewPostLedger(now func() time.Time) *PostLedger {
	if now == nil {
		now = time.Now
	}
	return &PostLedger{posts: map[Post]time.Time{}, now: now}
}

// Reserve records that an answer stands for the posts, and returns a function that
// gives back those the notifier has not consumed yet (call it when the request failed).
func (l *PostLedger) Reserve(posts ...Post) (release func()) {
	if l == nil {
		return func() {}
	}
	l.mu.Lock()
	now := l.now()
	if len(l.posts) > 1024 {
		for p, at := range l.posts {
			if now.Sub(at) > reservationTTL {
				delete(l.posts, p)
			}
		}
	}
	for _, p := range posts {
		l.posts[p] = now
	}
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		for _, p := range posts {
			delete(l.posts, p)
		}
		l.mu.Unlock()
	}
}

// Consume reports whether an answer stands for the post, consuming the reservation.
func (l *PostLedger) Consume(p Post) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	at, ok := l.posts[p]
	if !ok {
		return false
	}
	delete(l.posts, p)
	return l.now().Sub(at) <= reservationTTL
}

// GamePost names a post about a game.
func GamePost(gameID uint64, ply int, event string) Post {
	return Post{Kind: "game", ID: gameID, Ply: ply, Event: event}
}

// ChallengePost names a post about a challenge.
func ChallengePost(challengeID uint64, event string) Post {
	return Post{Kind: "challenge", ID: challengeID, Event: event}
}
