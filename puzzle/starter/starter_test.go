package starter_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/puzzle/mine"
	"github.com/gambitchess/gambit/puzzle/starter"
)

// starterSet reads the shipped starter set.
func starterSet(t testing.TB) []*puzzle.Puzzle {
	t.Helper()
	rd, err := puzzle.NewReader(bytes.NewReader(starter.CSV))
	if err != nil {
		t.Fatal(err)
	}
	var out []*puzzle.Puzzle
	for {
		p, err := rd.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("starter set: %v", err)
		}
		out = append(out, p)
	}
}

// TestStarterSetReplaysAndIsUnique checks every puzzle of the starter set replays
// legally with distinct ids, and verifies a sample of it as `gambit puzzles verify`
// does (every solver move is the engine's best and clearly the only winning move, with
// the budget the set was verified with, from a fresh search each time).
func TestStarterSetReplaysAndIsUnique(t *testing.T) {
	ps := starterSet(t)
	if len(ps) < 365 {
		t.Fatalf("the starter set has %d puzzles, less than a year of daily posts", len(ps))
	}
	ids := map[string]bool{}
	for _, p := range ps {
		if ids[p.ID] {
			t.Errorf("id %s twice", p.ID)
		}
		ids[p.ID] = true
		if _, err := p.Validate(); err != nil {
			t.Error(err)
		}
		if p.Rating < 600 || len(p.Themes) == 0 {
			t.Errorf("%s: rating %d, themes %v", p.ID, p.Rating, p.Themes)
		}
	}
	sample := 16
	switch {
	case raceEnabled:
		sample = 3
	case testing.Short():
		sample = 6
	}
	for i := 0; i < sample; i++ {
		p := ps[i*len(ps)/sample]
		gen := mine.NewGenerator(engine.New(engine.Options{HashMB: 16}), mine.Options{ScanNodes: 6000, VerifyNodes: 150000})
		if err := gen.Verify(*p); err != nil {
			t.Error(err)
		}
	}
}
