package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/gambitchess/gambit/storage"
)

// defaultDBPath is the store the commands open without --db. The config, when it names
// a database, sets it before the command runs.
var defaultDBPath = storage.DefaultPath

// addDBFlag defines --db, the store a command opens.
func addDBFlag(fs *flag.FlagSet) *string {
	return fs.String("db", defaultDBPath, "the Gambit database `file`")
}

// runBackup implements `gambit backup [--db FILE] -o FILE`: a consistent copy of the
// store, taken in one read transaction (bbolt's Tx.WriteTo) and written atomically.
func runBackup(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("backup", stderr)
	dbPath := addDBFlag(fs)
	out := fs.String("o", "", "the `file` to write the copy to (replaced atomically)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("-o: give the file to write the copy to")
	}
	db, err := storage.Open(*dbPath, &storage.Options{ReadOnly: true})
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("%w; a running bot holds the file: stop it, or have it make the backup", err)
	}
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := db.BackupFile(*out)
	if err != nil {
		return err
	}
	total, live, err := db.CountGames()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "backed up %s to %s: %d bytes, %d games (%d live)\n", *dbPath, *out, n, total, live)
	return err
}
