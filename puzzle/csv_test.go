package puzzle

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/puzzle/puzzletest"
)

// samplePath is the lichess sample at the repository root: part of the repository, so
// a test that cannot open it fails.
const samplePath = "../testdata/lichess-puzzles-sample.csv"

// synthetic streams n rows made from the sample's (puzzletest.Repeat).
func synthetic(t testing.TB, n int) io.Reader {
	t.Helper()
	data, err := os.ReadFile(samplePath)
	if err != nil {
		t.Fatalf("the lichess sample is part of the repository: %v", err)
	}
	return puzzletest.Repeat(data, n)
}

func readAll(t testing.TB, r io.Reader) ([]*Puzzle, []error) {
	t.Helper()
	rd, err := NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	var ps []*Puzzle
	var errs []error
	for {
		p, err := rd.Read()
		if errors.Is(err, io.EOF) {
			return ps, errs
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ps = append(ps, p)
	}
}

func TestImportRealSample(t *testing.T) {
	f, err := os.Open(samplePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, errs := readAll(t, f)
	if len(errs) != 0 || len(ps) != 20 {
		t.Fatalf("%d puzzles, errors %v; want 20 and none", len(ps), errs)
	}
	for _, p := range ps {
		l, err := p.Validate()
		if err != nil {
			t.Errorf("%s: %v", p.ID, err)
			continue
		}
		// The solver is the side to move after the opponent's first move, i.e. not the FEN's.
		if l.Solver == l.Start.Turn() {
			t.Errorf("%s: solver %s is the side to move in the FEN", p.ID, l.Solver)
		}
		// Playing the whole solution solves it.
		for k := 0; k < l.Steps(); k++ {
			v, err := Check(l, k, l.Moves[1+2*k])
			want := Correct
			if k == l.Steps()-1 {
				want = Solved
			}
			if err != nil || v != want && v != Solved {
				t.Errorf("%s step %d: %v %v, want %v", p.ID, k, v, err, want)
			}
		}
		if p.HasTheme("mateIn1") {
			end := l.Shown.Play(l.Moves[1])
			if !end.InCheck() || end.HasLegalMove() {
				t.Errorf("%s: mateIn1 solution does not mate", p.ID)
			}
		}
	}
	first := ps[0]
	if first.ID != "000rZ" || first.Rating != 633 || first.RD != 93 || first.Plays != 616 || !first.HasTheme("MATEIN1") || len(first.Openings) != 2 {
		t.Errorf("first row read as %+v", first)
	}
}

func TestReaderErrors(t *testing.T) {
	if _, err := NewReader(strings.NewReader("")); err == nil {
		t.Error("empty file accepted")
	}
	if _, err := NewReader(strings.NewReader("PuzzleId,Rating\n")); err == nil || !strings.Contains(err.Error(), "no FEN column") {
		t.Errorf("missing column: %v", err)
	}
	// Extra and reordered columns are fine; a bad row is skipped with its line.
	data := "Extra,Moves,FEN,PuzzleId,Rating\nx,e2e4 e7e5," + chesscore.StartFEN + ",p1,1200\ny,e2e4 e7e5," + chesscore.StartFEN + ",p2,lots\n"
	ps, errs := readAll(t, strings.NewReader(data))
	if len(ps) != 1 || ps[0].ID != "p1" || ps[0].Rating != 1200 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "line 3") {
		t.Errorf("puzzles %v errors %v", ps, errs)
	}
}

func TestExportRoundTrip(t *testing.T) {
	f, err := os.Open(samplePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, _ := readAll(t, f)
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if err := w.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	back, errs := readAll(t, &buf)
	if len(errs) != 0 || len(back) != len(ps) {
		t.Fatalf("read back %d, errors %v", len(back), errs)
	}
	for i := range ps {
		if fmt.Sprint(*ps[i]) != fmt.Sprint(*back[i]) {
			t.Errorf("row %d changed:\n%+v\n%+v", i, *ps[i], *back[i])
		}
	}
}

func TestFilter(t *testing.T) {
	p := &Puzzle{Rating: 1500, Themes: []string{"fork", "middlegame"}}
	cases := []struct {
		f    Filter
		keep bool
	}{
		{Filter{}, true},
		{Filter{MinRating: 1600}, false},
		{Filter{MaxRating: 1400}, false},
		{Filter{MinRating: 1000, MaxRating: 2000, Themes: []string{"mateIn2", "Fork"}}, true},
		{Filter{Themes: []string{"mateIn2"}}, false},
	}
	for _, c := range cases {
		if got := c.f.Keep(p); got != c.keep {
			t.Errorf("%+v: Keep = %v", c.f, got)
		}
	}
}

func TestImportLargeSyntheticStream(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	rd, err := NewReader(synthetic(t, n))
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for {
		p, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		count++
	}
	if count != n {
		t.Errorf("read %d rows, want %d", count, n)
	}
}

// BenchmarkImportCSV measures parsing and validating rows, reporting rows/s.
func BenchmarkImportCSV(b *testing.B) {
	rows := 0
	for i := 0; i < b.N; i++ {
		rd, err := NewReader(synthetic(b, 10_000))
		if err != nil {
			b.Fatal(err)
		}
		for {
			p, err := rd.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if _, err := p.Validate(); err != nil {
				b.Fatal(err)
			}
			rows++
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

func FuzzReader(f *testing.F) {
	data, err := os.ReadFile(samplePath)
	if err != nil {
		f.Fatalf("the lichess sample is part of the repository: %v", err)
	}
	f.Add(string(data))
	f.Add("PuzzleId,FEN,Moves\n\"unterminated")
	f.Add("PuzzleId,FEN,Moves,Rating\na,8/8/8/8/8/8/8/8 w - - 0 1,e2e4,x\n")
	f.Fuzz(func(t *testing.T, s string) {
		rd, err := NewReader(strings.NewReader(s))
		if err != nil {
			return
		}
		for i := 0; i < 1000; i++ {
			p, err := rd.Read()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				var re *RowError
				if !errors.As(err, &re) {
					return
				}
				continue
			}
			if l, err := p.Validate(); err == nil {
				for k := 0; k < l.Steps(); k++ {
					if _, err := Check(l, k, l.Moves[1+2*k]); err != nil {
						t.Fatalf("%s: the solution's own move %d is refused: %v", p.ID, k, err)
					}
				}
			}
		}
	})
}
