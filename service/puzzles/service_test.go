package puzzles

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/puzzle/puzzletest"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// samplePath is the lichess sample at the repository root: part of the repository, so
// a test that cannot open it fails.
const samplePath = "../../testdata/lichess-puzzles-sample.csv"

func sampleCSV(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(samplePath))
	if err != nil {
		t.Fatalf("the lichess sample is part of the repository: %v", err)
	}
	return b
}

// synthetic streams n rows made from the sample's (puzzletest.Repeat).
func synthetic(t testing.TB, n int) io.Reader {
	t.Helper()
	return puzzletest.Repeat(sampleCSV(t), n)
}

// playSAN plays a game given in SAN (move numbers are skipped).
func playSAN(t *testing.T, sans string) *cc.Game {
	t.Helper()
	g := cc.NewGame(cc.StartPosition(), dead.Decider{})
	for _, s := range strings.Fields(sans) {
		if strings.HasSuffix(s, ".") {
			continue
		}
		if _, err := g.PlaySAN(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return g
}

// day0 is 08:00 UTC on the first day of every test.
var day0 = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)

// recPoster records the daily posts and fails while fail is set.
type recPoster struct {
	mu    sync.Mutex
	posts []*DailyPost
	fail  bool
	n     int
}

func (p *recPoster) PostDaily(_ context.Context, post *DailyPost) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.fail {
		return "", errors.New("discord is down")
	}
	p.n++
	p.posts = append(p.posts, post)
	return fmt.Sprintf("m%d", p.n), nil
}

func (p *recPoster) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.posts)
}

func (p *recPoster) last() *DailyPost {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.posts[len(p.posts)-1]
}

type fixture struct {
	t     *testing.T
	db    *bolt.DB
	clock *timers.ManualClock
	post  *recPoster
	svc   *Service
	seed  uint64
}

func newFixture(t *testing.T, csv []byte) *fixture {
	f := &fixture{t: t, db: storagetest.Open(t), clock: timers.NewManualClock(day0), post: &recPoster{}}
	if csv != nil {
		if _, err := Import(ctx, f.db, bytes.NewReader(csv), ImportOptions{Now: day0}); err != nil {
			t.Fatal(err)
		}
	}
	f.start()
	return f
}

// start (re)starts the service on the fixture's store, as a restart of the bot would.
func (f *fixture) start() {
	f.t.Helper()
	if f.svc != nil {
		f.svc.Close()
	}
	svc, err := New(f.db, Options{Clock: f.clock, Poster: f.post, NoStarter: true, Mine: MineOptions{Off: true}, Logger: quiet,
		Rand: func() uint64 { f.seed += 0x9E3779B97F4A7C15; return f.seed }})
	if err != nil {
		f.t.Fatal(err)
	}
	f.svc = svc
	f.t.Cleanup(func() { svc.Close() })
}

func (f *fixture) settings(guild string, ps storage.PuzzleSettings) {
	f.t.Helper()
	gs, err := storage.Read(ctx, f.db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings(guild) })
	if err != nil {
		f.t.Fatal(err)
	}
	ps.Since = f.clock.Now()
	gs.Puzzle = ps
	if err := f.db.Update(ctx, func(tx storage.Tx) error { return tx.PutGuildSettings(gs) }); err != nil {
		f.t.Fatal(err)
	}
	f.svc.SettingsChanged(guild)
}

var ctx = context.Background()

// quiet discards the service's logs.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))
