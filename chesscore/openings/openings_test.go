package openings

import (
	"strings"
	"testing"

	cc "github.com/gambitchess/gambit/chesscore"
)

// sanMoves plays SAN moves from start.
func sanMoves(t *testing.T, start cc.Position, line string) []cc.Move {
	t.Helper()
	pos := start
	var out []cc.Move
	for _, tok := range strings.Fields(line) {
		if isMoveNumber(tok) {
			continue
		}
		m, err := pos.ParseSAN(tok)
		if err != nil {
			t.Fatalf("%q: %v", tok, err)
		}
		out = append(out, m)
		pos = pos.Play(m)
	}
	return out
}

func TestClassifyKnownGames(t *testing.T) {
	book, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if book.Len() < 3000 {
		t.Fatalf("the book names %d positions, want the data set's 3000 and more", book.Len())
	}
	for _, c := range []struct {
		name, moves string
		want        Opening
		ply         int
	}{
		{"fool's mate", "1. f3 e5 2. g4 Qh4#", Opening{"A00", "Barnes Opening: Fool's Mate"}, 4},
		{"Najdorf, then moves off the book", "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Qd3 Qc7 7. Qg3 Qa5",
			Opening{"B90", "Sicilian Defense: Najdorf Variation"}, 10},
		{"Ruy Lopez", "1. e4 e5 2. Nf3 Nc6 3. Bb5", Opening{"C60", "Ruy Lopez"}, 5},
		{"Italian Game, then moves off the book", "1. e4 e5 2. Nf3 Nc6 3. Bc4 h6 4. h3 a6", Opening{"C50", "Italian Game: Anti-Fried Liver Defense"}, 6},
		// The Queen's Gambit Declined reached by a move order of the Nimzo-Indian family:
		// the position, not the moves, carries the name.
		{"transposition", "1. d4 Nf6 2. c4 e6 3. Nc3 d5", Opening{"D35", "Queen's Gambit Declined: Normal Defense"}, 6},
		{"Zukertort by transposition", "1. Nf3 d5 2. d4", Opening{"D02", "Queen's Pawn Game: Zukertort Variation"}, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, ply, ok := book.Classify(cc.StartPosition(), sanMoves(t, cc.StartPosition(), c.moves))
			if !ok || o != c.want || ply != c.ply {
				t.Errorf("Classify = %v at ply %d (%v), want %v at ply %d", o, ply, ok, c.want, c.ply)
			}
		})
	}
}

func TestClassifyOffTheBook(t *testing.T) {
	book, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	// An endgame position is named by nothing, whatever is played from it.
	start, err := cc.ParseFEN("8/8/8/4k3/8/8/3K4/8 w - - 0 40")
	if err != nil {
		t.Fatal(err)
	}
	if o, ply, ok := book.Classify(start, sanMoves(t, start, "Kd3 Kd5")); ok {
		t.Errorf("an endgame classified as %v at ply %d", o, ply)
	}
	// No moves from the start position: the start position has no name either.
	if o, _, ok := book.Classify(cc.StartPosition(), nil); ok {
		t.Errorf("the start position classified as %v", o)
	}
	// An illegal move ends the walk; the positions before it still count.
	moves := sanMoves(t, cc.StartPosition(), "1. e4 e5 2. Nf3 Nc6 3. Bb5")
	moves = append(moves, moves[0]) // e2e4 again: no pawn on e2
	if o, ply, ok := book.Classify(cc.StartPosition(), moves); !ok || o.ECO != "C60" || ply != 5 {
		t.Errorf("with an illegal move after the Ruy Lopez: %v at ply %d (%v)", o, ply, ok)
	}
}

func TestNameMatchesDefault(t *testing.T) {
	o, ok := Name(cc.StartPosition(), sanMoves(t, cc.StartPosition(), "1. e4 e5 2. Nf3 Nc6 3. Bb5"))
	if !ok || o.String() != "C60 Ruy Lopez" {
		t.Errorf("Name = %q (%v)", o.String(), ok)
	}
}

func TestKeyIgnoresMoveCounters(t *testing.T) {
	a, _ := cc.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	b, _ := cc.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 7 30")
	if Key(&a) != Key(&b) || Key(&a) != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -" {
		t.Errorf("keys %q and %q", Key(&a), Key(&b))
	}
}

func TestReadErrors(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"empty", "", "empty data"},
		{"no header", "A00\tAmar Opening\t1. Nh3\n", "line 1: header"},
		{"two fields", header + "\nA00\t1. Nh3\n", "line 2: 2 tab-separated fields"},
		{"bad code", header + "\nF00\tX\t1. e4\n", `line 2: ECO code "F00"`},
		{"empty name", header + "\nA00\t \t1. e4\n", "line 2: A00: empty name"},
		{"illegal move", header + "\nA00\tAmar Opening\t1. Nh3\nA00\tBad\t1. e5\n", `line 3: A00 Bad: move 1 "e5"`},
		{"no moves", header + "\nA00\tNothing\t1.\n", "line 2: A00 Nothing: no moves"},
		{"line too long", header + "\nA00\tLong\t" + strings.Repeat("1. e4 ", 1000) + "\n", "line 2:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			es, err := Read(strings.NewReader(c.data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Read: %v (%d entries), want an error with %q", err, len(es), c.want)
			}
			if es != nil {
				t.Errorf("Read returned %d entries with its error", len(es))
			}
		})
	}
	es, err := Read(strings.NewReader(header + "\r\nC60\tRuy Lopez\t1. e4 e5 2. Nf3 Nc6 3. Bb5\r\n"))
	if err != nil || len(es) != 1 || es[0].Name != "Ruy Lopez" || len(es[0].Moves) != 5 {
		t.Errorf("a CRLF file: %+v, %v", es, err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add(header + "\nC60\tRuy Lopez\t1. e4 e5 2. Nf3 Nc6 3. Bb5\n")
	f.Add(header + "\nA00\tBarnes Opening: Fool's Mate\t1. f3 e5 2. g4 Qh4#\n")
	f.Add(header + "\nA00\tX\t1. e4 e5 2. Ke2 Ke7 3. Ke3 Ke6 4. Kf4 Kf6 5. Kg4 Kg6 6. Kh4 Kh6\n")
	f.Add("eco\tname\n")
	f.Fuzz(func(t *testing.T, data string) {
		es, err := Read(strings.NewReader(data))
		if err != nil {
			if es != nil {
				t.Fatalf("entries beside the error %v", err)
			}
			return
		}
		b := NewBook(es)
		for _, e := range es {
			if !validECO(e.ECO) || e.Name == "" || len(e.Moves) == 0 {
				t.Fatalf("entry accepted: %+v", e)
			}
			o, ply, ok := b.Classify(cc.StartPosition(), e.Moves)
			if !ok || ply != len(e.Moves) {
				t.Fatalf("%v: the entry's own moves classify as %v at ply %d (%v)", e.Opening, o, ply, ok)
			}
		}
	})
}

func BenchmarkReadData(b *testing.B) {
	for b.Loop() {
		var all []Entry
		files, _ := data.ReadDir("data")
		for _, f := range files {
			raw, _ := data.ReadFile("data/" + f.Name())
			es, err := Read(strings.NewReader(string(raw)))
			if err != nil {
				b.Fatal(err)
			}
			all = append(all, es...)
		}
		b.ReportMetric(float64(NewBook(all).Len()), "positions")
	}
}
