// puzzlesink.go: the store the puzzle commands write into, in batches.

package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
)

// puzzleSink stores generated puzzles in batches.
type puzzleSink struct {
	db      *bolt.DB
	pending []*storage.Puzzle
	closed  bool
}

// openPuzzleStore opens the store a command writes puzzles into.
func openPuzzleStore(path string) (*puzzleSink, error) {
	db, err := bolt.Open(path, nil)
	if errors.Is(err, storage.ErrLocked) {
		return nil, fmt.Errorf("--db: %w; stop the bot while importing", err)
	}
	if err != nil {
		return nil, fmt.Errorf("--db: %w", err)
	}
	return &puzzleSink{db: db}, nil
}

// add queues a puzzle, storing the batch once it holds 500.
func (s *puzzleSink) add(ctx context.Context, p puzzle.Puzzle) error {
	p.Added = time.Now()
	s.pending = append(s.pending, &p)
	if len(s.pending) >= 500 {
		return s.flush(ctx)
	}
	return nil
}

// flush stores the queued puzzles in one bulk transaction.
func (s *puzzleSink) flush(ctx context.Context) error {
	if len(s.pending) == 0 {
		return nil
	}
	err := s.db.Bulk(ctx, func(tx storage.Tx) error {
		_, err := tx.AddPuzzles(s.pending)
		return err
	})
	s.pending = s.pending[:0]
	return err
}

// close stores what is pending and closes the store (once; later calls do nothing).
func (s *puzzleSink) close(ctx context.Context) error {
	if s.closed {
		return nil
	}
	s.closed = true
	err := s.flush(ctx)
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	return err
}
