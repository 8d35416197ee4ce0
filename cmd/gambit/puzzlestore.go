package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/puzzle/mine"
	"github.com/gambitchess/gambit/service/puzzles"
	"github.com/gambitchess/gambit/storage"
)

// puzzleSink stores generated puzzles in batches.
type puzzleSink struct {
	db      *storage.DB
	pending []*storage.Puzzle
	closed  bool
}

// openPuzzleStore opens the store a command writes puzzles into.
func openPuzzleStore(path string) (*puzzleSink, error) {
	db, err := storage.Open(path, nil)
	if errors.Is(err, storage.ErrLocked) {
		return nil, fmt.Errorf("--db: %w; stop the bot while importing", err)
	}
	if err != nil {
		return nil, fmt.Errorf("--db: %w", err)
	}
	return &puzzleSink{db: db}, nil
}

func (s *puzzleSink) add(p puzzle.Puzzle) error {
	p.Added = time.Now()
	s.pending = append(s.pending, &p)
	if len(s.pending) >= 500 {
		return s.flush()
	}
	return nil
}

func (s *puzzleSink) flush() error {
	if len(s.pending) == 0 {
		return nil
	}
	err := s.db.Bulk(func(tx storage.Tx) error {
		_, err := tx.AddPuzzles(s.pending)
		return err
	})
	s.pending = s.pending[:0]
	return err
}

// close stores what is pending and closes the store (once; later calls do nothing).
func (s *puzzleSink) close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	err := s.flush()
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	return err
}

// splitPositional takes the one positional argument (the input file) out of args,
// wherever it stands among the flags, so both `import FILE --db X` and
// `import --db X FILE` work. Flags that take a value are named in valued.
func splitPositional(args []string, valued map[string]bool) (file string, flags []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" || !strings.HasPrefix(a, "-") {
			if file != "" {
				return "", nil, fmt.Errorf("unexpected argument %q: give one CSV file", a)
			}
			file = a
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if valued[name] && !strings.Contains(name, "=") && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return file, flags, nil
}

// runPuzzlesImport implements `gambit puzzles import FILE.csv [--db FILE] [--min-rating N]
// [--max-rating N] [--themes mateIn2,fork] [--limit N]`: the lichess puzzle database CSV
// (or any file in its layout; - reads standard input, e.g. from zstdcat) is streamed into
// the store. The speed goes to stderr; stdout gets {"imported": N, "skipped": N,
// "errors": N}.
func runPuzzlesImport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("puzzles import", stderr)
	dbPath := addDBFlag(fs)
	minRating := fs.Int("min-rating", 0, "skip puzzles rated below this")
	maxRating := fs.Int("max-rating", 0, "skip puzzles rated above this (0: no bound)")
	themes := fs.String("themes", "", "keep puzzles with at least one of these comma-separated themes, e.g. mateIn2,fork")
	limit := fs.Int("limit", 0, "stop after importing this many puzzles (0: all)")
	showBad := fs.Int("show-errors", 10, "print at most this many bad rows to stderr")
	file, flags, err := splitPositional(args, map[string]bool{"db": true, "min-rating": true, "max-rating": true, "themes": true, "limit": true, "show-errors": true})
	if err != nil {
		return err
	}
	if err := parseFlags(fs, flags); err != nil {
		return err
	}
	if file == "" {
		return errors.New("want the CSV file to import (- for standard input)")
	}
	if *minRating < 0 || *maxRating < 0 || *limit < 0 || (*maxRating > 0 && *minRating > *maxRating) {
		return fmt.Errorf("--min-rating %d, --max-rating %d, --limit %d: want whole numbers, the lowest rating at most the highest", *minRating, *maxRating, *limit)
	}
	var in io.Reader = os.Stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	sink, err := openPuzzleStore(*dbPath)
	if err != nil {
		return err
	}
	defer sink.close()
	shown := 0
	start := time.Now()
	st, err := puzzles.Import(sink.db, bufio.NewReaderSize(in, 1<<20), puzzles.ImportOptions{
		Filter: puzzle.Filter{MinRating: *minRating, MaxRating: *maxRating, Themes: splitList(*themes), Limit: *limit},
		Now:    time.Now(),
		OnError: func(err error) {
			if shown < *showBad {
				fmt.Fprintf(stderr, "skipped: %v\n", err)
			}
			shown++
		},
	})
	if err != nil {
		return fmt.Errorf("import %s: %w", file, err)
	}
	if err := sink.close(); err != nil {
		return err
	}
	el := time.Since(start)
	fmt.Fprintf(stderr, "read %d rows in %v: %.0f rows/s\n", st.Rows, el.Round(time.Millisecond), float64(st.Rows)/max(el.Seconds(), 1e-9))
	return printSummary(stdout, st)
}

// runPuzzlesExport implements `gambit puzzles export [--db FILE] [-o FILE]`: every stored
// puzzle as CSV in the lichess layout (on stdout without -o).
func runPuzzlesExport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("puzzles export", stderr)
	dbPath := addDBFlag(fs)
	out := fs.String("o", "", "write the CSV to this `file` (default: standard output)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	db, err := storage.Open(*dbPath, &storage.Options{ReadOnly: true})
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("--db: %w; a running bot holds the file", err)
	}
	if err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	defer db.Close()
	w := stdout
	var f *os.File
	if *out != "" {
		if f, err = os.Create(*out); err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	n, err := puzzles.Export(db, bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && f != nil {
		err = f.Close()
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	fmt.Fprintf(stderr, "exported %d puzzles\n", n)
	return nil
}

// runPuzzlesVerify implements `gambit puzzles verify FILE.csv -o OUT.csv`: each puzzle is
// re-checked from a fresh search (it replays, and every solver move is the engine's
// only winning move with --verify-nodes), and those that pass are written to OUT in the
// order they came. Rejections go to stderr; stdout gets {"verified": N, "rejected": N}.
func runPuzzlesVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("puzzles verify", stderr)
	out := fs.String("o", "", "write the puzzles that pass to this CSV `file` (required)")
	verify := fs.Uint64("verify-nodes", 150000, "engine nodes for each solver move")
	workers := fs.Int("workers", 2, "puzzles checked at once")
	file, flags, err := splitPositional(args, map[string]bool{"o": true, "verify-nodes": true, "workers": true})
	if err != nil {
		return err
	}
	if err := parseFlags(fs, flags); err != nil {
		return err
	}
	if file == "" || *out == "" {
		return errors.New("want the CSV file to verify and -o for the puzzles that pass")
	}
	if *workers < 1 || *workers > 64 {
		return fmt.Errorf("--workers %d: want 1 to 64", *workers)
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	rd, err := puzzle.NewReader(bufio.NewReader(f))
	if err != nil {
		return err
	}
	var ps []*puzzle.Puzzle
	for {
		p, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		ps = append(ps, p)
	}
	verdicts := make([]error, len(ps))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A fresh engine for each puzzle: the verdict is then the same whatever was
			// verified before, and the same as the starter set's test finds.
			for i := range jobs {
				gen := mine.NewGenerator(engine.New(engine.Options{HashMB: 16}), mine.Options{ScanNodes: 6000, VerifyNodes: *verify})
				verdicts[i] = gen.Verify(*ps[i])
			}
		}()
	}
	for i := range ps {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	o, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer o.Close()
	cw, err := puzzle.NewWriter(o)
	if err != nil {
		return err
	}
	kept := 0
	for i, p := range ps {
		if verdicts[i] != nil {
			fmt.Fprintf(stderr, "rejected: %v\n", verdicts[i])
			continue
		}
		if err := cw.Write(p); err != nil {
			return err
		}
		kept++
	}
	if err := cw.Flush(); err != nil {
		return err
	}
	if err := o.Close(); err != nil {
		return err
	}
	return printSummary(stdout, map[string]int{"verified": kept, "rejected": len(ps) - kept})
}
