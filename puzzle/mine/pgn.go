// pgn.go: mining every game of a PGN stream on several workers.

package mine

import (
	"errors"
	"fmt"
	"io"
	"sync"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/puzzle"
)

// Stats counts what a mining run did.
type Stats struct {
	Games     int `json:"games"`
	Generated int `json:"generated"`
	Errors    int `json:"errors"`
}

// PGN reads every game of a PGN stream and mines it on workers goroutines, each with
// its own engine; emit receives each puzzle (from one goroutine at a time) in the order the
// games came. A game that cannot be read is counted as an error and skipped.
func PGN(r io.Reader, workers int, opt Options, hashMB int, emit func(puzzle.Puzzle) error) (Stats, error) {
	var st Stats
	if workers < 1 {
		workers = 1
	}
	type job struct {
		n    int
		game *cc.Game
		src  string
	}
	type result struct {
		n  int
		ps []puzzle.Puzzle
	}
	jobs := make(chan job)
	results := make(chan result)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gen := NewGenerator(engine.New(engine.Options{HashMB: hashMB}), opt)
			for j := range jobs {
				results <- result{j.n, gen.FromGame(j.game, "g", j.src)}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	readErr := make(chan error, 1)
	go func() {
		defer close(jobs)
		pr := cc.NewPGNReader(r, dead.Decider{})
		pr.SkipVariations = true
		n := 0
		for {
			g, err := pr.Read()
			if errors.Is(err, io.EOF) {
				readErr <- nil
				return
			}
			if err != nil {
				var pe *cc.PGNError
				if errors.As(err, &pe) {
					st.Errors++ // only this goroutine writes Errors until results are drained
					continue
				}
				readErr <- err
				return
			}
			src := "pgn"
			if w, b := g.Tags["White"], g.Tags["Black"]; w != "" || b != "" {
				src = fmt.Sprintf("pgn:%s vs %s", w, b)
			}
			n++
			jobs <- job{n, g.Game, src}
		}
	}()

	pending := map[int][]puzzle.Puzzle{}
	next := 1
	var emitErr error
	for res := range results {
		pending[res.n] = res.ps
		for {
			ps, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			st.Games++
			for _, p := range ps {
				if emitErr == nil {
					emitErr = emit(p)
				}
				st.Generated++
			}
			next++
		}
	}
	if err := <-readErr; err != nil {
		return st, fmt.Errorf("read PGN: %w", err)
	}
	return st, emitErr
}
