// Package archtest checks that the tree keeps the shape docs/architecture.md draws: every
// import points down the layers, Discord and database drivers stay in their layer, and the
// rules stay pure. It has only tests.
package archtest

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/gambitchess/gambit"

// layers ranks the project's folders from the top (cmd) to the bottom (the pure rules and
// small utilities), as docs/architecture.md draws them: render sits beside commands and
// uci beside the services, each just below its one user; the dead-position decision
// (chesscore/dead), the opening names (chesscore/openings) and the notations of the
// players' languages (chesscore/notation) sit just above the rules
// they are built on, which never import them. A
// package may import packages of a lower rank, and packages of its own rank only inside
// its own group (service/engineplay may use service/games). The first matching prefix
// wins, so longer prefixes come first.
var layers = []struct {
	prefix string // folder below the module root; a package matches it or lies below it
	rank   int
	group  string
}{
	{"cmd", 11, "cmd"},
	{"tools", 11, "tools"},
	{"serve", 10, "serve"},
	{"bot", 9, "bot"},
	{"web", 9, "web"},
	{"commands", 8, "commands"},
	{"render", 7, "render"},
	{"service", 6, "service"},
	{"puzzle/mine", 5, "puzzle/mine"},
	{"uci", 4, "uci"},
	{"storage", 3, "storage"},
	{"puzzle", 2, "puzzle"},
	{"chesscore/dead", 2, "chesscore/dead"},
	{"chesscore/openings", 2, "chesscore/openings"},
	{"chesscore/notation", 2, "chesscore/notation"},
	{"chesscore", 1, "chesscore"},
	{"tournament", 1, "tournament"},
	{"config", 2, "config"},
	{"i18n", 2, "i18n"},
	{"internal", 0, "internal"},
}

// The database drivers' import paths, spelt in two parts so that a search of the tree for
// files importing a driver does not find this one.
const (
	bbolt = "go.etcd.io/" + "bbolt"
	pgx   = "github.com/jackc/" + "pgx"
)

// restricted lists imports that only some folders may use.
var restricted = []struct {
	path    string   // the imported package, or a prefix of it ending in "/"
	allowed []string // folders (as in layers) that may import it
	why     string
}{
	{"github.com/bwmarrin/discordgo", []string{"bot", "commands"}, "only the Discord layers speak Discord"},
	{"github.com/gorilla/websocket", []string{"web", "bot"}, "only the layers that hold sockets (the web pages, the Discord gateway) speak WebSocket"},
	{bbolt, []string{"storage/bolt"}, "only the bbolt backend knows bbolt"},
	{bbolt + "/", []string{"storage/bolt"}, "only the bbolt backend knows bbolt"},
	{pgx + "/", []string{"storage/pg"}, "only the PostgreSQL backend knows pgx"},
	{module + "/storage/bolt", backendUsers, "services reach the store through storage.Store, never a backend"},
	{module + "/storage/pg", backendUsers, "services reach the store through storage.Store, never a backend"},
	{module + "/storage/backend", backendUsers, "services reach the store through storage.Store, never a backend"},
}

// backendUsers are the folders that may name a backend: the binary and the composition
// roots that open the store, and storage itself.
var backendUsers = []string{"cmd", "serve", "storage"}

// storageLayers ranks the packages of storage as layers of their own: the neutral surface
// at the bottom, the codecs above it, then the copy between stores, the backends (the
// PostgreSQL one writes its backups as bbolt files), the choice of a backend and the test
// helpers on top. As in layers, a package imports only packages of a lower rank.
var storageLayers = []struct {
	prefix string
	rank   int
}{
	{"storage/storagetest", 6},
	{"storage/backend", 5},
	{"storage/pg", 4},
	{"storage/bolt", 3},
	{"storage/transfer", 2},
	{"storage/internal/codec", 1},
	{"storage/internal/testrecords", 1},
	{"storage", 0},
}

func storageRank(rel string) (int, bool) {
	for _, l := range storageLayers {
		if under(rel, l.prefix) {
			return l.rank, true
		}
	}
	return 0, false
}

// bypasses lists imports the layers allow but a folder must not use: arrows that would
// skip the layer meant to stand between them.
var bypasses = []struct {
	folder string // the importing folder (as in layers), or any package below it
	path   string // the imported folder below the module root, or any package below it
	why    string
}{
	{"bot", "storage", "bot is the Discord runtime: the store is serve's, which hands bot what it needs"},
	{"web", "storage", "web is a front end beside bot: it reaches the games through the services, never the store"},
	{"web", "commands", "web is beside bot, not above commands: both call the services, and no Discord message reaches a page"},
	{"web", "bot", "web and bot are siblings: serve composes them, neither calls the other"},
	{"bot", "web", "web and bot are siblings: serve composes them, neither calls the other"},
}

// impure lists what the rules (chesscore and below it) must never import outside tests:
// they run no processes, open no files and touch no network.
var impure = []string{"os", "os/exec", "net", "net/http", "syscall"}

type listedPackage struct {
	ImportPath string
	Imports    []string
}

func listPackages(t *testing.T) []listedPackage {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-e", "-json", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("go list: %v\n%s", err, exit.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

// folder returns the package's path below the module root, or "" for an outside package.
func folder(importPath string) string {
	if importPath == module {
		return "."
	}
	rel, ok := strings.CutPrefix(importPath, module+"/")
	if !ok {
		return ""
	}
	return rel
}

func under(rel, prefix string) bool { return rel == prefix || strings.HasPrefix(rel, prefix+"/") }

func layerOf(rel string) (rank int, group string, ok bool) {
	for _, l := range layers {
		if under(rel, l.prefix) {
			return l.rank, l.group, true
		}
	}
	return 0, "", false
}

func TestEveryPackageHasALayer(t *testing.T) {
	for _, p := range listPackages(t) {
		rel := folder(p.ImportPath)
		if _, _, ok := layerOf(rel); !ok {
			t.Errorf("%s is in no layer: add its folder to the layers table here and to docs/architecture.md", rel)
		}
	}
}

func TestImportsPointDown(t *testing.T) {
	for _, p := range listPackages(t) {
		rel := folder(p.ImportPath)
		rank, group, ok := layerOf(rel)
		if !ok {
			continue
		}
		for _, imp := range p.Imports {
			irel := folder(imp)
			if irel == "" {
				continue
			}
			irank, igroup, ok := layerOf(irel)
			if !ok {
				continue
			}
			switch {
			case irank > rank:
				t.Errorf("%s (layer %d) imports %s (layer %d): an arrow pointing up", rel, rank, irel, irank)
			case irank == rank && igroup != group:
				t.Errorf("%s imports %s: both are in layer %d but in different groups (%s, %s)", rel, irel, rank, group, igroup)
			}
		}
	}
}

func TestStorageImportsPointDown(t *testing.T) {
	for _, p := range listPackages(t) {
		rel := folder(p.ImportPath)
		rank, ok := storageRank(rel)
		if !ok {
			continue
		}
		for _, imp := range p.Imports {
			irel := folder(imp)
			irank, ok := storageRank(irel)
			if ok && irel != rel && irank >= rank {
				t.Errorf("%s (storage layer %d) imports %s (storage layer %d): an arrow pointing up or sideways", rel, rank, irel, irank)
			}
		}
	}
}

func TestRestrictedImports(t *testing.T) {
	for _, p := range listPackages(t) {
		rel := folder(p.ImportPath)
		for _, imp := range p.Imports {
			for _, r := range restricted {
				if imp != r.path && !(strings.HasSuffix(r.path, "/") && strings.HasPrefix(imp, r.path)) {
					continue
				}
				allowed := false
				for _, a := range r.allowed {
					allowed = allowed || under(rel, a)
				}
				if !allowed {
					t.Errorf("%s imports %s: %s", rel, imp, r.why)
				}
			}
		}
	}
}

func TestNoBypasses(t *testing.T) {
	for _, p := range listPackages(t) {
		rel := folder(p.ImportPath)
		for _, imp := range p.Imports {
			irel := folder(imp)
			if irel == "" {
				continue
			}
			for _, b := range bypasses {
				if under(rel, b.folder) && under(irel, b.path) {
					t.Errorf("%s imports %s: %s", rel, irel, b.why)
				}
			}
		}
	}
}

// TestRulesDoNotImportTheDecision: the rules core and its siblings reach the dead-position
// decision only through the chesscore.MateDecider a game is given, never by import.
func TestRulesDoNotImportTheDecision(t *testing.T) {
	decision := module + "/chesscore/dead"
	seen := false
	for _, p := range listPackages(t) {
		rel := folder(p.ImportPath)
		if p.ImportPath == decision {
			seen = true
		}
		if !under(rel, "chesscore") || under(rel, "chesscore/dead") {
			continue
		}
		for _, imp := range p.Imports {
			if imp == decision || strings.HasPrefix(imp, decision+"/") {
				t.Errorf("%s imports %s: the rules are given the decision (chesscore.MateDecider), they never import it", rel, imp)
			}
		}
	}
	if !seen {
		t.Errorf("no package %s: update this test and docs/architecture.md", decision)
	}
}

func TestRulesArePure(t *testing.T) {
	for _, p := range listPackages(t) {
		rel := folder(p.ImportPath)
		if !under(rel, "chesscore") {
			continue
		}
		for _, imp := range p.Imports {
			for _, bad := range impure {
				if imp == bad {
					t.Errorf("%s imports %s: the rules run no processes and do no I/O", rel, imp)
				}
			}
		}
	}
}

// TestNothingReachesOutside fails when a file of the repository names a path beside it: a
// clone must work with nothing next to it.
func TestNothingReachesOutside(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			names = append(names, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk the repository: %v", err)
	}
	outside := "../" + "shared"
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Errorf("read %s: %v", name, err)
			continue
		}
		if strings.Contains(string(b), outside) {
			t.Errorf("%s names %s, outside the repository", name, outside)
		}
	}
}
