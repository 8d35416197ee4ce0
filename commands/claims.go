package commands

import (
	"sync"
	"time"
)

// claims.go: who posts what. The game service reports every change to the notifier
// (package bot), including the changes an interaction made; the interaction's own
// answer already shows them when it is posted where the game lives. So a handler
// claims the posts its answer will stand for before it acts, and the notifier posts
// only what nobody claimed: exactly one message per event, whichever way it came.

// Post names one message about a game or challenge: the event it shows ("turn",
// "over", "started", "draw-offer", "declined", ...) at a ply.
type Post struct {
	Kind  string // "game" or "challenge"
	ID    uint64
	Ply   int
	Event string
}

// Claims records the posts interactions have taken on. Entries are dropped when the
// notifier consumes them, when the handler releases them, or after a minute.
type Claims struct {
	mu    sync.Mutex
	posts map[Post]time.Time
	now   func() time.Time
}

// claimTTL bounds how long an unconsumed claim lives (the event comes within
// milliseconds of the commit).
const claimTTL = time.Minute

// NewClaims returns an empty set of claims.
func NewClaims(now func() time.Time) *Claims {
	if now == nil {
		now = time.Now
	}
	return &Claims{posts: map[Post]time.Time{}, now: now}
}

// Claim takes on the posts and returns a function that gives back those the
// notifier has not consumed yet (call it when the request failed).
func (c *Claims) Claim(posts ...Post) (release func()) {
	if c == nil {
		return func() {}
	}
	c.mu.Lock()
	now := c.now()
	if len(c.posts) > 1024 {
		for p, at := range c.posts {
			if now.Sub(at) > claimTTL {
				delete(c.posts, p)
			}
		}
	}
	for _, p := range posts {
		c.posts[p] = now
	}
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		for _, p := range posts {
			delete(c.posts, p)
		}
		c.mu.Unlock()
	}
}

// Take reports whether an interaction claimed the post, consuming the claim.
func (c *Claims) Take(p Post) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	at, ok := c.posts[p]
	if !ok {
		return false
	}
	delete(c.posts, p)
	return c.now().Sub(at) <= claimTTL
}

// GamePost names a post about a game.
func GamePost(gameID uint64, ply int, event string) Post {
	return Post{Kind: "game", ID: gameID, Ply: ply, Event: event}
}

// ChallengePost names a post about a challenge.
func ChallengePost(challengeID uint64, event string) Post {
	return Post{Kind: "challenge", ID: challengeID, Event: event}
}
