// check.go: `gambit check`, the verification of a store: bbolt's page check and every
// record decoded.

package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
)

// errCheckFailed is the error of a check that found problems (already printed).
var errCheckFailed = errors.New("the store has problems (listed above)")

// runCheck implements `gambit check [--db FILE]`: it opens the store read-only, runs
// bolt.DB.CheckFile and prints what it read and what is wrong. It fails when anything
// is wrong, or when the store does not open (a damaged file is reported, not a crash).
func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("check", stderr)
	dbPath := addDBFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	db, err := bolt.Open(*dbPath, &bolt.Options{ReadOnly: true})
	switch {
	case errors.Is(err, storage.ErrLocked):
		return fmt.Errorf("--db: %w; stop the bot first, or check a copy (GET /backup, or a scheduled backup)", err)
	case errors.Is(err, storage.ErrCorrupt):
		fmt.Fprintf(stdout, "%s: does not open: %v\n", *dbPath, err)
		return errCheckFailed
	case err != nil:
		return fmt.Errorf("--db: %w", err)
	}
	defer db.Close()
	res, err := db.CheckFile()
	if err != nil {
		fmt.Fprintf(stdout, "%s: the check stopped: %v\n", *dbPath, err)
		return errCheckFailed
	}
	names := make([]string, 0, len(res.Records))
	total := 0
	for name, n := range res.Records {
		names = append(names, name)
		total += n
	}
	slices.Sort(names)
	fmt.Fprintf(stdout, "%s: %d records in %d buckets\n", *dbPath, total, len(names))
	for _, name := range names {
		fmt.Fprintf(stdout, "  %-24s %d\n", name, res.Records[name])
	}
	if res.OK() {
		fmt.Fprintln(stdout, "ok: the pages are consistent and every record decodes")
		return nil
	}
	fmt.Fprintf(stdout, "%d problems:\n", len(res.Problems)+res.More)
	for _, p := range res.Problems {
		fmt.Fprintf(stdout, "  %s\n", p)
	}
	if res.More > 0 {
		fmt.Fprintf(stdout, "  ... and %d more\n", res.More)
	}
	return errCheckFailed
}
