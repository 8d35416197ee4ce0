package games

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// A line entered move by move is checked as a whole line is, and nothing is stored:
// each prefix gives its moves in SAN, the position and the moves legal there; the
// refusals are AddPlanLine's own.
func TestCheckPlanDraft(t *testing.T) {
	storagetest.ForEachBackend(t, func(t *testing.T, db storage.Store) {
		b := newPlanBed(t, db)
		id := b.start("1d")
		b.mustMove(id, alice, "e4")
		b.mustMove(id, bob, "e5")
		live := b.start("5+3")
		b.mustMove(live, alice, "e4")
		draft := func(g uint64, who storage.Player, line string, expect Ply) (*PlanDraft, error) {
			return b.s.CheckPlanDraft(ctx, PlanRequest{Action: Action{RequestID: b.rid(), GameID: g, UserID: who.ID, Expect: expect}, Line: line})
		}
		before := b.stored(id).Version

		d, err := draft(id, bob, "g1f3", AtPly(2))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(d.SAN, []string{"Nf3"}) || d.Ply != 2 || d.Position.FEN() != "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2" {
			t.Fatalf("draft after g1f3: %+v (%s)", d, d.Position.FEN())
		}
		if len(d.Legal) != 29 { // Black's moves after 1.e4 e5 2.Nf3
			t.Errorf("%d legal moves after 2.Nf3, want 29", len(d.Legal))
		}
		d, err = draft(id, bob, "Nf3 b8c6 Bb5", Ply{})
		if err != nil || !reflect.DeepEqual(d.SAN, []string{"Nf3", "Nc6", "Bb5"}) {
			t.Fatalf("draft of three moves: %+v, %v", d, err)
		}
		// A mate ends the draft: nothing is legal after it.
		b2 := b.start("1d")
		for i, mv := range []string{"f3", "e5", "g4"} {
			b.mustMove(b2, []storage.Player{alice, bob}[i%2], mv)
		}
		// Black to move after 1.f3 e5 2.g4: Bob may not plan, Alice may not either
		// (her opponent's move first: Qh4# is Black's, and it is Black's turn).
		if _, err := draft(b2, bob, "Qh4", Ply{}); !errors.Is(err, ErrNotYourTurn) {
			t.Errorf("a draft on one's own turn: %v", err)
		}
		if d, err := draft(b2, alice, "Qh4", Ply{}); err != nil || d.Outcome.Over() == false || len(d.Legal) != 0 {
			t.Errorf("a draft ending in mate: %+v, %v", d, err)
		}

		for _, c := range []struct {
			name, line string
			who        storage.Player
			game       uint64
			expect     Ply
			want       error
			text       string
		}{
			{"own turn", "e5", alice, id, Ply{}, ErrNotYourTurn, "it is your move"},
			{"illegal", "Nf3 Ke6", bob, id, Ply{}, ErrBadRequest, "move 2 of the line (Ke6, your move)"},
			{"draw", "Nf3 draw", bob, id, Ply{}, ErrBadRequest, "cannot offer or claim a draw"},
			{"too long", strings.Repeat("Nf3 ", 120), bob, id, Ply{}, ErrBadRequest, "at most"},
			{"stale", "Nf3", bob, id, AtPly(1), ErrStale, "ply 2"},
			{"spectator", "Nf3", carol, id, Ply{}, ErrNotAPlayer, ""},
			{"live game", "d4", bob, live, Ply{}, ErrPlansOff, "correspondence"},
		} {
			_, err := draft(c.game, c.who, c.line, c.expect)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
				t.Errorf("%s: %v, want %v saying %q", c.name, err, c.want, c.text)
			}
		}
		if v := b.stored(id).Version; v != before {
			t.Errorf("drafts wrote the game (version %d, was %d)", v, before)
		}
		if got := b.plan(id, bob); len(got) != 0 {
			t.Errorf("drafts stored a plan: %v", got)
		}
		if err := b.s.PlansAllowed(ctx, id); err != nil {
			t.Errorf("a daily game: %v", err)
		}
		if err := b.s.PlansAllowed(ctx, live); !errors.Is(err, ErrPlansOff) {
			t.Errorf("a live game: %v, want ErrPlansOff", err)
		}
	})
}
