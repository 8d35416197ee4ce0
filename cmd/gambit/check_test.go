// Tests of `gambit check`: a healthy store passes; a damaged one is reported, not a crash.

package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckHealthyStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	seedStore(t, path, 4)
	var out bytes.Buffer
	if err := runCheck([]string{"--db", path}, &out, &out); err != nil {
		t.Fatalf("check: %v\n%s", err, out.String())
	}
	for _, want := range []string{"games                    4", "idx_live_games           2", "ok: the pages are consistent"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestCheckDamagedStore: every page past the meta pages gets a garbage header, as a
// bad disk might leave it: the command says the store does not open and fails.
func TestCheckDamagedStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gambit.db")
	seedStore(t, path, 20)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const pageSize = 4096 // bbolt's page on this machine (the OS page size)
	for off := 2 * pageSize; off+16 <= len(data); off += pageSize {
		copy(data[off+8:off+16], []byte{0x77, 0x77, 0xff, 0xff, 0, 0, 0, 0})
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = runCheck([]string{"--db", path}, &out, &out)
	if !errors.Is(err, errCheckFailed) {
		t.Fatalf("check of a damaged store = %v, want errCheckFailed\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "corrupt") {
		t.Errorf("output does not say the store is damaged:\n%s", out.String())
	}
}

func TestCheckNeedsAStore(t *testing.T) {
	var out bytes.Buffer
	err := runCheck([]string{"--db", filepath.Join(t.TempDir(), "missing.db")}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "--db") {
		t.Errorf("check of a missing file = %v", err)
	}
}
