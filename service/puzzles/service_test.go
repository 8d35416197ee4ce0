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
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
)

func sampleCSV(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(samplePath))
	if err != nil {
		t.Fatalf("the lichess sample is part of the repository: %v", err)
	}
	return b
}

func openDB(t testing.TB) *storage.DB {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "gambit.db"), &storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
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
	db    *storage.DB
	clock *timers.ManualClock
	post  *recPoster
	svc   *Service
	seed  uint64
}

func newFixture(t *testing.T, csv []byte) *fixture {
	f := &fixture{t: t, db: openDB(t), clock: timers.NewManualClock(day0), post: &recPoster{}}
	if csv != nil {
		if _, err := Import(f.db, bytes.NewReader(csv), ImportOptions{Now: day0}); err != nil {
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
	gs, err := f.db.GuildSettings(guild)
	if err != nil {
		f.t.Fatal(err)
	}
	ps.Since = f.clock.Now()
	gs.Puzzle = ps
	if err := f.db.SetGuildSettings(gs); err != nil {
		f.t.Fatal(err)
	}
	f.svc.SettingsChanged(guild)
}

var ctx = context.Background()

// quiet discards the service's logs.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestImportSampleAndExportRoundTrip(t *testing.T) {
	csv := sampleCSV(t)
	db := openDB(t)
	st, err := Import(db, bytes.NewReader(csv), ImportOptions{Now: day0})
	if err != nil {
		t.Fatal(err)
	}
	if st.Imported != 20 || st.Skipped != 0 || st.Errors != 0 {
		t.Fatalf("sample import %+v, want 20 imported", st)
	}
	st, err = Import(db, bytes.NewReader(csv), ImportOptions{Now: day0})
	if err != nil || st.Imported != 0 || st.Skipped != 20 {
		t.Errorf("second import %+v, %v: want all 20 skipped (already stored)", st, err)
	}
	var out bytes.Buffer
	n, err := Export(db, &out)
	if err != nil || n != 20 {
		t.Fatalf("export %d, %v", n, err)
	}
	// The export reads back as the same puzzles.
	db2 := openDB(t)
	if st, err := Import(db2, bytes.NewReader(out.Bytes()), ImportOptions{Now: day0}); err != nil || st.Imported != 20 {
		t.Fatalf("re-import of the export %+v, %v", st, err)
	}
	var a, b []string
	db.EachPuzzle(func(p *storage.Puzzle) error { a = append(a, fmt.Sprint(FromStore(p))); return nil })
	db2.EachPuzzle(func(p *storage.Puzzle) error { b = append(b, fmt.Sprint(FromStore(p))); return nil })
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("export does not round-trip:\n%s\n---\n%s", a, b)
	}
	if !strings.HasPrefix(out.String(), strings.Join(CSVColumns, ",")+"\n") {
		t.Errorf("export header: %q", out.String()[:80])
	}
}

func TestImportFilters(t *testing.T) {
	csv := sampleCSV(t)
	cases := []struct{ f Filter }{
		{Filter{MinRating: 900}},
		{Filter{MaxRating: 700}},
		{Filter{Themes: []string{"mateIn2"}}},
		{Filter{Limit: 5}},
		{Filter{Themes: []string{"mateIn2", "endgame"}, MaxRating: 1000}},
	}
	for _, c := range cases {
		db := openDB(t)
		st, err := Import(db, bytes.NewReader(csv), ImportOptions{Filter: c.f, Now: day0})
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		db.EachPuzzle(func(p *storage.Puzzle) error {
			kept++
			if !c.f.Keep(FromStore(p)) {
				t.Errorf("%+v kept %s rated %d %v", c.f, p.ID, p.Rating, p.Themes)
			}
			return nil
		})
		if kept != st.Imported || (c.f.Limit > 0 && kept != c.f.Limit) || kept == 0 {
			t.Errorf("%+v: %+v, %d stored", c.f, st, kept)
		}
	}
}

// brokenCSV writes n rows in the lichess layout: a mate in one, with every hundredth
// row broken (an illegal move) and every 97th unreadable (a rating that is no number).
func brokenCSV(n int) (csv []byte, bad, unreadable int) {
	var b bytes.Buffer
	b.WriteString("PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n")
	for i := range n {
		moves, rating := "g8h8 d1d8", strconv.Itoa(600+i%2000)
		switch {
		case i%100 == 99:
			moves = "g8h8 d1d9"
			bad++
		case i%97 == 96:
			rating = "high"
			unreadable++
		}
		fmt.Fprintf(&b, "s%07d,6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1,%s,%s,80,90,%d,backRankMate mate mateIn1 oneMove,,\n", i, moves, rating, i%500)
	}
	return b.Bytes(), bad, unreadable
}

func TestImportCountsBrokenRows(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 5000
	}
	csv, bad, unreadable := brokenCSV(n)
	db := openDB(t)
	st, err := Import(db, bytes.NewReader(csv), ImportOptions{Filter: Filter{MinRating: 700}, Now: day0})
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := db.CountPuzzles()
	if st.Rows != n || st.Errors != bad+unreadable || stored != st.Imported || st.Imported+st.Skipped+st.Errors != n || st.Skipped < n/25 {
		t.Errorf("%d rows (%d bad, %d unreadable): %+v, %d stored", n, bad, unreadable, st, stored)
	}
	if p, err := db.Puzzle("s0000099"); err == nil {
		t.Errorf("the row with an illegal move was stored: %+v", p)
	}
}

// TestImportLargeSyntheticIntoStore streams a large CSV (made as it is read, never held
// in memory) into a store.
func TestImportLargeSyntheticIntoStore(t *testing.T) {
	n := 100_000
	if testing.Short() || raceEnabled {
		n = 10_000
	}
	db := openDB(t)
	st, err := Import(db, newSynthetic(t, n), ImportOptions{Now: day0})
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := db.CountPuzzles()
	if st.Rows != n || st.Imported != n || st.Errors != 0 || stored != n {
		t.Errorf("%d rows: %+v, %d stored", n, st, stored)
	}
}

// BenchmarkImportStore measures `gambit puzzles import`'s work: streaming a synthetic
// CSV of 100,000 rows (the sample's rows with fresh ids) into a store with fsync, in
// rows per second.
func BenchmarkImportStore(b *testing.B) {
	const n = 100_000
	var rows int
	for range b.N {
		b.StopTimer()
		db, err := storage.Open(filepath.Join(b.TempDir(), "gambit.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		st, err := Import(db, newSynthetic(b, n), ImportOptions{Now: day0})
		if err != nil {
			b.Fatal(err)
		}
		rows += st.Rows
		b.StopTimer()
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

func TestSolveFlowRatingsAndPractice(t *testing.T) {
	f := newFixture(t, sampleCSV(t))
	// 005YX: a two-move line (f7e6, then g7h8 after the reply c6b7).
	sp0, _ := f.db.Puzzle("005YX")
	plays0 := sp0.Plays
	pr, err := f.svc.Start(ctx, "g1", "alice", "Alice", "005YX")
	if err != nil {
		t.Fatal(err)
	}
	if pr.Step() != 0 || pr.Done || pr.LastMove.UCI() != "c7e6" || pr.Position.Turn() != pr.Line.Solver {
		t.Fatalf("start %+v", pr)
	}
	if _, err := f.svc.Solve(ctx, SolveRequest{RequestID: "r0", Guild: "g1", User: "alice", Move: "Ke2"}); !errors.Is(err, ErrBadMove) {
		t.Errorf("an illegal move: %v, want ErrBadMove", err)
	}
	a, err := f.svc.Solve(ctx, SolveRequest{RequestID: "r1", Guild: "g1", User: "alice", Name: "Alice", Move: "f7e6"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Verdict != Correct || a.Reply != "Qb7+" || a.Step() != 1 || a.Rated {
		t.Fatalf("first move: %+v", a)
	}
	// Wrong at the second step: the rated try is lost.
	var wrong string
	pos := a.Position
	var ml cc.MoveList
	pos.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if m.UCI() != "g7h8" {
			after := pos.Play(m)
			if !(after.InCheck() && !after.HasLegalMove()) {
				wrong = m.UCI()
				break
			}
		}
	}
	a, err = f.svc.Solve(ctx, SolveRequest{RequestID: "r2", Guild: "g1", User: "alice", Move: wrong})
	if err != nil {
		t.Fatal(err)
	}
	if a.Verdict != Wrong || !a.Rated || a.RatingAfter >= a.RatingBefore || a.Step() != 1 {
		t.Fatalf("wrong move: %+v", a)
	}
	lost := a.RatingAfter
	// The same request again is answered from the record: nothing moves.
	again, err := f.svc.Solve(ctx, SolveRequest{RequestID: "r2", Guild: "g1", User: "alice", Move: wrong})
	if err != nil || !again.Replayed || again.Verdict != Wrong || again.Player.Rating != lost || again.Attempt.Misses != 1 {
		t.Errorf("replayed request: %+v, %v", again, err)
	}
	// Practice: the right move now solves it, without rating.
	a, err = f.svc.Solve(ctx, SolveRequest{RequestID: "r3", Guild: "g1", User: "alice", Move: "g7h8"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Verdict != Solved || a.Rated || !a.Practice || a.Player.Rating != lost || a.Player.Solved != 0 || a.Player.Rated != 1 || !a.Done {
		t.Errorf("practice solve: %+v (player %+v)", a, a.Player)
	}
	// Bob solves it cleanly: a win against a 1964 puzzle lifts him well above 1500.
	for i, mv := range []string{"f7e6", "g7h8"} {
		a, err = f.svc.Solve(ctx, SolveRequest{RequestID: fmt.Sprint("b", i), Guild: "g1", User: "bob", PuzzleID: "005YX", Move: mv})
		if err != nil {
			t.Fatalf("bob %s: %v", mv, err)
		}
	}
	if a.Verdict != Solved || !a.Rated || a.Player.Rating < 1600 || a.Player.Solved != 1 {
		t.Errorf("bob's solve: %+v (player %+v)", a, a.Player)
	}
	sp, _ := f.db.Puzzle("005YX")
	if sp.Rating == 1964 || sp.Plays != plays0+2 {
		t.Errorf("the puzzle's rating did not move with two rated attempts: %+v", sp)
	}
	// The same puzzle in another guild is a fresh, rated attempt there.
	a, err = f.svc.Solve(ctx, SolveRequest{RequestID: "c1", Guild: "g2", User: "alice", PuzzleID: "005YX", Move: "f7e6"})
	if err != nil || a.Practice || a.Player.Rating != StartRating {
		t.Errorf("other guild: %+v, %v", a, err)
	}
	st, err := f.svc.Stats(ctx, "g1", "bob")
	if err != nil || st.Rank != 1 || st.Of != 2 {
		t.Errorf("bob's stats %+v, %v", st, err)
	}
	lb, err := f.svc.Leaderboard(ctx, "g1", 10)
	if err != nil || len(lb) != 2 || lb[0].UserID != "bob" || lb[1].UserID != "alice" {
		t.Errorf("leaderboard %+v, %v", lb, err)
	}
}

func TestSolveAcceptsAnyMate(t *testing.T) {
	f := newFixture(t, nil)
	if _, err := f.db.AddPuzzles([]*storage.Puzzle{{ID: "two-mates", FEN: "6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1",
		Moves: []string{"g8h8", "d1d8"}, Rating: 800, RD: 80, Source: "test"}}); err != nil {
		t.Fatal(err)
	}
	for user, mv := range map[string]string{"u1": "Rd8#", "u2": "a1a8", "u3": "Rd7"} {
		a, err := f.svc.Solve(ctx, SolveRequest{RequestID: user, Guild: "g1", User: user, PuzzleID: "two-mates", Move: mv})
		if err != nil {
			t.Fatal(err)
		}
		want := Solved
		if mv == "Rd7" {
			want = Wrong
		}
		if a.Verdict != want {
			t.Errorf("%s: %v, want %v", mv, a.Verdict, want)
		}
	}
}

func TestHintCountsAsAMiss(t *testing.T) {
	f := newFixture(t, sampleCSV(t))
	h, err := f.svc.Hint(ctx, "g1", "alice", "Alice", "000rZ")
	if err != nil {
		t.Fatal(err)
	}
	if h.From != cc.D6 || !h.Rated || h.RatingAfter >= h.RatingBefore {
		t.Errorf("hint %+v", h)
	}
	a, err := f.svc.Solve(ctx, SolveRequest{RequestID: "x", Guild: "g1", User: "alice", Move: "Qh2#"})
	if err != nil || a.Verdict != Solved || a.Rated || a.Player.Solved != 0 {
		t.Errorf("solve after a hint: %+v, %v", a, err)
	}
}

func TestDayAt(t *testing.T) {
	paris := storage.PuzzleSettings{Time: "09:00", Zone: "Europe/Paris"}
	cases := []struct {
		ps       storage.PuzzleSettings
		t        time.Time
		date     string
		nextUTC  string
		eligible bool
	}{
		{storage.PuzzleSettings{Time: "09:00"}, day0, "2026-02-28", "2026-03-01T09:00:00Z", true},
		{storage.PuzzleSettings{Time: "09:00"}, day0.Add(time.Hour), "2026-03-01", "2026-03-02T09:00:00Z", true},
		{storage.PuzzleSettings{}, day0, "2026-03-01", "2026-03-02T00:00:00Z", true},
		{paris, day0, "2026-03-01", "2026-03-02T08:00:00Z", true},
		// Paris moves to summer time on 29 March 2026: 09:00 is 07:00 UTC from then.
		{paris, time.Date(2026, 3, 28, 12, 0, 0, 0, time.UTC), "2026-03-28", "2026-03-29T07:00:00Z", true},
		{storage.PuzzleSettings{Time: "23:30", Zone: "America/New_York"}, day0, "2026-02-28", "2026-03-02T04:30:00Z", true},
	}
	for _, c := range cases {
		date, next, err := DayAt(c.ps, c.t)
		if err != nil || date != c.date || next.UTC().Format(time.RFC3339) != c.nextUTC {
			t.Errorf("%+v at %v: %s, next %v, %v; want %s, %s", c.ps, c.t, date, next.UTC(), err, c.date, c.nextUTC)
		}
	}
	ps := storage.PuzzleSettings{Time: "09:00", Since: day0}
	if eligible(ps, "2026-02-28") || !eligible(ps, "2026-03-01") {
		t.Error("a day before the post was set up is eligible, or the first day is not")
	}
}

func TestDailyPostOncePerDayAcrossRestarts(t *testing.T) {
	f := newFixture(t, sampleCSV(t))
	f.settings("g1", storage.PuzzleSettings{Channel: "c1", Time: "09:00"})
	f.svc.FireDue()
	if n := f.post.count(); n != 0 {
		t.Fatalf("%d posts at 08:00 for a 09:00 post set up at 08:00", n)
	}
	// /puzzle before the first post: a puzzle of the day all the same (silent).
	early, err := f.svc.TodayDaily(ctx, "g1")
	if err != nil || early.State != storage.DailySilent || early.Date != "2026-02-28" {
		t.Fatalf("today before the first post: %+v, %v", early, err)
	}
	if at, ok := f.svc.NextTimer(); !ok || !at.Equal(day0.Add(time.Hour)) {
		t.Fatalf("next timer %v %v, want 09:00", at, ok)
	}
	f.clock.Set(day0.Add(time.Hour))
	if n := f.svc.FireDue(); n != 1 {
		t.Fatalf("%d timers due at 09:00", n)
	}
	if f.post.count() != 1 {
		t.Fatalf("%d posts after 09:00, want 1", f.post.count())
	}
	first := f.post.last()
	if first.Day.Date != "2026-03-01" || first.Previous == nil || first.Previous.Day.Date != "2026-02-28" {
		t.Errorf("first post %+v (previous %+v)", first.Day, first.Previous)
	}
	f.svc.FireDue()
	f.start() // a restart after the post
	f.svc.FireDue()
	if f.post.count() != 1 {
		t.Fatalf("%d posts after a restart on the same day", f.post.count())
	}
	d, _ := f.db.Daily("g1", "2026-03-01")
	if d.State != storage.DailyPosted || d.MessageID != "m1" || d.ChannelID != "c1" {
		t.Errorf("day record %+v", d)
	}
	// Alice solves today's puzzle: she is a solver in tomorrow's recap.
	today, err := f.svc.Today(ctx, "g1", "alice", "Alice")
	if err != nil || today.Daily != "2026-03-01" {
		t.Fatalf("today %+v, %v", today, err)
	}
	solveLine(t, f.svc, "g1", "alice", "Alice", today)

	// Down from 08:00 to 15:00 on the next day: the missed post is made when it comes
	// back, once.
	f.svc.Close()
	f.clock.Set(day0.Add(31 * time.Hour))
	f.start()
	f.svc.FireDue()
	f.svc.FireDue()
	if f.post.count() != 2 {
		t.Fatalf("%d posts after coming back past the posting time, want 2", f.post.count())
	}
	second := f.post.last()
	if second.Day.Date != "2026-03-02" || second.Previous == nil || second.Previous.Day.Date != "2026-03-01" ||
		len(second.Previous.Day.Solvers) != 1 || second.Previous.Day.Solvers[0].Name != "Alice" || !second.Previous.Day.Solvers[0].Clean {
		t.Errorf("second post: %+v, previous %+v", second.Day, second.Previous)
	}
	if second.Puzzle.ID == first.Puzzle.ID {
		t.Error("the same puzzle two days running")
	}

	// A crash between the commit and the post: the day is planned, the post failed.
	f.post.fail = true
	f.clock.Set(day0.Add(49 * time.Hour)) // day 3, 09:00
	f.svc.FireDue()
	d, _ = f.db.Daily("g1", "2026-03-03")
	if d == nil || d.State != storage.DailyPlanned {
		t.Fatalf("day 3 after a failed post: %+v", d)
	}
	f.svc.Close()
	f.post.fail = false
	f.start()
	f.svc.FireDue()
	f.svc.FireDue()
	if f.post.count() != 3 || f.post.last().Day.Date != "2026-03-03" || f.post.last().Day.PuzzleID != d.PuzzleID {
		t.Fatalf("after the restart: %d posts, last %+v; want day 3's planned puzzle posted once", f.post.count(), f.post.last().Day)
	}

	// Down for three days: one post, today's; the days in between are not made up.
	f.svc.Close()
	f.clock.Set(day0.Add((6*24 + 3) * time.Hour)) // day 7, 11:00
	f.start()
	f.svc.FireDue()
	if f.post.count() != 4 || f.post.last().Day.Date != "2026-03-07" || f.post.last().Previous.Day.Date != "2026-03-03" {
		t.Errorf("after three days down: %d posts, last %+v", f.post.count(), f.post.last().Day)
	}
	// Retry of a failed post: a minute later, then it works.
	f.post.fail = true
	f.clock.Set(day0.Add((7*24 + 1) * time.Hour)) // day 8, 09:00
	f.svc.FireDue()
	f.post.fail = false
	f.clock.Advance(time.Minute)
	if n := f.svc.FireDue(); n != 1 || f.post.count() != 5 {
		t.Errorf("retry after a minute: %d timers, %d posts", n, f.post.count())
	}
}

// solveLine plays the whole solution of the member's current puzzle.
func solveLine(t *testing.T, svc *Service, guild, user, name string, pr *Progress) *Answer {
	t.Helper()
	var a *Answer
	for k := pr.Step(); k < pr.Line.Steps(); k++ {
		var err error
		a, err = svc.Solve(ctx, SolveRequest{RequestID: fmt.Sprintf("%s-%s-%s-%d", guild, user, pr.Puzzle.ID, k), Guild: guild, User: user, Name: name,
			Move: pr.Line.Moves[1+2*k].UCI()})
		if err != nil {
			t.Fatal(err)
		}
	}
	if a.Verdict != Solved {
		t.Fatalf("the solution did not solve %s: %+v", pr.Puzzle.ID, a)
	}
	return a
}

func TestStreaks(t *testing.T) {
	f := newFixture(t, sampleCSV(t))
	day := func(n int) { f.clock.Set(day0.Add(time.Duration(n)*24*time.Hour + 2*time.Hour)) }
	solveToday := func() *Answer {
		pr, err := f.svc.Today(ctx, "g1", "alice", "Alice")
		if err != nil {
			t.Fatal(err)
		}
		return solveLine(t, f.svc, "g1", "alice", "Alice", pr)
	}
	for n, want := range []int{1, 2, 3} {
		day(n)
		if a := solveToday(); a.Streak != want {
			t.Errorf("day %d: streak %d, want %d", n, a.Streak, want)
		}
	}
	day(4) // alice skips day 4
	if _, err := f.svc.TodayDaily(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	day(5)
	if st, _ := f.svc.Stats(ctx, "g1", "alice"); st.Streak != 0 || st.Best != 3 {
		t.Errorf("after a missed day: streak %d best %d, want 0 and 3", st.Streak, st.Best)
	}
	if a := solveToday(); a.Streak != 1 {
		t.Errorf("after a missed day, streak %d, want 1", a.Streak)
	}
	// Solving an old daily later is practice for the streak.
	st, _ := f.svc.Stats(ctx, "g1", "alice")
	if st.Streak != 1 || st.Solved != 4 {
		t.Errorf("stats %+v", st)
	}
}

func TestNoRepeatWithinAGuild(t *testing.T) {
	f := newFixture(t, nil)
	var batch []*storage.Puzzle
	for i := range 400 {
		batch = append(batch, &storage.Puzzle{ID: fmt.Sprintf("n%03d", i), FEN: "6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1",
			Moves: []string{"g8h8", "d1d8"}, Rating: 800 + i*3, RD: 80, Source: "test"})
	}
	if _, err := f.db.AddPuzzles(batch); err != nil {
		t.Fatal(err)
	}
	f.settings("g1", storage.PuzzleSettings{Channel: "c1", Time: "07:00", MinRating: 1000, MaxRating: 1600})
	seen := map[string]int{}
	for n := range 365 {
		f.clock.Set(day0.Add(time.Duration(n) * 24 * time.Hour))
		f.svc.FireDue()
	}
	if f.post.count() != 365 {
		t.Fatalf("%d posts in 365 days", f.post.count())
	}
	inRange := 0
	for i, p := range f.post.posts {
		if d := seen[p.Puzzle.ID]; d != 0 {
			t.Fatalf("day %d repeats the puzzle of day %d", i+1, d)
		}
		seen[p.Puzzle.ID] = i + 1
		if p.Puzzle.Rating >= 1000 && p.Puzzle.Rating <= 1600 {
			inRange++
		}
	}
	// 200 puzzles are in range; after them the service goes outside the range rather
	// than repeat.
	if inRange != 200 {
		t.Errorf("%d of the 365 days were in the rating range, want all 200 such puzzles used first", inRange)
	}
}

func TestMinedPuzzlesStayInTheirGuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine")
	}
	f := newFixture(t, nil)
	g := playSAN(t, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3#")
	rec := &storage.Game{ID: 42, GuildID: "g1", White: storage.Player{ID: "111", Name: "alice"}, Black: storage.Player{ID: "222", Name: "bob"},
		Moves: g.Moves(), Ended: day0.Add(-8 * 24 * time.Hour), Outcome: g.Outcome()}
	n, err := f.svc.MineGame(rec)
	if err != nil || n == 0 {
		t.Fatalf("mined %d, %v", n, err)
	}
	var id string
	f.db.EachPuzzle(func(p *storage.Puzzle) error {
		id = p.ID
		if p.Source != "game:g1:42" || p.Description != "<@111> vs <@222>" || !p.Played.Equal(rec.Ended) || !strings.HasPrefix(p.ID, "gm42-") {
			t.Errorf("mined puzzle %+v", p)
		}
		return nil
	})
	if _, err := f.svc.Start(ctx, "g2", "carol", "", id); !errors.Is(err, ErrNoSuchPuzzle) {
		t.Errorf("another guild sees g1's puzzle: %v", err)
	}
	pr, err := f.svc.Start(ctx, "g1", "alice", "", id)
	if err != nil {
		t.Fatal(err)
	}
	if got := Ago(pr.Puzzle.Played, day0); got != "last week" {
		t.Errorf("Ago = %q", got)
	}
	// The guild's own puzzles come first for its daily.
	d, err := f.svc.TodayDaily(ctx, "g1")
	if err != nil || !strings.HasPrefix(d.PuzzleID, "gm42-") {
		t.Errorf("g1's daily %+v, %v; want its own puzzle", d, err)
	}
	if _, err := f.svc.TodayDaily(ctx, "g2"); !errors.Is(err, ErrNoPuzzles) {
		t.Errorf("g2's daily from a store holding only g1's puzzles: %v", err)
	}
	// GameOver mines in the background; Close waits for the miner.
	svc, err := New(f.db, Options{Clock: f.clock, NoStarter: true, Mine: MineOptions{MinPlies: 4}, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	rec2 := rec.Clone()
	rec2.ID = 43
	svc.GameOver(rec2)
	deadline := time.Now().Add(60 * time.Second)
	for {
		found := false
		f.db.EachPuzzle(func(p *storage.Puzzle) error {
			found = found || strings.HasPrefix(p.ID, "gm43-")
			return nil
		})
		if found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("game 43 was not mined in the background")
		}
		time.Sleep(20 * time.Millisecond)
	}
	svc.Close()
}

func TestSolutionSAN(t *testing.T) {
	p := Puzzle{ID: "x", FEN: "6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1", Moves: []string{"g8h8", "d1d8"}}
	l, err := p.Validate()
	if err != nil {
		t.Fatal(err)
	}
	if got := SolutionSAN(l); got != "2. Rd8#" {
		t.Errorf("SolutionSAN = %q", got)
	}
	// Black solves: the numbering starts with Black's move.
	p = Puzzle{ID: "y", FEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", Moves: []string{"f1c4", "f8c5", "c2c3", "g8f6"}}
	if l, err = p.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := SolutionSAN(l); got != "3... Bc5 4. c3 Nf6" {
		t.Errorf("SolutionSAN = %q", got)
	}
}

func FuzzDecodeAnswer(f *testing.F) {
	f.Add(encodeAnswer(&Answer{Verdict: Solved, Played: "Qxf7#", Rated: true, RatingBefore: 1500, RatingAfter: 1531.25, Streak: 3}))
	f.Add(encodeAnswer(&Answer{Verdict: Correct, Played: "Nf3", Reply: "exd5", Practice: true}))
	f.Add("")
	f.Add("9|a|b|c|d|e|f|g")
	f.Fuzz(func(t *testing.T, s string) {
		a := decodeAnswer(s)
		again := decodeAnswer(encodeAnswer(a))
		if again.Verdict != a.Verdict || again.Played != a.Played && !strings.Contains(a.Played, "|") || again.Streak != a.Streak || again.Rated != a.Rated {
			t.Fatalf("%q: %+v then %+v", s, a, again)
		}
	})
}

func TestStarterSetLoadsIntoAnEmptyStore(t *testing.T) {
	db := openDB(t)
	for range 2 { // the second start finds puzzles and loads nothing
		svc, err := New(db, Options{Logger: quiet, Mine: MineOptions{Off: true}})
		if err != nil {
			t.Fatal(err)
		}
		svc.Close()
	}
	n, _ := db.CountPuzzles()
	if want := len(starterSet(t)); n != want {
		t.Errorf("%d puzzles after two starts, want the %d of the starter set", n, want)
	}
	db.EachPuzzle(func(p *storage.Puzzle) error {
		if p.Source != "starter" {
			t.Errorf("%s: source %q", p.ID, p.Source)
		}
		return nil
	})
	// A store that has puzzles gets none of the starter set.
	other := openDB(t)
	other.AddPuzzles([]*storage.Puzzle{{ID: "x", FEN: "6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1", Moves: []string{"g8h8", "d1d8"}, Rating: 900}})
	svc, err := New(other, Options{Logger: quiet, Mine: MineOptions{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	svc.Close()
	if n, _ := other.CountPuzzles(); n != 1 {
		t.Errorf("%d puzzles in a store that had one", n)
	}
}
