package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

func seedStore(t *testing.T, path string, n int) {
	t.Helper()
	db, err := storage.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range n {
		g := &storage.Game{White: storage.Player{ID: "a"}, Black: storage.Player{ID: "b"}, Control: clock.TimeControl{Untimed: true}, Created: time.Now()}
		if i%2 == 0 {
			g.Outcome = chesscore.Outcome{Result: chesscore.NoResult, Termination: chesscore.Aborted}
		}
		if err := db.Commit(&storage.Change{Game: g}); err != nil {
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
	db, err := storage.Open(dst, &storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	if total, live, _ := db.CountGames(); total != 5 || live != 2 {
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
	held, err := storage.Open(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	err = runBackup([]string{"--db", src, "-o", filepath.Join(dir, "y.db")}, &out, &out)
	if !errors.Is(err, storage.ErrLocked) || !strings.Contains(err.Error(), "stop it") {
		t.Errorf("held store: %v", err)
	}
}
