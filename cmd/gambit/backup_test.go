// Tests of `gambit backup`: a copy of a stopped store, and what it says while a bot runs.

package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// seedStore writes n games (every other one aborted) into the store at path, and closes
// it.
func seedStore(t *testing.T, path string, n int) {
	t.Helper()
	db := storagetest.OpenFile(t, path, nil)
	defer db.Close() // the command under test opens the file
	for i := range n {
		g := &storage.Game{White: storage.Player{ID: "a"}, Black: storage.Player{ID: "b"}, Control: clock.TimeControl{Untimed: true}, Created: time.Now()}
		if i%2 == 0 {
			g.Outcome = chesscore.Outcome{Result: chesscore.NoResult, Termination: chesscore.Aborted}
		}
		if err := db.Commit(t.Context(), &storage.Change{Game: g}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBackup(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "gambit.db"), filepath.Join(dir, "copy.db")
	seedStore(t, src, 5)
	var out bytes.Buffer
	if err := runBackup([]string{"--db", src, "-o", dst}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "5 games (2 live)") {
		t.Errorf("output %q", out.String())
	}
	db := storagetest.OpenFile(t, dst, &bolt.Options{ReadOnly: true})
	if err := db.Check(t.Context()); err != nil {
		t.Fatal(err)
	}
	if total, live := storagetest.CountGames(t, db); total != 5 || live != 2 {
		t.Errorf("copy has %d games, %d live", total, live)
	}
}

func TestBackupRefuses(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "gambit.db")
	var out bytes.Buffer
	if err := runBackup([]string{"--db", src}, &out, &out); err == nil || !strings.Contains(err.Error(), "-o") {
		t.Errorf("without -o: %v", err)
	}
	if err := runBackup([]string{"--db", src, "-o", filepath.Join(dir, "x.db")}, &out, &out); err == nil {
		t.Error("backed up a file that does not exist")
	}
	seedStore(t, src, 1)
	if err := runBackup([]string{"--db", src, "-o", src}, &out, &out); err == nil {
		t.Error("backed up a store over itself")
	}
	storagetest.OpenFile(t, src, nil) // held open, as a running bot holds it
	err := runBackup([]string{"--db", src, "-o", filepath.Join(dir, "y.db")}, &out, &out)
	if !errors.Is(err, storage.ErrLocked) || !strings.Contains(err.Error(), "/backup") {
		t.Errorf("held store: %v", err)
	}
}

// TestBackupOfAHeldStoreSaysHow: while a bot holds the store, gambit backup fails at
// once and gives the command that gets the copy from the bot, at the bot's own address
// when its configuration (file or environment) names one.
func TestBackupOfAHeldStoreSaysHow(t *testing.T) {
	t.Setenv("GAMBIT_METRICS_ADDRESS", "")
	os.Unsetenv("GAMBIT_METRICS_ADDRESS") // restored by t.Setenv's cleanup
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "gambit.db"), filepath.Join(dir, "copy.db")
	seedStore(t, src, 1)
	storagetest.OpenFile(t, src, nil) // held open, as a running bot holds it
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	withAddr := write("bot.yaml", "storage:\n  path: "+src+"\nmetrics:\n  address: 0.0.0.0:9191\n  allow_remote: true\n")
	noAddr := write("quiet.yaml", "storage:\n  path: "+src+"\n")
	for _, c := range []struct {
		name string
		env  string
		args []string
		want []string
	}{
		{"the bot's configuration (its storage.path is the default --db)", "", []string{"--config", withAddr, "-o", dst},
			[]string{"curl -fsS -o " + dst + " http://127.0.0.1:9191/backup", "backups.dir"}},
		{"a configuration without metrics.address", "", []string{"--config", noAddr, "-o", dst},
			[]string{noAddr + " sets no metrics.address", "set metrics.address: 127.0.0.1:9090", "curl -fsS -o " + dst + " http://127.0.0.1:9090/backup", "until the bot's configuration sets backups.endpoint_token", "Authorization: Bearer"}},
		{"the environment names the address", "[::1]:9393", []string{"--db", src, "-o", dst},
			[]string{"curl -fsS -o " + dst + " http://[::1]:9393/backup"}},
		{"nothing names it", "", []string{"--db", src, "-o", dst},
			[]string{"GET /backup at its metrics.address", "--config", "http://127.0.0.1:9090/backup"}},
	} {
		if c.env != "" {
			t.Setenv("GAMBIT_METRICS_ADDRESS", c.env)
		} else {
			os.Unsetenv("GAMBIT_METRICS_ADDRESS")
		}
		var out bytes.Buffer
		start := time.Now()
		err := runBackup(c.args, &out, &out)
		if !errors.Is(err, storage.ErrLocked) {
			t.Errorf("%s: %v, want ErrLocked", c.name, err)
			continue
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: gave up after %v", c.name, took)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
		if _, err := os.Stat(dst); err == nil {
			t.Errorf("%s: a copy was written", c.name)
		}
	}
}

// TestLiveBackupCurlKeepsTheTokenOffTheCommandLine: every curl of the live backup we
// show (the docs, the Dockerfile, gambit backup's hint) reads the token from a header
// file and writes the copy under umask 077: a token in curl's arguments is visible to
// every user of the machine (ps), and a copy made under the shell's umask may be too.
func TestLiveBackupCurlKeepsTheTokenOffTheCommandLine(t *testing.T) {
	sources := map[string]string{
		"docs/discord.md": repoFile(t, "docs/discord.md"), "docs/scaling.md": repoFile(t, "docs/scaling.md"),
		"deploy/Dockerfile": repoFile(t, "deploy/Dockerfile"),
		"the hint":          liveCopyHint("127.0.0.1:9090", "", "copy.db", false) + "\n" + liveCopyHint("", "", "copy.db", true),
	}
	curls := 0
	for name, text := range sources {
		for _, line := range strings.Split(text, "\n") {
			if !strings.Contains(line, "curl ") || !strings.Contains(line, "/backup") {
				continue
			}
			curls++
			if !strings.Contains(line, "(umask 077 && curl ") || !strings.Contains(line, "-H @") || strings.Contains(line, "Bearer") {
				t.Errorf("%s: %q: want (umask 077 && curl ... -H @FILE), the token not on the command line", name, strings.TrimSpace(line))
			}
		}
		if strings.Contains(text, "-H @") && !strings.Contains(text, "(umask 077 && printf 'Authorization: Bearer %s") && name != "docs/scaling.md" {
			t.Errorf("%s: the header file's making is not shown (umask 077 and printf)", name)
		}
	}
	if curls < 5 {
		t.Errorf("found %d curl lines of the live backup, want at least 5 (2 in docs/discord.md, 1 in the Dockerfile, 2 hints)", curls)
	}
}
