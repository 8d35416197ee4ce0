package uci

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
)

func TestParseGo(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		in      string
		want    GoParams
		wantErr string
	}{
		{"", GoParams{}, ""},
		{"infinite", GoParams{Infinite: true}, ""},
		{"wtime 300000 btime 299000 winc 2000 binc 2000 movestogo 12",
			GoParams{WTime: 300000 * ms, BTime: 299000 * ms, WInc: 2000 * ms, BInc: 2000 * ms, MovesToGo: 12}, ""},
		{"depth 12 nodes 50000", GoParams{Depth: 12, Nodes: 50000}, ""},
		{"movetime 250", GoParams{MoveTime: 250 * ms}, ""},
		{"searchmoves e2e4 e7e8q depth 3", GoParams{SearchMoves: []string{"e2e4", "e7e8q"}, Depth: 3}, ""},
		{"mate 3", GoParams{Mate: 3}, ""},
		{"wtime -50", GoParams{}, ""}, // a negative clock counts as none left
		{"depth", GoParams{}, "missing value"},
		{"depth ten", GoParams{}, "want an integer"},
		{"sideways 3", GoParams{}, "unknown parameter"},
	}
	for _, c := range cases {
		got, err := ParseGo(strings.Fields(c.in))
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("ParseGo(%q) error %v, want %q", c.in, err, c.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseGo(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
			continue
		}
		again, err := ParseGo(strings.Fields(got.String())[1:])
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("round trip of %q via %q: %+v, %v", c.in, got.String(), again, err)
		}
	}
}

func TestParsePosition(t *testing.T) {
	cases := []struct {
		in, wantFEN, wantErr string
		moves                int
	}{
		{"startpos", cc.StartFEN, "", 0},
		{"startpos moves e2e4 e7e5 g1f3", "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", "", 3},
		{"fen 6k1/8/8/8/8/8/8/K6R w - - 0 1 moves h1h7", "6k1/7R/8/8/8/8/8/K7 b - - 1 1", "", 1},
		{"fen 6k1/8/8/8/8/8/8/K6R w - - 0 1", "6k1/8/8/8/8/8/8/K6R w - - 0 1", "", 0},
		{"startpos moves e2e4 e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "move 2 \"e2e4\"", 1},
		{"fen 8/8/8/8/8/8/8/8 w - - 0 1", "", "bad position", 0},
		{"", "", "want startpos or fen", 0},
		{"middlegame", "", "want startpos or fen", 0},
		{"startpos e2e4", "", "want moves", 0},
	}
	for _, c := range cases {
		p, pos, err := ParsePosition(strings.Fields(c.in), false)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) || !errors.Is(err, ErrBadPosition) {
				t.Errorf("ParsePosition(%q) error %v, want %q", c.in, err, c.wantErr)
			}
		} else if err != nil {
			t.Errorf("ParsePosition(%q): %v", c.in, err)
			continue
		}
		if c.wantFEN != "" && pos.FEN() != c.wantFEN {
			t.Errorf("ParsePosition(%q) reaches %s, want %s", c.in, pos.FEN(), c.wantFEN)
		}
		if len(p.Moves) != c.moves {
			t.Errorf("ParsePosition(%q): %d moves, want %d", c.in, len(p.Moves), c.moves)
		}
		if err == nil {
			_, again, err := ParsePosition(strings.Fields(p.String())[1:], p.Chess960)
			if err != nil || again != pos {
				t.Errorf("round trip of %q via %q: %v", c.in, p.String(), err)
			}
		}
	}
}

func TestParseInfo(t *testing.T) {
	cases := []struct {
		in   string
		want Info
	}{
		{"info depth 12 seldepth 18 multipv 1 score cp 31 nodes 123456 nps 987654 hashfull 45 tbhits 0 time 125 pv e2e4 e7e5 g1f3",
			Info{Depth: 12, SelDepth: 18, MultiPV: 1, Score: 31, HasScore: true, Nodes: 123456, NPS: 987654, Hashfull: 45,
				Time: 125 * time.Millisecond, PV: []string{"e2e4", "e7e5", "g1f3"}}},
		{"info depth 20 score mate 3 pv h5f7", Info{Depth: 20, Score: engine.MateScore - 5, HasScore: true, PV: []string{"h5f7"}}},
		{"info score mate -2", Info{Score: -engine.MateScore + 4, HasScore: true}},
		{"info score cp -40 upperbound nodes 7", Info{Score: -40, HasScore: true, Bound: engine.UpperBound, Nodes: 7}},
		{"info score cp 12 lowerbound", Info{Score: 12, HasScore: true, Bound: engine.LowerBound}},
		{"info string NNUE evaluation using nn-ad9b42354671.nnue", Info{String: "NNUE evaluation using nn-ad9b42354671.nnue"}},
		{"info depth 1 currmove e2e4 currmovenumber 1", Info{Depth: 1}},
		{"info depth 3 wdl 100 800 100 score cp 5", Info{Depth: 3, Score: 5, HasScore: true}},
	}
	for _, c := range cases {
		got, err := ParseInfo(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseInfo(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"info depth", "info score cp", "info score cp x", "info score bananas 3", "info nodes -"} {
		if _, err := ParseInfo(bad); err == nil {
			t.Errorf("ParseInfo(%q) accepted", bad)
		}
	}
	// Our own lines read back.
	pos := cc.StartPosition()
	m := mustUCI(t, &pos, "d2d4")
	line := FormatInfo(engine.Info{Depth: 7, SelDepth: 9, MultiPV: 2, Score: engine.MateScore - 3, Nodes: 99, NPS: 1000,
		Time: 99 * time.Millisecond, PV: []cc.Move{m}})
	got, err := ParseInfo(line)
	if err != nil || got.Depth != 7 || got.MultiPV != 2 || got.Score != engine.MateScore-3 || got.Time != 99*time.Millisecond ||
		!reflect.DeepEqual(got.PV, []string{"d2d4"}) {
		t.Errorf("FormatInfo %q read back as %+v, %v", line, got, err)
	}
}

func TestParseOption(t *testing.T) {
	cases := []struct {
		in   string
		want Option
	}{
		{"option name Hash type spin default 16 min 1 max 33554432", Option{Name: "Hash", Type: "spin", Default: "16", Min: 1, Max: 33554432}},
		{"option name Skill Level type spin default 20 min 0 max 20", Option{Name: "Skill Level", Type: "spin", Default: "20", Max: 20}},
		{"option name Debug Log File type string default", Option{Name: "Debug Log File", Type: "string"}},
		{"option name Clear Hash type button", Option{Name: "Clear Hash", Type: "button"}},
		{"option name Style type combo default Normal var Solid var Normal var Risky",
			Option{Name: "Style", Type: "combo", Default: "Normal", Vars: []string{"Solid", "Normal", "Risky"}}},
	}
	for _, c := range cases {
		got, err := ParseOption(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseOption(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"option type spin", "option name X type spin min low", "option wibble"} {
		if _, err := ParseOption(bad); err == nil {
			t.Errorf("ParseOption(%q) accepted", bad)
		}
	}
}

func FuzzParseInfo(f *testing.F) {
	for _, s := range []string{
		"info depth 12 seldepth 18 multipv 1 score cp 31 nodes 123456 nps 987654 hashfull 45 time 125 pv e2e4 e7e5",
		"info score mate -2 lowerbound", "info string hello", "info depth", "info pv e7e8q 0000 x", "info score cp 99999999999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in, err := ParseInfo(s)
		if err != nil {
			return
		}
		if in.HasScore && (in.Score > engine.MateScore || in.Score < -engine.MateScore) {
			t.Errorf("ParseInfo(%q): score %d out of range", s, in.Score)
		}
	})
}

func FuzzParseGo(f *testing.F) {
	for _, s := range []string{"wtime 1000 btime 1000 winc 10 binc 10", "infinite", "depth 3 searchmoves e2e4", "movestogo", "nodes 9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGo(strings.Fields(s))
		if err != nil {
			return
		}
		again, err := ParseGo(strings.Fields(g.String())[1:])
		if err != nil || !reflect.DeepEqual(again, g) {
			t.Errorf("%q: %+v does not round-trip via %q: %+v, %v", s, g, g.String(), again, err)
		}
	})
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{"startpos", "startpos moves e2e4 e7e5", "fen 6k1/8/8/8/8/8/8/K6R w - - 0 1 moves h1h8", "fen x", "startpos moves"} {
		f.Add(s)
	}
	f.Add("fen r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w KQkq - 0 1 moves c1a1 c8h8")
	f.Add("startpos moves e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1")
	f.Fuzz(func(t *testing.T, s string) {
		for _, chess960 := range []bool{false, true} { // the same text read both ways
			p, pos, err := ParsePosition(strings.Fields(s), chess960)
			if err != nil {
				continue
			}
			if err := pos.Verify(); err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			_, again, err := ParsePosition(strings.Fields(p.String())[1:], p.Chess960)
			if err != nil || again != pos {
				t.Errorf("%q (chess960 %t) does not round-trip via %q: %v", s, chess960, p.String(), err)
			}
		}
	})
}

func FuzzParseOption(f *testing.F) {
	for _, s := range []string{"option name Hash type spin default 16 min 1 max 64", "option name A type combo var x var y", "option"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOption(s)
		if err == nil && o.Name == "" {
			t.Errorf("%q: accepted without a name", s)
		}
	})
}
