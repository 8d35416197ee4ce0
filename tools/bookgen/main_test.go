package main

import (
	"errors"
	"strings"
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/uci/match"
)

// testSettings are quick settings: a shallow candidate search.
func testSettings(n int) settings {
	return settings{n: n, minPlies: 4, maxPlies: 7, candidates: 4, spread: 80, gambitDepth: 2, depth: 10, margin: 50, seed: 7}
}

// TestGenerateKeepsBalanced: with an oracle that finds every other position unbalanced,
// only the balanced ones are kept; the lines are distinct, legal, read back as openings,
// and replaying their moves from the start gives their position.
func TestGenerateKeepsBalanced(t *testing.T) {
	s := testSettings(12)
	calls := 0
	fake := func(p cc.Position) (engine.Score, error) {
		calls++
		if calls%2 == 0 {
			return 120, nil
		}
		return engine.Score(-40 + calls%80), nil
	}
	var lines []string
	var kept []bookLine
	err := generate(s, fake, func(b bookLine) error {
		kept = append(kept, b)
		lines = append(lines, b.epd(s.depth))
		return nil
	}, func(int, int) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != s.n || calls < 2*s.n-1 {
		t.Fatalf("%d kept after %d oracle calls, want %d kept with every other one refused", len(kept), calls, s.n)
	}
	ops, err := match.ReadOpenings(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatalf("the book does not read back: %v\n%s", err, strings.Join(lines, "\n"))
	}
	seen := map[string]bool{}
	for i, b := range kept {
		if b.score > 50 || b.score < -50 {
			t.Errorf("line %d kept with score %d", i+1, b.score)
		}
		if len(b.san) < s.minPlies || len(b.san) > s.maxPlies {
			t.Errorf("line %d: %d plies", i+1, len(b.san))
		}
		g := cc.NewGame(cc.StartPosition(), nil)
		for _, m := range b.san {
			if _, err := g.PlaySAN(m); err != nil {
				t.Fatalf("line %d: %s: %v", i+1, m, err)
			}
		}
		if positionKey(g.Position()) != positionKey(b.pos) || positionKey(ops[i].Pos) != positionKey(b.pos) {
			t.Errorf("line %d: moves, position and EPD disagree: %s", i+1, lines[i])
		}
		if seen[positionKey(b.pos)] {
			t.Errorf("line %d repeats a position", i+1)
		}
		seen[positionKey(b.pos)] = true
		if ops[i].Name != kept[i].epdName() {
			t.Errorf("line %d named %q", i+1, ops[i].Name)
		}
	}
}

// TestGenerateDeterministic: the same seed gives the same book.
func TestGenerateDeterministic(t *testing.T) {
	book := func() string {
		var b strings.Builder
		err := generate(testSettings(3), func(cc.Position) (engine.Score, error) { return 0, nil },
			func(l bookLine) error { b.WriteString(l.epd(10) + "\n"); return nil }, func(int, int) {})
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if a, b := book(), book(); a != b {
		t.Errorf("two runs with one seed differ:\n%s\n%s", a, b)
	}
}

// TestGenerateGivesUp: an oracle that never finds balance ends the run with an error,
// and an oracle's failure is passed on.
func TestGenerateGivesUp(t *testing.T) {
	s := testSettings(1)
	if err := generate(s, func(cc.Position) (engine.Score, error) { return 500, nil },
		func(bookLine) error { return nil }, func(int, int) {}); err == nil {
		t.Error("no balanced position, yet no error")
	}
	boom := errors.New("oracle died")
	if err := generate(s, func(cc.Position) (engine.Score, error) { return 0, boom },
		func(bookLine) error { return nil }, func(int, int) {}); !errors.Is(err, boom) {
		t.Errorf("error %v, want the oracle's", err)
	}
}
