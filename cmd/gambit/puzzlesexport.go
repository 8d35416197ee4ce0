// puzzlesexport.go: `gambit puzzles export`, the stored puzzles as CSV.

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gambitchess/gambit/service/puzzles"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
)

// runPuzzlesExport implements `gambit puzzles export [--db FILE] [-o FILE]`: every stored
// puzzle as CSV in the lichess layout (on stdout without -o).
func runPuzzlesExport(args []string, stdout, stderr io.Writer) error {
	ctx, stop := commandContext()
	defer stop()
	fs := newFlagSet("puzzles export", stderr)
	dbPath := addDBFlag(fs)
	out := fs.String("o", "", "write the CSV to this `file` (default: standard output)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	db, err := bolt.Open(*dbPath, &bolt.Options{ReadOnly: true})
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
	n, err := puzzles.Export(ctx, db, bw)
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
