package chesscore

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var updatePGN = flag.Bool("update-pgn", false, "rewrite the PGN golden files in testdata/pgn")

func readPGNFile(t *testing.T, name string) []*PGNGame {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "pgn", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := ReadPGN(f, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return games
}

func writePGNString(t testing.TB, pg *PGNGame) string {
	t.Helper()
	var b strings.Builder
	if err := WritePGN(&b, pg); err != nil {
		t.Fatalf("WritePGN: %v", err)
	}
	return b.String()
}

func TestReadPGNFile(t *testing.T) {
	games := readPGNFile(t, "games.pgn")
	if len(games) != 7 {
		t.Fatalf("read %d games, want 7", len(games))
	}
	type want struct {
		plies   int
		outcome Outcome
		last    string
	}
	wants := []want{
		{33, Outcome{WhiteWins, Checkmate}, "Rd8#"},
		{10, Outcome{BlackWins, Resignation}, "O-O"},
		{26, Outcome{Draw, Stalemate}, "Ke6"},
		{45, Outcome{WhiteWins, Checkmate}, "Be7#"},
		{10, Outcome{}, "a6"},
		{8, Outcome{Draw, ThreefoldRepetition}, "Ng8"},
		{2, Outcome{Draw, DrawOnTime}, "Kd3"},
	}
	for i, w := range wants {
		g := games[i].Game
		san := g.SAN()
		if g.Ply() != w.plies || g.Outcome() != w.outcome || san[len(san)-1] != w.last {
			t.Errorf("game %d: %d plies, %v, last %s; want %d, %v, %s", i+1, g.Ply(), g.Outcome(), san[len(san)-1], w.plies, w.outcome, w.last)
		}
		if len(games[i].Moves) != g.Ply() {
			t.Errorf("game %d: %d annotated moves for %d plies", i+1, len(games[i].Moves), g.Ply())
		}
	}
	opera := games[0]
	if opera.Tags["White"] != "Paul Morphy" || opera.Tags["ECO"] != "C41" {
		t.Errorf("opera tags: %v", opera.Tags)
	}
	if _, ok := opera.Tags["Result"]; ok {
		t.Error("Result kept among the tags; the Game carries it")
	}
	if !strings.HasPrefix(opera.Comment, "The Opera Game") {
		t.Errorf("game comment %q", opera.Comment)
	}
	if m := opera.Moves[5]; m.SAN != "Bg4" || !reflect.DeepEqual(m.NAGs, []uint8{6}) || m.Comment != "This pin is not a good idea." {
		t.Errorf("3... Bg4?!: %+v", m)
	}
	if m := opera.Moves[17]; m.SAN != "b5" || !reflect.DeepEqual(m.NAGs, []uint8{2}) {
		t.Errorf("9... b5 $2: %+v", m)
	}
	if m := opera.Moves[27]; m.SAN != "Qe6" || len(m.Variations) != 1 || len(m.Variations[0].Moves) != 4 || m.Variations[0].Moves[0].SAN != "Qb4" {
		t.Errorf("14... Qe6 and its variation: %+v", m)
	}
	blitz := games[1]
	if blitz.Tags["TimeControl"] != "180+2" {
		t.Errorf("TimeControl %q", blitz.Tags["TimeControl"])
	}
	clocks := []time.Duration{180 * time.Second, 180 * time.Second, 181500 * time.Millisecond, 179 * time.Second}
	for i, c := range clocks {
		if m := blitz.Moves[i]; !m.HasClock || m.Clock != c || m.Comment != "" {
			t.Errorf("blitz move %d: clock %v (%v), comment %q; want %v", i+1, m.Clock, m.HasClock, m.Comment, c)
		}
	}
	if m := blitz.Moves[6]; m.Comment != "[%eval 0.3]" || m.Clock != 175*time.Second {
		t.Errorf("4. Bg5: comment %q, clock %v", m.Comment, m.Clock)
	}
	if m := blitz.Moves[8]; m.Clock != 171*time.Second {
		t.Errorf("a clock comment split over two lines: %v", m.Clock)
	}
	study := games[2]
	if start := study.Game.Start(); start.FEN() != "8/8/8/4k3/8/8/4P3/4K3 b - - 0 40" {
		t.Errorf("study start %s", start.FEN())
	}
	if _, ok := study.Tags["FEN"]; ok {
		t.Error("FEN kept among the tags")
	}
	immortal := games[3]
	if immortal.Tags["Event"] != `The "Immortal" \ Game` {
		t.Errorf("escaped tag read as %q", immortal.Tags["Event"])
	}
	if m := immortal.Moves[35]; m.SAN != "Bxg1" || m.Comment != "the rooks fall" {
		t.Errorf("18... Bxg1 ; comment: %+v", m)
	}
	casual := games[4]
	if m := casual.Moves[0]; !reflect.DeepEqual(m.NAGs, []uint8{1}) {
		t.Errorf("1. e4 $1: NAGs %v", m.NAGs)
	}
	c5 := casual.Moves[1]
	if len(c5.Variations) != 2 {
		t.Fatalf("1... c5 has %d variations, want 2", len(c5.Variations))
	}
	e5line := c5.Variations[0].Moves
	if len(e5line) != 3 || len(e5line[1].Variations) != 1 || e5line[1].Variations[0].Moves[1].Comment != "King's Gambit accepted" {
		t.Errorf("nested variation: %+v", e5line)
	}
	if m := casual.Moves[3]; m.SAN != "d6" || !reflect.DeepEqual(m.NAGs, []uint8{5}) {
		t.Errorf("2... d6!?: %+v", m)
	}
}

func TestPGNRoundTrip(t *testing.T) {
	games := readPGNFile(t, "games.pgn")
	var all bytes.Buffer
	for i, pg := range games {
		text := writePGNString(t, pg)
		all.WriteString(text)
		for n, line := range strings.Split(text, "\n") {
			if len(line) >= 80 {
				t.Errorf("game %d line %d is %d columns: %q", i+1, n+1, len(line), line)
			}
		}
		back, err := ParsePGN(text, nil)
		if err != nil {
			t.Fatalf("game %d: reading back: %v\n%s", i+1, err, text)
		}
		if !reflect.DeepEqual(back, pg) {
			t.Errorf("game %d: read back differs\nwritten:\n%s", i+1, text)
		}
	}
	golden := filepath.Join("testdata", "pgn", "games.golden.pgn")
	if *updatePGN {
		if err := os.WriteFile(golden, all.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update-pgn to create it)", err)
	}
	if !bytes.Equal(all.Bytes(), want) {
		t.Errorf("written PGN differs from %s (run with -update-pgn if the change is right)\n%s", golden, all.String())
	}
	// The golden file reads as the same games again.
	again, err := ReadPGN(bytes.NewReader(want), nil)
	if err != nil || !reflect.DeepEqual(again, games) {
		t.Errorf("golden file reads back differently: %v", err)
	}
}

func TestWritePGNLayout(t *testing.T) {
	g := NewGame(StartPosition(), nil)
	playAll(t, g, "e4 e5 Nf3 Nc6 Bb5 a6")
	if err := g.AgreeDraw(); err != nil {
		t.Fatal(err)
	}
	pg := NewPGNGame(g)
	pg.Tags["White"] = "Ann"
	pg.Tags["Black"] = "Bo"
	pg.Tags["Event"] = "Club"
	pg.Tags["TimeControl"] = "300+3"
	pg.Tags["Annotator"] = "Gambit"
	pg.Tags["BlackElo"] = "1500"
	for i := range pg.Moves {
		pg.Moves[i].Clock, pg.Moves[i].HasClock = time.Duration(300-i)*time.Second, true
	}
	pg.Moves[5].Clock = 290*time.Second + 250*time.Millisecond
	want := `[Event "Club"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "Ann"]
[Black "Bo"]
[Result "1/2-1/2"]
[TimeControl "300+3"]
[Termination "agreement"]
[Annotator "Gambit"]
[BlackElo "1500"]

1. e4 {[%clk 0:05:00]} 1... e5 {[%clk 0:04:59]} 2. Nf3 {[%clk 0:04:58]} 2...
Nc6 {[%clk 0:04:57]} 3. Bb5 {[%clk 0:04:56]} 3... a6 {[%clk 0:04:50.25]}
1/2-1/2

`
	if got := writePGNString(t, pg); got != want {
		t.Errorf("WritePGN:\n%s\nwant:\n%s", got, want)
	}
	back, err := ParsePGN(want, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Moves, pg.Moves) || back.Game.Outcome() != g.Outcome() || !reflect.DeepEqual(back.Game.Moves(), g.Moves()) {
		t.Errorf("read back: %+v, %v", back.Moves, back.Game.Outcome())
	}

	// A game from a position gets SetUp and FEN after Termination; a game without
	// annotations writes its plain moves.
	h := gameFrom(t, "8/8/8/4k3/8/8/4P3/4K3 b - - 0 40")
	playAll(t, h, "Kd5 Kd2")
	if err := h.Resign(Black); err != nil {
		t.Fatal(err)
	}
	text := (&PGNGame{Game: h}).String()
	wantH := `[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1-0"]
[Termination "resignation"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/4P3/4K3 b - - 0 40"]

40... Kd5 41. Kd2 1-0

`
	if text != wantH {
		t.Errorf("from a position:\n%s\nwant:\n%s", text, wantH)
	}
}

func TestWritePGNWrapsLongGames(t *testing.T) {
	g := NewGame(StartPosition(), nil)
	playAll(t, g, benchGame)
	pg := NewPGNGame(g)
	pg.Moves[3].Comment = strings.Repeat("a long comment that must be broken over lines ", 4)
	text := writePGNString(t, pg)
	for n, line := range strings.Split(text, "\n") {
		if len(line) > 79 {
			t.Errorf("line %d is %d columns", n+1, len(line))
		}
	}
	back, err := ParsePGN(text, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Game.SAN(), g.SAN()) || back.Moves[3].Comment != strings.TrimSpace(pg.Moves[3].Comment) {
		t.Errorf("long game read back differently")
	}
}

func TestWritePGNRefuses(t *testing.T) {
	g := NewGame(StartPosition(), nil)
	playAll(t, g, "e4")
	for name, pg := range map[string]*PGNGame{
		"brace in a comment": {Game: g, Moves: []PGNMove{{Move: g.Moves()[0], SAN: "e4", Comment: "a } b"}}},
		"bad tag name":       {Game: g, Tags: map[string]string{"Bad Name": "x"}},
		"newline in a tag":   {Game: g, Tags: map[string]string{"Event": "a\nb"}},
		"moves mismatch":     {Game: g, Moves: []PGNMove{}},
		"negative clock":     {Game: g, Moves: []PGNMove{{Move: g.Moves()[0], SAN: "e4", HasClock: true, Clock: -time.Second}}},
		"no game":            {},
	} {
		if err := WritePGN(io.Discard, pg); err == nil {
			t.Errorf("%s: WritePGN accepted it", name)
		}
	}
}

func TestReadPGNErrors(t *testing.T) {
	tests := []struct {
		name, text string
		line, col  int
		says       string
	}{
		{"illegal move", "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *", 3, 13, "no piece can move to e3"},
		{"blocked move", "[Event \"x\"]\n\n1. e4 e5 2. Ke1 *", 3, 13, "your own king stands on e1"},
		{"unknown move", "1. e4 Zz9 *", 1, 7, "is not a move"},
		{"ambiguous move", "[FEN \"4k3/8/8/8/8/5N2/8/RN2K2R w - - 0 1\"]\n\n1. Nd2 *", 3, 4, "ambiguous: Nbd2 or Nfd2"},
		{"unterminated comment", "1. e4 {never closed", 1, 7, "unterminated comment"},
		{"unterminated string", "[Event \"no end\n\n1. e4 *", 1, 8, "unterminated string"},
		{"tag without value", "[Event]\n\n1. e4 *", 1, 7, "want a quoted value"},
		{"bad escape", `[Event "a\b"]`, 1, 10, `\ must be followed by`},
		{"result mismatch", "[Result \"1-0\"]\n\n1. e4 e5 0-1", 3, 10, "Result tag says 1-0"},
		{"result against mate", "1. f3 e5 2. g4 Qh4# 1-0", 1, 21, "checkmate"},
		{"win in a dead position", "[FEN \"8/8/4k3/8/8/3BK3/4p3/8 w - - 0 1\"]\n\n1. Kxe2 Kd6 2. Ke3 1-0", 3, 20, "dead position"},
		{"unmatched paren", "1. e4 ) e5 *", 1, 7, "unmatched )"},
		{"variation first", "( 1. e4 ) *", 1, 1, "must follow the move"},
		{"unclosed variation", "1. e4 (1. d4 d5", 1, 16, "ends inside a variation"},
		{"result in variation", "1. e4 (1. d4 1-0) *", 1, 14, "inside a variation"},
		{"bad FEN", "[FEN \"8/8/8 w - - 0 1\"]\n\n*", 1, 2, "invalid FEN"},
		{"null move", "1. e4 -- *", 1, 7, "null move"},
		{"move after mate", "1. f3 e5 2. g4 Qh4# 3. a3 *", 1, 24, "after the game ended"},
		{"bad character", "1. e4 & *", 1, 7, "unexpected character"},
		{"NAG first", "$1 1. e4 *", 1, 1, "before any move"},
		{"bad NAG", "1. e4 $999 *", 1, 7, "from 0 to 255"},
		{"false threefold", "[Termination \"threefold repetition\"]\n\n1. e4 e5 1/2-1/2", 3, 10, "has appeared once"},
		{"variant", "[Variant \"Crazyhouse\"]\n\n*", 1, 2, "not supported"},
		{"standard variant from a Chess960 position", "[Variant \"Standard\"]\n[FEN \"r5kr/8/8/8/8/8/8/R5KR w KQkq - 0 1\"]\n\n*", 1, 2, "Chess960 position"},
	}
	for _, tc := range tests {
		_, err := ParsePGN(tc.text, nil)
		var pe *PGNError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *PGNError", tc.name, err)
			continue
		}
		if pe.Line != tc.line || pe.Column != tc.col || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v (line %d, column %d); want line %d, column %d, saying %q", tc.name, err, pe.Line, pe.Column, tc.line, tc.col, tc.says)
		}
		if pe.Game != 1 {
			t.Errorf("%s: game number %d", tc.name, pe.Game)
		}
	}
	// A bad move is a *MoveError underneath.
	_, err := ParsePGN("1. e4 e4 *", nil)
	var me *MoveError
	if !errors.As(err, &me) || !errors.Is(err, ErrIllegalMove) {
		t.Errorf("bad move error %v does not unwrap to a *MoveError", err)
	}
	if g, err := ParsePGN("\xef\xbb\xbf[Event \"bom\"]\n\n1. e4 *", nil); err != nil || g.Tags["Event"] != "bom" {
		t.Errorf("a byte order mark: %v", err)
	}
	if _, err := ParsePGN("   \n% nothing\n", nil); err == nil {
		t.Error("ParsePGN of an empty text succeeded")
	}
}

// A record that goes on past a dead position (as games from sites that know only bare
// kings do) is read, and ends in its final, dead position.
func TestReadPGNPastDeadPosition(t *testing.T) {
	g, err := ParsePGN("[FEN \"8/8/4k3/8/8/3BK3/4p3/8 w - - 0 1\"]\n\n1. Kxe2 Kd6 2. Ke3 1/2-1/2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Game.Outcome(); got != (Outcome{Draw, DeadPosition}) || g.Game.Ply() != 3 {
		t.Fatalf("outcome %v after %d plies, want a dead position after 3", got, g.Game.Ply())
	}
}

// After a broken game the reader goes on with the next one.
func TestReadPGNRecovers(t *testing.T) {
	text := "[Event \"one\"]\n\n1. e4 e5 2. Kxe8 3. d4 *\n\n[Event \"two\"]\n\n1. d4 d5 *\n\n" +
		"[Event \"three\"\n[Site \"x\"]\n\n1. c4 *\n\n[Event \"four\"]\n\n1. Nf3 (1. e4 {x) y} e5 2. Qh5 Zz) 1... d5 1-0\n\n" +
		"[Event \"five\"]\n\n1. g3 *\n"
	r := NewPGNReader(strings.NewReader(text), nil)
	var events []string
	var errs int
	for {
		g, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			errs++
			continue
		}
		events = append(events, g.Tags["Event"])
	}
	if strings.Join(events, ",") != "two,five" || errs != 3 {
		t.Errorf("read %v with %d errors; want two,five with 3", events, errs)
	}
}

func TestReadPGNSkipVariations(t *testing.T) {
	text := "1. e4 (1. d4 d5 (1... Nf6 2. c4)) 1... e5 (1... c5 2. Zz9) 2. Nf3 *"
	r := NewPGNReader(strings.NewReader(text), nil)
	r.SkipVariations = true
	_, err := r.Read()
	if err == nil {
		t.Fatal("a broken move in a skipped variation went unnoticed")
	}
	r = NewPGNReader(strings.NewReader("1. e4 (1. d4 d5 (1... Nf6 2. c4)) 1... e5 (1... c5) 2. Nf3 *"), nil)
	r.SkipVariations = true
	g, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	if g.Game.Ply() != 3 || len(g.Moves[0].Variations) != 0 {
		t.Errorf("skipped: %d plies, variations %v", g.Game.Ply(), g.Moves[0].Variations)
	}
}

func TestParseClock(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0:03:00", 3 * time.Minute, true},
		{"1:05:09", time.Hour + 5*time.Minute + 9*time.Second, true},
		{"0:00:01.5", 1500 * time.Millisecond, true},
		{"0:00:00.123456789", 123456789, true},
		{"12:00:00", 12 * time.Hour, true},
		{"0:3:00", 0, false},
		{"0:60:00", 0, false},
		{"3:00", 0, false},
		{"a:00:00", 0, false},
		{"0:00:01.", 0, false},
		{"0:00:01.1234567890", 0, false},
	} {
		got, ok := parseClock(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseClock(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
		if ok {
			if back, _ := parseClock(formatClock(got)); back != got {
				t.Errorf("formatClock(%v) = %q reads back as %v", got, formatClock(got), back)
			}
		}
	}
}

func FuzzReadPGN(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "pgn", "games.pgn"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(seed))
	for _, s := range []string{
		"1. e4 e5 *", "[Event \"x\"]\n1. d4 {c [%clk 0:01:00]} d5 $1 (1... Nf6) 1-0",
		"[FEN \"8/8/8/4k3/8/8/4P3/4K3 b - - 0 40\"]\n40... Kd5 *", "1. e4 ( ( *", "{", "[\"", "%\n", ";x\n1. e4",
		"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 1/2-1/2", "1. f3 e5 2. g4 Qh4# 0-1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := NewPGNReader(strings.NewReader(text), nil)
		for i := 0; i < 50; i++ {
			g, err := r.Read()
			if err == io.EOF {
				return
			}
			if err != nil {
				var pe *PGNError
				if !errors.As(err, &pe) || pe.Line < 1 || pe.Column < 1 {
					t.Fatalf("error %v without a line and column", err)
				}
				continue
			}
			out, err := writePGN(g)
			if err != nil {
				return // comments holding "}" (from ";" comments) cannot be written
			}
			back, err := ParsePGN(out, nil)
			if err != nil {
				t.Fatalf("written game does not read back: %v\n%s", err, out)
			}
			if !reflect.DeepEqual(back, g) {
				t.Fatalf("written game reads back differently\n%s", out)
			}
		}
	})
}

func writePGN(g *PGNGame) (string, error) {
	var b strings.Builder
	err := WritePGN(&b, g)
	return b.String(), err
}

func BenchmarkReadPGN(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "pgn", "games.pgn"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ReadPGN(bytes.NewReader(data), nil); err != nil {
			b.Fatal(err)
		}
	}
}
