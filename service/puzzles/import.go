// import.go: importing lichess-layout CSV into the store, exporting it, and the
// starter set loaded into an empty store.

package puzzles

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/storage"
)

// loadStarter imports the starter set into a store that has no puzzles.
func (s *Service) loadStarter(ctx context.Context) error {
	n, err := storage.Read(ctx, s.db, storage.Tx.CountPuzzles)
	if err != nil {
		return fmt.Errorf("start puzzle service: %w", err)
	}
	if n > 0 || len(s.opts.Starter) == 0 {
		return nil
	}
	st, err := Import(ctx, s.db, bytes.NewReader(s.opts.Starter), ImportOptions{Now: s.clock.Now(), Source: "starter"})
	if err != nil {
		return fmt.Errorf("start puzzle service: load the starter set: %w", err)
	}
	s.log.Info("puzzles: loaded the starter set into an empty store", "imported", st.Imported, "errors", st.Errors)
	return nil
}

// ImportStats counts what an import did.
type ImportStats struct {
	Rows     int `json:"-"`
	Imported int `json:"imported"`
	Skipped  int `json:"skipped"`
	Errors   int `json:"errors"`
}

// importBatch is how many puzzles one import transaction writes.
const importBatch = 4000

// ImportOptions tune Import.
type ImportOptions struct {
	// Filter selects the rows (its Limit stops after that many imported).
	Filter puzzle.Filter
	// Now is when the puzzles are added.
	Now time.Time
	// Source, if set, replaces the rows' source (the reader's is "lichess").
	Source string
	// OnError, if set, is told of every row counted as an error.
	OnError func(error)
}

// Import streams a lichess-layout CSV into the store: each row is read, validated
// (replayed) and filtered, and the kept ones are written in batches of a few thousand
// per transaction, so memory stays flat whatever the size of the file. Rows the filter
// drops and puzzles already stored count as skipped; rows that cannot be read or do not
// replay count as errors. Validation runs on a second goroutine while the first writes.
func Import(ctx context.Context, db storage.Store, r io.Reader, o ImportOptions) (ImportStats, error) {
	f, now, bad := o.Filter, o.Now, o.OnError
	var st ImportStats
	rd, err := puzzle.NewReader(r)
	if err != nil {
		return st, err
	}
	type row struct {
		p   *puzzle.Puzzle
		err error
	}
	rows := make(chan []row, 4)
	stop := make(chan struct{})
	readErr := make(chan error, 1)
	go func() { // read and validate
		defer close(rows)
		batch := make([]row, 0, 256)
		for {
			p, err := rd.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			var re *puzzle.RowError
			if err != nil && !errors.As(err, &re) {
				readErr <- err
				return
			}
			if err == nil {
				if _, verr := p.Validate(); verr != nil {
					p, err = nil, verr
				}
			}
			batch = append(batch, row{p, err})
			if len(batch) == cap(batch) {
				select {
				case rows <- batch:
				case <-stop:
					return
				}
				batch = make([]row, 0, 256)
			}
		}
		if len(batch) > 0 {
			select {
			case rows <- batch:
			case <-stop:
			}
		}
		readErr <- nil
	}()
	defer func() {
		close(stop)
		for range rows { // let the reader finish
		}
	}()
	var pending []*storage.Puzzle
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		added, err := addPuzzles(ctx, db, pending)
		if err != nil {
			return fmt.Errorf("store %d puzzles: %w", len(pending), err)
		}
		st.Imported += added
		st.Skipped += len(pending) - added
		pending = pending[:0]
		return nil
	}
	for batch := range rows {
		for _, rw := range batch {
			if f.Limit > 0 && st.Imported+len(pending) >= f.Limit {
				// Writing may find some of the pending ones already stored: top up after.
				if err := flush(); err != nil {
					return st, err
				}
				if st.Imported >= f.Limit {
					return st, nil
				}
			}
			st.Rows++
			if rw.err != nil {
				st.Errors++
				if bad != nil {
					bad(rw.err)
				}
				continue
			}
			if !f.Keep(rw.p) {
				st.Skipped++
				continue
			}
			if o.Source != "" {
				rw.p.Source = o.Source
			}
			rw.p.Added = now
			pending = append(pending, rw.p)
			if len(pending) >= importBatch {
				if err := flush(); err != nil {
					return st, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return st, err
	}
	if err := <-readErr; err != nil {
		return st, err
	}
	return st, nil
}

// Export writes every stored puzzle as lichess-layout CSV and returns how many.
func Export(ctx context.Context, db storage.Store, w io.Writer) (int, error) {
	cw, err := puzzle.NewWriter(w)
	if err != nil {
		return 0, err
	}
	n := 0
	err = db.View(ctx, func(tx storage.Tx) error {
		return tx.EachPuzzle(func(sp *storage.Puzzle) error {
			n++
			return cw.Write(sp)
		})
	})
	if err != nil {
		return n, err
	}
	return n, cw.Flush()
}
