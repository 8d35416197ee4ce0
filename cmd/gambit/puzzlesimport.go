// puzzlesimport.go: `gambit puzzles import`, a lichess-layout CSV streamed into the store.

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/service/puzzles"
)

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
	ctx, stop := commandContext()
	defer stop()
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
	defer sink.close(ctx)
	shown := 0
	start := time.Now()
	st, err := puzzles.Import(ctx, sink.db, bufio.NewReaderSize(in, 1<<20), puzzles.ImportOptions{
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
	if err := sink.close(ctx); err != nil {
		return err
	}
	el := time.Since(start)
	fmt.Fprintf(stderr, "read %d rows in %v: %.0f rows/s\n", st.Rows, el.Round(time.Millisecond), float64(st.Rows)/max(el.Seconds(), 1e-9))
	return printSummary(stdout, st)
}
