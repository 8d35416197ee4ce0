package games

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

var ctx = context.Background()

func TestChallengeDirect(t *testing.T) {
	h := newHarness(t, Options{})
	res, err := h.s.CreateChallenge(ctx, ChallengeRequest{RequestID: "c1", GuildID: "g", ChannelID: "ch",
		From: alice, To: bob, Control: "5+3", Color: storage.ChooseBlack, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Challenge
	if c.ID == 0 || c.Status != storage.ChallengePending || c.Control.String() != "5+3" || !c.ExpiresAt.Equal(t0.Add(15*time.Minute)) {
		t.Fatalf("challenge %+v", c)
	}
	answer := func(p storage.Player) ChallengeAction {
		return ChallengeAction{RequestID: h.rid(), ChallengeID: c.ID, User: p}
	}
	_, err = h.s.AcceptChallenge(ctx, answer(alice))
	wantErr(t, err, ErrCannotAcceptOwn)
	_, err = h.s.AcceptChallenge(ctx, answer(carol))
	wantErr(t, err, ErrNotYourChallenge)
	_, err = h.s.DeclineChallenge(ctx, answer(carol))
	wantErr(t, err, ErrNotYourChallenge)
	_, err = h.s.CancelChallenge(ctx, answer(bob))
	wantErr(t, err, ErrNotYourChallenge)

	res, err = h.s.AcceptChallenge(ctx, answer(bob))
	if err != nil {
		t.Fatal(err)
	}
	g := res.Game
	if g.White != bob || g.Black != alice || !g.Rated || g.ChallengeID != c.ID || res.Challenge.GameID != g.ID {
		t.Fatalf("game %+v from challenge %+v", g.Game, res.Challenge)
	}
	if g.Clock == nil || !g.Clock.FreeFirstMoves || g.Clock.State != clock.Running {
		t.Errorf("clock %+v", g.Clock)
	}
	if got := eventTypes(h.events()); got != "GameStarted" {
		t.Errorf("events %q", got)
	}
	_, err = h.s.AcceptChallenge(ctx, answer(bob))
	wantErr(t, err, ErrChallengeClosed)
	_, err = h.s.CancelChallenge(ctx, answer(alice))
	wantErr(t, err, ErrChallengeClosed)
}

func TestChallengeDeclineCancelExpire(t *testing.T) {
	h := newHarness(t, Options{})
	mk := func(to storage.Player, ttl time.Duration) *storage.Challenge {
		r, err := h.s.CreateChallenge(ctx, ChallengeRequest{RequestID: h.rid(), From: alice, To: to, Control: "10+0", ExpiresIn: ttl})
		if err != nil {
			t.Fatal(err)
		}
		return r.Challenge
	}
	c1, c2, c3, c4 := mk(bob, 0), mk(bob, 0), mk(bob, time.Minute), mk(storage.Player{}, time.Minute)
	if r, err := h.s.DeclineChallenge(ctx, ChallengeAction{RequestID: h.rid(), ChallengeID: c1.ID, User: bob}); err != nil || r.Challenge.Status != storage.ChallengeDeclined {
		t.Fatalf("decline: %+v, %v", r, err)
	}
	if got := eventTypes(h.events()); got != "ChallengeDeclined" {
		t.Errorf("events %q", got)
	}
	if r, err := h.s.CancelChallenge(ctx, ChallengeAction{RequestID: h.rid(), ChallengeID: c2.ID, User: alice}); err != nil || r.Challenge.Status != storage.ChallengeCancelled {
		t.Fatalf("cancel: %+v, %v", r, err)
	}
	// An open challenge cannot be declined.
	_, err := h.s.DeclineChallenge(ctx, ChallengeAction{RequestID: h.rid(), ChallengeID: c4.ID, User: bob})
	wantErr(t, err, ErrNotYourChallenge)

	// c3 and c4 expire: c4 by its timer, c3 when someone tries to accept it late.
	h.clk.Advance(time.Minute)
	_, err = h.s.AcceptChallenge(ctx, ChallengeAction{RequestID: h.rid(), ChallengeID: c3.ID, User: bob})
	wantErr(t, err, ErrChallengeExpired)
	h.s.FireDue()
	evs := h.events()
	if got := eventTypes(evs); got != "ChallengeExpired ChallengeExpired" {
		t.Fatalf("events %q", got)
	}
	for _, id := range []uint64{c3.ID, c4.ID} {
		c, _ := h.s.Challenge(ctx, id)
		if c.Status != storage.ChallengeExpired {
			t.Errorf("challenge %d is %s", id, c.Status)
		}
	}
	if p, _ := h.s.PendingChallenges(ctx); len(p) != 0 {
		t.Errorf("%d challenges still pending", len(p))
	}
	_, err = h.s.AcceptChallenge(ctx, ChallengeAction{RequestID: h.rid(), ChallengeID: 999, User: bob})
	wantErr(t, err, ErrNoSuchChallenge)
}

func TestChallengeOpenRandomColourAndRules(t *testing.T) {
	h := newHarness(t, Options{Rand: func() uint64 { return 1 }}) // random: the accepter is white
	r, err := h.s.CreateChallenge(ctx, ChallengeRequest{RequestID: h.rid(), GuildID: "g", From: alice})
	if err != nil {
		t.Fatal(err)
	}
	if r.Challenge.Control.String() != "10+5" || r.Challenge.Color != storage.ChooseRandom { // Options.DefaultControl's default
		t.Errorf("defaults: %+v", r.Challenge)
	}
	acc, err := h.s.AcceptChallenge(ctx, ChallengeAction{RequestID: h.rid(), ChallengeID: r.Challenge.ID, User: carol})
	if err != nil {
		t.Fatal(err)
	}
	if acc.Game.White != carol || acc.Game.Black != alice {
		t.Errorf("white %v black %v", acc.Game.White, acc.Game.Black)
	}

	_, err = h.s.CreateChallenge(ctx, ChallengeRequest{From: alice, To: alice})
	wantErr(t, err, ErrSelfChallenge)
	for _, bad := range []ChallengeRequest{
		{From: alice, Control: "5+"},
		{From: alice, Control: "?"},
		{From: alice, Color: "green"},
		{From: alice, FEN: "8/8/8/8/8/8/8/8 w - - 0 1"},
		{From: alice, FEN: "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"}, // stalemate: over before it starts
		{From: storage.Player{}},
	} {
		_, err := h.s.CreateChallenge(ctx, bad)
		wantErr(t, err, ErrBadRequest)
	}
	// A guild that limits challenges to a role.
	s := storage.DefaultGuildSettings("g2")
	s.ChallengeRole = "r1"
	s.DefaultControl, _ = clock.Parse("3d")
	if err := h.putGuild(s); err != nil {
		t.Fatal(err)
	}
	_, err = h.s.CreateChallenge(ctx, ChallengeRequest{GuildID: "g2", From: alice, Roles: []string{"r2"}})
	wantErr(t, err, ErrNotAllowed)
	r, err = h.s.CreateChallenge(ctx, ChallengeRequest{GuildID: "g2", From: alice, Roles: []string{"r2", "r1"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Challenge.Control.String() != "3d" || !r.Challenge.ExpiresAt.Equal(t0.Add(24*time.Hour)) {
		t.Errorf("guild default control / correspondence expiry: %+v", r.Challenge)
	}
}

func TestMoves(t *testing.T) {
	for _, cache := range []int{0, -1} {
		t.Run(fmt.Sprintf("cache=%d", cache), func(t *testing.T) {
			h := newHarness(t, Options{CacheSize: cache})
			g := h.start("5+3", "")
			h.events()
			_, err := h.move(g.ID, bob, "e5")
			wantErr(t, err, ErrNotYourTurn)
			_, err = h.move(g.ID, carol, "e4")
			wantErr(t, err, ErrNotAPlayer)
			_, err = h.move(g.ID, alice, "Bc4")
			wantErr(t, err, ErrIllegalMove)
			var me *chesscore.MoveError
			if !errors.As(err, &me) || !strings.Contains(err.Error(), me.Reason) || !strings.Contains(me.Reason, "c4") {
				t.Errorf("illegal move error %q does not carry chesscore's reason", err)
			}
			_, err = h.s.Move(ctx, MoveRequest{Action: Action{GameID: g.ID, UserID: alice.ID, Expect: AtPly(3)}, Move: "e4"})
			wantErr(t, err, ErrStale)
			_, err = h.move(999, alice, "e4")
			wantErr(t, err, ErrNoSuchGame)
			if evs := h.events(); len(evs) != 0 {
				t.Fatalf("failed requests sent events: %s", eventTypes(evs))
			}

			r, err := h.s.Move(ctx, MoveRequest{Action: Action{RequestID: "m1", GameID: g.ID, UserID: alice.ID, Expect: AtPly(0)}, Move: "e2e4"})
			if err != nil {
				t.Fatal(err)
			}
			if r.SAN != "e4" || r.Ply != 1 || r.Effect != EffectMoved || r.Game.Turn() != chesscore.Black {
				t.Errorf("result %+v", r)
			}
			evs := h.events()
			if yt, ok := evs[0].(YourTurn); len(evs) != 1 || !ok || yt.Player != bob || yt.Color != chesscore.Black {
				t.Errorf("events %#v", evs)
			}
			h.clk.Advance(2 * time.Second)
			h.play(g.ID, "e5")
			h.clk.Advance(7 * time.Second)
			h.play(g.ID, "Nf3")
			stored, err := storage.Read(ctx, h.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
			if err != nil {
				t.Fatal(err)
			}
			if len(stored.Moves) != 3 || stored.Moves[2].UCI() != "g1f3" {
				t.Fatalf("stored moves %v", stored.Moves)
			}
			// Free first moves; white's second move took 7 s and earned 3 s.
			if got := stored.Clock.Left[chesscore.White]; got != 5*time.Minute-4*time.Second {
				t.Errorf("white's clock %v", got)
			}
			if got := stored.MoveClocks; len(got) != 3 || got[2] != 5*time.Minute-7*time.Second {
				t.Errorf("move clocks %v", got)
			}
			if !stored.AbortAt.IsZero() {
				t.Errorf("abort deadline %v after both sides moved", stored.AbortAt)
			}
		})
	}
}

func TestCheckmateEndsTheGame(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("-", "")
	r := h.play(g.ID, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#")
	if r.Outcome != (chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Checkmate}) || r.Game.Live() {
		t.Fatalf("outcome %v", r.Outcome)
	}
	evs := h.events()
	if got := eventTypes(evs); got != "GameStarted"+strings.Repeat(" YourTurn", 6)+" GameOver" {
		t.Fatalf("events %q", got)
	}
	if last := evs[len(evs)-1].(GameOver); last.Outcome.Termination != chesscore.Checkmate || last.Game.Ply() != 7 {
		t.Fatalf("last event %#v", last)
	}
	_, err := h.move(g.ID, bob, "Ke7")
	wantErr(t, err, ErrGameOver)
	_, err = h.s.Resign(ctx, h.act(g.ID, bob))
	wantErr(t, err, ErrGameOver)
	if open, _ := h.s.OpenGames(ctx); len(open) != 0 {
		t.Errorf("%d open games", len(open))
	}
	stored, _ := storage.Read(ctx, h.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
	if !stored.Ended.Equal(t0) {
		t.Errorf("ended %v", stored.Ended)
	}
}

func TestDrawOffers(t *testing.T) {
	h := newHarness(t, Options{MaxDrawOffers: 2})
	g := h.start("-", "")
	id := g.ID
	h.events()
	_, err := h.s.Move(ctx, MoveRequest{Action: h.act(id, alice), Move: "e4", OfferDraw: true})
	wantErr(t, err, ErrTooEarly)
	if h.game(id).Ply() != 0 {
		t.Fatal("a refused offer played the move")
	}
	h.play(id, "e4")
	_, err = h.s.OfferDraw(ctx, h.act(id, alice))
	wantErr(t, err, ErrTooEarly)
	// Black, to move, offers: the offer waits for Black's move (the board shows nothing).
	if r, err := h.s.OfferDraw(ctx, h.act(id, bob)); err != nil || r.Effect != EffectDrawWithMove {
		t.Fatalf("offer on one's own turn: %+v, %v", r, err)
	}
	if g := h.game(id); g.DrawOffer.Pending || !g.DrawWithMove {
		t.Errorf("offer before the move: pending %v, with move %v", g.DrawOffer.Pending, g.DrawWithMove)
	}

	// Black offers with its move; White declines by moving.
	if _, err := h.s.Move(ctx, MoveRequest{Action: h.act(id, bob), Move: "e5", OfferDraw: true}); err != nil {
		t.Fatal(err)
	}
	if got := eventTypes(h.events()); got != "YourTurn YourTurn DrawOffered" {
		t.Errorf("events %q", got)
	}
	_, err = h.s.AcceptDraw(ctx, h.act(id, bob))
	wantErr(t, err, ErrCannotAcceptOwn)
	_, err = h.s.OfferDraw(ctx, h.act(id, bob))
	wantErr(t, err, ErrOfferPending)
	h.play(id, "Nf3")
	_, err = h.s.AcceptDraw(ctx, h.act(id, alice))
	wantErr(t, err, ErrNoDrawOffer)

	// White offers after its move; Black declines; White may not offer again this move.
	if _, err := h.s.OfferDraw(ctx, h.act(id, alice)); err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.DeclineDraw(ctx, h.act(id, bob)); err != nil {
		t.Fatal(err)
	}
	if got := eventTypes(h.events()); got != "YourTurn DrawOffered DrawDeclined" {
		t.Errorf("events %q", got)
	}
	_, err = h.s.OfferDraw(ctx, h.act(id, alice))
	wantErr(t, err, ErrTooManyDrawOffers)
	h.play(id, "Nc6")
	// Black's second offer is its last (MaxDrawOffers 2).
	h.play(id, "Bc4")
	_, err = h.s.Move(ctx, MoveRequest{Action: h.act(id, bob), Move: "Bc5", OfferDraw: true})
	if err != nil {
		t.Fatal(err)
	}
	h.play(id, "c3")
	_, err = h.s.Move(ctx, MoveRequest{Action: h.act(id, bob), Move: "Nf6", OfferDraw: true})
	wantErr(t, err, ErrTooManyDrawOffers)
	h.play(id, "Nf6")
	// White offers with its move and Black accepts.
	if _, err := h.s.Move(ctx, MoveRequest{Action: h.act(id, alice), Move: "d3", OfferDraw: true}); err != nil {
		t.Fatal(err)
	}
	h.events()
	r, err := h.s.AcceptDraw(ctx, h.act(id, bob))
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != (chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Agreement}) {
		t.Errorf("outcome %v", r.Outcome)
	}
	if got := eventTypes(h.events()); got != "GameOver" {
		t.Errorf("events %q", got)
	}
	stored, _ := storage.Read(ctx, h.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
	if stored.DrawOffer.Pending || stored.DrawOffers != [2]int{2, 2} {
		t.Errorf("offers %+v %v", stored.DrawOffer, stored.DrawOffers)
	}
}

func TestClaims(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("-", "")
	id := g.ID
	h.play(id, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1")
	// Black to move: the start position has stood twice; Ng8 brings it a third time.
	_, err := h.s.ClaimDraw(ctx, ClaimRequest{Action: h.act(id, bob)})
	wantErr(t, err, ErrIncorrectClaim)
	_, err = h.s.ClaimDraw(ctx, ClaimRequest{Action: h.act(id, bob), Move: "Nc6"})
	wantErr(t, err, ErrIncorrectClaim)
	if got := h.game(id).Ply(); got != 7 {
		t.Fatalf("an incorrect claim with a move changed the game: ply %d", got)
	}
	_, err = h.s.ClaimDraw(ctx, ClaimRequest{Action: h.act(id, alice), Move: "Nf3"})
	wantErr(t, err, ErrNotYourTurn)
	_, err = h.s.ClaimDraw(ctx, ClaimRequest{Action: h.act(id, bob), Move: "Qh5"})
	wantErr(t, err, ErrIllegalMove)
	h.events()
	r, err := h.s.ClaimDraw(ctx, ClaimRequest{Action: h.act(id, bob), Move: "Ng8"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome.Termination != chesscore.ThreefoldRepetition || r.Ply != 8 || r.SAN != "Ng8" {
		t.Errorf("claim result %+v", r)
	}
	if got := eventTypes(h.events()); got != "GameOver" {
		t.Errorf("events %q", got)
	}

	// Fifty moves: the halfmove clock is at 99; the claim is on the board after Ra2.
	g = h.start("-", "8/8/8/8/8/5k2/8/R3K3 w - - 99 60")
	_, err = h.s.ClaimDraw(ctx, ClaimRequest{Action: h.act(g.ID, alice)})
	wantErr(t, err, ErrIncorrectClaim)
	r, err = h.s.ClaimDraw(ctx, ClaimRequest{Action: h.act(g.ID, alice), Move: "Ra2"})
	if err != nil || r.Outcome.Termination != chesscore.FiftyMoves {
		t.Fatalf("fifty-move claim: %+v, %v", r, err)
	}
	replayed, err := Replay(&r.Game.Game)
	if err != nil || replayed.Outcome() != r.Outcome {
		t.Errorf("replay: %v, %v", replayed, err)
	}
}

func TestResignAndAbort(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("10+0", "")
	if r, err := h.s.Abort(ctx, h.act(g.ID, bob)); err != nil || r.Outcome.Termination != chesscore.Aborted || r.Outcome.Result != chesscore.NoResult {
		t.Fatalf("abort at ply 0: %+v, %v", r, err)
	}
	g = h.start("10+0", "")
	h.play(g.ID, "d4")
	if _, err := h.s.Abort(ctx, h.act(g.ID, alice)); err != nil {
		t.Fatalf("abort at ply 1: %v", err)
	}
	g = h.start("10+0", "")
	h.play(g.ID, "d4 d5")
	_, err := h.s.Abort(ctx, h.act(g.ID, bob))
	wantErr(t, err, ErrTooLateToAbort)
	r, err := h.s.Resign(ctx, h.act(g.ID, alice)) // resigning on one's own turn
	if err != nil || r.Outcome != (chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.Resignation}) {
		t.Fatalf("resign: %+v, %v", r, err)
	}
	stored, _ := storage.Read(ctx, h.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
	if stored.Clock.State != clock.Stopped {
		t.Errorf("clock %s after resignation", stored.Clock.State)
	}
	// Resigning against a bare king is a draw (the winner could not checkmate).
	g = h.start("-", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
	h.play(g.ID, "Qa2 Kd7")
	r, err = h.s.Resign(ctx, h.act(g.ID, alice))
	if err != nil || r.Outcome != (chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Resignation}) {
		t.Fatalf("resign with a queen against a bare king: %+v, %v", r, err)
	}
}

func TestFlagFall(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("1+0", "")
	h.play(g.ID, "e4 e5") // first moves are free
	h.events()
	deadline := h.game(g.ID).Deadline()
	if !deadline.Equal(t0.Add(time.Minute)) {
		t.Fatalf("deadline %v", deadline)
	}
	h.clk.Set(deadline.Add(-time.Millisecond))
	h.s.FireDue()
	if !h.game(g.ID).Live() {
		t.Fatal("flag fell early")
	}
	h.clk.Set(deadline)
	h.s.FireDue()
	evs := h.events()
	if got := eventTypes(evs); got != "FlagFell GameOver" {
		t.Fatalf("events %q", got)
	}
	if ff := evs[0].(FlagFell); ff.Color != chesscore.White {
		t.Errorf("flag of %v", ff.Color)
	}
	over := evs[1].(GameOver)
	if over.Outcome != (chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.TimeForfeit}) {
		t.Errorf("outcome %v", over.Outcome)
	}
	stored, _ := storage.Read(ctx, h.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
	if !stored.Ended.Equal(deadline) || stored.Clock.Left[chesscore.White] != 0 {
		t.Errorf("ended %v, white left %v", stored.Ended, stored.Clock.Left)
	}

	// A flag against a player who cannot be mated is a draw (6.9).
	g = h.start("1+0", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
	h.play(g.ID, "Qa2 Kd7")
	h.events()
	h.clk.Advance(time.Minute + time.Second)
	// A move after the flag fell (before the timer fired) is refused and ends the game.
	_, err := h.move(g.ID, alice, "Qa3")
	wantErr(t, err, ErrTimeUp)
	wantErr(t, err, ErrGameOver)
	evs = h.events()
	if got := eventTypes(evs); got != "FlagFell GameOver" {
		t.Fatalf("events %q", got)
	}
	if o := evs[1].(GameOver).Outcome; o != (chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.DrawOnTime}) {
		t.Errorf("outcome %v", o)
	}
	if h.s.FireDue(); len(h.events()) != 0 {
		t.Error("the flag timer fired again")
	}
}

func TestFirstMoveAbort(t *testing.T) {
	h := newHarness(t, Options{FirstMoveTimeout: time.Minute})
	g := h.start("3+2", "")
	h.clk.Advance(50 * time.Second)
	h.play(g.ID, "e4") // black now has a minute for its first move
	h.clk.Advance(50 * time.Second)
	h.s.FireDue()
	if !h.game(g.ID).Live() {
		t.Fatal("aborted although black's minute had not passed")
	}
	h.clk.Advance(10 * time.Second)
	h.s.FireDue()
	evs := h.events()
	if over, ok := evs[len(evs)-1].(GameOver); !ok || over.Outcome.Termination != chesscore.Aborted {
		t.Fatalf("events %s", eventTypes(evs))
	}
}

func TestTakebacks(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("5+0", "")
	id := g.ID
	_, err := h.s.RequestTakeback(ctx, h.act(id, alice))
	wantErr(t, err, ErrNothingToTakeBack)
	h.play(id, "e4 e5")
	h.clk.Advance(10 * time.Second)
	h.play(id, "Nf3") // white's clock shows 4:50 after this move
	h.clk.Advance(4 * time.Second)
	h.events()

	// White takes back its own last move: one ply.
	if _, err := h.s.RequestTakeback(ctx, h.act(id, alice)); err != nil {
		t.Fatal(err)
	}
	_, err = h.s.RequestTakeback(ctx, h.act(id, bob))
	wantErr(t, err, ErrOfferPending)
	_, err = h.s.AcceptTakeback(ctx, h.act(id, alice))
	wantErr(t, err, ErrCannotAcceptOwn)
	if _, err := h.s.DeclineTakeback(ctx, h.act(id, bob)); err != nil {
		t.Fatal(err)
	}
	_, err = h.s.RequestTakeback(ctx, h.act(id, alice))
	wantErr(t, err, ErrAlreadyAsked)
	_, err = h.s.AcceptTakeback(ctx, h.act(id, bob))
	wantErr(t, err, ErrNoTakeback)
	if got := eventTypes(h.events()); got != "TakebackRequested TakebackDeclined" {
		t.Errorf("events %q", got)
	}
	h.play(id, "Nc6")
	h.clk.Advance(3 * time.Second)
	h.play(id, "Bb5") // white: 4:50 - 3 s = 4:47 at this move
	h.clk.Advance(6 * time.Second)
	// Black takes back its move and white's reply: two plies.
	if _, err := h.s.RequestTakeback(ctx, h.act(id, alice)); err != nil {
		t.Fatal(err) // white may ask to take back Bb5 (one ply)...
	}
	if _, err := h.s.DeclineTakeback(ctx, h.act(id, bob)); err != nil {
		t.Fatal(err)
	}
	h.clk.Advance(time.Second)
	if _, err := h.s.RequestTakeback(ctx, h.act(id, bob)); err != nil { // ...and black, to move, two
		t.Fatal(err)
	}
	h.events()
	h.clk.Advance(time.Second)
	r, err := h.s.AcceptTakeback(ctx, h.act(id, alice))
	if err != nil {
		t.Fatal(err)
	}
	if r.Ply != 3 || r.Game.Turn() != chesscore.Black || strings.Join(r.Game.SAN, " ") != "e4 e5 Nf3" {
		t.Fatalf("after the takeback: ply %d, %v", r.Ply, r.Game.SAN)
	}
	c := r.Game.Clock
	// Black's clock as when it played Nc6 (it had 4 s of thinking then: 5:00 - 4 s... its
	// first move was free, so Nc6 was made at 5:00 - 4 s = 4:56); white's as at Bb5.
	if c.Turn != chesscore.Black || c.Left[chesscore.Black] != 5*time.Minute-4*time.Second || c.Left[chesscore.White] != 5*time.Minute-13*time.Second {
		t.Errorf("clock after takeback: turn %v left %v", c.Turn, c.Left)
	}
	if got := r.Game.MoveClocks; len(got) != 3 {
		t.Errorf("move clocks %v", got)
	}
	if got := eventTypes(h.events()); got != "TakebackAccepted YourTurn" {
		t.Errorf("events %q", got)
	}
	// The game goes on from there.
	h.play(id, "Nc6 Bc4")
}

func TestIdempotentRequests(t *testing.T) {
	h := newHarness(t, Options{ReceiptTTL: time.Hour})
	g := h.start("-", "")
	req := MoveRequest{Action: Action{RequestID: "interaction-1", GameID: g.ID, UserID: alice.ID}, Move: "e4"}
	first, err := h.s.Move(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	h.events()
	second, err := h.s.Move(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !second.Replayed || first.Replayed || second.SAN != "e4" || second.Ply != 1 || second.Effect != EffectMoved {
		t.Errorf("replayed result %+v", second)
	}
	if len(h.events()) != 0 {
		t.Error("a replayed request sent events")
	}
	h.play(g.ID, "e5")
	// Across a restart, too; the game in the answer is the game as it is now.
	h.restart()
	third, err := h.s.Move(ctx, req)
	if err != nil || !third.Replayed || third.Ply != 1 || third.Game.Ply() != 2 {
		t.Fatalf("after restart: %+v, %v", third, err)
	}
	// Many copies of one request at once: one effect.
	var wg sync.WaitGroup
	results := make([]*Result, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := h.s.Move(ctx, MoveRequest{Action: Action{RequestID: "interaction-2", GameID: g.ID, UserID: alice.ID}, Move: "Nf3"})
			if err != nil {
				t.Error(err)
			}
			results[i] = r
		}()
	}
	wg.Wait()
	fresh := 0
	for _, r := range results {
		if r != nil && !r.Replayed {
			fresh++
		}
	}
	if fresh != 1 || h.game(g.ID).Ply() != 3 {
		t.Errorf("%d requests acted; ply %d", fresh, h.game(g.ID).Ply())
	}
	// Receipts expire.
	h.clk.Advance(2 * time.Hour)
	h.s.FireDue()
	if _, err := storage.Read(ctx, h.db, func(tx storage.Tx) (*storage.Receipt, error) { return tx.Receipt("interaction-1") }); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("old receipt: %v", err)
	}
}

func TestRacingMovesOneEffect(t *testing.T) {
	h := newHarness(t, Options{})
	for range 20 {
		g := h.start("-", "")
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, mv := range []string{"e4", "d4"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = h.s.Move(ctx, MoveRequest{Action: Action{RequestID: h.ridSync(), GameID: g.ID, UserID: alice.ID, Expect: AtPly(0)}, Move: mv})
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if !errors.Is(err, ErrNotYourTurn) && !errors.Is(err, ErrStale) {
				t.Fatalf("loser's error %v", err)
			}
		}
		if ok != 1 || h.game(g.ID).Ply() != 1 {
			t.Fatalf("%d moves succeeded; ply %d", ok, h.game(g.ID).Ply())
		}
	}
}

var ridMu sync.Mutex

func (h *harness) ridSync() string {
	ridMu.Lock()
	defer ridMu.Unlock()
	return h.rid()
}

func TestDowntimeIsCredited(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("1+0", "")
	h.play(g.ID, "e4 e5")
	h.clk.Advance(10 * time.Second) // white thinks 10 s; heartbeats meanwhile
	h.s.FireDue()
	h.clk.Advance(time.Second) // a second after the last heartbeat, the process dies
	h.kill()
	h.clk.Advance(time.Hour) // and comes back an hour later
	h.open()
	got := h.game(g.ID)
	if !got.Live() {
		t.Fatalf("white lost on time to downtime: %v", got.Outcome)
	}
	left, _ := got.Remaining(chesscore.White, h.clk.Now())
	if left < 49*time.Second || left > 50*time.Second {
		t.Errorf("white has %v after the restart, want 50 s (the time at the last heartbeat)", left)
	}
	h.clk.Advance(left - time.Millisecond)
	h.s.FireDue()
	if !h.game(g.ID).Live() {
		t.Fatal("flag fell before the credited time ran out")
	}
	h.clk.Advance(time.Millisecond)
	h.s.FireDue()
	if got := eventTypes(h.events()); !strings.HasSuffix(got, "FlagFell GameOver") {
		t.Errorf("events %q", got)
	}
}

func TestFlagThatFellWhileUpStands(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("1+0", "")
	h.play(g.ID, "e4 e5")
	h.clk.Advance(70 * time.Second)
	// The service was alive past the flag (its heartbeat says so) but died before its
	// timer handled it.
	if err := h.db.Update(ctx, func(tx storage.Tx) error { return tx.PutHeartbeat("bot", h.clk.Now()) }); err != nil {
		t.Fatal(err)
	}
	h.kill()
	h.clk.Advance(time.Hour)
	h.open()
	got := h.game(g.ID)
	if got.Outcome != (chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.TimeForfeit}) {
		t.Fatalf("outcome %v", got.Outcome)
	}
	if !got.Ended.Equal(t0.Add(time.Minute)) {
		t.Errorf("ended %v, want the flag's instant", got.Ended)
	}
}

func TestCorrespondenceReminderAndDeadline(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("2d", "")
	h.play(g.ID, "e4")
	h.events()
	if err := h.s.SetUserPrefs(ctx, alice.ID, storage.UserPrefs{Reminders: false}); err != nil {
		t.Fatal(err)
	}
	// Black has two days; the reminder comes with half a day left.
	h.clk.Advance(36*time.Hour - time.Second)
	h.s.FireDue()
	if evs := h.events(); len(evs) != 0 {
		t.Fatalf("early events %s", eventTypes(evs))
	}
	h.clk.Advance(time.Second)
	h.s.FireDue()
	evs := h.events()
	rd, ok := evs[0].(ReminderDue)
	if len(evs) != 1 || !ok || rd.Player != bob || !rd.Deadline.Equal(t0.Add(48*time.Hour)) {
		t.Fatalf("events %#v", evs)
	}
	// Once per turn, even across a restart.
	h.restart()
	h.s.FireDue()
	if evs := h.events(); len(evs) != 0 {
		t.Fatalf("reminder sent again: %s", eventTypes(evs))
	}
	h.clk.Advance(time.Hour)
	h.play(g.ID, "e5") // alice does not want reminders
	h.clk.Advance(47 * time.Hour)
	h.s.FireDue()
	if got := eventTypes(h.events()); got != "YourTurn" {
		t.Errorf("events %q", got)
	}
	h.clk.Advance(time.Hour)
	h.s.FireDue()
	evs = h.events()
	if got := eventTypes(evs); got != "FlagFell GameOver" {
		t.Fatalf("events %q", got)
	}
	if o := evs[1].(GameOver).Outcome; o.Result != chesscore.BlackWins {
		t.Errorf("outcome %v", o)
	}
}

func TestOnFinishHookIsAtomic(t *testing.T) {
	fail := true
	var finished []uint64
	h := newHarness(t, Options{OnFinish: func(w storage.Tx, g *Game) error {
		if fail {
			return errors.New("ladder unavailable")
		}
		finished = append(finished, g.ID)
		return w.PutUser(storage.User{ID: "ladder:" + fmt.Sprint(g.ID), Name: g.Outcome.String()})
	}})
	g := h.start("-", "")
	h.play(g.ID, "f3 e5 g4")
	_, err := h.move(g.ID, bob, "Qh4#")
	if err == nil {
		t.Fatal("the game ended although the hook failed")
	}
	if got := h.game(g.ID); !got.Live() || got.Ply() != 3 {
		t.Fatalf("after a failed hook: live %v, ply %d", got.Live(), got.Ply())
	}
	fail = false
	if _, err := h.move(g.ID, bob, "Qh4#"); err != nil {
		t.Fatal(err)
	}
	u, err := storage.Read(ctx, h.db, func(tx storage.Tx) (storage.User, error) { return tx.User("ladder:" + fmt.Sprint(g.ID)) })
	if err != nil || u.Name != "0-1 checkmate" || len(finished) == 0 {
		t.Errorf("hook write: %+v, %v", u, err)
	}
}

// blockingNotifier blocks every Notify until released.
type blockingNotifier struct {
	release chan struct{}
	n       int
	mu      sync.Mutex
}

func (b *blockingNotifier) Notify(context.Context, Event) {
	<-b.release
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
}

func TestSlowNotifierDoesNotBlockGames(t *testing.T) {
	bn := &blockingNotifier{release: make(chan struct{})}
	h := newHarness(t, Options{})
	h.s.Close()
	opts := Options{Clock: h.clk, Notifier: bn}
	s, err := New(h.db, opts)
	if err != nil {
		t.Fatal(err)
	}
	h.s = s
	g := h.start("-", "")
	done := make(chan error)
	go func() {
		for _, mv := range []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"} {
			p := alice
			if h.game(g.ID).Turn() == chesscore.Black {
				p = bob
			}
			if _, err := s.Move(ctx, MoveRequest{Action: Action{GameID: g.ID, UserID: p.ID}, Move: mv}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("moves blocked behind the notifier")
	}
	close(bn.release)
	s.Flush(ctx)
	if bn.n != 7 { // GameStarted and six YourTurn
		t.Errorf("%d events delivered", bn.n)
	}
}

func TestSetGameThreadAndQueries(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("-", "")
	got, err := h.s.SetGameThread(ctx, g.ID, "thread-9")
	if err != nil || got.ThreadID != "thread-9" {
		t.Fatalf("SetGameThread: %v, %v", got, err)
	}
	h.restart()
	if h.game(g.ID).ThreadID != "thread-9" {
		t.Error("thread id not stored")
	}
	byUser, _ := h.s.GamesByUser(ctx, bob.ID, storage.Query{})
	inChannel, _ := h.s.GamesInChannel(ctx, "ch", storage.Query{LiveOnly: true})
	if len(byUser) != 1 || len(inChannel) != 1 {
		t.Errorf("queries: %d by user, %d in channel", len(byUser), len(inChannel))
	}
	if u, err := storage.Read(ctx, h.db, func(tx storage.Tx) (storage.User, error) { return tx.User(bob.ID) }); err != nil || u.Name != "Bob" {
		t.Errorf("user record %+v, %v", u, err)
	}
	if pgn := h.game(g.ID).PGN(); !strings.Contains(pgn, `[White "Alice"]`) || !strings.Contains(pgn, "*") {
		t.Errorf("PGN:\n%s", pgn)
	}
}

func TestReplayRefusesBadRecords(t *testing.T) {
	good := &storage.Game{Moves: []chesscore.Move{chesscore.NewMove(chesscore.E2, chesscore.E4)}}
	if _, err := Replay(good); err != nil {
		t.Fatal(err)
	}
	for name, rec := range map[string]*storage.Game{
		"illegal move":   {Moves: []chesscore.Move{chesscore.NewMove(chesscore.E2, chesscore.E5)}},
		"bad FEN":        {StartFEN: "nonsense"},
		"false mate":     {Outcome: chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Checkmate}},
		"live after end": {StartFEN: "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", Moves: []chesscore.Move{chesscore.NewMove(chesscore.F7, chesscore.G7)}},
	} {
		if _, err := Replay(rec); err == nil {
			t.Errorf("%s: replayed", name)
		}
	}
}

func TestClosedServiceRefuses(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("-", "")
	h.s.Close()
	_, err := h.move(g.ID, alice, "e4")
	wantErr(t, err, ErrClosed)
}

func TestScopeAndInstancesKeepApart(t *testing.T) {
	h := newHarness(t, Options{Scope: BotScope})
	g := h.start("1+0", "") // a bot game (alice and bob)
	h.play(g.ID, "e4 e5")
	h.clk.Advance(10 * time.Second)
	h.s.FireDue() // the bot's heartbeat says it was alive 10 s into white's move
	h.kill()

	// gambit play runs on the same file for an hour while the bot is down.
	h.clk.Advance(time.Minute)
	db := storagetest.OpenFile(t, h.path, &bolt.Options{NoSync: true})
	local, err := New(db, Options{Clock: h.clk, Instance: "play", Scope: LocalScope})
	if err != nil {
		t.Fatal(err)
	}
	for range 30 {
		h.clk.Advance(2 * time.Minute)
		local.FireDue()
	}
	local.Close()
	db.Close()

	h.open() // the bot comes back: white still has its 50 s
	got := h.game(g.ID)
	left, _ := got.Remaining(chesscore.White, h.clk.Now())
	if !got.Live() || left != 50*time.Second {
		t.Fatalf("bot game after the play session: live %v, white has %v (want 50 s)", got.Live(), left)
	}
}

func TestFailedRequestLeavesNoReceipt(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("-", "")
	a := Action{RequestID: "same", GameID: g.ID, UserID: alice.ID}
	_, err := h.s.Move(ctx, MoveRequest{Action: a, Move: "e5"})
	wantErr(t, err, ErrIllegalMove)
	r, err := h.s.Move(ctx, MoveRequest{Action: a, Move: "e4"})
	if err != nil || r.Replayed || r.SAN != "e4" {
		t.Fatalf("retry after a failure: %+v, %v", r, err)
	}
}

func TestRunHandsDueTimersToHandlers(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("1+0", "")
	h.play(g.ID, "e4 e5")
	h.events()
	h.clk.Advance(2 * time.Minute) // the flag is past when Run starts
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- h.s.Run(runCtx) }()
	deadline := time.Now().Add(10 * time.Second)
	for h.game(g.ID).Live() {
		if time.Now().After(deadline) {
			t.Fatal("Run did not handle the due flag")
		}
		time.Sleep(time.Millisecond)
	}
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
	}
	if got := eventTypes(h.events()); got != "FlagFell GameOver" {
		t.Errorf("events %q", got)
	}
}

func TestBlackToMoveStartAndTakeback(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("5+0", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40")
	if g.Clock.Turn != chesscore.Black {
		t.Fatalf("clock turn %v", g.Clock.Turn)
	}
	_, err := h.move(g.ID, alice, "e4")
	wantErr(t, err, ErrNotYourTurn)
	h.play(g.ID, "Kd7 e4 Ke6")
	h.clk.Advance(3 * time.Second)
	if _, err := h.s.RequestTakeback(ctx, h.act(g.ID, bob)); err != nil { // one ply: Ke6
		t.Fatal(err)
	}
	r, err := h.s.AcceptTakeback(ctx, h.act(g.ID, alice))
	if err != nil || r.Ply != 2 || r.Game.Turn() != chesscore.Black || r.Game.Clock.Turn != chesscore.Black {
		t.Fatalf("takeback: %+v, %v", r, err)
	}
	if _, err := Replay(&r.Game.Game); err != nil {
		t.Fatal(err)
	}
}

func TestRunCommitsFlagsTogetherAndAlone(t *testing.T) {
	var refuse atomic.Uint64
	h := newHarness(t, Options{OnFinish: func(w storage.Tx, g *Game) error {
		if g.ID == refuse.Load() {
			return errors.New("ladder refuses")
		}
		return nil
	}})
	var ids []uint64
	for range 5 {
		g := h.start("1+0", "")
		h.play(g.ID, "e4 e5")
		ids = append(ids, g.ID)
	}
	refuse.Store(ids[2])
	h.events()
	h.clk.Advance(2 * time.Minute) // every flag is down when Run starts
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- h.s.Run(runCtx) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ended := 0
		for _, id := range ids {
			if !h.game(id).Live() {
				ended++
			}
		}
		if ended == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of 4 flags recorded", ended)
		}
		time.Sleep(time.Millisecond)
	}
	stop()
	<-done
	if !h.game(ids[2]).Live() {
		t.Error("the game whose hook refused ended anyway")
	}
	if got := strings.Count(eventTypes(h.events()), "FlagFell"); got != 4 {
		t.Errorf("%d FlagFell events", got)
	}
}
