package engine

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
)

func TestLevelByNumber(t *testing.T) {
	for n := MinLevel; n <= MaxLevel; n++ {
		l, err := LevelByNumber(n)
		if err != nil || l.Number != n {
			t.Errorf("level %d: %+v, %v", n, l, err)
		}
		if n < MaxLevel && (l.Full() || l.MultiPV < 2 || l.Nodes == 0 || l.MaxLoss <= 0) {
			t.Errorf("level %d is not a weakened level: %+v", n, l)
		}
		if n > MinLevel {
			prev, _ := LevelByNumber(n - 1)
			if !l.Full() && (l.Nodes <= prev.Nodes || l.MaxLoss >= prev.MaxLoss || l.Temperature >= prev.Temperature) {
				t.Errorf("level %d is not stronger than level %d: %+v vs %+v", n, n-1, l, prev)
			}
		}
	}
	for _, n := range []int{0, 9, -1} {
		if _, err := LevelByNumber(n); err == nil {
			t.Errorf("level %d accepted", n)
		}
	}
	if !levels[MaxLevel].Full() {
		t.Error("level 8 is not full strength")
	}
}

func TestLevelChoose(t *testing.T) {
	lines := []Line{{Move: 1, Score: 50}, {Move: 2, Score: 40}, {Move: 3, Score: -20}, {Move: 4, Score: -900}}
	l := levels[3]
	rng := rand.New(rand.NewPCG(1, 2))
	counts := map[cc.Move]int{}
	for i := 0; i < 2000; i++ {
		counts[l.choose(lines, rng).Move]++
	}
	if counts[4] != 0 {
		t.Errorf("level 3 chose a move losing %d cp (MaxLoss %d) %d times", 950, l.MaxLoss, counts[4])
	}
	if counts[1] <= counts[2] || counts[2] <= counts[3] || counts[3] == 0 {
		t.Errorf("choices %v: want the best most often, and some variety", counts)
	}
	if got := levels[MaxLevel].choose(lines, rng); got.Move != 1 {
		t.Errorf("full strength chose %v", got.Move)
	}
	// Mate is a big edge: a mating line wins against a small plus nearly always.
	mate := []Line{{Move: 1, Score: MateScore - 3}, {Move: 2, Score: 300}}
	for i := 0; i < 200; i++ {
		if levels[5].choose(mate, rng).Move != 1 {
			t.Fatal("level 5 let a mate go for +3")
		}
	}
}

func TestPlayLevelsAreReproducibleAndLegal(t *testing.T) {
	pos := mustFEN(t, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	for n := MinLevel; n <= MaxLevel; n++ {
		l, _ := LevelByNumber(n)
		var moves [2]cc.Move
		for run := 0; run < 2; run++ {
			e := New(Options{HashMB: 2})
			res, err := e.Play(pos, nil, Limits{Nodes: 6000}, l, rand.New(rand.NewPCG(7, uint64(n))))
			if err != nil {
				t.Fatal(err)
			}
			if !pos.IsLegal(res.Move) {
				t.Fatalf("level %d played illegal %s", n, res.Move)
			}
			if res.Nodes > 6000 || l.Nodes > 0 && res.Nodes > l.Nodes {
				t.Errorf("level %d searched %d nodes, cap %d", n, res.Nodes, l.Nodes)
			}
			moves[run] = res.Move
		}
		if moves[0] != moves[1] {
			t.Errorf("level %d with the same seed played %s then %s", n, moves[0], moves[1])
		}
	}
	if _, err := New(Options{}).Play(pos, nil, Limits{Depth: 2}, levels[2], nil); err == nil {
		t.Error("a weak level without randomness was accepted")
	}
}

func TestBotPlaysAGame(t *testing.T) {
	g := cc.NewGame(cc.StartPosition(), nil)
	white := &Bot{Level: levels[2], Rand: rand.New(rand.NewPCG(1, 1)), Now: time.Now, Untimed: 20 * time.Millisecond}
	black := &Bot{Level: levels[8], Now: time.Now, Untimed: 20 * time.Millisecond}
	ctx := context.Background()
	for ply := 0; ply < 30 && !g.Over(); ply++ {
		var p Player = white
		if g.Turn() == cc.Black {
			p = black
		}
		tl := &TimeLeft{Remaining: time.Second, Increment: 10 * time.Millisecond}
		m, err := p.BestMove(ctx, g, tl)
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("ply %d: bot move %s: %v", ply, m, err)
		}
	}
	// A cancelled context still gets a legal move, at once.
	ctx, cancel := context.WithCancel(ctx)
	cancel()
	if !g.Over() {
		start := time.Now()
		m, err := black.BestMove(ctx, g, nil)
		pos := g.Position()
		if err != nil || !pos.IsLegal(m) {
			t.Errorf("cancelled: %s, %v", m, err)
		}
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("cancelled search took %v", d)
		}
	}
	over := cc.NewGame(mustFEN(t, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), nil)
	if _, err := black.BestMove(context.Background(), over, nil); err != ErrGameOver {
		t.Errorf("game over: error %v", err)
	}
	if _, err := (&Bot{}).BestMove(context.Background(), g, nil); err != ErrNoClock && !g.Over() {
		t.Errorf("bot without a clock: error %v", err)
	}
}

// TestLevelRatings checks the calibrated ratings: every level has one, they rise with
// the level, and LevelForRating finds each level from its rating and the nearest level
// for any other.
func TestLevelRatings(t *testing.T) {
	prev := 0
	for n := MinLevel; n <= MaxLevel; n++ {
		l, _ := LevelByNumber(n)
		if l.Rating <= prev {
			t.Errorf("level %d: rating %d, not above level %d's %d", n, l.Rating, n-1, prev)
		}
		prev = l.Rating
		if got := LevelForRating(l.Rating); got.Number != n {
			t.Errorf("LevelForRating(%d) = level %d, want %d", l.Rating, got.Number, n)
		}
	}
	lo, _ := LevelByNumber(MinLevel)
	hi, _ := LevelByNumber(MaxLevel)
	if got := LevelForRating(lo.Rating - 500); got.Number != MinLevel {
		t.Errorf("far below level 1: level %d", got.Number)
	}
	if got := LevelForRating(hi.Rating + 500); got.Number != MaxLevel {
		t.Errorf("far above level 8: level %d", got.Number)
	}
	l5, _ := LevelByNumber(5)
	l6, _ := LevelByNumber(6)
	if got := LevelForRating(l5.Rating + (l6.Rating-l5.Rating)/2 - 1); got.Number != 5 {
		t.Errorf("just below the middle of levels 5 and 6: level %d", got.Number)
	}
}
