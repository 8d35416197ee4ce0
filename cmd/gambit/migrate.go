// migrate.go: `gambit migrate`, a copy of a whole store into another backend (bbolt to
// PostgreSQL, or back), verified before it is called done.

package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/transfer"
)

// runMigrate implements `gambit migrate --from bbolt:FILE --to postgres:DSN`: it opens
// the source read-only (a running bot holds a bbolt file: stop it first), copies every
// record into the destination (which must be empty; its schema is created), then
// verifies the copy: the records of each family counted in both, every game's record
// compared with the source's, and every game replayed from its start position.
func runMigrate(args []string, stdout, stderr io.Writer) error {
	ctx, stop := commandContext()
	defer stop()
	fs := newFlagSet("migrate", stderr)
	from := fs.String("from", "", "the store to copy: bbolt:`FILE` or postgres:DSN")
	to := fs.String("to", "", "the empty store to copy into: postgres:`DSN` (postgres: alone reads GAMBIT_STORAGE_DSN) or bbolt:FILE")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *from == "" || *to == "" {
		return errors.New("give both --from and --to, e.g. --from bbolt:gambit.db --to postgres:postgres://gambit@db/gambit")
	}
	src, err := backend.ParseLocation(*from)
	if err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	dst, err := backend.ParseLocation(*to)
	if err != nil {
		return fmt.Errorf("--to: %w", err)
	}
	if src == dst {
		return errors.New("--from and --to name the same store")
	}
	start := time.Now()
	in, err := backend.Open(src, &backend.Options{ReadOnly: true})
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("%w: stop the bot before migrating its store", err)
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", src, err)
	}
	defer in.Close()
	out, err := backend.Open(dst, nil)
	if err != nil {
		return fmt.Errorf("open %s: %w", dst, err)
	}
	defer out.Close()

	fmt.Fprintf(stdout, "copying %s to %s\n", src, dst)
	copied, err := transfer.Copy(ctx, out, in)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "copied: %s\n", copied)
	// Verify: the counts of both stores, then every game, compared and replayed.
	for _, side := range []struct {
		name string
		st   storage.Store
	}{{"source", in}, {"copy", out}} {
		counts, err := transfer.CountRecords(ctx, side.st)
		if err != nil {
			return fmt.Errorf("count the %s: %w", side.name, err)
		}
		if err := transfer.SameCounts(copied, counts); err != nil {
			return fmt.Errorf("verify the %s's counts: %w", side.name, err)
		}
	}
	n, err := transfer.CompareGames(ctx, in, out, func(g *storage.Game) error {
		_, err := games.Replay(g)
		return err
	})
	if err != nil {
		return fmt.Errorf("verify the games: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "verified: the counts match, %d games are the same in both and replay; %s\n",
		n, time.Since(start).Round(time.Millisecond))
	return err
}
