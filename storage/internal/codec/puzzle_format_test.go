package codec

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/testrecords"
)

// encodePuzzleFormat1 writes a puzzle record as format 1 did: a description (the
// players as Discord mentions) in place of the players.
func encodePuzzleFormat1(p *storage.Puzzle, description string) []byte {
	e := encoder{}
	e.byte(puzzleFormatDescription)
	e.str(p.FEN)
	e.str(strings.Join(p.Moves, " "))
	e.int(p.Rating)
	e.int(p.RD)
	e.uvarint(0)
	e.varint(int64(p.Popularity))
	e.int(p.Plays)
	e.str(strings.Join(p.Themes, " "))
	e.str(p.GameURL)
	e.str(strings.Join(p.Openings, " "))
	e.str(p.Source)
	e.str(description)
	e.time(p.Added)
	e.time(p.Played)
	return e.b
}

// TestPuzzleFormat1DecodesPlayers: a record stored before the players had fields of
// their own decodes with the players read out of its description, and is written back
// in the current format.
func TestPuzzleFormat1DecodesPlayers(t *testing.T) {
	base := storage.Puzzle{ID: "gm7-12", FEN: "8/8/8/8/8/8/8/K6k w - - 0 1", Moves: []string{"a1a2", "h1h2"}, Rating: 900,
		Source: "game:g1:7", Added: testrecords.T0, Played: testrecords.T0.Add(-time.Hour)}
	cases := []struct {
		description, white, black string
	}{
		{"<@111> vs <@222>", "111", "222"},
		{"", "", ""},
		{"<@111> and <@222>", "", ""},
		{"<@> vs <@222>", "", ""},
		{"<@111> vs <@222", "", ""},
	}
	for _, c := range cases {
		got, err := DecodePuzzle(base.ID, encodePuzzleFormat1(&base, c.description))
		if err != nil {
			t.Fatalf("%q: %v", c.description, err)
		}
		want := base
		want.White, want.Black = c.white, c.black
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.description, *got, want)
		}
		if b := EncodePuzzle(got); b[0] != puzzleFormat {
			t.Errorf("%q: written back in format %d, want %d", c.description, b[0], puzzleFormat)
		}
	}
}
