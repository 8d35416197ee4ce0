package votechess

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

const (
	enginePID = "900000000000000001"
	guild     = "700000000000000001"
	channel   = "710000000000000001"
	ana       = "100000000000000001"
	ben       = "100000000000000002"
	cleo      = "100000000000000003"
	outsider  = "100000000000000009"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// events records the vote service's events.
type events struct {
	mu  sync.Mutex
	evs []Event
}

func (e *events) Notify(_ context.Context, ev Event) {
	e.mu.Lock()
	e.evs = append(e.evs, ev)
	e.mu.Unlock()
}

func (e *events) take() []Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.evs
	e.evs = nil
	return out
}

// rig is a game service, the engine (its workers running) and the vote service on one
// store, with a manual clock.
type rig struct {
	t     *testing.T
	db    storage.Store
	clk   *timers.ManualClock
	games *games.Service
	eng   *engineplay.Service
	votes *Service
	evs   *events
}

func newRig(t *testing.T, db storage.Store) *rig {
	return newProcess(t, db, timers.NewManualClock(t0), "bot")
}

// newProcess is a rig as one process of several on db, sharing their clock.
func newProcess(t *testing.T, db storage.Store, clk *timers.ManualClock, instance string) *rig {
	r := &rig{t: t, db: db, clk: clk, evs: &events{}}
	var votes atomic.Pointer[Service]
	var eng atomic.Pointer[engineplay.Service]
	gs, err := games.New(db, games.Options{Clock: r.clk, Logger: quiet(), Instance: instance, Notifier: games.NotifierFunc(func(ctx context.Context, e games.Event) {
		if s := eng.Load(); s != nil {
			s.Notify(ctx, e)
		}
		if s := votes.Load(); s != nil {
			s.Notify(ctx, e)
		}
	})})
	if err != nil {
		t.Fatal(err)
	}
	e, err := engineplay.New(t.Context(), db, engineplay.Options{Clock: r.clk, ReplyDelay: -1, Untimed: 20 * time.Millisecond, Logger: quiet(),
		Rand: func() uint64 { return 7 }})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Bind(t.Context(), gs, enginePID); err != nil {
		t.Fatal(err)
	}
	eng.Store(e)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { defer close(ran); e.Run(ctx) }()
	r.games, r.eng = gs, e
	r.votes = r.newVotes()
	votes.Store(r.votes)
	t.Cleanup(func() {
		cancel()
		<-ran
		e.Close()
		gs.Close()
	})
	return r
}

// newVotes is another vote service on the rig's games: a second process, or the one
// after a restart.
func (r *rig) newVotes() *Service {
	s := New(r.db, Options{Clock: r.clk, Notifier: r.evs, Logger: quiet(), CandidateNodes: 3000})
	s.Bind(r.games, r.eng)
	return s
}

func (r *rig) start(color string, window time.Duration) *View {
	r.t.Helper()
	v, err := r.votes.Start(r.t.Context(), StartRequest{RequestID: "800000000000000001", GuildID: guild, ChannelID: channel,
		Starter: storage.Player{ID: ana, Name: "ana"}, Level: 1, Color: storage.ColorChoice(color), Window: window})
	if err != nil {
		r.t.Fatal(err)
	}
	return v
}

func (r *rig) ballot(id uint64, user, move string) (*View, error) {
	return r.votes.Ballot(r.t.Context(), BallotRequest{GameID: id, GuildID: guild, UserID: user, Ply: -1, Move: move})
}

func (r *rig) mustBallot(id uint64, user, move string) *View {
	r.t.Helper()
	v, err := r.ballot(id, user, move)
	if err != nil {
		r.t.Fatalf("%s votes %s: %v", user, move, err)
	}
	return v
}

func (r *rig) record(id uint64) *storage.VoteGame {
	r.t.Helper()
	v, err := r.votes.read(r.t.Context(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return v
}

// waitVote reconciles (with s and the others, each a process's vote service) until
// the vote of game id is open on ply (the engine replies on its own goroutines, in real
// time, in whichever process).
func (r *rig) waitVote(s *Service, id uint64, ply int, others ...*Service) *storage.VoteGame {
	r.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, x := range append([]*Service{s}, others...) {
			x.FireDue(r.t.Context())
		}
		if v := r.record(id); v.Round.Ply == ply && v.Round.Open {
			return v
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.t.Fatalf("game %d: no vote opened on ply %d (record %+v)", id, ply, r.record(id))
	return nil
}

func (r *rig) game(id uint64) *games.Game {
	r.t.Helper()
	g, err := r.games.Game(r.t.Context(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return g
}

// closeVote moves the clock past the open vote's close and reconciles.
func (r *rig) closeVote(s *Service, id uint64) {
	r.t.Helper()
	r.clk.Set(r.record(id).Round.Closes)
	if n := s.FireDue(r.t.Context()); n == 0 {
		r.t.Fatal("no close was due at the vote's end")
	}
}

func closedEvent(t *testing.T, evs []Event) VoteClosed {
	t.Helper()
	for _, e := range evs {
		if c, ok := e.(VoteClosed); ok {
			return c
		}
	}
	t.Fatalf("no VoteClosed among %d events %v", len(evs), evs)
	return VoteClosed{}
}

// TestVoteGameOfSeveralMoves: three members play three moves by vote; ballots change,
// the refusals change nothing, a tie goes to the move voted for first.
func TestVoteGameOfSeveralMoves(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		r := newRig(t, db)
		v := r.start("white", time.Hour)
		id := v.Game.ID
		if v.Vote.Color != chesscore.White || !v.Vote.Round.Open || v.Vote.Round.Ply != 0 || len(v.Choices) != 20 || v.Level != 1 {
			t.Fatalf("new vote game: %+v, %d choices, level %d", v.Vote, len(v.Choices), v.Level)
		}
		if !IsTeam(v.Game.White.ID) || v.Game.Black.ID != enginePID {
			t.Fatalf("players %+v vs %+v", v.Game.White, v.Game.Black)
		}
		for _, u := range []string{ben, cleo} {
			if _, err := r.votes.Join(t.Context(), id, guild, u); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := r.votes.Join(t.Context(), id, guild, ben); !errors.Is(err, ErrAlreadyMember) {
			t.Errorf("second join: %v, want ErrAlreadyMember", err)
		}
		if _, err := r.votes.Join(t.Context(), id, "another-guild", outsider); !errors.Is(err, ErrNotFound) {
			t.Errorf("join from another server: %v, want ErrNotFound", err)
		}
		r.FireDueAll()
		if evs := r.evs.take(); len(evs) != 1 {
			t.Errorf("events after the start: %v, want one VoteOpened", evs)
		} else if o, ok := evs[0].(VoteOpened); !ok || o.View.Vote.Round.Ply != 0 {
			t.Errorf("event %+v, want the vote on ply 0 opened", evs[0])
		}
		if err := r.votes.MarkPosted(t.Context(), id, 0); err != nil {
			t.Fatal(err)
		}

		// Move 1: e4 by two votes to one, after a changed ballot.
		r.mustBallot(id, ana, "e4")
		r.mustBallot(id, ben, "d2d4")
		r.mustBallot(id, cleo, "Nf3")
		got := r.mustBallot(id, cleo, "e2e4") // changes her vote
		if len(got.Vote.Round.Ballots) != 3 || got.Tally[0].SAN != "e4" || got.Tally[0].Votes != 2 || got.Tally[1].SAN != "d4" {
			t.Fatalf("tally %+v of ballots %+v", got.Tally, got.Vote.Round.Ballots)
		}
		before := r.record(id)
		for _, c := range []struct {
			name, user, move string
			ply              int
			want             error
		}{
			{"outsider", outsider, "e4", -1, ErrNotMember},
			{"illegal", ana, "e5", -1, ErrIllegalMove},
			{"not a move", ana, "Qxz9", -1, ErrIllegalMove},
			{"another ply", ana, "e4", 2, ErrVoteClosed},
		} {
			_, err := r.votes.Ballot(t.Context(), BallotRequest{GameID: id, GuildID: guild, UserID: c.user, Ply: c.ply, Move: c.move})
			if !errors.Is(err, c.want) {
				t.Errorf("%s: %v, want %v", c.name, err, c.want)
			}
		}
		if _, err := r.votes.Ballot(t.Context(), BallotRequest{GameID: id, GuildID: "another-guild", UserID: ana, Ply: -1, Move: "e4"}); !errors.Is(err, ErrNotFound) {
			t.Errorf("ballot from another server: %v, want ErrNotFound", err)
		}
		if after := r.record(id); after.Version != before.Version {
			t.Errorf("refused ballots wrote the record (version %d → %d)", before.Version, after.Version)
		}
		r.clk.Set(before.Round.Closes.Add(-time.Second))
		if n := r.votes.FireDue(t.Context()); n != 0 || r.game(id).Ply() != 0 {
			t.Fatalf("the vote closed early (%d due, ply %d)", n, r.game(id).Ply())
		}
		r.closeVote(r.votes, id)
		c := closedEvent(t, r.evs.take())
		if c.SAN != "e4" || c.Ply != 0 || len(c.Tally) != 2 {
			t.Errorf("closed: %+v", c)
		}
		if g := r.game(id); g.Ply() < 1 || g.SAN[0] != "e4" {
			t.Fatalf("game after the vote: %v", g.SAN)
		}
		if _, err := r.ballot(id, ana, "d4"); !errors.Is(err, ErrVoteClosed) {
			t.Errorf("a ballot after the close: %v, want ErrVoteClosed", err)
		}

		// Move 2: the engine replies, the next vote opens; a tie goes to the first.
		v2 := r.waitVote(r.votes, id, 2)
		if v2.Round.Ballots != nil || v2.Empty != 0 || v2.Round.Closes != r.clk.Now().Add(time.Hour) {
			t.Errorf("second vote: %+v", v2.Round)
		}
		r.clk.Set(r.clk.Now().Add(time.Minute))
		r.mustBallot(id, ben, "d4")
		r.clk.Set(r.clk.Now().Add(time.Minute))
		r.mustBallot(id, ana, "Nc3")
		r.closeVote(r.votes, id)
		if c := closedEvent(t, r.evs.take()); c.SAN != "d4" {
			t.Errorf("the tie went to %s, want d4 (voted for first)", c.SAN)
		}

		// Move 3, by one vote of three.
		r.waitVote(r.votes, id, 4)
		r.mustBallot(id, cleo, "Nf3")
		r.closeVote(r.votes, id)
		if c := closedEvent(t, r.evs.take()); c.SAN != "Nf3" {
			t.Errorf("third move %s, want Nf3", c.SAN)
		}
		g := r.game(id)
		if g.SAN[0] != "e4" || g.SAN[2] != "d4" || g.SAN[4] != "Nf3" || !g.Live() {
			t.Errorf("moves %v, live %v", g.SAN, g.Live())
		}
	})
}

// FireDueAll reconciles what is queued.
func (r *rig) FireDueAll() { r.votes.FireDue(r.t.Context()) }

// TestEmptyVotesResign: a vote without a ballot moves on a window; MaxEmptyVotes in a
// row resign the team.
func TestEmptyVotesResign(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		r := newRig(t, db)
		id := r.start("white", 10*time.Minute).Game.ID
		r.FireDueAll()
		r.mustBallot(id, ana, "e4")
		r.closeVote(r.votes, id)
		r.waitVote(r.votes, id, 2)
		r.evs.take()
		for n := 1; n < MaxEmptyVotes; n++ {
			r.closeVote(r.votes, id)
			v := r.record(id)
			if v.Empty != n || !v.Round.Open || v.Round.Ply != 2 || v.Round.Closes != r.clk.Now().Add(10*time.Minute) {
				t.Fatalf("after %d empty votes: %+v", n, v)
			}
			evs := r.evs.take()
			if len(evs) != 1 {
				t.Fatalf("events %v, want the vote announced again", evs)
			}
			if o, ok := evs[0].(VoteOpened); !ok || o.View.Vote.Empty != n {
				t.Errorf("event %+v", evs[0])
			}
		}
		r.closeVote(r.votes, id)
		g := r.game(id)
		if g.Live() || g.Outcome.Termination != chesscore.Resignation || g.Outcome.Result != chesscore.WinFor(chesscore.Black) {
			t.Fatalf("after %d empty votes the game is %v", MaxEmptyVotes, g.Outcome)
		}
		if v := r.record(id); !v.Over || v.Round.Open {
			t.Errorf("record after the resignation: %+v", v)
		}
		if evs := r.evs.take(); len(evs) != 1 {
			t.Errorf("events %v, want TeamResigned", evs)
		} else if _, ok := evs[0].(TeamResigned); !ok {
			t.Errorf("event %T, want TeamResigned", evs[0])
		}
		if _, err := r.ballot(id, ana, "e4"); !errors.Is(err, ErrGameOver) {
			t.Errorf("ballot in a finished game: %v, want ErrGameOver", err)
		}
	})
}

// TestBallotsRace: members voting at once all land, one ballot each; one member's
// racing ballots leave exactly one of them.
func TestBallotsRace(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		r := newRig(t, db)
		id := r.start("white", time.Hour).Game.ID
		members := []string{ana}
		for i := range 6 {
			u := fmt.Sprintf("10000000000000010%d", i)
			if _, err := r.votes.Join(t.Context(), id, guild, u); err != nil {
				t.Fatal(err)
			}
			members = append(members, u)
		}
		moves := []string{"e4", "d4", "c4", "Nf3", "g3", "b3", "f4"}
		var wg sync.WaitGroup
		errs := make([]error, len(members)+2)
		for i, u := range members {
			wg.Go(func() { _, errs[i] = r.ballot(id, u, moves[i]) })
		}
		// ana's own two ballots race as well.
		wg.Go(func() { _, errs[len(members)] = r.ballot(id, ana, "a3") })
		wg.Go(func() { _, errs[len(members)+1] = r.ballot(id, ana, "h3") })
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("ballot %d: %v", i, err)
			}
		}
		v := r.record(id)
		if len(v.Round.Ballots) != len(members) {
			t.Fatalf("%d ballots of %d members: %+v", len(v.Round.Ballots), len(members), v.Round.Ballots)
		}
		for _, b := range v.Round.Ballots {
			if b.UserID == ana && b.Move != "e2e4" && b.Move != "a2a3" && b.Move != "h2h3" {
				t.Errorf("ana's ballot is %s", b.Move)
			}
		}
	})
}

// TestCloseOnceAcrossProcesses: two vote services (two processes) close the same vote
// at once: the move is played once, announced once; a service started afterwards (a
// restart) plays nothing more and announces the next vote.
func TestCloseOnceAcrossProcesses(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		r := newRig(t, db)
		id := r.start("white", time.Hour).Game.ID
		r.FireDueAll()
		r.mustBallot(id, ana, "e4")
		other := r.newVotes()
		if _, err := other.Adopt(t.Context()); err != nil {
			t.Fatal(err)
		}
		other.FireDue(t.Context()) // it learns the open vote and its close
		r.evs.take()
		r.clk.Set(r.record(id).Round.Closes)
		var wg sync.WaitGroup
		for _, s := range []*Service{r.votes, other} {
			wg.Go(func() { s.FireDue(t.Context()) })
		}
		wg.Wait()
		closed := 0
		for _, e := range r.evs.take() {
			if _, ok := e.(VoteClosed); ok {
				closed++
			}
		}
		if closed != 1 {
			t.Errorf("%d VoteClosed events, want 1", closed)
		}
		g := r.waitGame(id, 2)
		if g.SAN[0] != "e4" {
			t.Fatalf("moves %v", g.SAN)
		}
		restarted := r.newVotes()
		if _, err := restarted.Adopt(t.Context()); err != nil {
			t.Fatal(err)
		}
		v := r.waitVote(restarted, id, 2)
		if v.Round.Ply != 2 || r.game(id).Ply() != 2 {
			t.Errorf("after the restart: vote %+v, game at ply %d", v.Round, r.game(id).Ply())
		}
		// The vote opened but not announced is announced by the next process too.
		again := r.newVotes()
		if _, err := again.Adopt(t.Context()); err != nil {
			t.Fatal(err)
		}
		r.evs.take()
		again.FireDue(t.Context())
		if evs := r.evs.take(); len(evs) != 1 {
			t.Errorf("a vote never marked posted: events %v, want it announced again", evs)
		}
		if err := again.MarkPosted(t.Context(), id, 2); err != nil {
			t.Fatal(err)
		}
		if _, err := again.Adopt(t.Context()); err != nil {
			t.Fatal(err)
		}
		again.FireDue(t.Context())
		if evs := r.evs.take(); len(evs) != 0 {
			t.Errorf("a posted vote was announced again: %v", evs)
		}
	})
}

// waitGame waits until game id has reached ply.
func (r *rig) waitGame(id uint64, ply int) *games.Game {
	r.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if g := r.game(id); g.Ply() >= ply {
			return g
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.t.Fatalf("game %d did not reach ply %d", id, ply)
	return nil
}

// TestTeamPlaysBlack: with the team on Black, the engine opens and the first vote is
// on ply 1; a bad window is refused.
func TestTeamPlaysBlack(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		r := newRig(t, db)
		for _, w := range []time.Duration{0, time.Second, storage.MaxVoteWindow + time.Hour} {
			_, err := r.votes.Start(t.Context(), StartRequest{RequestID: "1", GuildID: guild, ChannelID: channel,
				Starter: storage.Player{ID: ana}, Level: 1, Color: "black", Window: w})
			if !errors.Is(err, ErrBadWindow) {
				t.Errorf("window %v: %v, want ErrBadWindow", w, err)
			}
		}
		v := r.start("black", time.Hour)
		if v.Vote.Color != chesscore.Black || v.Vote.Round.Open {
			t.Fatalf("new game with the team on Black: %+v", v.Vote)
		}
		r.waitVote(r.votes, v.Game.ID, 1)
		if _, err := r.ballot(v.Game.ID, ana, "e5"); err != nil && !errors.Is(err, ErrIllegalMove) {
			t.Fatal(err)
		}
	})
}

// TestFailedCloseLosesNothing: a close whose commit does not happen (its context ends
// first, as in a process stopped mid-close) leaves the vote open with its ballots and
// the game unmoved; the process started next closes it, once.
func TestFailedCloseLosesNothing(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		r := newRig(t, db)
		id := r.start("white", time.Hour).Game.ID
		r.FireDueAll()
		r.mustBallot(id, ana, "c4")
		r.clk.Set(r.record(id).Round.Closes)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		r.votes.FireDue(ctx)
		if v, g := r.record(id), r.game(id); !v.Round.Open || len(v.Round.Ballots) != 1 || g.Ply() != 0 {
			t.Fatalf("after a failed close: vote %+v, game at ply %d", v.Round, g.Ply())
		}
		r.evs.take()
		restarted := r.newVotes() // the process stopped; the next one takes the game up
		if _, err := restarted.Adopt(t.Context()); err != nil {
			t.Fatal(err)
		}
		restarted.FireDue(t.Context())
		if c := closedEvent(t, r.evs.take()); c.SAN != "c4" {
			t.Errorf("closed with %s, want c4", c.SAN)
		}
		if g := r.waitGame(id, 1); g.SAN[0] != "c4" {
			t.Errorf("moves %v", g.SAN)
		}
	})
}

// TestTwoProcessesOnPostgres: two processes (each its games, engine and votes) on one
// PostgreSQL database take ballots at once and close the same vote at once: every
// ballot lands, the move is played once (the tie of two ballots cast at one instant
// goes to the lower UCI text, d2d4), and the game goes on to the next vote.
func TestTwoProcessesOnPostgres(t *testing.T) {
	dsn := storagetest.PostgresDSN(t)
	clk := timers.NewManualClock(t0)
	a := newProcess(t, storagetest.OpenPostgresDSN(t, dsn, nil), clk, "bot-a")
	b := newProcess(t, storagetest.OpenPostgresDSN(t, dsn, nil), clk, "bot-b")
	id := a.start("white", time.Hour).Game.ID
	a.FireDueAll()
	if _, err := b.votes.Join(t.Context(), id, guild, ben); err != nil {
		t.Fatal(err)
	}
	if _, err := b.votes.Adopt(t.Context()); err != nil {
		t.Fatal(err)
	}
	b.FireDueAll()
	var wg sync.WaitGroup
	var errA, errB error
	wg.Go(func() { _, errA = a.ballot(id, ana, "e4") })
	wg.Go(func() { _, errB = b.ballot(id, ben, "d4") })
	wg.Wait()
	if errA != nil || errB != nil {
		t.Fatalf("ballots: %v, %v", errA, errB)
	}
	if v := a.record(id); len(v.Round.Ballots) != 2 {
		t.Fatalf("ballots stored: %+v", v.Round.Ballots)
	}
	a.evs.take()
	b.evs.take()
	clk.Set(a.record(id).Round.Closes)
	wg.Go(func() { a.votes.FireDue(t.Context()) })
	wg.Go(func() { b.votes.FireDue(t.Context()) })
	wg.Wait()
	closed := 0
	for _, evs := range [][]Event{a.evs.take(), b.evs.take()} {
		for _, e := range evs {
			if _, ok := e.(VoteClosed); ok {
				closed++
			}
		}
	}
	if closed != 1 {
		t.Errorf("%d VoteClosed events across the processes, want 1", closed)
	}
	// The engine's reply is played in either process; the one that hears of it opens
	// the next vote.
	v := a.waitVote(a.votes, id, 2, b.votes)
	g := a.game(id)
	if g.Ply() != 2 || g.SAN[0] != "d4" || v.Round.Ballots != nil {
		t.Fatalf("after the close: moves %v, vote %+v", g.SAN, v.Round)
	}
	if bg := b.game(id); bg.Ply() != 2 || bg.SAN[0] != "d4" {
		t.Errorf("the other process sees moves %v", bg.SAN)
	}
}
