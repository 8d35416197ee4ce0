package games

// arbiter_test.go: the arbiter's decisions: each recorded in the game and its PGN,
// effective across restarts, once per request id, and blind to other servers' games.

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/storage"
)

var arbiter = storage.Player{ID: "900", Name: "Ruth"}

// arbitrate makes an arbiter's request in guild "g" with a fresh request id.
func (h *harness) arbitrate(r ArbiterRequest) (*Result, error) {
	r.RequestID = h.rid()
	if r.GuildID == "" {
		r.GuildID = "g"
	}
	if r.Arbiter.ID == "" {
		r.Arbiter = arbiter
	}
	return h.s.Arbitrate(ctx, r)
}

func TestArbiterEndsGames(t *testing.T) {
	cases := []struct {
		name    string
		req     ArbiterRequest
		outcome chesscore.Outcome
		action  string
	}{
		{"adjudicate a win", ArbiterRequest{Action: Adjudicate, Result: chesscore.BlackWins, Reason: "White's position is lost"},
			chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.Adjudication}, "adjudicated the game 0-1"},
		{"adjudicate a draw", ArbiterRequest{Action: Adjudicate, Result: chesscore.Draw, Reason: "dead drawn"},
			chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Adjudication}, "adjudicated the game 1/2-1/2"},
		{"forfeit", ArbiterRequest{Action: Forfeit, Color: chesscore.Black, Reason: "left the server"},
			chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Abandoned}, "forfeited Black, who has left the game"},
		{"abort", ArbiterRequest{Action: AbortGame, Reason: "wrong opponent"},
			chesscore.Outcome{Termination: chesscore.Aborted}, "aborted the game"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var finished []*Game
			h := newHarness(t, Options{OnFinish: func(_ storage.Tx, g *Game) error {
				finished = append(finished, g)
				return nil
			}})
			g := h.startWith("5+3", true, 0)
			h.play(g.ID, "e4 e5 Nf3")
			h.events()
			h.clk.Advance(3 * time.Second)
			c.req.GameID = g.ID
			r, err := h.arbitrate(c.req)
			if err != nil {
				t.Fatal(err)
			}
			if r.Outcome != c.outcome || r.Effect != EffectArbiter {
				t.Errorf("outcome %v, effect %q; want %v", r.Outcome, r.Effect, c.outcome)
			}
			if got := eventTypes(h.events()); got != "GameOver" {
				t.Errorf("events %q", got)
			}
			if len(finished) != 1 || finished[0].Outcome != c.outcome {
				t.Errorf("OnFinish saw %d endings", len(finished))
			}
			want := storage.Note{Ply: 3, At: t0.Add(3 * time.Second), By: arbiter, Action: c.action, Reason: c.req.Reason}
			h.restart()
			g = h.game(g.ID)
			if len(g.Notes) != 1 || g.Notes[0] != want {
				t.Errorf("notes %+v, want %+v", g.Notes, want)
			}
			if g.Live() || g.Outcome != c.outcome || g.Clock.State != clock.Stopped || !g.Ended.Equal(t0.Add(3*time.Second)) {
				t.Errorf("after a restart: %v, clock %v, ended %v", g.Outcome, g.Clock.State, g.Ended)
			}
			pgn := flat(g.PGN())
			if !strings.Contains(pgn, "2. Nf3 {[%clk 0:05:00] Arbiter Ruth "+c.action+": "+c.req.Reason+".}") {
				t.Errorf("the PGN does not carry the decision after 2. Nf3:\n%s", pgn)
			}
			if c.outcome.Result != chesscore.NoResult && !strings.Contains(pgn, `[Result "`+c.outcome.Result.String()+`"]`) {
				t.Errorf("PGN result:\n%s", pgn)
			}
			// A decided game takes no further decision.
			_, err = h.arbitrate(ArbiterRequest{GameID: g.ID, Action: AbortGame, Reason: "again"})
			wantErr(t, err, ErrGameOver)
		})
	}
}

// flat joins a PGN's lines, so a test need not know where they break.
func flat(pgn string) string { return strings.Join(strings.Fields(pgn), " ") }

func TestArbiterAddsTime(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.startWith("1+0", true, 0)
	id := g.ID
	h.play(id, "e4 e5") // White's clock runs from here (first moves are free)
	h.events()
	h.clk.Advance(50 * time.Second)
	before := h.game(id)
	white, _ := before.Remaining(chesscore.White, h.clk.Now())
	black, _ := before.Remaining(chesscore.Black, h.clk.Now())

	// Two minutes for White (to move), thirty seconds for Black (waiting).
	if _, err := h.arbitrate(ArbiterRequest{GameID: id, Action: AddTime, Color: chesscore.White, Time: 2 * time.Minute, Reason: "a disturbance"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.arbitrate(ArbiterRequest{GameID: id, Action: AddTime, Color: chesscore.Black, Time: 30 * time.Second, Reason: "compensation"}); err != nil {
		t.Fatal(err)
	}
	after := h.game(id)
	if w, _ := after.Remaining(chesscore.White, h.clk.Now()); w != white+2*time.Minute {
		t.Errorf("White has %v, want %v", w, white+2*time.Minute)
	}
	if b, _ := after.Remaining(chesscore.Black, h.clk.Now()); b != black+30*time.Second {
		t.Errorf("Black has %v, want %v", b, black+30*time.Second)
	}
	if evs := h.events(); len(evs) != 0 || !after.Live() {
		t.Errorf("adding time sent %q, live %v", eventTypes(evs), after.Live())
	}
	if len(after.Notes) != 2 || after.Notes[0].Action != "added 2 min to White's clock" || after.Notes[1].Action != "added 30 s to Black's clock" {
		t.Errorf("notes %+v", after.Notes)
	}
	// The flag timer moved with the clock, across a restart too.
	h.restart()
	h.clk.Set(t0.Add(time.Minute + time.Second)) // White's old deadline has passed...
	h.s.FireDue()
	if !h.game(id).Live() {
		t.Fatal("the flag fell at the old deadline")
	}
	h.clk.Set(t0.Add(3*time.Minute + time.Millisecond)) // ...the new one too
	h.s.FireDue()
	if o := h.game(id).Outcome; o != (chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.TimeForfeit}) {
		t.Errorf("outcome %v after the new deadline", o)
	}
	// The PGN carries the notes before the first move when none was made... here after
	// 1... e5, in order.
	if pgn := flat(h.game(id).PGN()); !strings.Contains(pgn, "Arbiter Ruth added 2 min to White's clock: a disturbance. Arbiter Ruth added 30 s to Black's clock: compensation.}") {
		t.Errorf("PGN:\n%s", pgn)
	}
}

func TestArbiterRefusals(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("5+3", "")
	untimed := h.start("-", "")
	h.play(g.ID, "e4")
	cases := []struct {
		name string
		req  ArbiterRequest
		want error
	}{
		{"no reason", ArbiterRequest{GameID: g.ID, Action: AbortGame, Reason: "  \n "}, ErrNoReason},
		{"a long reason", ArbiterRequest{GameID: g.ID, Action: AbortGame, Reason: strings.Repeat("é", MaxReason+1)}, ErrBadRequest},
		{"no result", ArbiterRequest{GameID: g.ID, Action: Adjudicate, Reason: "r"}, ErrBadRequest},
		{"no clock", ArbiterRequest{GameID: untimed.ID, Action: AddTime, Time: time.Minute, Reason: "r"}, ErrBadRequest},
		{"no time", ArbiterRequest{GameID: g.ID, Action: AddTime, Time: time.Millisecond, Reason: "r"}, ErrBadRequest},
		{"too much time", ArbiterRequest{GameID: g.ID, Action: AddTime, Time: MaxAddedTime + time.Second, Reason: "r"}, ErrBadRequest},
		{"no such colour", ArbiterRequest{GameID: g.ID, Action: Forfeit, Color: 2, Reason: "r"}, ErrBadRequest},
		{"no such action", ArbiterRequest{GameID: g.ID, Reason: "r"}, ErrBadRequest},
		{"no server", ArbiterRequest{GameID: g.ID, Action: AbortGame, GuildID: "-", Reason: "r"}, ErrNoSuchGame},
	}
	for _, c := range cases {
		_, err := h.arbitrate(c.req)
		if err == nil || !strings.Contains(err.Error(), c.want.Error()) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
	if got := h.game(g.ID); len(got.Notes) != 0 || !got.Live() {
		t.Errorf("refusals changed the game: %+v", got.Notes)
	}
	// A decision made on a board that has moved on is refused.
	_, err := h.arbitrate(ArbiterRequest{GameID: g.ID, Action: AbortGame, Reason: "r", Expect: AtPly(0)})
	wantErr(t, err, ErrStale)
	// The notes of one game are bounded.
	for range storage.MaxNotes {
		if _, err := h.arbitrate(ArbiterRequest{GameID: g.ID, Action: AddTime, Time: time.Second, Reason: "r"}); err != nil {
			t.Fatal(err)
		}
	}
	_, err = h.arbitrate(ArbiterRequest{GameID: g.ID, Action: AddTime, Time: time.Second, Reason: "r", Expect: AtPly(1)})
	wantErr(t, err, ErrBadRequest)
}

// A game of another server, or of none, is answered word for word as a game that
// does not exist.
func TestArbiterSeesOnlyItsServer(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("5+3", "") // guild "g"
	terminal, err := h.s.StartGame(ctx, StartRequest{RequestID: h.rid(), White: storage.Player{ID: "local:white", Name: "W"},
		Black: storage.Player{ID: "local:black", Name: "B"}, Control: "-"})
	if err != nil {
		t.Fatal(err)
	}
	missing := uint64(999)
	answer := func(id uint64, guild string) string {
		_, err := h.arbitrate(ArbiterRequest{GameID: id, GuildID: guild, Action: AbortGame, Reason: "r"})
		wantErr(t, err, ErrNoSuchGame)
		return strings.ReplaceAll(err.Error(), fmt.Sprint("game ", id), "game N")
	}
	want := answer(missing, "other")
	if got := answer(g.ID, "other"); got != want {
		t.Errorf("another server's game: %q, a missing one: %q", got, want)
	}
	if got := answer(terminal.Game.ID, "other"); got != want {
		t.Errorf("a terminal game: %q, a missing one: %q", got, want)
	}
	if !h.game(g.ID).Live() {
		t.Error("another server's arbiter ended the game")
	}
}

func TestArbiterRequestsAreIdempotent(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("5+3", "")
	h.play(g.ID, "e4 e5")
	req := ArbiterRequest{RequestID: "interaction-1", GameID: g.ID, GuildID: "g", Arbiter: arbiter, Action: AddTime, Color: chesscore.White, Time: time.Minute, Reason: "r"}
	if _, err := h.s.Arbitrate(ctx, req); err != nil {
		t.Fatal(err)
	}
	h.restart()
	r, err := h.s.Arbitrate(ctx, req)
	if err != nil || !r.Replayed || r.Effect != EffectArbiter {
		t.Fatalf("repeat: %+v, %v", r, err)
	}
	if n := len(h.game(g.ID).Notes); n != 1 {
		t.Errorf("%d notes after a repeated request", n)
	}
}

// A takeback after a decision keeps the note, on the position it now follows.
func TestArbiterNoteSurvivesTakeback(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("5+3", "")
	h.play(g.ID, "e4 e5 Nf3")
	if _, err := h.arbitrate(ArbiterRequest{GameID: g.ID, Action: AddTime, Color: chesscore.Black, Time: time.Minute, Reason: "r"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.RequestTakeback(ctx, h.act(g.ID, alice)); err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.AcceptTakeback(ctx, h.act(g.ID, bob)); err != nil {
		t.Fatal(err)
	}
	got := h.game(g.ID)
	if len(got.Notes) != 1 || got.Notes[0].Ply != 2 {
		t.Errorf("notes %+v after the takeback, want one at ply 2", got.Notes)
	}
	if pgn := flat(got.PGN()); !strings.Contains(pgn, "1... e5 {[%clk 0:05:00] Arbiter Ruth added 1 min to Black's clock: r.}") {
		t.Errorf("PGN:\n%s", pgn)
	}
}

func TestNoteTextIsSafeInPGN(t *testing.T) {
	n := storage.Note{By: storage.Player{Name: "A {b}"}, Action: "aborted the game",
		Reason: "see {this} %clk [%clk 0:00:01] " + strings.Repeat("x", 130)}
	text := NoteText(n)
	if strings.ContainsAny(text, "{}%") {
		t.Errorf("unsafe: %q", text)
	}
	for _, w := range strings.Fields(text) {
		if len([]rune(w)) > 60 {
			t.Errorf("word of %d characters", len([]rune(w)))
		}
	}
	g := &storage.Game{White: alice, Black: bob, Notes: []storage.Note{n}}
	chess, err := Replay(g)
	if err != nil {
		t.Fatal(err)
	}
	pgn := (&entry{rec: g, chess: chess}).view().PGN()
	pg, err := chesscore.ParsePGN(pgn, dead.Decider{})
	if err != nil {
		t.Fatalf("the PGN does not read back: %v\n%s", err, pgn)
	}
	if !strings.Contains(pg.Comment, "Arbiter A (b) aborted the game") {
		t.Errorf("comment %q", pg.Comment)
	}
}

// TestArbiterNeverDecidesOwnGame: a player of the game, whatever their authority, is
// refused every decision on it (no time on their own clock, no adjudication of their
// own rated game), and the game is left as it was; another arbiter may decide.
func TestArbiterNeverDecidesOwnGame(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.startWith("5+3", true, 0)
	h.play(g.ID, "e4 e5")
	before := h.game(g.ID)
	cases := []struct {
		name string
		req  ArbiterRequest
	}{
		{"White adds time to White's clock", ArbiterRequest{Arbiter: alice, Action: AddTime, Color: chesscore.White, Time: MaxAddedTime, Reason: "r"}},
		{"Black adds time to White's clock", ArbiterRequest{Arbiter: bob, Action: AddTime, Color: chesscore.White, Time: time.Minute, Reason: "r"}},
		{"White adjudicates 1-0", ArbiterRequest{Arbiter: alice, Action: Adjudicate, Result: chesscore.WhiteWins, Reason: "r"}},
		{"Black forfeits White", ArbiterRequest{Arbiter: bob, Action: Forfeit, Color: chesscore.White, Reason: "r"}},
		{"Black aborts", ArbiterRequest{Arbiter: bob, Action: AbortGame, Reason: "r"}},
	}
	for _, c := range cases {
		c.req.GameID = g.ID
		_, err := h.arbitrate(c.req)
		if !errors.Is(err, ErrArbiterPlays) {
			t.Errorf("%s: err = %v, want ErrArbiterPlays", c.name, err)
		}
	}
	after := h.game(g.ID)
	if len(after.Notes) != 0 || !after.Live() || after.Clock.Left != before.Clock.Left {
		t.Errorf("refused decisions changed the game: notes %+v, live %v, clock %v (was %v)", after.Notes, after.Live(), after.Clock.Left, before.Clock.Left)
	}
	if _, err := h.arbitrate(ArbiterRequest{GameID: g.ID, Action: AddTime, Color: chesscore.White, Time: time.Minute, Reason: "r"}); err != nil {
		t.Errorf("another arbiter: %v", err)
	}
}
