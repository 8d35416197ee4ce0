package puzzles

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/puzzle/starter"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

func TestImportSampleAndExportRoundTrip(t *testing.T) {
	csv := sampleCSV(t)
	db := storagetest.Open(t)
	st, err := Import(ctx, db, bytes.NewReader(csv), ImportOptions{Now: day0})
	if err != nil {
		t.Fatal(err)
	}
	if st.Imported != 20 || st.Skipped != 0 || st.Errors != 0 {
		t.Fatalf("sample import %+v, want 20 imported", st)
	}
	st, err = Import(ctx, db, bytes.NewReader(csv), ImportOptions{Now: day0})
	if err != nil || st.Imported != 0 || st.Skipped != 20 {
		t.Errorf("second import %+v, %v: want all 20 skipped (already stored)", st, err)
	}
	var out bytes.Buffer
	n, err := Export(ctx, db, &out)
	if err != nil || n != 20 {
		t.Fatalf("export %d, %v", n, err)
	}
	// The export reads back as the same puzzles.
	db2 := storagetest.Open(t)
	if st, err := Import(ctx, db2, bytes.NewReader(out.Bytes()), ImportOptions{Now: day0}); err != nil || st.Imported != 20 {
		t.Fatalf("re-import of the export %+v, %v", st, err)
	}
	var a, b []string
	db.View(ctx, func(tx storage.Tx) error {
		return tx.EachPuzzle(func(p *storage.Puzzle) error { a = append(a, fmt.Sprint(*p)); return nil })
	})
	db2.View(ctx, func(tx storage.Tx) error {
		return tx.EachPuzzle(func(p *storage.Puzzle) error { b = append(b, fmt.Sprint(*p)); return nil })
	})
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("export does not round-trip:\n%s\n---\n%s", a, b)
	}
	if !strings.HasPrefix(out.String(), strings.Join(puzzle.CSVColumns, ",")+"\n") {
		t.Errorf("export header: %q", out.String()[:80])
	}
}

func TestImportFilters(t *testing.T) {
	csv := sampleCSV(t)
	cases := []struct{ f puzzle.Filter }{
		{puzzle.Filter{MinRating: 900}},
		{puzzle.Filter{MaxRating: 700}},
		{puzzle.Filter{Themes: []string{"mateIn2"}}},
		{puzzle.Filter{Limit: 5}},
		{puzzle.Filter{Themes: []string{"mateIn2", "endgame"}, MaxRating: 1000}},
	}
	for _, c := range cases {
		db := storagetest.Open(t)
		st, err := Import(ctx, db, bytes.NewReader(csv), ImportOptions{Filter: c.f, Now: day0})
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		db.View(ctx, func(tx storage.Tx) error {
			return tx.EachPuzzle(func(p *storage.Puzzle) error {
				kept++
				if !c.f.Keep(p) {
					t.Errorf("%+v kept %s rated %d %v", c.f, p.ID, p.Rating, p.Themes)
				}
				return nil
			})
		})
		if kept != st.Imported || (c.f.Limit > 0 && kept != c.f.Limit) || kept == 0 {
			t.Errorf("%+v: %+v, %d stored", c.f, st, kept)
		}
	}
}

// brokenCSV writes n rows in the lichess layout: a mate in one, with every hundredth
// row broken (an illegal move) and every 97th unreadable (a rating that is no number).
func brokenCSV(n int) (csv []byte, bad, unreadable int) {
	var b bytes.Buffer
	b.WriteString("PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n")
	for i := range n {
		moves, rating := "g8h8 d1d8", strconv.Itoa(600+i%2000)
		switch {
		case i%100 == 99:
			moves = "g8h8 d1d9"
			bad++
		case i%97 == 96:
			rating = "high"
			unreadable++
		}
		fmt.Fprintf(&b, "s%07d,6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1,%s,%s,80,90,%d,backRankMate mate mateIn1 oneMove,,\n", i, moves, rating, i%500)
	}
	return b.Bytes(), bad, unreadable
}

func TestImportCountsBrokenRows(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 5000
	}
	csv, bad, unreadable := brokenCSV(n)
	db := storagetest.Open(t)
	st, err := Import(ctx, db, bytes.NewReader(csv), ImportOptions{Filter: puzzle.Filter{MinRating: 700}, Now: day0})
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := storage.Read(ctx, db, storage.Tx.CountPuzzles)
	if st.Rows != n || st.Errors != bad+unreadable || stored != st.Imported || st.Imported+st.Skipped+st.Errors != n || st.Skipped < n/25 {
		t.Errorf("%d rows (%d bad, %d unreadable): %+v, %d stored", n, bad, unreadable, st, stored)
	}
	if p, err := storage.Read(ctx, db, func(tx storage.Tx) (*storage.Puzzle, error) { return tx.Puzzle("s0000099") }); err == nil {
		t.Errorf("the row with an illegal move was stored: %+v", p)
	}
}

// TestImportLargeSyntheticIntoStore streams a large CSV (made as it is read, never held
// in memory) into a store.
func TestImportLargeSyntheticIntoStore(t *testing.T) {
	n := 100_000
	if testing.Short() || raceEnabled {
		n = 10_000
	}
	db := storagetest.Open(t)
	st, err := Import(ctx, db, synthetic(t, n), ImportOptions{Now: day0})
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := storage.Read(ctx, db, storage.Tx.CountPuzzles)
	if st.Rows != n || st.Imported != n || st.Errors != 0 || stored != n {
		t.Errorf("%d rows: %+v, %d stored", n, st, stored)
	}
}

// BenchmarkImportStore measures `gambit puzzles import`'s work: streaming a synthetic
// CSV of 100,000 rows (the sample's rows with fresh ids) into a store with fsync, in
// rows per second.
func BenchmarkImportStore(b *testing.B) {
	const n = 100_000
	var rows int
	for range b.N {
		b.StopTimer()
		db := storagetest.OpenFile(b, filepath.Join(b.TempDir(), "gambit.db"), nil)
		b.StartTimer()
		st, err := Import(ctx, db, synthetic(b, n), ImportOptions{Now: day0})
		if err != nil {
			b.Fatal(err)
		}
		rows += st.Rows
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

func TestStarterSetLoadsIntoAnEmptyStore(t *testing.T) {
	db := storagetest.Open(t)
	for range 2 { // the second start finds puzzles and loads nothing
		svc, err := New(db, Options{Logger: quiet, Mine: MineOptions{Off: true}})
		if err != nil {
			t.Fatal(err)
		}
		svc.Close()
	}
	n, _ := storage.Read(ctx, db, storage.Tx.CountPuzzles)
	rows := bytes.Count(bytes.TrimSpace(starter.CSV), []byte("\n")) // the lines after the header
	if want := rows; n != want {
		t.Errorf("%d puzzles after two starts, want the %d of the starter set", n, want)
	}
	db.View(ctx, func(tx storage.Tx) error {
		return tx.EachPuzzle(func(p *storage.Puzzle) error {
			if p.Source != "starter" {
				t.Errorf("%s: source %q", p.ID, p.Source)
			}
			return nil
		})
	})
	// A store that has puzzles gets none of the starter set.
	other := storagetest.Open(t)
	storage.Write(ctx, other, func(tx storage.Tx) (int, error) {
		return tx.AddPuzzles([]*storage.Puzzle{{ID: "x", FEN: "6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1", Moves: []string{"g8h8", "d1d8"}, Rating: 900}})
	})
	svc, err := New(other, Options{Logger: quiet, Mine: MineOptions{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	svc.Close()
	if n, _ := storage.Read(ctx, other, storage.Tx.CountPuzzles); n != 1 {
		t.Errorf("%d puzzles in a store that had one", n)
	}
}
