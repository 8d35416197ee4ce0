package mine

import (
	"strings"
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/puzzle"
)

func playSAN(t *testing.T, sans string) *cc.Game {
	t.Helper()
	g := cc.NewGame(cc.StartPosition(), dead.Decider{})
	for _, s := range strings.Fields(sans) {
		if strings.HasSuffix(s, ".") {
			continue
		}
		if _, err := g.PlaySAN(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return g
}

// verifyUnique re-checks a generated puzzle the way the issue asks: it replays legally and
// every solver move is the only winning move by the engine's analysis.
func verifyUnique(t *testing.T, gen *Generator, p puzzle.Puzzle) {
	t.Helper()
	l, err := p.Validate()
	if err != nil {
		t.Fatalf("%s does not replay: %v", p.ID, err)
	}
	for k := 0; k < l.Steps(); k++ {
		pos, _ := l.PositionAt(k)
		lines := gen.analyse(pos, gen.opt.VerifyNodes, 2)
		if len(lines) == 0 || lines[0].Move != l.Moves[1+2*k] && lines[0].Score.MateIn() != 1 {
			t.Errorf("%s step %d: engine prefers %v to the solution %s", p.ID, k+1, lines, l.Moves[1+2*k])
			continue
		}
		if len(lines) > 1 && !gen.unique(lines[0], lines[1]) {
			t.Errorf("%s step %d: not the only winning move: %s %s vs %s %s", p.ID, k+1,
				lines[0].Move, lines[0].Score, lines[1].Move, lines[1].Score)
		}
	}
}

func TestGenerateScholarsMate(t *testing.T) {
	gen := NewGenerator(engine.New(engine.Options{HashMB: 16}), Options{})
	g := playSAN(t, "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#")
	ps := gen.FromGame(g, "t", "game:test:1")
	if len(ps) != 1 {
		t.Fatalf("found %d puzzles, want 1: %+v", len(ps), ps)
	}
	p := ps[0]
	if p.FEN != "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3" ||
		strings.Join(p.Moves, " ") != "g8f6 h5f7" {
		t.Errorf("puzzle %s %v", p.FEN, p.Moves)
	}
	for _, th := range []string{"mate", "mateIn1", "oneMove", "opening"} {
		if !p.HasTheme(th) {
			t.Errorf("themes %v lack %s", p.Themes, th)
		}
	}
	if p.Source != "game:test:1" || p.Rating < 600 {
		t.Errorf("source %q rating %d", p.Source, p.Rating)
	}
	verifyUnique(t, gen, p)
}

func TestGenerateFindsTacticsAndNothingInQuietGames(t *testing.T) {
	gen := NewGenerator(engine.New(engine.Options{HashMB: 16}), Options{})
	// The Blackburne Shilling trap: after 5.Nxf7?? Black mates by force.
	tactic := playSAN(t, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3#")
	ps := gen.FromGame(tactic, "b", "game:test:2")
	if len(ps) == 0 {
		t.Fatal("no puzzle found in the Blackburne Shilling trap")
	}
	for _, p := range ps {
		verifyUnique(t, gen, p)
	}
	quiet := playSAN(t, "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6")
	if ps := gen.FromGame(quiet, "q", ""); len(ps) != 0 {
		t.Errorf("found %d puzzles in a quiet opening: %+v", len(ps), ps)
	}
}

func TestThemeDetectors(t *testing.T) {
	cases := []struct {
		fen  string
		sq   cc.Square
		fork bool
		pin  bool
		skew bool
	}{
		// Knight on c7 forks king e8 and rook a8.
		{"r3k3/2N5/8/8/8/8/8/4K3 b - - 0 1", cc.C7, true, false, false},
		// Bishop b5 pins the knight on c6 to the king on e8.
		{"4k3/8/2n5/1B6/8/8/8/4K3 b - - 0 1", cc.B5, false, true, false},
		// The rook on e1 checks the king on e5 with the queen on e8 behind it.
		{"4q3/8/8/4k3/8/8/8/4R1K1 b - - 0 1", cc.E1, false, false, true},
	}
	for _, c := range cases {
		p, err := cc.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if isFork(&p, c.sq) != c.fork || makesPin(&p, c.sq) != c.pin || isSkewer(&p, c.sq) != c.skew {
			t.Errorf("%s: fork %v pin %v skewer %v; want %v %v %v", c.fen, isFork(&p, c.sq), makesPin(&p, c.sq), isSkewer(&p, c.sq), c.fork, c.pin, c.skew)
		}
	}
	back, _ := cc.ParseFEN("3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
	if !backRankMate(&back) {
		t.Error("back-rank mate not detected")
	}
}
