package puzzle

import (
	"errors"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
)

func TestAnyMateSolvesMateInOne(t *testing.T) {
	// After the opponent's ...Nc4, White has two back-rank mates, Rb8# (the line's) and Ra8#:
	// any mating move must count as solved, a non-mate as wrong.
	p := &Puzzle{ID: "t1", FEN: "6k1/5ppp/8/n7/8/8/1R6/R5K1 b - - 0 1", Moves: []string{"a5c4", "b2b8"}, Rating: 1000}
	l, err := p.Validate()
	if err != nil {
		t.Fatal(err)
	}
	pos, _ := l.PositionAt(0)
	other, err := pos.ParseSAN("Ra8")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := Check(l, 0, other); err != nil || v != Solved {
		t.Errorf("the other mate: %v %v, want Solved", v, err)
	}
	quiet, _ := pos.ParseSAN("Kf1")
	if v, _ := Check(l, 0, quiet); v != Wrong {
		t.Errorf("a non-mating move: %v, want Wrong", v)
	}
}

func TestValidateRejects(t *testing.T) {
	cases := []struct {
		p    Puzzle
		want string
	}{
		{Puzzle{ID: "a", FEN: "bad", Moves: []string{"e2e4", "e7e5"}}, "invalid FEN"},
		{Puzzle{ID: "b", FEN: chesscore.StartFEN, Moves: []string{"e2e4"}}, "1 moves"},
		{Puzzle{ID: "c", FEN: chesscore.StartFEN, Moves: []string{"e2e4", "e7e5", "g1f3"}}, "end on a solver move"},
		{Puzzle{ID: "d", FEN: chesscore.StartFEN, Moves: []string{"e2e5", "e7e5"}}, `move 1 "e2e5"`},
		{Puzzle{ID: "e", FEN: chesscore.StartFEN, Moves: []string{"e2e4", "e7e5"}, Rating: 9000}, "rating"},
	}
	for _, c := range cases {
		_, err := c.p.Validate()
		if err == nil || !errors.Is(err, ErrPuzzle) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrPuzzle with %q", c.p.ID, err, c.want)
		}
	}
}

func TestSolutionSAN(t *testing.T) {
	cases := []struct {
		p    Puzzle
		want string
	}{
		{Puzzle{ID: "x", FEN: "6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1", Moves: []string{"g8h8", "d1d8"}}, "2. Rd8#"},
		// Black solves: the numbering starts with Black's move.
		{Puzzle{ID: "y", FEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", Moves: []string{"f1c4", "f8c5", "c2c3", "g8f6"}}, "3... Bc5 4. c3 Nf6"},
	}
	for _, c := range cases {
		l, err := c.p.Validate()
		if err != nil {
			t.Fatal(err)
		}
		if got := l.SolutionSAN(); got != c.want {
			t.Errorf("%s: SolutionSAN = %q, want %q", c.p.ID, got, c.want)
		}
	}
}

func TestSourceGuild(t *testing.T) {
	cases := []struct{ source, guild string }{
		{"game:g1:42", "g1"},
		{"game:g1", "g1"},
		{"lichess", ""},
		{"pgn:a vs b", ""},
		{"", ""},
	}
	for _, c := range cases {
		p := Puzzle{Source: c.source}
		if got := p.SourceGuild(); got != c.guild {
			t.Errorf("%q: SourceGuild = %q, want %q", c.source, got, c.guild)
		}
	}
}
