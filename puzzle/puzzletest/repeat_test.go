package puzzletest

import (
	"io"
	"strings"
	"testing"
)

func TestRepeat(t *testing.T) {
	csv := "PuzzleId,FEN,Moves\r\na,f1,m1\r\nb,f2,m2\r\n"
	cases := []struct {
		n    int
		want string
	}{
		{0, "PuzzleId,FEN,Moves\n"},
		{1, "PuzzleId,FEN,Moves\na0,f1,m1\n"},
		{5, "PuzzleId,FEN,Moves\na0,f1,m1\nb1,f2,m2\na2,f1,m1\nb3,f2,m2\na4,f1,m1\n"},
	}
	for _, c := range cases {
		b, err := io.ReadAll(Repeat([]byte(csv), c.n))
		if err != nil || string(b) != c.want {
			t.Errorf("n=%d: %q, %v; want %q", c.n, b, err, c.want)
		}
	}
	// A header alone gives the header and no rows, whatever n.
	if b, _ := io.ReadAll(Repeat([]byte("PuzzleId,FEN,Moves\n"), 3)); string(b) != "PuzzleId,FEN,Moves\n" {
		t.Errorf("header only: %q", b)
	}
	// Read in small pieces, the stream is the same.
	var sb strings.Builder
	r := Repeat([]byte(csv), 5)
	buf := make([]byte, 3)
	for {
		n, err := r.Read(buf)
		sb.Write(buf[:n])
		if err == io.EOF {
			break
		}
	}
	if sb.String() != cases[2].want {
		t.Errorf("small reads: %q", sb.String())
	}
}
