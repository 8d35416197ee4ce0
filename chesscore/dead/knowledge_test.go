package dead

import (
	"slices"
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

// TestMateKnowledgeRoundTrip follows the real games: after every move, the knowledge a
// game hands out, given to the same game rebuilt from its moves, is taken whole, and a
// flag fall there is scored as the original game scores it.
func TestMateKnowledgeRoundTrip(t *testing.T) {
	games := loadRealGameMoves(t)
	checked := 0
	for gi, rg := range games[:min(len(games), 40)] {
		g := cc.NewGame(rg.start, Decider{})
		for i, m := range rg.moves {
			if err := g.Play(m); err != nil {
				t.Fatalf("game %d move %d: %v", gi, i+1, err)
			}
			if g.Over() {
				break
			}
			if i%7 != 0 {
				continue
			}
			k := g.MateKnowledge()
			if k.Ply != i+1 {
				t.Fatalf("game %d: knowledge for ply %d after %d moves", gi, k.Ply, i+1)
			}
			mover := g.Turn().Other()
			if !k.Known() {
				t.Fatalf("game %d ply %d: nothing known after the dead-position test", gi, k.Ply)
			}
			r, err := cc.ReplayGame(rg.start, rg.moves[:i+1], Decider{})
			if err != nil {
				t.Fatal(err)
			}
			if !r.AddMateKnowledge(k) {
				t.Fatalf("game %d ply %d: knowledge %v not taken", gi, k.Ply, k.Verdict)
			}
			if r.MateKnowledge().Verdict != k.Verdict {
				t.Fatalf("game %d ply %d: took %v of %v", gi, k.Ply, r.MateKnowledge().Verdict, k.Verdict)
			}
			a, b := g.Clone(), r.Clone()
			if err := a.FlagFall(mover.Other()); err != nil {
				t.Fatal(err)
			}
			if err := b.FlagFall(mover.Other()); err != nil {
				t.Fatal(err)
			}
			if a.Outcome() != b.Outcome() {
				t.Fatalf("game %d ply %d: flag fall %s in the game, %s rebuilt", gi, k.Ply, a.Outcome(), b.Outcome())
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestAddMateKnowledgeRefuses: knowledge for another ply, a line that does not mate, a
// line too long and a finished game are not taken.
func TestAddMateKnowledgeRefuses(t *testing.T) {
	start := cc.StartPosition()
	g := cc.NewGame(start, Decider{})
	for _, s := range []string{"e4", "e5", "Qh5", "Nc6"} {
		if _, err := g.PlaySAN(s); err != nil {
			t.Fatal(err)
		}
	}
	mate := []cc.Move{mustUCI(t, g.Position(), "h5f7")} // Qxf7+ is no mate (Ke7)
	pos := g.Position()
	bc4 := mustUCI(t, pos, "f1c4")
	q := pos.Play(bc4)
	nf6 := mustUCI(t, q, "g8f6")
	q = q.Play(nf6)
	line := []cc.Move{bc4, nf6, mustUCI(t, q, "h5f7")} // Bc4 Nf6 Qxf7#
	long := slices.Repeat([]cc.Move{line[0]}, cc.MaxKnownLine+1)
	for _, tc := range []struct {
		name string
		k    cc.MateKnowledge
		took bool
	}{
		{"the mating line", cc.MateKnowledge{Ply: 4, Verdict: [2]cc.Verdict{cc.White: cc.Yes}, Line: [2][]cc.Move{cc.White: line}}, true},
		{"another ply", cc.MateKnowledge{Ply: 3, Verdict: [2]cc.Verdict{cc.White: cc.Yes}, Line: [2][]cc.Move{cc.White: line}}, false},
		{"no mate at the end", cc.MateKnowledge{Ply: 4, Verdict: [2]cc.Verdict{cc.White: cc.Yes}, Line: [2][]cc.Move{cc.White: mate}}, false},
		{"the line for the wrong colour", cc.MateKnowledge{Ply: 4, Verdict: [2]cc.Verdict{cc.Black: cc.Yes}, Line: [2][]cc.Move{cc.Black: line}}, false},
		{"a Yes without a line", cc.MateKnowledge{Ply: 4, Verdict: [2]cc.Verdict{cc.White: cc.Yes}}, false},
		{"a line too long", cc.MateKnowledge{Ply: 4, Verdict: [2]cc.Verdict{cc.White: cc.Yes}, Line: [2][]cc.Move{cc.White: long}}, false},
		{"nothing known", cc.MateKnowledge{Ply: 4}, false},
		{"a No", cc.MateKnowledge{Ply: 4, Verdict: [2]cc.Verdict{cc.Black: cc.No}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := cc.ReplayGame(start, g.Moves(), Decider{})
			if err != nil {
				t.Fatal(err)
			}
			if got := r.AddMateKnowledge(tc.k); got != tc.took {
				t.Fatalf("AddMateKnowledge = %v, want %v", got, tc.took)
			}
			if !tc.took && r.MateKnowledge().Verdict != [2]cc.Verdict{} {
				t.Fatalf("refused, yet the game knows %v", r.MateKnowledge().Verdict)
			}
			if tc.took && r.MateKnowledge().Verdict != tc.k.Verdict {
				t.Fatalf("knows %v, want %v", r.MateKnowledge().Verdict, tc.k.Verdict)
			}
		})
	}
	over := cc.NewGame(start, Decider{})
	for _, s := range []string{"f3", "e5", "g4", "Qh4#"} {
		if _, err := over.PlaySAN(s); err != nil {
			t.Fatal(err)
		}
	}
	if over.AddMateKnowledge(cc.MateKnowledge{Ply: 4, Verdict: [2]cc.Verdict{cc.No, cc.No}}) {
		t.Fatal("knowledge taken by a finished game")
	}
	if k := over.MateKnowledge(); k.Known() {
		t.Fatalf("a finished game hands out %v", k.Verdict)
	}
}

func mustUCI(t *testing.T, p cc.Position, s string) cc.Move {
	t.Helper()
	m, err := p.ParseUCI(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return m
}
