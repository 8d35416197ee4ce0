package commands

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestPostLedgerReleaseIsPerRequest: a request that fails gives back its own
// reservation, not the one a concurrent request on the same post stands behind (a
// double click: the second click fails and must not make the first click's board be
// posted twice).
func TestPostLedgerReleaseIsPerRequest(t *testing.T) {
	now := time.Unix(1000, 0)
	l := NewPostLedger(func() time.Time { return now })
	p := GamePost(1, 5, EventTurn)
	l.Reserve(p)           // the first click, whose move goes through
	second := l.Reserve(p) // the second click, refused as stale
	second()
	if !l.Consume(p) {
		t.Fatal("the failed second request gave back the first one's reservation: the board would be posted twice")
	}
	if l.Consume(p) {
		t.Error("a post consumed twice")
	}
	// Both reserved, the event consumes the post for both: the one that fails later
	// leaves nothing behind to hide the same post after a takeback.
	first, third := l.Reserve(p), l.Reserve(p)
	if !l.Consume(p) {
		t.Fatal("not consumed")
	}
	first()
	third()
	if l.Consume(p) {
		t.Error("a reservation outlived its event")
	}
}

// TestPostLedgerSweep: expired reservations are dropped once the ledger is large.
func TestPostLedgerSweep(t *testing.T) {
	now := time.Unix(1000, 0)
	l := NewPostLedger(func() time.Time { return now })
	for i := 0; i <= sweepAbove; i++ {
		l.Reserve(GamePost(uint64(i), 1, EventTurn))
	}
	now = now.Add(2 * reservationTTL)
	keep := GamePost(1e6, 1, EventTurn)
	l.Reserve(keep)
	l.mu.Lock()
	n := len(l.posts)
	l.mu.Unlock()
	if n != 1 || !l.Consume(keep) {
		t.Errorf("%d posts after the sweep", n)
	}
}

// countingClock is a ledger clock that counts its readings: the ledger reads it once
// per Reserve, and in Consume only when the post is reserved.
type countingClock struct{ n atomic.Int64 }

func (c *countingClock) now() time.Time { c.n.Add(1); return time.Unix(1000, 0) }

// TestMoveReservesOnlyWhenAuthorised: a /move typed in a game's thread by a spectator,
// or by the player whose turn it is not, reserves nothing (the reservation would stand
// for the board the opponent's or the engine's move brings, and hide it with its ping);
// the player to move reserves.
func TestMoveReservesOnlyWhenAuthorised(t *testing.T) {
	ctx := context.Background()
	d := visibilityDeps(t, true) // black (bob) to move; the thread is t1
	clk := &countingClock{}
	d.Ledger = NewPostLedger(clk.now)
	c := NewMove(d)
	for _, a := range []asker{
		{"a spectator in the thread", "u3", "g1", "t1", false},
		{"White, out of turn, in the thread", alice.ID, "g1", "t1", false},
	} {
		if _, err := c.Handle(ctx, a.request("move", nil, strOpt("move", "Nf6"))); err == nil {
			t.Fatalf("%s moved", a.name)
		}
		if n := clk.n.Load(); n != 0 {
			t.Errorf("/move by %s reserved posts (%d clock readings)", a.name, n)
		}
	}
	if _, err := c.Handle(ctx, asker{"Black", bob.ID, "g1", "t1", true}.request("move", nil, strOpt("move", "Nf6"))); err != nil {
		t.Fatal(err)
	}
	if clk.n.Load() == 0 {
		t.Error("the player to move reserved nothing: the board would be posted twice")
	}
}

// TestSpectatorDoesNotCancelPlayersReservation: while the player's move is in flight
// (its posts reserved), a spectator's refused /move in the thread leaves the
// reservation in place.
func TestSpectatorDoesNotCancelPlayersReservation(t *testing.T) {
	ctx := context.Background()
	d := visibilityDeps(t, true)
	d.Ledger = NewPostLedger(nil)
	g, err := d.Games.Game(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	posts := []Post{GamePost(1, g.Ply()+1, EventTurn), GamePost(1, g.Ply()+1, EventOver), GamePost(1, g.Ply()+1, EventDraw)}
	d.Ledger.Reserve(posts...) // bob's move, on its way through the service
	spectator := asker{"a spectator in the thread", "u3", "g1", "t1", false}
	if _, err := NewMove(d).Handle(ctx, spectator.request("move", nil, strOpt("move", "Nf6"))); err == nil {
		t.Fatal("the spectator moved")
	}
	if _, err := NewResign(d).Handle(ctx, spectator.request("resign", nil)); err != nil {
		t.Fatal(err) // a confirmation question, which reserves nothing
	}
	if !d.Ledger.Consume(posts[0]) {
		t.Error("the spectator's refused /move took away the player's reservation: the board would be posted twice")
	}
}

// TestActReservesOnlyForPlayers: a spectator's /draw accept typed in the thread,
// refused by the service, reserves nothing (it would hide the game-over post of a game
// ending meanwhile: a flag fall, a resignation from elsewhere).
func TestActReservesOnlyForPlayers(t *testing.T) {
	ctx := context.Background()
	d := visibilityDeps(t, true)
	clk := &countingClock{}
	d.Ledger = NewPostLedger(clk.now)
	r := asker{"a spectator in the thread", "u3", "g1", "t1", false}.request("draw", nil)
	r.Sub = "accept"
	if _, err := NewDraw(d).Handle(ctx, r); err == nil {
		t.Fatal("the spectator accepted a draw")
	}
	if n := clk.n.Load(); n != 0 {
		t.Errorf("a spectator's refused /draw accept reserved posts (%d clock readings)", n)
	}
}
