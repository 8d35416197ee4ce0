package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

const lichessSample = "../../testdata/lichess-puzzles-sample.csv"

// runGambit runs `gambit puzzles ...` and returns stdout and stderr.
func runGambit(t *testing.T, want int, args ...string) (string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := 0
	if err := runGroup("puzzles", args[1:], &out, &errOut); err != nil {
		code = 1
		errOut.WriteString(err.Error())
	}
	if code != want {
		t.Fatalf("gambit %s: exit %d, want %d; stderr:\n%s", strings.Join(args, " "), code, want, errOut.String())
	}
	return out.String(), errOut.String()
}

// summary decodes the last line of stdout as the JSON summary.
func summary(t *testing.T, out string) map[string]int {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var m map[string]int
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
		t.Fatalf("last line %q is not a JSON summary: %v", lines[len(lines)-1], err)
	}
	return m
}

func TestPuzzlesImportExport(t *testing.T) {
	if _, err := os.Stat(lichessSample); err != nil {
		t.Fatalf("the lichess sample is part of the repository: %v", err)
	}
	db := filepath.Join(t.TempDir(), "gambit.db")
	out, errOut := runGambit(t, 0, "puzzles", "import", lichessSample, "--db", db, "--max-rating", "700")
	if got := summary(t, out); !reflect.DeepEqual(got, map[string]int{"imported": 8, "skipped": 12, "errors": 0}) {
		t.Errorf("import --max-rating 700: %v", got)
	}
	if !strings.Contains(errOut, "rows/s") {
		t.Errorf("no speed on stderr: %q", errOut)
	}
	// The file may come after the flags, too; stored puzzles are skipped.
	out, _ = runGambit(t, 0, "puzzles", "import", "--db", db, "--themes", "mateIn2,crushing", lichessSample)
	if got := summary(t, out); got["imported"] != 4 || got["skipped"] != 16 {
		t.Errorf("import --themes: %v", got)
	}
	out, _ = runGambit(t, 0, "puzzles", "import", "--db", db, "--limit", "2", lichessSample)
	if got := summary(t, out); got["imported"] != 2 {
		t.Errorf("import --limit 2: %v", got)
	}
	out, _ = runGambit(t, 0, "puzzles", "export", "--db", db)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) != 15 || rows[0] != "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags" {
		t.Errorf("export: %d lines, header %q", len(rows), rows[0])
	}
	// A bad row is counted, and shown on stderr.
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte("PuzzleId,FEN,Moves,Rating\nx1,8/8/8/8/8/8/8/K6k w - - 0 1,a1a2 h1h2,abc\nx2,8/8/8/8/8/8/8/K6k w - - 0 1,a1a9 h1h2,900\n"), 0o644)
	out, errOut = runGambit(t, 0, "puzzles", "import", bad, "--db", db)
	if got := summary(t, out); got["errors"] != 2 || got["imported"] != 0 || !strings.Contains(errOut, "skipped:") {
		t.Errorf("bad rows: %v, stderr %q", got, errOut)
	}
	for _, args := range [][]string{
		{"puzzles", "import", "--db", db},
		{"puzzles", "import", lichessSample, "other.csv", "--db", db},
		{"puzzles", "import", lichessSample, "--min-rating", "900", "--max-rating", "800", "--db", db},
		{"puzzles", "import", "no-such-file.csv", "--db", db},
	} {
		runGambit(t, 1, args...)
	}
}

func TestPuzzlesGenerateIntoStoreAndVerify(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "games.pgn")
	os.WriteFile(pgn, []byte("[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n"), 0o644)
	db, csv := filepath.Join(dir, "gambit.db"), filepath.Join(dir, "out.csv")
	out, _ := runGambit(t, 0, "puzzles", "generate", "--from", pgn, "--db", db, "--csv", csv, "--workers", "1")
	if got := summary(t, out); got["generated"] != 1 {
		t.Fatalf("generate: %v", got)
	}
	s := storagetest.OpenFile(t, db, &bolt.Options{ReadOnly: true})
	n, _ := storage.Read(t.Context(), s, storage.Tx.CountPuzzles)
	s.Close()
	if n != 1 {
		t.Errorf("%d puzzles stored, want 1", n)
	}
	// verify keeps it; a puzzle whose solution is not the engine's choice is rejected.
	data, _ := os.ReadFile(csv)
	data = append(data, "wrong1,r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3,g8f6 h5h7,900,0,0,0,,,\n"...)
	os.WriteFile(csv, data, 0o644)
	kept := filepath.Join(dir, "kept.csv")
	out, errOut := runGambit(t, 0, "puzzles", "verify", csv, "-o", kept, "--verify-nodes", "20000")
	if got := summary(t, out); got["verified"] != 1 || got["rejected"] != 1 || !strings.Contains(errOut, "wrong1") {
		t.Errorf("verify: %v, stderr %q", got, errOut)
	}
}

func FuzzSplitPositional(f *testing.F) {
	for _, s := range []string{"a.csv --db x", "--db x a.csv", "--limit=3 - --themes fork", "a b", "--db", ""} {
		f.Add(s)
	}
	valued := map[string]bool{"db": true, "limit": true, "themes": true}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Fields(s)
		file, flags, err := splitPositional(args, valued)
		if err != nil {
			return
		}
		n := len(flags)
		if file != "" {
			n++
		}
		if n != len(args) {
			t.Fatalf("%q: file %q flags %q lose arguments", args, file, flags)
		}
	})
}
