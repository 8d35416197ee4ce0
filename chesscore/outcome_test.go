package chesscore

import "testing"

// TestNoShow: a forfeit by absence is a win for the opponent, written and read back as
// the PGN Termination "no show".
func TestNoShow(t *testing.T) {
	for i := NoTermination; i <= NoShow; i++ {
		got, ok := ParseTermination(i.String())
		if !ok || got != i {
			t.Errorf("ParseTermination(%q) = %v, %v; want %v", i.String(), got, ok, i)
		}
	}
	if NoShow.String() != "no show" || NoShow.Automatic() {
		t.Errorf("NoShow is %q, automatic %v", NoShow, NoShow.Automatic())
	}
	for _, tc := range []struct {
		o  Outcome
		ok bool
	}{
		{Outcome{BlackWins, NoShow}, true},
		{Outcome{WhiteWins, NoShow}, true},
		{Outcome{Draw, NoShow}, false},
		{Outcome{NoResult, NoShow}, false},
	} {
		g, err0 := NewGameFromFEN(StartFEN, nil)
		if err0 != nil {
			t.Fatal(err0)
		}
		err := g.End(tc.o)
		if (err == nil) != tc.ok {
			t.Errorf("End(%v) = %v; want ok %v", tc.o, err, tc.ok)
		}
		if err == nil && g.Outcome() != tc.o {
			t.Errorf("End(%v) left outcome %v", tc.o, g.Outcome())
		}
	}
}
