// puzzlesverify.go: `gambit puzzles verify`, puzzles re-checked from a fresh search.

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/puzzle/mine"
)

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
