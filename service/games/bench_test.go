package games

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/pg"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// soloMovesPerSecond is the last measure of BenchmarkDurableMoves/solo, so that the
// grouped modes report their gain in the same run.
var soloMovesPerSecond float64

// BenchmarkDurableMoves commits moves of 64 concurrent games through the service with
// fsync on: on bbolt, one transaction per move (solo), bbolt's DB.Batch (boltbatch, 1 ms
// delay), and the store's own group commit (group, the default); on PostgreSQL
// (postgres: the test cluster of GAMBIT_TEST_POSTGRES_DSN, fsync and synchronous commit
// on), one serializable transaction per move, concurrent ones in parallel. The figure is
// moves/s; the other modes also report their ratio to solo (x-vs-solo), and postgres
// the transactions run again after a serialization failure (retries/op).
func BenchmarkDurableMoves(b *testing.B) {
	for _, mode := range []string{"solo", "boltbatch", "group", "postgres"} {
		b.Run(mode, func(b *testing.B) {
			var db storage.Store
			var pgdb *pg.DB
			if mode == "postgres" {
				pgdb = storagetest.OpenPostgresDSN(b, storagetest.PostgresDSN(b), &pg.Options{MaxConns: 32})
				db = pgdb
			} else {
				db = storagetest.OpenFile(b, filepath.Join(b.TempDir(), "bench.db"),
					&bolt.Options{SoloCommits: mode == "solo", BoltBatch: mode == "boltbatch"})
			}
			defer db.Close() // each run of the benchmark function has its own store
			s, err := New(db, Options{Logger: quietLogger()})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			var gameSeq atomic.Uint64
			// Request ids grow like Discord's interaction ids (snowflakes: time-ordered).
			var interaction atomic.Uint64
			interaction.Store(1 << 60)
			b.SetParallelism(32) // 64 games moving at once on two cores
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				n := gameSeq.Add(1)
				r := rand.New(rand.NewPCG(n, 1))
				var g *Game
				for pb.Next() {
					for g == nil || !g.Live() {
						res, err := s.StartGame(ctx, StartRequest{
							White: storage.Player{ID: fmt.Sprint("w", n), Name: "W"}, Black: storage.Player{ID: fmt.Sprint("b", n), Name: "B"},
							Control: "15+10"})
						if err != nil {
							b.Error(err)
							return
						}
						g = res.Game
					}
					var ml chesscore.MoveList
					g.Position.LegalMoves(&ml)
					m := ml.Moves[r.IntN(ml.N)]
					res, err := s.Move(ctx, MoveRequest{Action: Action{RequestID: fmt.Sprint(interaction.Add(1)), GameID: g.ID,
						UserID: g.Player(g.Turn()).ID}, Move: m.UCI()})
					if err != nil {
						b.Error(err)
						return
					}
					g = res.Game
				}
			})
			rate := float64(b.N) / b.Elapsed().Seconds()
			b.ReportMetric(rate, "moves/s")
			if pgdb != nil {
				b.ReportMetric(float64(pgdb.Retries())/float64(b.N), "retries/op")
			}
			if mode == "solo" {
				soloMovesPerSecond = rate
			} else if soloMovesPerSecond > 0 {
				b.ReportMetric(rate/soloMovesPerSecond, "x-vs-solo")
			}
		})
	}
}

// flagPosition is where a game of BenchmarkLiveClocks stands when its flag falls: a
// real game's opening and a prefix of its moves, and what the dead-position test after
// the last of them found (the record's mate knowledge, as the game service writes it).
type flagPosition struct {
	start string // FEN
	moves []chesscore.Move
	mates chesscore.MateKnowledge
}

// loadFlagPositions reads the real games of chesscore/testdata/realgames.uci (one a line:
// FEN, ";", UCI moves) and returns, for each, every prefix from ply 2 to the end of the
// game that leaves a live game: positions from real play, all stages of the game. Each
// game is played move by move as the game service plays it, the dead-position test after
// every move included (a game played on past a dead position ends there).
func loadFlagPositions(b *testing.B) []flagPosition {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "chesscore", "testdata", "realgames.uci"))
	if err != nil {
		b.Fatalf("read real games: %v", err)
	}
	var out []flagPosition
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		fen, moves, ok := strings.Cut(line, ";")
		if !ok {
			b.Fatalf("realgames.uci:%d: no ';'", n+1)
		}
		p, err := chesscore.ParseFEN(fen)
		if err != nil {
			b.Fatalf("realgames.uci:%d: %v", n+1, err)
		}
		g := chesscore.NewGame(p, dead.Decider{})
		for _, u := range strings.Fields(moves) {
			pos := g.Position()
			m, err := pos.ParseUCI(u)
			if err != nil {
				b.Fatalf("realgames.uci:%d: %s: %v", n+1, u, err)
			}
			if err := g.Play(m); err != nil {
				b.Fatalf("realgames.uci:%d: %s: %v", n+1, u, err)
			}
			if g.Over() {
				break
			}
			if g.Ply() >= 2 {
				out = append(out, flagPosition{start: fen, moves: g.Moves(), mates: g.MateKnowledge()})
			}
		}
	}
	return out
}

// liveGame returns the record of a blitz game (3+2) standing at fp, whose flag (of the
// side to move) falls at deadline, as if that side had been thinking since the clock
// started. With carried, the record holds the mate knowledge the game service writes
// with a move; without, none (a record written before it existed).
func liveGame(b *testing.B, deadline time.Time, i int, fp flagPosition, carried bool) *storage.Game {
	tc, _ := clock.Parse("3+2")
	c, err := clock.New(tc)
	if err != nil {
		b.Fatal(err)
	}
	c.FreeFirstMoves = true
	start := deadline.Add(-3 * time.Minute)
	c.Start(start)
	moveClocks := make([]time.Duration, len(fp.moves))
	for k := range fp.moves {
		c.Press(start) // every move instant
		moveClocks[k] = 3 * time.Minute
	}
	c.Left = [2]time.Duration{3 * time.Minute, 3 * time.Minute} // the increments aside: the flag falls at deadline
	rec := &storage.Game{
		White: storage.Player{ID: fmt.Sprint("w", i), Name: "White player"}, Black: storage.Player{ID: fmt.Sprint("b", i), Name: "Black player"},
		GuildID: "111111111111111111", ChannelID: "222222222222222222", Control: tc, Created: start,
		StartFEN: fp.start, Moves: fp.moves, MoveClocks: moveClocks, Clock: &c,
	}
	if carried {
		rec.Mates = fp.mates
	}
	return rec
}

// BenchmarkLiveClocks runs live blitz games (10,000 and 100,000) whose flags fall at
// about 3,300 a second (over 3 and 30 seconds), on the real clock, each in a
// position from a real game (every stage of the game), and reports the 99th percentile
// of the delay between a flag's deadline and its detection by the scheduler
// (p99-flag-ms), the same up to the FlagFell event after commit (p99-event-ms), and the
// memory a live game costs the service (bytes/game: cached replay, record and timer).
// Each flag asks whether the opponent can still checkmate (6.9): the records carry the
// answer the test after the last move found, as the game service writes them (when that
// test settled the other colour only, the flag decides afresh); the /undecided case
// carries none, as records written before they did. Bars at 100,000: p99-event-ms 100,
// p99-flag-ms 20.
func BenchmarkLiveClocks(b *testing.B) {
	positions := loadFlagPositions(b)
	for _, bc := range []struct {
		games   int
		carried bool
	}{{10000, true}, {100000, true}, {100000, false}} {
		name := fmt.Sprintf("games=%d", bc.games)
		if !bc.carried {
			name += "/undecided"
		}
		b.Run(name, func(b *testing.B) { benchLiveClocks(b, bc.games, bc.carried, positions) })
	}
}

// flagEvery is the time between two flags of BenchmarkLiveClocks: 3,300 a second.
const flagEvery = time.Second / 3300

func benchLiveClocks(b *testing.B, games int, carried bool, positions []flagPosition) {
	for b.Loop() {
		b.StopTimer()
		db := storagetest.OpenFile(b, filepath.Join(b.TempDir(), "clocks.db"), nil)
		now := time.Now()
		// Setup (the records, then the service's start-up, which replays every game)
		// must finish before the first flag.
		first := now.Add(10*time.Second + time.Duration(games)*300*time.Microsecond)
		changes := make([]*storage.Change, games)
		for i := range changes {
			deadline := first.Add(time.Duration(i) * flagEvery)
			changes[i] = &storage.Change{Game: liveGame(b, deadline, i, positions[(i*7919)%len(positions)], carried)}
		}
		for lo := 0; lo < len(changes); lo += 10000 {
			if err := db.CommitAll(b.Context(), changes[lo:min(lo+10000, len(changes))]); err != nil {
				b.Fatal(err)
			}
		}
		changes = nil
		if err := db.Update(ctx, func(tx storage.Tx) error { return tx.PutHeartbeat("bot", time.Now()) }); err != nil { // the service was up until now
			b.Fatal(err)
		}
		var events sync.WaitGroup
		events.Add(games)
		var mu sync.Mutex
		var detect, deliver []time.Duration
		notifier := NotifierFunc(func(_ context.Context, e Event) {
			if ff, ok := e.(FlagFell); ok {
				at := time.Now()
				mu.Lock()
				deliver = append(deliver, at.Sub(ff.Game.Ended))
				mu.Unlock()
				events.Done()
			}
		})
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, err := New(db, Options{Notifier: notifier, Logger: quietLogger()})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		if time.Now().After(first) {
			b.Fatalf("setup took %v: the first flag fell before the service ran", time.Since(now))
		}
		s.testFlagDetected = func(deadline, seen time.Time) {
			mu.Lock()
			detect = append(detect, seen.Sub(deadline))
			mu.Unlock()
		}
		runCtx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		b.StartTimer()
		go func() { s.Run(runCtx); close(done) }()
		waited := make(chan struct{})
		go func() { events.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-time.After(120 * time.Second):
			b.Fatalf("only %d of %d flags fell", len(deliver), games)
		}
		b.StopTimer()
		stop()
		<-done
		s.Close()
		_, live := storagetest.CountGames(b, db)
		db.Close()
		if live != 0 {
			b.Fatalf("%d games still live", live)
		}
		b.ReportMetric(percentileMS(detect, 0.99), "p99-flag-ms")
		b.ReportMetric(percentileMS(deliver, 0.99), "p99-event-ms")
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(games), "bytes/game")
		b.StartTimer() // b.Loop wants the timer running
	}
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func percentileMS(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return float64(ds[int(p*float64(len(ds)-1))]) / float64(time.Millisecond)
}

func buildStartupFile(dir string) (string, error) {
	const total, liveEvery = 100000, 50
	path := filepath.Join(dir, "startup.db")
	db, err := bolt.Open(path, &bolt.Options{NoSync: true})
	if err != nil {
		return "", err
	}
	defer db.Close()
	// A pool of random games supplies the moves.
	r := rand.New(rand.NewPCG(3, 4))
	var pool [][]chesscore.Move
	for range 200 {
		g := chesscore.NewGame(chesscore.StartPosition(), dead.Decider{})
		for g.Ply() < 30+r.IntN(50) && !g.Over() {
			pos := g.Position()
			var ml chesscore.MoveList
			pos.LegalMoves(&ml)
			g.Play(ml.Moves[r.IntN(ml.N)])
		}
		if g.Over() {
			g.Undo()
		}
		pool = append(pool, g.Moves())
	}
	tc, _ := clock.Parse("5+3")
	corr, _ := clock.Parse("3d")
	now := time.Now()
	var batch []*storage.Change
	for i := range total {
		moves := pool[i%len(pool)]
		rec := &storage.Game{
			GuildID: "111111111111111111", ChannelID: fmt.Sprint(2000 + i%50),
			White: storage.Player{ID: fmt.Sprint(10000 + i%997), Name: "Player"}, Black: storage.Player{ID: fmt.Sprint(20000 + i%991), Name: "Player"},
			Control: tc, Created: now.Add(-time.Hour), Moves: moves,
		}
		if i%liveEvery == 0 {
			control := tc
			if i%(2*liveEvery) == 0 {
				control = corr
			}
			c, _ := clock.New(control)
			c.Start(now.Add(-time.Hour))
			for range moves {
				c.Press(now.Add(-time.Hour))
			}
			rec.Control, rec.Clock = control, &c
		} else {
			rec.Ended = now.Add(-time.Minute)
			rec.Outcome = chesscore.Outcome{Result: chesscore.WinFor(chesscore.Color(i & 1)), Termination: chesscore.Resignation}
		}
		batch = append(batch, &storage.Change{Game: rec})
		if len(batch) == 10000 {
			if err := db.CommitAll(ctx, batch); err != nil {
				return "", err
			}
			batch = batch[:0]
		}
	}
	return path, nil
}

// BenchmarkStartup opens a store of 100,000 games (2,000 live) and starts the service:
// load and replay the live games, credit their clocks, rebuild the timers. The figure is
// startup-ms (bar: 2,000).
func BenchmarkStartup(b *testing.B) {
	path, err := buildStartupFile(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		start := time.Now()
		db := storagetest.OpenFile(b, path, nil)
		s, err := New(db, Options{Logger: quietLogger(), Clock: timers.SystemClock{}})
		if err != nil {
			b.Fatal(err)
		}
		elapsed := time.Since(start)
		if n := s.sched.Len(); n < 2000 {
			b.Fatalf("%d timers after start-up, want at least 2000", n)
		}
		b.ReportMetric(float64(elapsed)/float64(time.Millisecond), "startup-ms")
		s.Close()
		db.Close()
	}
}

// BenchmarkFlagFromRecord times what a flag costs the game service when the game is not
// cached: rebuilding it from its record (Replay) and scoring the flag fall (6.9: can
// the opponent still mate?), over the real-game positions of BenchmarkLiveClocks,
// with records that carry the decision made after their last move (as the game service
// writes them) and without (/undecided). It reports the mean and the 99th percentile in
// microseconds, and the share of flags that had to decide afresh.
func BenchmarkFlagFromRecord(b *testing.B) {
	positions := loadFlagPositions(b)
	deadline := time.Now()
	for _, carried := range []bool{true, false} {
		name := "carried"
		if !carried {
			name = "undecided"
		}
		recs := make([]*storage.Game, len(positions))
		for i, fp := range positions {
			recs[i] = liveGame(b, deadline, i, fp, carried)
		}
		b.Run(name, func(b *testing.B) {
			times := make([]time.Duration, 0, b.N)
			afresh := 0
			for i := 0; b.Loop(); i++ {
				rec := recs[(i*7919)%len(recs)]
				start := time.Now()
				g, err := Replay(rec)
				if err != nil {
					b.Fatal(err)
				}
				known := g.MateKnowledge().Verdict[g.Turn().Other()] != chesscore.Unknown
				if err := g.FlagFall(g.Turn()); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
				if !known {
					afresh++
				}
			}
			slices.Sort(times)
			var sum time.Duration
			for _, d := range times {
				sum += d
			}
			b.ReportMetric(float64(sum)/float64(len(times))/1e3, "mean-µs")
			b.ReportMetric(float64(times[int(0.99*float64(len(times)-1))])/1e3, "p99-µs")
			b.ReportMetric(float64(afresh)/float64(len(times)), "afresh/op")
		})
	}
}
