package games

// rules_test.go: takebacks only where the game allows them (FIDE 4.7), draw offers made
// with one's move (9.1.2.1), and games ended before both sides moved (aborted, so never
// rated).

import (
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

// startWith starts a game between alice (white) and bob (black) with the given
// control, rating and no-show time (positive: a tournament game).
func (h *harness) startWith(control string, rated bool, noShow time.Duration) *Game {
	h.t.Helper()
	r, err := h.s.StartGame(ctx, StartRequest{RequestID: h.rid(), GuildID: "g", ChannelID: "ch",
		White: alice, Black: bob, Control: control, Rated: rated, NoShow: noShow})
	if err != nil {
		h.t.Fatal(err)
	}
	return r.Game
}

// setGuild changes guild g's settings.
func (h *harness) setGuild(change func(gs *storage.GuildSettings)) {
	h.t.Helper()
	if _, err := h.s.Settings().UpdateGuild(ctx, "g", func(gs *storage.GuildSettings) error {
		change(gs)
		return nil
	}); err != nil {
		h.t.Fatal(err)
	}
}

// putGuild writes a guild's settings whole, as read (and changed) by the caller.
func (h *harness) putGuild(gs storage.GuildSettings) error {
	_, err := h.s.Settings().UpdateGuild(ctx, gs.GuildID, func(stored *storage.GuildSettings) error {
		*stored = gs
		return nil
	})
	return err
}

func TestTakebacksFollowTheRules(t *testing.T) {
	cases := []struct {
		name           string
		rated          bool
		noShow         time.Duration
		ratedTakebacks bool // the guild's setting
		allowed        bool
		says           string
	}{
		{"casual", false, 0, false, true, ""},
		{"rated", true, 0, false, false, "casual games only"},
		{"rated, the server allows it", true, 0, true, true, ""},
		{"casual tournament game", false, time.Minute, true, false, "tournament"},
		{"rated tournament game, the server allows rated takebacks", true, time.Minute, true, false, "tournament"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			h.setGuild(func(gs *storage.GuildSettings) { gs.RatedTakebacks = c.ratedTakebacks })
			g := h.startWith("10+0", c.rated, c.noShow)
			h.play(g.ID, "e4 e5 Nf3")
			_, err := h.s.RequestTakeback(ctx, h.act(g.ID, alice))
			if !c.allowed {
				wantErr(t, err, ErrNoTakebacks)
				if !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), "FIDE 4.7") {
					t.Errorf("refusal says %q, want %q and FIDE 4.7", err, c.says)
				}
				if g := h.game(g.ID); g.Takeback.Pending || g.Ply() != 3 {
					t.Errorf("a refused takeback changed the game: %+v, ply %d", g.Takeback, g.Ply())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := h.s.AcceptTakeback(ctx, h.act(g.ID, bob)); err != nil {
				t.Fatal(err)
			}
			if got := h.game(g.ID).Ply(); got != 2 {
				t.Errorf("ply %d after the takeback, want 2", got)
			}
		})
	}
}

// A server that turns rated takebacks off while a request waits: the request can no
// longer be granted.
func TestTakebackRefusedWhenTheServerChangesItsMind(t *testing.T) {
	h := newHarness(t, Options{})
	h.setGuild(func(gs *storage.GuildSettings) { gs.RatedTakebacks = true })
	g := h.startWith("10+0", true, 0)
	h.play(g.ID, "e4 e5 Nf3")
	if _, err := h.s.RequestTakeback(ctx, h.act(g.ID, alice)); err != nil {
		t.Fatal(err)
	}
	h.setGuild(func(gs *storage.GuildSettings) { gs.RatedTakebacks = false })
	_, err := h.s.AcceptTakeback(ctx, h.act(g.ID, bob))
	wantErr(t, err, ErrNoTakebacks)
	// Declining still works, and moving on is untouched.
	if _, err := h.s.DeclineTakeback(ctx, h.act(g.ID, bob)); err != nil {
		t.Fatal(err)
	}
	h.play(g.ID, "Nc6")
}

func TestDrawOfferWithOrRightAfterTheMove(t *testing.T) {
	h := newHarness(t, Options{DrawOfferWindow: 10 * time.Second})
	g := h.start("10+0", "")
	id := g.ID
	h.play(id, "e4 e5")
	h.events()

	// Right after one's move: the offer stands at once.
	h.clk.Advance(10 * time.Second)
	if r, err := h.s.OfferDraw(ctx, h.act(id, bob)); err != nil || r.Effect != EffectDrawOffered {
		t.Fatalf("offer 10 s after one's move: %+v, %v", r, err)
	}
	if got := eventTypes(h.events()); got != "DrawOffered" {
		t.Errorf("events %q", got)
	}
	if _, err := h.s.DeclineDraw(ctx, h.act(id, alice)); err != nil {
		t.Fatal(err)
	}
	h.play(id, "Nf3")
	h.events()

	// Later, while the opponent thinks: refused, and nothing changes.
	h.clk.Advance(10*time.Second + time.Millisecond)
	_, err := h.s.OfferDraw(ctx, h.act(id, alice))
	wantErr(t, err, ErrOfferWithMove)
	if g := h.game(id); g.DrawOffer.Pending || g.DrawWithMove || g.DrawOffers != [2]int{0, 1} {
		t.Errorf("a refused offer changed the game: %+v %v %v", g.DrawOffer, g.DrawWithMove, g.DrawOffers)
	}
	if evs := h.events(); len(evs) != 0 {
		t.Errorf("a refused offer sent %q", eventTypes(evs))
	}

	// On one's own turn: the offer waits for the move, unseen, and survives a restart...
	h.play(id, "Nc6")
	h.events()
	h.clk.Advance(time.Minute)
	if r, err := h.s.OfferDraw(ctx, h.act(id, alice)); err != nil || r.Effect != EffectDrawWithMove {
		t.Fatalf("offer on one's own turn: %+v, %v", r, err)
	}
	_, err = h.s.OfferDraw(ctx, h.act(id, alice))
	wantErr(t, err, ErrOfferPending)
	if evs := h.events(); len(evs) != 0 {
		t.Errorf("an offer waiting for its move sent %q", eventTypes(evs))
	}
	_, err = h.s.AcceptDraw(ctx, h.act(id, bob))
	wantErr(t, err, ErrNoDrawOffer)
	h.restart()
	// ...and is made with the move.
	if _, err := h.move(id, alice, "Bc4"); err != nil {
		t.Fatal(err)
	}
	if got := eventTypes(h.events()); got != "YourTurn DrawOffered" {
		t.Errorf("events %q, want the offer with the move", got)
	}
	g = h.game(id)
	if !g.DrawOffer.Pending || g.DrawOffer.By != chesscore.White || g.DrawOffer.Ply != 5 || g.DrawWithMove || g.DrawOffers != [2]int{1, 1} {
		t.Fatalf("after the move: offer %+v, with move %v, offers %v", g.DrawOffer, g.DrawWithMove, g.DrawOffers)
	}
	if r, err := h.s.AcceptDraw(ctx, h.act(id, bob)); err != nil || r.Outcome.Termination != chesscore.Agreement {
		t.Fatalf("accept: %+v, %v", r, err)
	}
}

// The instant of the last move is stored: a restart does not reopen the window, and a
// takeback closes it and drops an offer waiting for its move.
func TestDrawOfferWindowAcrossRestartAndTakeback(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("10+0", "")
	id := g.ID
	h.play(id, "e4 e5 Nf3")
	h.clk.Advance(20 * time.Second)
	h.restart()
	_, err := h.s.OfferDraw(ctx, h.act(id, alice))
	wantErr(t, err, ErrOfferWithMove)

	if _, err := h.s.OfferDraw(ctx, h.act(id, bob)); err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.RequestTakeback(ctx, h.act(id, bob)); err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.AcceptTakeback(ctx, h.act(id, alice)); err != nil {
		t.Fatal(err)
	}
	g = h.game(id)
	if g.DrawWithMove || !g.Moved.IsZero() {
		t.Errorf("after the takeback: with move %v, moved %v", g.DrawWithMove, g.Moved)
	}
	// Bob is to move again (ply 1); his next move carries no offer.
	h.play(id, "c5")
	if g := h.game(id); g.DrawOffer.Pending {
		t.Errorf("the dropped offer came with the move: %+v", g.DrawOffer)
	}
}

func TestEndingsBeforeBothSidesMovedAreAborted(t *testing.T) {
	aborted := chesscore.Outcome{Termination: chesscore.Aborted}
	t.Run("resignation", func(t *testing.T) {
		h := newHarness(t, Options{})
		for _, moves := range []string{"", "e4"} {
			for _, who := range []storage.Player{alice, bob} {
				g := h.startWith("5+3", true, 0)
				h.play(g.ID, moves)
				r, err := h.s.Resign(ctx, h.act(g.ID, who))
				if err != nil || r.Outcome != aborted || r.Effect != EffectAborted {
					t.Errorf("%s resigns after %q: %+v, %v; want aborted", who.Name, moves, r, err)
				}
			}
		}
		g := h.startWith("5+3", true, 0)
		h.play(g.ID, "e4 e5")
		if r, err := h.s.Resign(ctx, h.act(g.ID, bob)); err != nil || r.Outcome != (chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Resignation}) {
			t.Errorf("resign after both moved: %+v, %v", r, err)
		}
	})
	t.Run("a tournament game keeps its result", func(t *testing.T) {
		h := newHarness(t, Options{})
		g := h.startWith("5+3", true, time.Minute)
		if r, err := h.s.Resign(ctx, h.act(g.ID, alice)); err != nil || r.Outcome != (chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.Resignation}) {
			t.Errorf("tournament resignation before any move: %+v, %v", r, err)
		}
	})
	t.Run("time", func(t *testing.T) {
		// A correspondence clock runs from the first move: a side that never moves
		// loses nothing, the game is called off.
		h := newHarness(t, Options{})
		for _, moves := range []string{"", "e4"} {
			g := h.startWith("1d", true, 0)
			h.play(g.ID, moves)
			h.events()
			h.clk.Set(h.game(g.ID).Deadline())
			h.s.FireDue()
			evs := h.events() // a deadline reminder may come first
			if got := eventTypes(evs); !strings.HasSuffix(got, "FlagFell GameOver") {
				t.Fatalf("after %q: events %q", moves, got)
			}
			if o := evs[len(evs)-1].(GameOver).Outcome; o != aborted {
				t.Errorf("flag after %q: %v, want aborted", moves, o)
			}
		}
		g := h.startWith("1d", true, 0)
		h.play(g.ID, "e4 e5")
		h.clk.Set(h.game(g.ID).Deadline())
		h.s.FireDue()
		if o := h.game(g.ID).Outcome; o != (chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.TimeForfeit}) {
			t.Errorf("flag after both moved: %v", o)
		}
	})
}
