package puzzles

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
)

func TestMinedPuzzlesStayInTheirGuild(t *testing.T) {
	f := newFixture(t, nil)
	g := playSAN(t, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3#")
	rec := &storage.Game{ID: 42, GuildID: "g1", White: storage.Player{ID: "111", Name: "alice"}, Black: storage.Player{ID: "222", Name: "bob"},
		Moves: g.Moves(), Ended: day0.Add(-8 * 24 * time.Hour), Outcome: g.Outcome()}
	n, err := f.svc.MineGame(ctx, rec)
	if err != nil || n == 0 {
		t.Fatalf("mined %d, %v", n, err)
	}
	var id string
	f.db.View(ctx, func(tx storage.Tx) error {
		return tx.EachPuzzle(func(p *storage.Puzzle) error {
			id = p.ID
			if p.Source != "game:g1:42" || p.White != "111" || p.Black != "222" || !p.Played.Equal(rec.Ended) || !strings.HasPrefix(p.ID, "gm42-") {
				t.Errorf("mined puzzle %+v", p)
			}
			return nil
		})
	})
	if _, err := f.svc.Start(ctx, "g2", "carol", "", id); !errors.Is(err, ErrNoSuchPuzzle) {
		t.Errorf("another guild sees g1's puzzle: %v", err)
	}
	pr, err := f.svc.Start(ctx, "g1", "alice", "", id)
	if err != nil {
		t.Fatal(err)
	}
	if pr.Puzzle.White != "111" || pr.Puzzle.Black != "222" || !pr.Puzzle.Played.Equal(rec.Ended) {
		t.Errorf("the puzzle as its guild sees it: %+v", pr.Puzzle)
	}
	// The guild's own puzzles come first for its daily.
	d, err := f.svc.TodayDaily(ctx, "g1")
	if err != nil || !strings.HasPrefix(d.PuzzleID, "gm42-") {
		t.Errorf("g1's daily %+v, %v; want its own puzzle", d, err)
	}
	if _, err := f.svc.TodayDaily(ctx, "g2"); !errors.Is(err, ErrNoPuzzles) {
		t.Errorf("g2's daily from a store holding only g1's puzzles: %v", err)
	}
	// GameOver mines in the background; Close waits for the miner.
	svc, err := New(f.db, Options{Clock: f.clock, NoStarter: true, Mine: MineOptions{MinPlies: 4}, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	rec2 := rec.Clone()
	rec2.ID = 43
	svc.GameOver(rec2)
	deadline := time.Now().Add(60 * time.Second)
	for {
		found := false
		f.db.View(ctx, func(tx storage.Tx) error {
			return tx.EachPuzzle(func(p *storage.Puzzle) error {
				found = found || strings.HasPrefix(p.ID, "gm43-")
				return nil
			})
		})
		if found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("game 43 was not mined in the background")
		}
		time.Sleep(20 * time.Millisecond)
	}
	svc.Close()
}
