package serve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/timers"
)

// BenchmarkMoveInteraction's load: 200 live games, each receiving a move every
// benchThink on average (uniformly between half and one and a half of it), so about
// 100 /move interactions a second in all, arriving independently of the answers (an
// open loop, as players do: a closed loop of 200 clients firing back to back would
// measure the length of the queue it builds, not the latency of a move).
const (
	benchGames = 200
	benchThink = 2 * time.Second
)

// benchGame is one game of the benchmark, with its own picture of the position. The
// picture is a Position, not a Game: a Game decides after every move whether the
// position is dead, and the client's own rule work would be charged to the bot's CPU
// (the figure is the whole process's). The games are too short to reach a dead
// position or a fivefold repetition; pick avoids mates and stalemates.
type benchGame struct {
	id           uint64
	thread       string
	white, black *discordgo.User
	chess        chesscore.Position
	rng          *rand.Rand
}

// BenchmarkMoveInteraction measures the time from INTERACTION_CREATE sent by the fake
// Discord to the bot's callback received, for /move in 200 games at once: decoding,
// routing, the durable commit (fsync, grouped), the board render and the upload of the
// answer with its image are all inside. Run it with a fixed count, e.g.
// go test -run '^$' -bench BenchmarkMoveInteraction -benchtime 4000x ./serve
//
// Its two halves run side by side: web=off is the bot alone; web=on serves the web
// pages too, with a spectator's socket open on 30 of the games (each of their moves is
// also pushed to a page; 30 stays within the sockets one address may open), so the
// cost of the live board on /move shows in the one run.
func BenchmarkMoveInteraction(b *testing.B) {
	b.Run("web=off", func(b *testing.B) { moveInteraction(b, false) })
	b.Run("web=on", func(b *testing.B) { moveInteraction(b, true) })
}

func moveInteraction(b *testing.B, withWeb bool) {
	w := newWorld(b, discordfake.WithHeartbeatInterval(5*time.Second))
	if withWeb {
		w.cfg.Web.Address = "127.0.0.1:0"
	}
	r := w.startWith(w.cfg, Deps{Clock: timers.SystemClock{}})
	n := benchGames
	if s := os.Getenv("GAMBIT_BENCH_GAMES"); s != "" { // for exploring; the figure is 200
		n, _ = strconv.Atoi(s)
	}
	think := benchThink
	if s := os.Getenv("GAMBIT_BENCH_THINK"); s != "" {
		think, _ = time.ParseDuration(s)
	}
	gs := setupBenchGames(b, w, n)
	if withWeb {
		origin := r.bot.Web.BaseURL()
		for _, g := range gs[:min(len(gs), 30)] {
			ws, status := dialGame(b, r.bot.Web.GameURL(g.id), origin)
			if ws == nil {
				b.Fatalf("spectator's socket: status %d", status)
			}
			if err := ws.WriteJSON(map[string]any{"t": "hello", "ply": 0}); err != nil {
				b.Fatal(err)
			}
			go func() { // the spectator reads every state, as a page does
				for {
					if _, _, err := ws.ReadMessage(); err != nil {
						return
					}
				}
			}()
		}
	}

	var next atomic.Int64
	lat := make([][]time.Duration, len(gs))
	var failures atomic.Int64
	cpuBefore := processCPU()
	b.ResetTimer()
	var wg sync.WaitGroup
	for i, g := range gs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				time.Sleep(think/2 + time.Duration(g.rng.Int64N(int64(think))))
				m, ok := g.pick()
				if !ok {
					return
				}
				san := g.chess.SAN(m)
				mover := g.white
				if g.chess.Turn() == chesscore.Black {
					mover = g.black
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				res, err := w.f.SendInteraction(ctx, discordfake.Command("move", discordfake.StringOpt("move", san)).From(mover).In(w.f.GuildID, g.thread))
				cancel()
				if err != nil || res.Callback.Data.Ephemeral() {
					failures.Add(1)
					if err == nil {
						b.Errorf("game %d move %s refused: %q", g.id, san, res.Callback.Data.Content)
					} else {
						b.Errorf("game %d move %s: %v", g.id, san, err)
					}
					return
				}
				g.chess = g.chess.Play(m)
				lat[i] = append(lat[i], res.Latency)
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	if len(all) == 0 {
		b.Fatal("no move was answered")
	}
	slices.Sort(all)
	q := func(p float64) float64 {
		return float64(all[min(len(all)-1, int(p*float64(len(all))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(float64(len(all))/b.Elapsed().Seconds(), "moves/s")
	// The CPU the whole process spent per move: bot, fake Discord and players
	// together. It does not depend on how busy the machine is, unlike the latencies.
	b.ReportMetric(float64(processCPU()-cpuBefore)/float64(time.Millisecond)/float64(len(all)), "cpu-ms/move")
}

// processCPU returns the user and system CPU time the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// pick returns a random legal move that does not end the game.
func (g *benchGame) pick() (chesscore.Move, bool) {
	var ml chesscore.MoveList
	g.chess.LegalMoves(&ml)
	moves := ml.Slice()
	for _, k := range g.rng.Perm(len(moves)) {
		if next := g.chess.Play(moves[k]); next.HasLegalMove() {
			return moves[k], true
		}
	}
	return chesscore.NullMove, false
}

// setupBenchGames starts n games between fresh pairs of users, each in its thread.
func setupBenchGames(b *testing.B, w *world, n int) []*benchGame {
	b.Helper()
	gs := make([]*benchGame, n)
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i := range gs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			white, black := w.f.NewUser(fmt.Sprintf("white%d", i)), w.f.NewUser(fmt.Sprintf("black%d", i))
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := w.f.SendInteraction(ctx, discordfake.Command("challenge",
				discordfake.UserOpt("opponent", black.ID), discordfake.StringOpt("time", "90+30"), discordfake.StringOpt("color", "white")).From(white))
			if err != nil {
				b.Errorf("challenge %d: %v", i, err)
				return
			}
			if res.Callback.Data.Ephemeral() {
				b.Errorf("challenge %d refused: %q", i, res.Callback.Data.Content)
				return
			}
			accept := customID(b, res.Callback.Data.CustomIDs(), "accept")
			if _, err = w.f.SendInteraction(ctx, discordfake.Button(accept).From(black)); err != nil {
				b.Errorf("accept %d: %v", i, err)
				return
			}
			gs[i] = &benchGame{white: white, black: black, chess: chesscore.StartPosition(), rng: rand.New(rand.NewPCG(uint64(i), 7))}
		}()
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	// Threads are named "Game 12 · white3 vs black3": that names each game.
	w.waitFor("every game's thread and first board", func() bool {
		for _, th := range w.f.Threads() {
			var id uint64
			var i, j int
			if _, err := fmt.Sscanf(th.Name, "Game %d · white%d vs black%d", &id, &i, &j); err == nil && i == j && i < len(gs) {
				gs[i].id, gs[i].thread = id, th.ID
			}
		}
		for _, g := range gs {
			if g.thread == "" || len(w.messagesWith(g.thread, "board.png")) == 0 {
				return false
			}
		}
		return true
	})
	return gs
}
