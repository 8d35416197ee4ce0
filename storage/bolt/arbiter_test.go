package bolt

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

func TestGameNotesValidated(t *testing.T) {
	db := OpenTemp(t, nil)
	for name, spoil := range map[string]func(*storage.Game){
		"ply beyond the moves": func(g *storage.Game) { g.Notes[0].Ply = 4 },
		"negative ply":         func(g *storage.Game) { g.Notes[0].Ply = -1 },
		"long reason":          func(g *storage.Game) { g.Notes[0].Reason = strings.Repeat("x", storage.MaxNoteText+1) },
		"long arbiter name":    func(g *storage.Game) { g.Notes[0].By.Name = strings.Repeat("x", storage.MaxNameLen+1) },
		"too many notes": func(g *storage.Game) {
			for len(g.Notes) <= storage.MaxNotes {
				g.Notes = append(g.Notes, g.Notes[0])
			}
		},
	} {
		g := testrecords.Arbitrated(t)
		g.ID = 0
		spoil(g)
		if err := db.Commit(t.Context(), &storage.Change{Game: g}); err == nil {
			t.Errorf("%s: stored", name)
		}
	}
	g := testrecords.Arbitrated(t)
	g.ID = 0
	if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
		t.Fatal(err)
	}
	got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
	if err != nil || !reflect.DeepEqual(got.Notes, g.Notes) || !got.Moved.Equal(g.Moved) || !got.DrawWithMove {
		t.Errorf("stored game: %+v, %v", got, err)
	}
	c := got.Clone()
	c.Notes[0].Reason = "changed"
	if got.Notes[0].Reason == "changed" {
		t.Error("Clone shares the notes")
	}
}

func TestGuildSettingsArbiterAndTakebacks(t *testing.T) {
	db := OpenTemp(t, nil)
	// Settings stored before the fields existed read as no arbiter role and no rated
	// takebacks.
	old := storage.DefaultGuildSettings("g")
	raw, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "arbiter") || strings.Contains(string(raw), "takebacks") {
		t.Errorf("default settings write the new fields: %s", raw)
	}
	var back storage.GuildSettings
	if err := codec.DecodeJSON(append([]byte{codec.JSONFormat}, raw...), &back); err != nil || back.ArbiterRole != "" || back.RatedTakebacks {
		t.Fatalf("old settings decode as %+v, %v", back, err)
	}
	s := storage.DefaultGuildSettings("g")
	s.ArbiterRole, s.RatedTakebacks = "555", true
	if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutGuildSettings(s) }); err != nil {
		t.Fatal(err)
	}
	got, err := storage.Read(t.Context(), db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings("g") })
	if err != nil || got.ArbiterRole != "555" || !got.RatedTakebacks {
		t.Errorf("settings = %+v, %v", got, err)
	}
	s.ArbiterRole = strings.Repeat("9", storage.MaxIDLen+1)
	if err := db.Update(t.Context(), func(tx storage.Tx) error { return tx.PutGuildSettings(s) }); err == nil {
		t.Error("stored an over-long arbiter role")
	}
}
