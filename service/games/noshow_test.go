package games

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
)

// startNoShow starts a tournament game between alice (white) and bob with a forfeit
// time.
func (h *harness) startNoShow(control string, noShow time.Duration) *Game {
	h.t.Helper()
	r, err := h.s.StartGame(context.Background(), StartRequest{RequestID: h.rid(), GuildID: "g", ChannelID: "ch",
		White: alice, Black: bob, Control: control, NoShow: noShow})
	if err != nil {
		h.t.Fatal(err)
	}
	return r.Game
}

func TestNoShowForfeit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves string
		wait  time.Duration // before the moves
		want  chesscore.Result
	}{
		{"white absent", "", 0, chesscore.BlackWins},
		{"black absent", "e4", 80 * time.Second, chesscore.WhiteWins},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{FirstMoveTimeout: time.Hour})
			g := h.startNoShow("3+2", 90*time.Second)
			if g.NoShow != 90*time.Second || !g.AbortAt.Equal(t0.Add(90*time.Second)) {
				t.Fatalf("no-show %v, deadline %v", g.NoShow, g.AbortAt)
			}
			h.clk.Advance(tc.wait)
			if tc.moves != "" {
				h.play(g.ID, tc.moves) // the opponent's 90 s start now
			}
			h.clk.Advance(89 * time.Second)
			h.s.FireDue()
			if !h.game(g.ID).Live() {
				t.Fatal("forfeited before the time was up")
			}
			// A restart keeps the forfeit time (and credits the downtime).
			h.restart()
			h.clk.Advance(time.Second)
			h.s.FireDue()
			got := h.game(g.ID)
			want := chesscore.Outcome{Result: tc.want, Termination: chesscore.NoShow}
			if got.Outcome != want {
				t.Fatalf("outcome %v, want %v", got.Outcome, want)
			}
			if got.NoShow != 90*time.Second {
				t.Errorf("stored no-show time %v", got.NoShow)
			}
			evs := h.events()
			if over, ok := evs[len(evs)-1].(GameOver); !ok || over.Outcome != want {
				t.Errorf("events %s", eventTypes(evs))
			}
		})
	}
}

func TestNoShowAfterBothMoved(t *testing.T) {
	h := newHarness(t, Options{FirstMoveTimeout: time.Hour})
	g := h.startNoShow("3+2", time.Minute)
	h.play(g.ID, "e4 e5")
	if !h.game(g.ID).AbortAt.IsZero() {
		t.Error("a deadline runs after both first moves")
	}
	h.clk.Advance(2 * time.Minute)
	h.s.FireDue()
	if got := h.game(g.ID); got.Live() != true {
		t.Errorf("ended %v although both sides moved (the clock is still within 3 min)", got.Outcome)
	}
	// A tournament game cannot be aborted.
	g2 := h.startNoShow("3+2", time.Minute)
	_, err := h.s.Abort(context.Background(), h.act(g2.ID, alice))
	wantErr(t, err, ErrBadRequest)
	// A negative time is refused.
	_, err = h.s.StartGame(context.Background(), StartRequest{White: alice, Black: bob, Control: "3+2", NoShow: -time.Second})
	wantErr(t, err, ErrBadRequest)
	// An ordinary game still aborts.
	g3, _ := h.s.StartGame(context.Background(), StartRequest{White: alice, Black: carol, Control: "3+2"})
	h.clk.Advance(time.Hour)
	h.s.FireDue()
	if o := h.game(g3.Game.ID).Outcome; o.Termination != chesscore.Aborted {
		t.Errorf("ordinary game ended %v", o)
	}
}

func TestBerserk(t *testing.T) {
	h := newHarness(t, Options{FirstMoveTimeout: time.Hour})
	g := h.startNoShow("3+2", time.Minute)
	ran := 0
	res, err := h.s.Berserk(context.Background(), BerserkRequest{Action: h.act(g.ID, bob), After: func(storage.Tx) error { ran++; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Game.Clock.Left; got[1] != 90*time.Second || got[0] != 3*time.Minute || ran == 0 {
		t.Errorf("after Black's berserk the clocks are %v (hook ran %d times)", got, ran)
	}
	// A hook's refusal writes nothing.
	refused := errors.New("already berserk")
	if _, err := h.s.Berserk(context.Background(), BerserkRequest{Action: h.act(g.ID, bob), After: func(storage.Tx) error { return refused }}); !errors.Is(err, refused) {
		t.Errorf("refused berserk: %v", err)
	}
	if left := h.game(g.ID).Clock.Left[1]; left != 90*time.Second {
		t.Errorf("a refused berserk left Black %v", left)
	}
	h.play(g.ID, "e4")
	_, err = h.s.Berserk(context.Background(), BerserkRequest{Action: h.act(g.ID, alice)})
	wantErr(t, err, ErrTooLateToBerserk)
	// Only tournament games.
	g2, _ := h.s.StartGame(context.Background(), StartRequest{White: alice, Black: carol, Control: "3+2"})
	_, err = h.s.Berserk(context.Background(), BerserkRequest{Action: h.act(g2.Game.ID, alice)})
	wantErr(t, err, ErrBadRequest)
}

// TestBlackTime starts an Armageddon game (White 5 min, Black 4): Black's clock starts
// at 4 minutes, survives a restart, and falls first; a bad Black time is refused.
func TestBlackTime(t *testing.T) {
	h := newHarness(t, Options{})
	r, err := h.s.StartGame(context.Background(), StartRequest{RequestID: h.rid(), GuildID: "g", ChannelID: "ch",
		White: alice, Black: bob, Control: "5+0", BlackTime: 4 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	g := r.Game
	if g.Clock.Left != [2]time.Duration{5 * time.Minute, 4 * time.Minute} {
		t.Fatalf("clocks %v, want 5m and 4m", g.Clock.Left)
	}
	h.play(g.ID, "e4 e5") // the first moves are free
	h.restart()
	if got := h.game(g.ID).Clock.Left; got != [2]time.Duration{5 * time.Minute, 4 * time.Minute} {
		t.Fatalf("after a restart the clocks are %v", got)
	}
	h.play(g.ID, "Nf3")
	h.clk.Advance(4*time.Minute + time.Second)
	h.s.FireDue()
	want := chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.TimeForfeit}
	if got := h.game(g.ID).Outcome; got != want {
		t.Fatalf("outcome %v, want %v (Black's 4 minutes are up)", got, want)
	}

	for _, bad := range []struct {
		control string
		black   time.Duration
	}{{"5+0", -time.Second}, {"1/3d", time.Minute}, {"", time.Minute}} {
		_, err := h.s.StartGame(context.Background(), StartRequest{RequestID: h.rid(), GuildID: "g", ChannelID: "ch",
			White: alice, Black: bob, Control: bad.control, BlackTime: bad.black})
		if !errors.Is(err, ErrBadRequest) {
			t.Errorf("control %q, Black's time %v: err %v, want ErrBadRequest", bad.control, bad.black, err)
		}
	}
}
