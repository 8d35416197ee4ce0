// backup.go: `gambit backup`, a consistent copy of a store no bot is running on, and --db.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
)

// defaultDBPath is the store the commands open without --db. The config, when it names
// a database, sets it before the command runs.
var defaultDBPath = bolt.DefaultPath

// addDBFlag defines --db, the store a command opens.
func addDBFlag(fs *flag.FlagSet) *string {
	return fs.String("db", defaultDBPath, "the Gambit database `file`")
}

// runBackup implements `gambit backup [--config FILE] [--db FILE] -o FILE`: a
// consistent copy of the store, taken in one read transaction (bbolt's Tx.WriteTo) and
// written atomically. A running bot holds its store locked: then the command fails at
// once and says how to have the bot itself serve the copy (GET /backup on its
// metrics.address), with the bot's address when its configuration is given.
func runBackup(args []string, stdout, stderr io.Writer) error {
	ctx, stop := commandContext()
	defer stop()
	fs := newFlagSet("backup", stderr)
	cfgPath := fs.String("config", "", "the bot's YAML configuration `file`: its storage.path is the default --db, its metrics.address where a running bot serves the copy")
	dbPath := addDBFlag(fs)
	out := fs.String("o", "", "the `file` to write the copy to (replaced atomically)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("-o: give the file to write the copy to")
	}
	cfg, err := config.Load(*cfgPath, os.LookupEnv)
	if err != nil {
		if *cfgPath != "" {
			return err
		}
		cfg = config.Default() // the environment is only a hint here
	}
	dbSet := false
	fs.Visit(func(f *flag.Flag) { dbSet = dbSet || f.Name == "db" })
	if !dbSet && *cfgPath != "" {
		*dbPath = cfg.Storage.Path
	}
	db, err := bolt.Open(*dbPath, &bolt.Options{ReadOnly: true})
	if errors.Is(err, storage.ErrLocked) {
		return fmt.Errorf("%w\n%s", err, liveCopyHint(cfg.Metrics.Address, *cfgPath, *out, cfg.Backups.EndpointToken != ""))
	}
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := db.BackupFile(ctx, *out)
	if err != nil {
		return err
	}
	var total, live int
	err = db.View(ctx, func(tx storage.Tx) (err error) {
		total, live, err = tx.CountGames()
		return err
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "backed up %s to %s: %d bytes, %d games (%d live)\n", *dbPath, *out, n, total, live)
	return err
}

// The header file of the live backup's curl, and the line that writes it.
const (
	liveBackupHeaderFile = "$HOME/.gambit-backup-header"
	liveBackupHeaderLine = `(umask 077 && printf 'Authorization: Bearer %s\n' "$GAMBIT_BACKUPS_ENDPOINT_TOKEN" > ` + liveBackupHeaderFile + ")"
)

// liveCopyHint says how to get the copy from the running bot that holds the store: GET
// /backup on its metrics.address (addr, from its configuration cfgPath when given) with
// its backups.endpoint_token (tokenSet: the configuration sets one).
func liveCopyHint(addr, cfgPath, out string, tokenSet bool) string {
	const example = "127.0.0.1:9090"
	// The token goes in a header file only its owner reads (printf is the shell's
	// own: the token is on no process's command line), and the copy is written 0600.
	curl := func(a string) string {
		return "  " + liveBackupHeaderLine + "   # once\n" +
			fmt.Sprintf("  (umask 077 && curl -fsS -o %s http://%s/backup -H @%s)", out, a, liveBackupHeaderFile)
	}
	more := "\n(or set backups.dir in its configuration: the bot then writes copies itself)"
	if !tokenSet {
		more = "\n(/backup is off until the bot's configuration sets backups.endpoint_token, or GAMBIT_BACKUPS_ENDPOINT_TOKEN: set it and restart the bot)" + more
	}
	switch {
	case addr != "":
		return "a running bot holds the file; it serves the copy itself:\n" + curl(reachable(addr)) + more
	case cfgPath != "":
		return fmt.Sprintf("a running bot holds the file, and %s sets no metrics.address for it to serve the copy on: set metrics.address: %s, restart the bot, then:\n%s%s",
			cfgPath, example, curl(example), more)
	default:
		return fmt.Sprintf("a running bot holds the file; it serves the copy itself on GET /backup at its metrics.address (give --config with the bot's configuration to have it named here), e.g.:\n%s%s",
			curl(example), more)
	}
}

// reachable turns a listening address into one to connect to: a wildcard or empty host
// is this machine.
func reachable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	switch host {
	case "", "0.0.0.0", "::":
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
