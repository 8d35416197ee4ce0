package storage

// arbiter_test.go: the game record's later fields (a draw offer going with the next
// move, the last move's instant, the arbiter's notes) and the guild settings of the
// arbiter and of takebacks.

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// arbitrated is sampleGames(t)[1] with every later field set.
func arbitrated(t testing.TB) *Game {
	g := sampleGames(t)[1]
	g.ID = 4
	g.DrawOffer = Offer{}
	g.DrawWithMove = true
	g.Moved = t0.Add(7 * time.Second)
	g.Notes = []Note{
		{Ply: 2, At: t0.Add(5 * time.Second), By: Player{"900", "Arbiter ♜"}, Action: "added 2:00 to Black's clock", Reason: "a disturbance"},
		{Ply: 3, At: t0.Add(9 * time.Second), By: Player{"901", "Second"}, Action: "adjudicated 1-0", Reason: "Black {left} the server"},
	}
	return g
}

func TestGameCodecArbiterFields(t *testing.T) {
	g := arbitrated(t)
	b := encodeGame(g)
	got, err := decodeGame(g.ID, b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, g) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, g)
	}
	// Each later field alone round-trips too, and a record without them keeps its old
	// bytes (TestGameCodecOldRecordsDecode).
	for name, spoil := range map[string]func(*Game){
		"draw with move only": func(g *Game) { g.Moved, g.Notes = time.Time{}, nil },
		"moved only":          func(g *Game) { g.DrawWithMove, g.Notes = false, nil },
		"notes only":          func(g *Game) { g.DrawWithMove, g.Moved = false, time.Time{} },
	} {
		one := arbitrated(t)
		spoil(one)
		got, err := decodeGame(one.ID, encodeGame(one))
		if err != nil || !reflect.DeepEqual(got, one) {
			t.Errorf("%s: %v\n got %+v\nwant %+v", name, err, got, one)
		}
	}
	// Truncated notes, an unknown flag bit and trailing bytes are corrupt.
	for name, bad := range map[string][]byte{
		"truncated notes": b[:len(b)-4],
		"unknown flag":    append([]byte{b[0], 0x80 | b[1], 0x04 | b[2]}, b[3:]...),
		"trailing":        append(append([]byte(nil), b...), 0),
	} {
		if _, err := decodeGame(g.ID, bad); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
}

func TestGameNotesValidated(t *testing.T) {
	db := openTemp(t, nil)
	for name, spoil := range map[string]func(*Game){
		"ply beyond the moves": func(g *Game) { g.Notes[0].Ply = 4 },
		"negative ply":         func(g *Game) { g.Notes[0].Ply = -1 },
		"long reason":          func(g *Game) { g.Notes[0].Reason = strings.Repeat("x", MaxNoteText+1) },
		"long arbiter name":    func(g *Game) { g.Notes[0].By.Name = strings.Repeat("x", MaxNameLen+1) },
		"too many notes": func(g *Game) {
			for len(g.Notes) <= MaxNotes {
				g.Notes = append(g.Notes, g.Notes[0])
			}
		},
	} {
		g := arbitrated(t)
		g.ID = 0
		spoil(g)
		if err := db.Commit(&Change{Game: g}); err == nil {
			t.Errorf("%s: stored", name)
		}
	}
	g := arbitrated(t)
	g.ID = 0
	if err := db.Commit(&Change{Game: g}); err != nil {
		t.Fatal(err)
	}
	got, err := Read(db, func(tx Tx) (*Game, error) { return tx.Game(g.ID) })
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
	db := openTemp(t, nil)
	// Settings stored before the fields existed read as no arbiter role and no rated
	// takebacks.
	old := DefaultGuildSettings("g")
	raw, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "arbiter") || strings.Contains(string(raw), "takebacks") {
		t.Errorf("default settings write the new fields: %s", raw)
	}
	var back GuildSettings
	if err := decodeJSON(append([]byte{jsonFormat}, raw...), &back); err != nil || back.ArbiterRole != "" || back.RatedTakebacks {
		t.Fatalf("old settings decode as %+v, %v", back, err)
	}
	s := DefaultGuildSettings("g")
	s.ArbiterRole, s.RatedTakebacks = "555", true
	if err := db.Update(func(tx Tx) error { return tx.PutGuildSettings(s) }); err != nil {
		t.Fatal(err)
	}
	got, err := Read(db, func(tx Tx) (GuildSettings, error) { return tx.GuildSettings("g") })
	if err != nil || got.ArbiterRole != "555" || !got.RatedTakebacks {
		t.Errorf("settings = %+v, %v", got, err)
	}
	s.ArbiterRole = strings.Repeat("9", MaxIDLen+1)
	if err := db.Update(func(tx Tx) error { return tx.PutGuildSettings(s) }); err == nil {
		t.Error("stored an over-long arbiter role")
	}
}
