package engineplay

// Fairness of the engine's queue: the order it serves a flood in, and the latency
// another server sees during one (BenchmarkEngineFairness).

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

var (
	flooder = storage.Player{ID: "100000000000000011", Name: "flooder"}
	bystand = storage.Player{ID: "100000000000000012", Name: "bystander"}
	neighbr = storage.Player{ID: "100000000000000013", Name: "neighbour"}
)

// TestFairnessOrder: a person with six games on one server, another person on another
// server and a third person on the first server. The engine (one worker, not running:
// the test takes the turns itself) serves the first server's flooder once, then the
// other server, then the neighbour, and the flooder's other games last; where the old
// single queue served the six first. A takeback asked for during a thought queues the
// game behind everyone else's, in its person's line.
func TestFairnessOrder(t *testing.T) {
	r := newRig(t, Options{MaxGamesPerUser: -1})
	r.close()
	r.open(false)
	ctx := context.Background()
	start := func(guild string, p storage.Player, i int) uint64 {
		// The engine plays White: it is to move at once.
		res, err := r.eng.Start(ctx, StartRequest{RequestID: fmt.Sprint("order", p.Name, i), GuildID: guild, Human: p, Level: 1, Color: "black", Control: "-"})
		if err != nil {
			t.Fatal(err)
		}
		return res.Game.ID
	}
	var flood []uint64
	for i := range 6 {
		flood = append(flood, start("s1", flooder, i))
	}
	other := start("s2", bystand, 0)
	neighbour := start("s1", neighbr, 0)
	if err := r.svc.Flush(ctx); err != nil { // every GameStarted has queued its game
		t.Fatal(err)
	}
	took := func(n int) []uint64 {
		var ids []uint64
		for range n {
			id, _, ok := r.eng.next(func() {})
			if !ok {
				t.Fatalf("the queue is empty after %v", ids)
			}
			r.eng.release(id)
			r.eng.done(id)
			ids = append(ids, id)
		}
		return ids
	}
	want := append([]uint64{flood[0], other, neighbour}, flood[1:]...)
	if got := took(8); !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v (flooder %v, other server %d, neighbour %d)", got, want, flood, other, neighbour)
	}

	// Again: the first server was served last, so the other goes first. Then a
	// takeback request arrives while the flooder's first game is thought about: the
	// thought stops, and the game goes to the back of its person's line.
	for _, id := range append(slices.Clone(flood), other, neighbour) {
		r.eng.enqueue(id, false)
	}
	if got := took(1); got[0] != other {
		t.Fatalf("served %d first, want the other server's %d", got[0], other)
	}
	cancelled := false
	first, _, _ := r.eng.next(func() { cancelled = true })
	if first != flood[0] {
		t.Fatalf("served %d, want %d", first, flood[0])
	}
	g, err := r.svc.Game(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	r.eng.Notify(ctx, games.TakebackRequested{Game: g, By: chesscore.Black})
	if !cancelled {
		t.Error("a takeback request did not interrupt the thought")
	}
	r.eng.release(first)
	r.eng.done(first) // queues it again
	want = append(append([]uint64{neighbour}, flood[1:]...), first)
	if got := took(7); !slices.Equal(got, want) {
		t.Errorf("after the takeback: order %v, want %v", got, want)
	}
	if _, _, ok := r.eng.next(func() {}); ok {
		t.Error("the queue holds more than the games")
	}
}

// TestPreemption: with every worker taken by a thought of a server that has more games
// waiting, a game of a server with nothing else queued or in thought takes the
// worker: the turn gives way before its thought or stops it, and queues again first
// in its person's line. Not when the busy server has nothing else waiting, and a game
// gives way once per turn at most.
func TestPreemption(t *testing.T) {
	r := newRig(t, Options{MaxGamesPerUser: -1})
	r.close()
	r.open(false)
	ctx := context.Background()
	start := func(guild string, p storage.Player, i int) uint64 {
		res, err := r.eng.Start(ctx, StartRequest{RequestID: fmt.Sprint("preempt", p.Name, i), GuildID: guild, Human: p, Level: 1, Color: "black", Control: "-"})
		if err != nil {
			t.Fatal(err)
		}
		return res.Game.ID
	}
	a1, a2 := start("s1", flooder, 1), start("s1", flooder, 2)
	if err := r.svc.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	take := func(want uint64) time.Time {
		t.Helper()
		id, since, ok := r.eng.next(func() {})
		if !ok || id != want {
			t.Fatalf("next: %d %v, want %d", id, ok, want)
		}
		return since
	}
	finish := func(id uint64) {
		r.eng.release(id)
		r.eng.done(id)
	}

	// Before its thought: the flooder's turn yields when the bystander's game queues,
	// and comes back first in the flooder's line, its reply delay counting from its
	// first queueing.
	since := take(a1)
	b1 := start("s2", bystand, 1)
	if err := r.svc.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if ok, yielded := r.eng.thinking(a1, func() {}); ok || yielded != true {
		t.Fatalf("thinking after a newcomer queued: preemptible %v, yielded %v; want a yield", ok, yielded)
	}
	finish(a1)
	take(b1)
	finish(b1)
	if again := take(a1); !again.Equal(since) {
		t.Errorf("the reply delay of a game that gave way counts from %v, want %v (its first queueing)", again, since)
	}
	// It gave way once this turn: not again.
	stopped := 0
	if ok, yielded := r.eng.thinking(a1, func() { stopped++ }); ok || yielded {
		t.Fatalf("thinking a second time: preemptible %v, yielded %v", ok, yielded)
	}
	r.eng.enqueue(b1, false)
	if stopped != 0 {
		t.Fatal("a game gave way twice in one turn")
	}
	r.eng.thought(a1)
	finish(a1)
	r.eng.enqueue(a1, false) // its next turn
	take(b1)
	finish(b1)

	// During its thought: stopped.
	take(a2)
	if ok, yielded := r.eng.thinking(a2, func() { stopped++ }); !ok || yielded {
		t.Fatalf("thinking: preemptible %v, yielded %v", ok, yielded)
	}
	r.eng.enqueue(b1, false)
	if stopped != 1 || !r.eng.thought(a2) {
		t.Fatalf("the thought was stopped %d times, want 1", stopped)
	}
	finish(a2)
	take(b1)
	finish(b1)
	take(a2) // first in the flooder's line, ahead of a1
	r.eng.thinking(a2, func() { stopped++ })
	r.eng.thought(a2)
	finish(a2)

	// No preemption of a server with nothing else waiting.
	take(a1)
	if ok, _ := r.eng.thinking(a1, func() { stopped++ }); !ok {
		t.Fatal("a new turn is not preemptible")
	}
	r.eng.enqueue(b1, false)
	if stopped != 1 || r.eng.thought(a1) {
		t.Fatal("a server's only game gave way")
	}
	finish(a1)
	take(b1)
	finish(b1)
	if _, _, ok := r.eng.next(func() {}); ok {
		t.Error("the queue holds more than the games")
	}
}

// fairBench is a game service and the engine, with people who play their moves as soon
// as the engine has answered.
type fairBench struct {
	b   *testing.B
	svc *games.Service
	eng *Service

	mu    sync.Mutex
	turns map[uint64]chan *games.Game // a game's person's turn (or its end)
	seq   atomic.Int64
}

func newFairBench(b *testing.B, opts Options) *fairBench {
	fb := &fairBench{b: b, turns: map[uint64]chan *games.Game{}}
	db := storagetest.OpenFile(b, filepath.Join(b.TempDir(), "gambit.db"), &bolt.Options{NoSync: true})
	var eng atomic.Pointer[Service]
	svc, err := games.New(db, games.Options{Clock: timers.NewManualClock(t0), Notifier: games.NotifierFunc(func(ctx context.Context, e games.Event) {
		if s := eng.Load(); s != nil {
			s.Notify(ctx, e)
		}
		switch e := e.(type) {
		case games.YourTurn:
			if e.Player.ID != enginePID {
				fb.signal(e.Game)
			}
		case games.GameOver:
			fb.signal(e.Game)
		}
	})})
	if err != nil {
		b.Fatal(err)
	}
	opts.Logger = quietLogger()
	s, err := New(b.Context(), db, opts)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Bind(context.Background(), svc, enginePID); err != nil {
		b.Fatal(err)
	}
	eng.Store(s)
	fb.svc, fb.eng = svc, s
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		s.Run(ctx)
	}()
	b.Cleanup(func() {
		cancel()
		<-ran
		s.Close()
		svc.Close()
		db.Close()
	})
	return fb
}

// quietLogger drops the logs.
func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func (fb *fairBench) signal(g *games.Game) {
	fb.mu.Lock()
	ch := fb.turns[g.ID]
	fb.mu.Unlock()
	if ch != nil {
		select {
		case ch <- g:
		default:
		}
	}
}

// player is one person's game: they play White, a random legal move at once.
type player struct {
	fb    *fairBench
	who   storage.Player
	guild string
	level int
	rnd   *rand.Rand
	g     *games.Game
	turn  chan *games.Game
}

func (fb *fairBench) player(guild string, who storage.Player, level int, seed uint64) *player {
	p := &player{fb: fb, who: who, guild: guild, level: level, rnd: rand.New(rand.NewPCG(seed, 1))}
	if err := p.newGame(); err != nil {
		fb.b.Fatal(err)
	}
	return p
}

// newGame starts a game against the engine; the person is to move.
func (p *player) newGame() error {
	fb := p.fb
	res, err := fb.eng.Start(context.Background(), StartRequest{RequestID: fmt.Sprint("fair", fb.seq.Add(1)), GuildID: p.guild, ChannelID: "c",
		Human: p.who, Level: p.level, Color: "white", Control: "-"})
	if err != nil {
		return fmt.Errorf("%s starts a game: %w", p.who.Name, err)
	}
	ch := make(chan *games.Game, 1)
	fb.mu.Lock()
	if p.g != nil {
		delete(fb.turns, p.g.ID)
	}
	fb.turns[res.Game.ID] = ch
	fb.mu.Unlock()
	p.g, p.turn = res.Game, ch
	return nil
}

// move plays a random legal move; it returns how long the move took to commit, and
// false when the move ended the game (a new one has started).
func (p *player) move() (time.Duration, bool, error) {
	var ml chesscore.MoveList
	pos := p.g.Position
	pos.LegalMoves(&ml)
	m := ml.Moves[p.rnd.IntN(ml.N)]
	began := time.Now()
	res, err := p.fb.svc.Move(context.Background(), games.MoveRequest{Action: games.Action{GameID: p.g.ID, UserID: p.who.ID}, Move: m.UCI()})
	took := time.Since(began)
	if err != nil {
		return took, false, fmt.Errorf("%s's move %s in game %d: %w", p.who.Name, m.UCI(), p.g.ID, err)
	}
	if !res.Game.Live() {
		return took, false, p.newGame()
	}
	return took, true, nil
}

// reply waits for the engine's answer; false when it ended the game (a new one has
// started) or ctx ended.
func (p *player) reply(ctx context.Context) (bool, error) {
	select {
	case g := <-p.turn:
		p.g = g
	case <-ctx.Done():
		return false, nil
	case <-time.After(time.Minute):
		return false, fmt.Errorf("no reply from the engine in game %d", p.g.ID)
	}
	if !p.g.Live() {
		return false, p.newGame()
	}
	return true, nil
}

// sample is one of the bystander's moves: its commit, the engine's reply (from the
// move to the reply's commit) and the board after it.
type sample struct{ move, reply, board time.Duration }

// bystanderSamples plays n of the bystander's moves that the engine answers, each
// pause after the reply (a person looks at the board before moving).
func bystanderSamples(p *player, n int, pause time.Duration) []sample {
	var out []sample
	for len(out) < n {
		time.Sleep(pause)
		began := time.Now()
		moved, live, err := p.move()
		if err != nil {
			p.fb.b.Fatal(err)
		}
		if !live {
			continue
		}
		replied, err := p.reply(context.Background())
		if err != nil {
			p.fb.b.Fatal(err)
		}
		if !replied {
			continue
		}
		s := sample{move: moved, reply: time.Since(began)}
		b := time.Now()
		if err := render.PNG(io.Discard, &p.g.Position, render.BoardOptions{}); err != nil {
			p.fb.b.Fatal(err)
		}
		s.board = time.Since(b)
		out = append(out, s)
	}
	return out
}

// percentile returns the p-th percentile of ds (nearest rank) in milliseconds.
func percentile(ds []time.Duration, p int) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	i = max(1, min(i, len(s))) - 1
	return float64(s[i].Microseconds()) / 1000
}

// BenchmarkEngineFairness: a bystander plays one game on server s2, first alone
// (quiet), then while a flooder plays six games on server s1, answering each of the
// engine's moves at once, so the engine always has the flooder's work waiting (flood).
// The bystander looks at the board before each move (100 ms at level 3, 300 ms at full
// strength: longer than a thought, as a person does). One worker, as by default.
// Reported, quiet and flood side by side, p50 and p99 in ms: the engine's reply to the
// bystander (from their move to the reply's commit), the bystander's own move and the
// board rendered after the reply; then the flood/quiet ratio of the replies' p99 and
// how many replies the flooder got per bystander reply (the flood's strength). b.N is
// the number of samples of each phase: run with -benchtime=200x or so.
//
// Sub-benchmarks: the default level (3) without reply delay, so the queue's effect is
// bare; full strength thinking 100 ms a move; the same with a bystander who moves the
// instant the reply lands (a bot: its game queues while its server is the one just
// served, or while a thought that gave way already resumes, so it waits up to one
// thought); and level 3 with a 300 ms reply delay (the production default is 1 s).
func BenchmarkEngineFairness(b *testing.B) {
	think100 := Options{ReplyDelay: -1, Untimed: 100 * time.Millisecond, MaxThink: 100 * time.Millisecond}
	for _, c := range []struct {
		name  string
		level int
		pause time.Duration
		opts  Options
	}{
		{"level=3", 3, 100 * time.Millisecond, Options{ReplyDelay: -1}},
		{"level=8,think=100ms", 8, 300 * time.Millisecond, think100},
		{"level=8,think=100ms,instant", 8, 0, think100},
		{"level=3,delay=300ms", 3, 100 * time.Millisecond, Options{ReplyDelay: 300 * time.Millisecond}},
	} {
		b.Run(c.name, func(b *testing.B) {
			opts := c.opts
			opts.Workers, opts.MaxGamesPerUser, opts.Clock = 1, -1, timers.SystemClock{}
			fb := newFairBench(b, opts)
			by := fb.player("s2", bystand, c.level, 2)
			n := b.N
			b.ResetTimer()
			quiet := bystanderSamples(by, n, c.pause)

			ctx, stop := context.WithCancel(context.Background())
			var floodReplies atomic.Int64
			var wg sync.WaitGroup
			for i := range 6 {
				p := fb.player("s1", flooder, c.level, uint64(10+i))
				wg.Add(1)
				go func() {
					defer wg.Done()
					for ctx.Err() == nil {
						_, live, err := p.move()
						if err != nil {
							b.Error(err)
							return
						}
						if !live {
							continue
						}
						replied, err := p.reply(ctx)
						if err != nil {
							b.Error(err)
							return
						}
						if replied {
							floodReplies.Add(1)
						}
					}
				}()
			}
			time.Sleep(50 * time.Millisecond) // the flood is under way
			before := floodReplies.Load()
			flood := bystanderSamples(by, n, c.pause)
			during := floodReplies.Load() - before
			stop()
			b.StopTimer()
			wg.Wait()

			pick := func(ss []sample, f func(sample) time.Duration) []time.Duration {
				out := make([]time.Duration, len(ss))
				for i, s := range ss {
					out[i] = f(s)
				}
				return out
			}
			for _, m := range []struct {
				name string
				f    func(sample) time.Duration
			}{
				{"reply", func(s sample) time.Duration { return s.reply }},
				{"move", func(s sample) time.Duration { return s.move }},
				{"board", func(s sample) time.Duration { return s.board }},
			} {
				q, f := pick(quiet, m.f), pick(flood, m.f)
				b.ReportMetric(percentile(q, 50), "quiet-"+m.name+"-p50-ms")
				b.ReportMetric(percentile(q, 99), "quiet-"+m.name+"-p99-ms")
				b.ReportMetric(percentile(f, 50), "flood-"+m.name+"-p50-ms")
				b.ReportMetric(percentile(f, 99), "flood-"+m.name+"-p99-ms")
			}
			b.ReportMetric(percentile(pick(flood, func(s sample) time.Duration { return s.reply }), 99)/
				percentile(pick(quiet, func(s sample) time.Duration { return s.reply }), 99), "reply-p99-flood/quiet")
			b.ReportMetric(float64(during)/float64(n), "flooder-replies/bystander-reply")
		})
	}
}
