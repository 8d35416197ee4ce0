package games

// mates_test.go: the decision made after a move (who can still mate) travels with the
// record, so a game rebuilt from it answers a flag fall without a search.

import (
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/storage"
)

// TestRecordCarriesMateDecision: after each move the record holds what the dead-position
// test found, for the record's ply and agreeing with a fresh decision; a service started
// afresh (nothing cached) scores a flag fall from it, which a record altered to say the
// opposite shows.
func TestRecordCarriesMateDecision(t *testing.T) {
	for _, tc := range []struct {
		name   string
		forge  bool
		result chesscore.Outcome
	}{
		{"as written", false, chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.TimeForfeit}},
		{"altered to say White cannot mate", true, chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.DrawOnTime}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			g := h.start("1+0", "")
			h.play(g.ID, "e4 e5 Nf3")
			read := func() *storage.Game {
				rec, err := storage.Read(ctx, h.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
				if err != nil {
					t.Fatal(err)
				}
				return rec
			}
			rec := read()
			k := rec.Mates
			if !k.Known() || k.Ply != 3 {
				t.Fatalf("record after 3 moves carries %+v", k)
			}
			pos := h.game(g.ID).Position
			for c, v := range k.Verdict {
				if v != chesscore.Unknown && dead.CanCheckmate(&pos, chesscore.Color(c)) != v {
					t.Fatalf("record says %s for %s, a fresh decision differs", v, chesscore.Color(c))
				}
			}
			if tc.forge {
				rec.Mates = chesscore.MateKnowledge{Ply: 3, Verdict: [2]chesscore.Verdict{chesscore.White: chesscore.No}}
				if err := h.db.Commit(ctx, &storage.Change{Game: rec}); err != nil {
					t.Fatal(err)
				}
			}
			h.restart()
			h.events()
			h.clk.Set(h.game(g.ID).Deadline())
			h.s.FireDue()
			evs := h.events()
			if got := eventTypes(evs); got != "FlagFell GameOver" {
				t.Fatalf("events %q", got)
			}
			if o := evs[1].(GameOver).Outcome; o != tc.result {
				t.Fatalf("outcome %v, want %v", o, tc.result)
			}
			if end := read(); end.Mates.Known() {
				t.Fatalf("a finished game's record carries %+v", end.Mates)
			}
		})
	}
}
