package puzzles

import (
	"fmt"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
)

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
	d, _ := storage.Read(ctx, f.db, func(tx storage.Tx) (*storage.Daily, error) { return tx.Daily("g1", "2026-03-01") })
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
	d, _ = storage.Read(ctx, f.db, func(tx storage.Tx) (*storage.Daily, error) { return tx.Daily("g1", "2026-03-03") })
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

func TestNoRepeatWithinAGuild(t *testing.T) {
	f := newFixture(t, nil)
	var batch []*storage.Puzzle
	for i := range 400 {
		batch = append(batch, &storage.Puzzle{ID: fmt.Sprintf("n%03d", i), FEN: "6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1",
			Moves: []string{"g8h8", "d1d8"}, Rating: 800 + i*3, RD: 80, Source: "test"})
	}
	if _, err := storage.Write(ctx, f.db, func(tx storage.Tx) (int, error) { return tx.AddPuzzles(batch) }); err != nil {
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
