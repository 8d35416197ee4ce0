// puzzles.go: `gambit puzzles generate`, and what the puzzle commands share.

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/puzzle/mine"
)

// printSummary writes v as one line of JSON.
func printSummary(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// runPuzzlesGenerate mines puzzles from the games of a PGN file: into the store (--db),
// and/or as lichess-layout CSV (--csv). It ends with {"generated": N} on stdout.
func runPuzzlesGenerate(args []string, stdout, stderr io.Writer) error {
	ctx, stop := commandContext()
	defer stop()
	fs := newFlagSet("puzzles generate", stderr)
	from := fs.String("from", "", "PGN file of games to mine (required)")
	csvOut := fs.String("csv", "", "also write the puzzles as CSV to this file (- for stdout)")
	db := fs.String("db", "", "store the puzzles in this database `file`")
	workers := fs.Int("workers", 2, "games analysed at once")
	scan := fs.Uint64("scan-nodes", 6000, "engine nodes for the quick look at each position")
	verify := fs.Uint64("verify-nodes", 150000, "engine nodes for each solver move of a candidate")
	limit := fs.Int("limit", 0, "stop after this many puzzles (0: all)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *from == "" {
		return fmt.Errorf("--from: want the PGN file of games to mine")
	}
	if *csvOut == "" && *db == "" {
		return fmt.Errorf("want --db FILE or --csv FILE (or both) for the puzzles")
	}
	if *workers < 1 || *workers > 64 {
		return fmt.Errorf("--workers %d: want 1 to 64", *workers)
	}
	in, err := os.Open(*from)
	if err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	defer in.Close()
	var sinks []func(puzzle.Puzzle) error
	var csvW *puzzle.Writer
	if *csvOut != "" {
		out := stdout
		if *csvOut != "-" {
			f, err := os.Create(*csvOut)
			if err != nil {
				return fmt.Errorf("--csv: %w", err)
			}
			defer f.Close()
			out = f
		}
		if csvW, err = puzzle.NewWriter(out); err != nil {
			return err
		}
		sinks = append(sinks, func(p puzzle.Puzzle) error { return csvW.Write(&p) })
	}
	var store *puzzleSink
	if *db != "" {
		if store, err = openPuzzleStore(*db); err != nil {
			return err
		}
		defer store.close(ctx)
		sinks = append(sinks, func(p puzzle.Puzzle) error { return store.add(ctx, p) })
	}
	count := 0
	errStop := fmt.Errorf("limit reached")
	st, err := mine.PGN(in, *workers, mine.Options{ScanNodes: *scan, VerifyNodes: *verify}, 16, func(p puzzle.Puzzle) error {
		if *limit > 0 && count >= *limit {
			return errStop
		}
		count++
		for _, s := range sinks {
			if err := s(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil && err != errStop {
		return err
	}
	if csvW != nil {
		if err := csvW.Flush(); err != nil {
			return err
		}
	}
	if store != nil {
		if err := store.close(ctx); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "mined %d games, %d unreadable\n", st.Games, st.Errors)
	return printSummary(stdout, map[string]int{"generated": count})
}

// splitList splits a comma-separated flag value.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
