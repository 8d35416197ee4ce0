// games.go: `gambit games`, the terminal games left open in a store.

package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gambitchess/gambit/cmd/gambit/internal/terminal"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
)

// runGames implements `gambit games [--db FILE]`: the open terminal games with their
// players, clocks and moves, for gambit play --resume.
func runGames(args []string, stdout, stderr io.Writer) error {
	ctx, stop := commandContext()
	defer stop()
	fs := newFlagSet("games", stderr)
	dbPath := addDBFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	db, err := bolt.Open(*dbPath, &bolt.Options{ReadOnly: true})
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("--db: %w; a running gambit play or bot holds the file", err)
	}
	if err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	defer db.Close()
	type open struct {
		recs  []*storage.Game
		alive time.Time
	}
	o, err := storage.Read(ctx, db, func(tx storage.Tx) (open, error) {
		all, err := tx.OpenGames()
		if err != nil {
			return open{}, err
		}
		var o open
		for _, g := range all {
			if games.LocalScope(g) {
				o.recs = append(o.recs, g)
			}
		}
		o.alive, err = tx.Heartbeat(playInstance)
		return o, err
	})
	if err != nil {
		return fmt.Errorf("read open games from %s: %w", *dbPath, err)
	}
	return terminal.WriteOpenGames(stdout, o.recs, o.alive)
}
