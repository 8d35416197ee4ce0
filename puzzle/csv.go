// csv.go: streaming import and export of the lichess puzzle CSV layout.

package puzzle

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// CSVColumns is the lichess puzzle CSV header, the layout Export writes.
var CSVColumns = []string{"PuzzleId", "FEN", "Moves", "Rating", "RatingDeviation", "Popularity", "NbPlays", "Themes", "GameUrl", "OpeningTags"}

// Filter selects rows on import.
type Filter struct {
	MinRating, MaxRating int      // 0 means no bound
	Themes               []string // a row must carry at least one of them, when given
	Limit                int      // 0 means no limit
}

// Keep reports whether the filter keeps the puzzle.
func (f Filter) Keep(p *Puzzle) bool {
	if f.MinRating > 0 && p.Rating < f.MinRating || f.MaxRating > 0 && p.Rating > f.MaxRating {
		return false
	}
	if len(f.Themes) == 0 {
		return true
	}
	for _, t := range f.Themes {
		if p.HasTheme(t) {
			return true
		}
	}
	return false
}

// Reader streams puzzles from a lichess-layout CSV without loading the file: one record at a
// time, columns found by header name.
type Reader struct {
	r    *csv.Reader
	col  map[string]int
	line int
}

// NewReader reads the header and returns a reader for the rows. The columns PuzzleId, FEN
// and Moves are required; the others are optional.
func NewReader(r io.Reader) (*Reader, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("puzzle CSV: empty file, want a header line")
		}
		return nil, fmt.Errorf("puzzle CSV header: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	for _, need := range []string{"PuzzleId", "FEN", "Moves"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("puzzle CSV header: no %s column (header: %s)", need, strings.Join(head, ","))
		}
	}
	return &Reader{r: cr, col: col, line: 1}, nil
}

// RowError is a bad row: the reader skips it and goes on.
type RowError struct {
	Line int
	Err  error
}

func (e *RowError) Error() string { return fmt.Sprintf("puzzle CSV line %d: %v", e.Line, e.Err) }
func (e *RowError) Unwrap() error { return e.Err }

// Read returns the next puzzle, io.EOF at the end, or a *RowError for a row that cannot be
// read (the next call goes on with the following row). The puzzle is not yet validated.
func (r *Reader) Read() (*Puzzle, error) {
	rec, err := r.r.Read()
	r.line++
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, &RowError{Line: pe.Line, Err: pe.Err}
		}
		return nil, fmt.Errorf("puzzle CSV: %w", err)
	}
	get := func(name string) string {
		if i, ok := r.col[name]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	p := &Puzzle{
		ID:       get("PuzzleId"),
		FEN:      get("FEN"),
		Moves:    strings.Fields(get("Moves")),
		Themes:   strings.Fields(get("Themes")),
		GameURL:  get("GameUrl"),
		Openings: strings.Fields(get("OpeningTags")),
		Source:   "lichess",
	}
	if p.ID == "" {
		return nil, &RowError{Line: r.line, Err: errors.New("empty PuzzleId")}
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"Rating", &p.Rating}, {"RatingDeviation", &p.RD}, {"Popularity", &p.Popularity}, {"NbPlays", &p.Plays}} {
		s := get(f.name)
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, &RowError{Line: r.line, Err: fmt.Errorf("puzzle %s: %s %q is not a whole number", p.ID, f.name, s)}
		}
		*f.dst = n
	}
	return p, nil
}

// Writer writes puzzles in the lichess layout.
type Writer struct {
	w *csv.Writer
}

// NewWriter writes the header and returns a writer for rows.
func NewWriter(w io.Writer) (*Writer, error) {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVColumns); err != nil {
		return nil, fmt.Errorf("write puzzle CSV header: %w", err)
	}
	return &Writer{w: cw}, nil
}

// Write writes one puzzle.
func (w *Writer) Write(p *Puzzle) error {
	rec := []string{p.ID, p.FEN, strings.Join(p.Moves, " "), strconv.Itoa(p.Rating), strconv.Itoa(p.RD),
		strconv.Itoa(p.Popularity), strconv.Itoa(p.Plays), strings.Join(p.Themes, " "), p.GameURL, strings.Join(p.Openings, " ")}
	if err := w.w.Write(rec); err != nil {
		return fmt.Errorf("write puzzle %s: %w", p.ID, err)
	}
	return nil
}

// Flush writes any buffered rows and reports a write error.
func (w *Writer) Flush() error {
	w.w.Flush()
	return w.w.Error()
}
