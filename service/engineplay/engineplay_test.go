package engineplay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/internal/stockfish"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
	"github.com/gambitchess/gambit/uci"
)

// The test binary doubles as an external engine: with GAMBIT_ENGINEPLAY_FAKE=gambit it
// serves the built-in engine over UCI; with =crash it answers the handshake and exits
// on the first go.
func TestMain(m *testing.M) {
	switch os.Getenv("GAMBIT_ENGINEPLAY_FAKE") {
	case "":
		os.Exit(m.Run())
	case "gambit":
		if err := (&uci.Server{HashMB: 2}).Serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "crash":
		buf := make([]byte, 4096)
		var in strings.Builder
		for {
			n, err := os.Stdin.Read(buf)
			in.Write(buf[:n])
			s := in.String()
			if strings.Contains(s, "uci\n") && !strings.Contains(s, "uciok-sent") {
				fmt.Println("id name crasher")
				fmt.Println("uciok")
				in.WriteString("uciok-sent")
			}
			if strings.Count(s, "isready\n") > strings.Count(s, "readyok-sent") {
				fmt.Println("readyok")
				in.WriteString("readyok-sent")
			}
			if strings.Contains(s, "\ngo ") {
				fmt.Fprintln(os.Stderr, "crasher: goodbye")
				os.Exit(3)
			}
			if err != nil {
				os.Exit(0)
			}
		}
	}
	os.Exit(0)
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

const enginePID = "900000000000000001"

var ana = storage.Player{ID: "100000000000000001", Name: "ana"}

// rig is a game service and the engine on one store, with a manual clock.
type rig struct {
	t      testing.TB
	path   string
	db     *bolt.DB
	clk    *timers.ManualClock
	svc    *games.Service
	eng    *Service
	opts   Options
	cancel context.CancelFunc
	ran    chan struct{}
	events chan games.Event
}

func newRig(t testing.TB, opts Options) *rig {
	r := &rig{t: t, path: filepath.Join(t.TempDir(), "gambit.db"), clk: timers.NewManualClock(t0), opts: opts}
	r.open(true)
	t.Cleanup(r.close)
	return r
}

// open starts the services; run says whether the engine's workers run.
func (r *rig) open(run bool) {
	r.t.Helper()
	db := storagetest.OpenFile(r.t, r.path, &bolt.Options{NoSync: true})
	r.db = db
	r.events = make(chan games.Event, 1000)
	var eng atomic.Pointer[Service]
	svc, err := games.New(db, games.Options{Clock: r.clk, Notifier: games.NotifierFunc(func(ctx context.Context, e games.Event) {
		if s := eng.Load(); s != nil {
			s.Notify(ctx, e)
		}
		r.events <- e
	})})
	if err != nil {
		r.t.Fatal(err)
	}
	r.svc = svc
	opts := r.opts
	opts.Clock = r.clk
	if opts.ReplyDelay == 0 {
		opts.ReplyDelay = -1
	}
	n := uint64(7)
	opts.Rand = func() uint64 { n = n*6364136223846793005 + 1442695040888963407; return n }
	s, err := New(context.Background(), db, opts)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := s.Bind(context.Background(), svc, enginePID); err != nil {
		r.t.Fatal(err)
	}
	eng.Store(s)
	r.eng = s
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.ran = cancel, make(chan struct{})
	if !run {
		close(r.ran)
		return
	}
	go func() {
		defer close(r.ran)
		s.Run(ctx)
	}()
}

func (r *rig) close() {
	if r.db == nil {
		return
	}
	r.cancel()
	<-r.ran
	r.eng.Close()
	r.svc.Close()
	r.db.Close()
	r.db = nil
}

func (r *rig) start(level int, color, control string) *games.Game {
	r.t.Helper()
	res, err := r.eng.Start(context.Background(), StartRequest{RequestID: "start-" + color + control, Human: ana, Level: level, Color: storage.ColorChoice(color), Control: control})
	if err != nil {
		r.t.Fatal(err)
	}
	return res.Game
}

// waitGame waits until cond holds for game id.
func (r *rig) waitGame(id uint64, what string, cond func(*games.Game) bool) *games.Game {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		g, err := r.svc.Game(context.Background(), id)
		if err != nil {
			r.t.Fatal(err)
		}
		if cond(g) {
			return g
		}
		time.Sleep(5 * time.Millisecond)
	}
	g, _ := r.svc.Game(context.Background(), id)
	r.t.Fatalf("game %d: timed out waiting for %s (ply %d, %v)", id, what, g.Ply(), g.Outcome)
	return nil
}

func (r *rig) move(g *games.Game, san string, offer bool) *games.Game {
	r.t.Helper()
	res, err := r.svc.Move(context.Background(), games.MoveRequest{Action: games.Action{GameID: g.ID, UserID: ana.ID}, Move: san, OfferDraw: offer})
	if err != nil {
		r.t.Fatalf("move %s: %v", san, err)
	}
	return res.Game
}

func atPly(n int) func(*games.Game) bool { return func(g *games.Game) bool { return g.Ply() >= n } }

func TestEngineRepliesAndOpens(t *testing.T) {
	r := newRig(t, Options{})
	// The person plays White: the engine answers each move.
	g := r.start(1, "white", "5+3")
	if g.White != ana || g.Black.ID != enginePID || g.Black.Name != PlayerName(1) || g.Rated {
		t.Fatalf("players %+v / %+v rated %v", g.White, g.Black, g.Rated)
	}
	if e, err := storage.Read(t.Context(), r.db, func(tx storage.Tx) (storage.EngineGame, error) { return tx.EngineGame(g.ID) }); err != nil || e.Color != chesscore.Black || e.Level != 1 || e.Engine != storage.EngineBuiltin {
		t.Fatalf("engine record %+v, %v", e, err)
	}
	r.move(g, "e4", false)
	g = r.waitGame(g.ID, "the engine's reply", atPly(2))
	if g.Turn() != chesscore.White {
		t.Fatalf("after the reply %s is to move", g.Turn())
	}
	r.move(g, "d4", false)
	r.waitGame(g.ID, "the second reply", atPly(4))

	// The person plays Black: the engine opens.
	b := r.start(3, "black", "-")
	if b.White.ID != enginePID {
		t.Fatalf("the engine is not White: %+v", b.White)
	}
	r.waitGame(b.ID, "the engine's first move", atPly(1))
	time.Sleep(50 * time.Millisecond)
	if g, _ := r.svc.Game(context.Background(), b.ID); g.Ply() != 1 {
		t.Errorf("the engine played %d moves, want 1 (it must wait for the reply)", g.Ply())
	}
}

func TestEngineGrantsTakebacksAndJudgesDraws(t *testing.T) {
	r := newRig(t, Options{})
	g := r.start(2, "white", "-")
	r.move(g, "e4", false)
	g = r.waitGame(g.ID, "reply", atPly(2))
	if _, err := r.svc.RequestTakeback(context.Background(), games.Action{GameID: g.ID, UserID: ana.ID}); err != nil {
		t.Fatal(err)
	}
	g = r.waitGame(g.ID, "the takeback", func(g *games.Game) bool { return g.Ply() == 0 && !g.Takeback.Pending })
	if g.Turn() != chesscore.White {
		t.Fatalf("after the takeback %s is to move", g.Turn())
	}
	// An equal position at move 1: the draw offer is declined and the engine plays on.
	r.move(g, "d4", false)
	g = r.waitGame(g.ID, "reply", atPly(2))
	r.move(g, "c4", true)
	g = r.waitGame(g.ID, "reply to the offer", atPly(4))
	if !g.Live() || g.DrawOffer.Pending {
		t.Errorf("after the offer: live %v, offer pending %v", g.Live(), g.DrawOffer.Pending)
	}
	if err := r.svc.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	declined := false
	for len(r.events) > 0 {
		if _, ok := (<-r.events).(games.DrawDeclined); ok {
			declined = true
		}
	}
	if !declined {
		t.Error("the engine did not decline the draw offer explicitly")
	}
}

func TestEngineAcceptsDrawWhenLost(t *testing.T) {
	r := newRig(t, Options{Untimed: 50 * time.Millisecond})
	// The engine (Black) has a bare king against king and queen: it accepts at once.
	res, err := r.eng.Start(context.Background(), StartRequest{Human: ana, Level: 8, Color: "white", Control: "-", FEN: "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1"})
	if err != nil {
		t.Fatal(err)
	}
	g := res.Game
	r.move(g, "Qd3", false) // a draw needs both sides to have moved
	g = r.waitGame(g.ID, "reply", atPly(2))
	r.move(g, "Qd4", true)
	g = r.waitGame(g.ID, "the answer to the offer", func(g *games.Game) bool { return !g.Live() })
	if g.Outcome.Result != chesscore.Draw || g.Outcome.Termination != chesscore.Agreement {
		t.Errorf("outcome %v, want a draw by agreement", g.Outcome)
	}
}

func TestDrawPolicy(t *testing.T) {
	for _, c := range []struct {
		score  engine.Score
		move   int
		accept bool
	}{
		{-900, 5, true}, {-101, 10, true}, {-100, 10, false}, {0, 10, false}, {0, 30, true},
		{25, 40, true}, {26, 40, false}, {-25, 30, true}, {300, 60, false}, {-engine.MateScore + 3, 2, true},
	} {
		if got := AcceptsDraw(c.score, c.move); got != c.accept {
			t.Errorf("AcceptsDraw(%d, move %d) = %v, want %v", c.score, c.move, got, c.accept)
		}
	}
}

func TestEngineMovesAfterRestart(t *testing.T) {
	r := newRig(t, Options{})
	// The engine's workers are stopped when the person moves: the engine is to move
	// when the service goes down.
	r.close()
	r.open(false)
	g := r.start(1, "white", "10+5")
	r.move(g, "e4", false)
	time.Sleep(20 * time.Millisecond)
	if g, _ := r.svc.Game(context.Background(), g.ID); g.Ply() != 1 {
		t.Fatalf("the engine moved without running")
	}
	r.close()
	r.open(true)
	r.waitGame(g.ID, "the engine's move after the restart", atPly(2))
}

func TestEngineStopsPromptly(t *testing.T) {
	r := newRig(t, Options{Untimed: time.Minute, MaxThink: time.Minute})
	g := r.start(8, "black", "-") // the engine thinks a minute on its first move
	time.Sleep(100 * time.Millisecond)
	began := time.Now()
	r.close()
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("shutdown took %v while the engine was thinking", d)
	}
	db := storagetest.OpenFile(t, r.path, &bolt.Options{NoSync: true})
	rec, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
	if err != nil || rec.Ply() != 0 {
		t.Errorf("after an interrupted thought: ply %d, %v", rec.Ply(), err)
	}
}

func TestStartRefusals(t *testing.T) {
	r := newRig(t, Options{})
	for _, c := range []struct {
		req  StartRequest
		want error
	}{
		{StartRequest{Human: ana, Level: 0}, ErrBadLevel},
		{StartRequest{Human: ana, Level: 9}, ErrBadLevel}, // no external engine
		{StartRequest{Human: ana, Level: 3, Control: "5+x"}, games.ErrBadRequest},
		{StartRequest{Human: ana, Level: 3, Color: "green"}, games.ErrBadRequest},
		{StartRequest{Human: storage.Player{ID: enginePID, Name: "me"}, Level: 3}, games.ErrSelfChallenge},
	} {
		if _, err := r.eng.Start(context.Background(), c.req); !errors.Is(err, c.want) {
			t.Errorf("Start(%+v): %v, want %v", c.req, err, c.want)
		}
	}
	if r.eng.MaxLevel() != engine.MaxLevel {
		t.Errorf("MaxLevel without an external engine = %d", r.eng.MaxLevel())
	}
}

// playLine plays the person's moves (White) with the engine silenced, so a game can be
// finished on a known line: both sides are the person's, through a game between people.
func finishedGame(t *testing.T, r *rig, sans ...string) *games.Game {
	t.Helper()
	bo := storage.Player{ID: "100000000000000002", Name: "bo"}
	res, err := r.svc.StartGame(context.Background(), games.StartRequest{White: ana, Black: bo, Control: "-"})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Game.ID
	for i, san := range sans {
		p := ana
		if i%2 == 1 {
			p = bo
		}
		if _, err := r.svc.Move(context.Background(), games.MoveRequest{Action: games.Action{GameID: id, UserID: p.ID}, Move: san}); err != nil {
			t.Fatalf("%s: %v", san, err)
		}
	}
	g, err := r.svc.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestAnalyze(t *testing.T) {
	r := newRig(t, Options{AnalysisNodes: 20000})
	g := finishedGame(t, r, "f3", "e5", "g4", "Qh4#")
	a, err := r.eng.Analyze(context.Background(), AnalysisRequest{GuildID: "g1", UserID: ana.ID, Game: g})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Notes) != 4 || a.Engine != "Gambit engine" {
		t.Fatalf("%d notes by %q", len(a.Notes), a.Engine)
	}
	if n := a.Notes[2]; n.SAN != "g4" || n.Judgement != engine.Blunder || n.BestSAN == "" {
		t.Errorf("g4: %+v, want a blunder with a better move", n)
	}
	if n := a.Notes[3]; n.After > -engine.MateScore+200 {
		t.Errorf("after Qh4#: White's evaluation %v, want mated", n.After)
	}
	// White's g4?? into a mate: a blunder that a geometric mean of the two moves'
	// accuracies punishes; Black's two best moves are flawless.
	if s := a.Summary(chesscore.White); s.Count(engine.Blunder) != 1 || s.Moves != 2 || s.Accuracy > 40 {
		t.Errorf("White's summary %+v", s)
	}
	if s := a.Summary(chesscore.Black); s.Count(engine.Best) != 2 || s.Accuracy != 100 {
		t.Errorf("Black's summary %+v", s)
	}
	again, err := r.eng.Analyze(context.Background(), AnalysisRequest{GuildID: "g1", UserID: ana.ID, Game: g})
	if err != nil || again != a {
		t.Errorf("second analysis not cached: %p vs %p, %v", again, a, err)
	}

	live := finishedGame(t, r, "e4")
	if _, err := r.eng.Analyze(context.Background(), AnalysisRequest{GuildID: "g1", UserID: ana.ID, Game: live}); !errors.Is(err, ErrNotFinished) {
		t.Errorf("analysis of a live game: %v", err)
	}
	empty := finishedGame(t, r)
	if _, err := r.svc.Abort(context.Background(), games.Action{GameID: empty.ID, UserID: ana.ID}); err != nil {
		t.Fatal(err)
	}
	empty, _ = r.svc.Game(context.Background(), empty.ID)
	if _, err := r.eng.Analyze(context.Background(), AnalysisRequest{GuildID: "g1", UserID: ana.ID, Game: empty}); !errors.Is(err, ErrNoMoves) {
		t.Errorf("analysis of an aborted game: %v", err)
	}
}

func externalRig(t *testing.T, mode string) *rig {
	t.Setenv("GAMBIT_ENGINEPLAY_FAKE", mode)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return newRig(t, Options{External: &ExternalConfig{Path: exe, Grace: time.Second}, AnalysisTime: 30 * time.Millisecond,
		MaxThink: 200 * time.Millisecond, Untimed: 100 * time.Millisecond})
}

func TestExternalEngine(t *testing.T) {
	r := externalRig(t, "gambit")
	if r.eng.MaxLevel() != ExternalLevel {
		t.Fatalf("MaxLevel with an external engine = %d", r.eng.MaxLevel())
	}
	g := r.start(ExternalLevel, "white", "3+2")
	if e, _ := storage.Read(t.Context(), r.db, func(tx storage.Tx) (storage.EngineGame, error) { return tx.EngineGame(g.ID) }); e.Engine != storage.EngineExternal {
		t.Fatalf("engine record %+v", e)
	}
	r.move(g, "e4", false)
	r.waitGame(g.ID, "the external engine's reply", atPly(2))

	f := finishedGame(t, r, "f3", "e5", "g4", "Qh4#")
	a, err := r.eng.Analyze(context.Background(), AnalysisRequest{GuildID: "g1", UserID: ana.ID, Game: f})
	if err != nil {
		t.Fatal(err)
	}
	if a.Engine == "Gambit engine" || len(a.Notes) != 4 || a.Notes[2].Judgement != engine.Blunder {
		t.Errorf("external analysis by %q: %+v", a.Engine, a.Notes)
	}
}

func TestExternalEngineCrashFallsBack(t *testing.T) {
	r := externalRig(t, "crash")
	g := r.start(ExternalLevel, "white", "-")
	r.move(g, "e4", false)
	// The external engine dies on every go; the built-in engine plays for it.
	r.waitGame(g.ID, "the stand-in's reply", atPly(2))
	f := finishedGame(t, r, "f3", "e5", "g4", "Qh4#")
	a, err := r.eng.Analyze(context.Background(), AnalysisRequest{GuildID: "g1", UserID: ana.ID, Game: f})
	if err != nil {
		t.Fatal(err)
	}
	if a.Engine != "Gambit engine" {
		t.Errorf("analysis by %q, want the built-in stand-in", a.Engine)
	}
}

// Many games at once are served by the workers, none forgotten.
func TestManyGames(t *testing.T) {
	r := newRig(t, Options{Workers: 2, MaxGamesPerUser: -1})
	var ids []uint64
	for i := range 6 {
		res, err := r.eng.Start(context.Background(), StartRequest{RequestID: fmt.Sprint("many", i), Human: ana, Level: 1, Color: "black", Control: "-"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Game.ID)
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.waitGame(id, "the engine's opening move", atPly(1))
		}()
	}
	wg.Wait()
}

// With Stockfish installed, level 9 plays and analyses with it.
func TestStockfish(t *testing.T) {
	path, err := stockfish.Path()
	if err != nil {
		t.Fatalf("%v (scripts/test.sh installs it)", err)
	}
	r := newRig(t, Options{External: &ExternalConfig{Path: path, HashMB: 16, Threads: 1}, AnalysisTime: 30 * time.Millisecond,
		MaxThink: 200 * time.Millisecond})
	g := r.start(ExternalLevel, "white", "5+0")
	r.move(g, "e4", false)
	r.waitGame(g.ID, "Stockfish's reply", atPly(2))
	f := finishedGame(t, r, "f3", "e5", "g4", "Qh4#")
	a, err := r.eng.Analyze(context.Background(), AnalysisRequest{GuildID: "g1", UserID: ana.ID, Game: f})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.ToLower(a.Engine), "stockfish") || a.Notes[2].Judgement != engine.Blunder || a.Notes[2].BestSAN == "" {
		t.Errorf("analysis by %q: %+v", a.Engine, a.Notes[2])
	}
}
