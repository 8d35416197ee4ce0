// epd_test.go: tests of the EPD line parser: its two forms, quoting, counters and a fuzz round trip.

package chesscore

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseEPD(t *testing.T) {
	const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
	op := func(code string, operands ...string) EPDOp { return EPDOp{Code: code, Operands: operands} }
	cases := []struct {
		name, line string
		want       EPD
		err        bool
	}{
		{"four fields", start, EPD{FEN: start + " 0 1"}, false},
		{"six fields", start + " 3 7", EPD{FEN: start + " 3 7"}, false},
		{"standard ops", start + ` hmvc 3; fmvn 12; id "A; quoted  name"; c0 "e4 e5"; bm Nf3 d4;`,
			EPD{FEN: start + " 3 12", Ops: []EPDOp{op("hmvc", "3"), op("fmvn", "12"), op("id", "A; quoted  name"), op("c0", "e4 e5"), op("bm", "Nf3", "d4")}}, false},
		{"last semicolon left out", start + " id x", EPD{FEN: start + " 0 1", Ops: []EPDOp{op("id", "x")}}, false},
		{"fmvn 0 counts as 1", start + " hmvc 2; fmvn 0;", EPD{FEN: start + " 2 1", Ops: []EPDOp{op("hmvc", "2"), op("fmvn", "0")}}, false},
		{"counters not numbers", start + " hmvc x; fmvn -4;", EPD{FEN: start + " 0 1", Ops: []EPDOp{op("hmvc", "x"), op("fmvn", "-4")}}, false},
		{"line counters win over ops", start + " 5 9 hmvc 1; fmvn 2;", EPD{FEN: start + " 5 9", Ops: []EPDOp{op("hmvc", "1"), op("fmvn", "2")}}, false},
		{"perft form", start + " 0 1 ;D1 20 ;D2 400 ;src cpw-1",
			EPD{FEN: start + " 0 1", Ops: []EPDOp{op("D1", "20"), op("D2", "400"), op("src", "cpw-1")}}, false},
		{"perft form, no space before ;", start + " 0 1;D1 20", EPD{FEN: start + " 0 1", Ops: []EPDOp{op("D1", "20")}}, false},
		{"positional ops", start + " 0 1 ; yes ; no ; a note, with commas",
			EPD{FEN: start + " 0 1", Ops: []EPDOp{op("yes"), op("no"), op("a", "note,", "with", "commas")}}, false},
		{"empty ops skipped", start + " ;; a;;b 1;", EPD{FEN: start + " 0 1", Ops: []EPDOp{op("a"), op("b", "1")}}, false},
		{"empty quoted operand", start + ` c0 "";`, EPD{FEN: start + " 0 1", Ops: []EPDOp{op("c0", "")}}, false},
		{"unterminated quote drops the rest", start + ` hmvc 4; id "open; bm e4;`, EPD{FEN: start + " 4 1", Ops: []EPDOp{op("hmvc", "4")}}, false},
		{"tabs", "8/8/8/8/8/8/8/8\tw\t-\t-\tid\tx;", EPD{FEN: "8/8/8/8/8/8/8/8 w - - 0 1", Ops: []EPDOp{op("id", "x")}}, false},
		{"one counter only", start + " 5 id x;", EPD{FEN: start + " 0 1", Ops: []EPDOp{op("5", "id", "x")}}, false},
		{"counter too long", start + " 12345 1", EPD{FEN: start + " 0 1", Ops: []EPDOp{op("12345", "1")}}, false},
		{"three fields", "8/8/8/8/8/8/8/8 w -", EPD{}, true},
		{"semicolon in the fields", "8/8/8/8/8/8/8/8 w -; - 0 1", EPD{}, true},
		{"empty", "", EPD{}, true},
	}
	for _, c := range cases {
		got, err := ParseEPD(c.line)
		if (err != nil) != c.err {
			t.Errorf("%s: ParseEPD(%q) error %v, want error %v", c.name, c.line, err, c.err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ParseEPD(%q) = %#v, want %#v", c.name, c.line, got, c.want)
		}
	}
}

func TestEPDOpLookup(t *testing.T) {
	e, err := ParseEPD(`8/8/8/8/8/8/8/8 w - - id "first"; bm e4; id "second";`)
	if err != nil {
		t.Fatal(err)
	}
	if op, ok := e.Op("id"); !ok || op.Operand() != "second" {
		t.Errorf(`Op("id") = %v, %v, want "second"`, op, ok)
	}
	if op, ok := e.Op("pv"); ok {
		t.Errorf(`Op("pv") = %v, true, want none`, op)
	}
}

func TestEPDString(t *testing.T) {
	e := EPD{FEN: "8/8/8/8/8/8/8/8 w - - 0 1", Ops: []EPDOp{
		{Code: "id", Operands: []string{"two words"}},
		{Code: "bm", Operands: []string{"e4", "d4"}},
		{Code: "c0", Operands: []string{"", "a;b"}},
		{Code: "noop"},
	}}
	want := `8/8/8/8/8/8/8/8 w - - 0 1 id "two words"; bm e4 d4; c0 "" "a;b"; noop;`
	if got := e.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// The corpora read through ParseEPD give full FENs that ParseFEN accepts.
func TestParseEPDCorpora(t *testing.T) {
	for _, c := range loadPerftSuite(t) {
		if _, err := ParseFEN(c.fen); err != nil || c.src == "" || len(c.counts) == 0 {
			t.Errorf("perft suite %q (%q, %d counts): %v", c.fen, c.src, len(c.counts), err)
		}
	}
}

func FuzzParseEPD(f *testing.F) {
	for _, s := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;src cpw-1",
		`r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - hmvc 3; fmvn 3; id "Ruy Lopez";`,
		"4k3/8/3b4/p1p1p1p1/P1P1P1P1/8/8/4KB2 w - - 0 1 ; no ; no ; chain A",
		`8/8/8/8/8/8/8/8 w - - id "open;`,
		"a b c", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		e, err := ParseEPD(line)
		if err != nil {
			return
		}
		fields := strings.Split(e.FEN, " ")
		if len(fields) != 6 || !isEPDCount(fields[4]) || !isEPDCount(fields[5]) {
			t.Fatalf("ParseEPD(%q).FEN = %q, want six fields ending in two counters", line, e.FEN)
		}
		for _, op := range e.Ops {
			if op.Code == "" || strings.ContainsAny(op.Code, " \t\n\r\v\f;") {
				t.Fatalf("ParseEPD(%q): bad opcode %q", line, op.Code)
			}
		}
		back, err := ParseEPD(e.String())
		if err != nil || !reflect.DeepEqual(back, e) {
			t.Fatalf("ParseEPD(%q) = %#v, whose String %q reads back as %#v, %v", line, e, e.String(), back, err)
		}
	})
}
