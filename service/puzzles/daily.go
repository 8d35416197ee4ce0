// daily.go: the puzzle of the day: each guild's day (in its time zone, changing at its
// posting time), the choice of the day's puzzle, and the post, made once per day.
//
// # Once per day, across restarts
//
// A guild that has a channel for the puzzle gets one timer (in the service's scheduler)
// at its next posting time. When it fires, the service works out the guild's day (the
// latest date whose posting time has passed, in the guild's zone) and, in one
// transaction, finds that day's record or creates it: the day's puzzle is chosen (never
// one the guild had before), and the record is stored as planned. Only then is the post
// made, and its message id is stored with the state posted. A planned day is posted when
// its timer fires again: after a failed post (retried with backoff) and at start-up,
// when every guild's timer is due at once, so a post missed while the bot was down (or
// interrupted between the commit and the post) is made when it comes back. A posted day
// is never posted again, and only the latest day is posted: a bot that was down for
// three days posts today's puzzle once, not three. A planned day that a later one
// replaced before its post was made is abandoned.
//
// The one window left: a crash after Discord accepted the post but before the message
// id was committed posts that day again at restart (Discord's API offers no idempotency
// key for channel messages). It is the length of one local commit.
//
// A day is posted only if it began after the daily post was set up (Settings.Since), so
// enabling the post at 08:00 for a 09:00 post does not post yesterday's first.

package puzzles

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // guild time zones work without the system's zone database

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
)

// Poster posts a guild's puzzle of the day (package commands implements it over
// Discord). PostDaily returns the message's id; an error leaves the day planned, to be
// posted again later.
type Poster interface {
	PostDaily(ctx context.Context, post *DailyPost) (messageID string, err error)
}

// DailyPost is what one day's post shows: the day's puzzle and, when there was one,
// the previous day's solution and solvers.
type DailyPost struct {
	Day      *storage.Daily
	Puzzle   *Puzzle
	Line     Line
	Settings storage.PuzzleSettings
	Previous *Recap
	// Now is when the post is made (for "last week" in a description).
	Now time.Time
}

// Recap is a past day with its puzzle.
type Recap struct {
	Day    *storage.Daily
	Puzzle *Puzzle
	Line   Line
}

// kindDaily is the timer kind of a guild's daily post.
const kindDaily timers.Kind = 1

// Retry delays of a failed post: doubling from a minute up to an hour.
const (
	firstRetry = time.Minute
	maxRetry   = time.Hour
)

// dailyState maps guilds to timer keys and counts failed posts.
type dailyState struct {
	mu      sync.Mutex
	ids     map[string]uint64
	guilds  map[uint64]string
	retries map[string]int
	wg      sync.WaitGroup
}

func (d *dailyState) init() {
	d.ids, d.guilds, d.retries = map[string]uint64{}, map[uint64]string{}, map[string]int{}
}

func (d *dailyState) key(guild string) timers.Key {
	d.mu.Lock()
	defer d.mu.Unlock()
	id, ok := d.ids[guild]
	if !ok {
		id = uint64(len(d.ids) + 1)
		d.ids[guild], d.guilds[id] = id, guild
	}
	return timers.Key{Kind: kindDaily, ID: id}
}

func (d *dailyState) guild(id uint64) (string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	g, ok := d.guilds[id]
	return g, ok
}

// failed counts a failed post and returns the delay before the next try.
func (d *dailyState) failed(guild string) time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := d.retries[guild]
	d.retries[guild] = n + 1
	delay := firstRetry << min(n, 10)
	return min(delay, maxRetry)
}

func (d *dailyState) ok(guild string) {
	d.mu.Lock()
	delete(d.retries, guild)
	d.mu.Unlock()
}

// DayAt returns a guild's puzzle day at instant t: the latest date whose posting time
// (Settings.Time in Settings.Zone) is at or before t, and the next posting time after
// t.
func DayAt(ps storage.PuzzleSettings, t time.Time) (date string, next time.Time, err error) {
	loc, err := ps.Location()
	if err != nil {
		return "", time.Time{}, err
	}
	minutes, err := storage.ParseTimeOfDay(ps.Time)
	if err != nil {
		return "", time.Time{}, err
	}
	h, m := minutes/60, minutes%60
	y, mo, d := t.In(loc).Date()
	at := time.Date(y, mo, d, h, m, 0, 0, loc)
	if at.After(t) {
		at = time.Date(y, mo, d-1, h, m, 0, 0, loc)
	}
	ay, amo, ad := at.Date()
	return at.Format(time.DateOnly), time.Date(ay, amo, ad+1, h, m, 0, 0, loc), nil
}

// eligible reports whether a day may be posted: it is the day the post was set up or a
// later one.
func eligible(ps storage.PuzzleSettings, date string) bool {
	if ps.Since.IsZero() {
		return true
	}
	loc, err := ps.Location()
	if err != nil {
		return false
	}
	return date >= ps.Since.In(loc).Format(time.DateOnly)
}

// restoreDaily schedules every guild with a daily post for now: the timer decides
// whether a post is due.
func (s *Service) restoreDaily() error {
	gs, err := s.db.PuzzleGuilds()
	if err != nil {
		return fmt.Errorf("start puzzle service: %w", err)
	}
	now := s.clock.Now()
	for _, g := range gs {
		s.sched.Set(s.daily.key(g.GuildID), now)
	}
	return nil
}

// SettingsChanged takes a guild's new puzzle settings into account: its daily post is
// rescheduled (and made now if today's is due and not made yet).
func (s *Service) SettingsChanged(guild string) {
	s.daily.ok(guild)
	s.sched.Set(s.daily.key(guild), s.clock.Now())
}

// Run fires the daily posts as they come due, until ctx is done. Posts are made on
// their own goroutines, so a slow post never delays another guild's.
func (s *Service) Run(ctx context.Context) error {
	err := s.sched.Run(ctx, s.clock, func(e timers.Entry) {
		s.daily.wg.Add(1)
		go func() {
			defer s.daily.wg.Done()
			s.onTimer(e)
		}()
	})
	s.daily.wg.Wait()
	return err
}

// FireDue handles, on the caller's goroutine, every timer due at the clock's present
// time and returns how many there were. Tests drive the service with a manual clock
// and FireDue instead of Run.
func (s *Service) FireDue() int {
	due := s.sched.PopDue(s.clock.Now(), nil)
	for _, e := range due {
		s.onTimer(e)
	}
	return len(due)
}

// NextTimer returns the earliest timer's instant, if any (for tests and logs).
func (s *Service) NextTimer() (time.Time, bool) {
	e, ok := s.sched.Next()
	return e.At, ok
}

func (s *Service) onTimer(e timers.Entry) {
	if e.Key.Kind != kindDaily {
		return
	}
	guild, ok := s.daily.guild(e.Key.ID)
	if !ok {
		return
	}
	done, err := s.enter(context.Background())
	if err != nil {
		return
	}
	defer done()
	next, err := s.runDaily(s.ctx, guild)
	if err != nil {
		delay := s.daily.failed(guild)
		s.log.Error("puzzles: daily post", "guild", guild, "retry_in", delay, "err", err)
		s.sched.Set(e.Key, s.clock.Now().Add(delay))
		return
	}
	s.daily.ok(guild)
	if next.IsZero() {
		s.sched.Cancel(e.Key)
		return
	}
	s.sched.Set(e.Key, next)
}

// runDaily makes the guild's post of the day if it is due and not made, and returns
// the next posting time (zero when the guild has no daily post).
func (s *Service) runDaily(ctx context.Context, guild string) (time.Time, error) {
	gs, err := s.db.GuildSettings(guild)
	if err != nil {
		return time.Time{}, err
	}
	ps := gs.Puzzle
	if ps.Channel == "" {
		return time.Time{}, nil
	}
	date, next, err := DayAt(ps, s.clock.Now())
	if err != nil {
		return time.Time{}, fmt.Errorf("guild %s: %w", guild, err)
	}
	if !eligible(ps, date) {
		return next, nil
	}
	return next, s.postDay(ctx, guild, ps, date)
}

// postDay plans the day (if not yet) and makes its post (if not yet).
func (s *Service) postDay(ctx context.Context, guild string, ps storage.PuzzleSettings, date string) error {
	unlock := s.lock(guild, "")
	defer unlock()
	d, err := s.planDay(guild, ps, date, storage.DailyPlanned)
	if err != nil {
		return err
	}
	if d.State != storage.DailyPlanned || s.opts.Poster == nil {
		return nil
	}
	post, err := s.dailyPost(ctx, d, ps)
	if err != nil {
		return err
	}
	msg, err := s.opts.Poster.PostDaily(ctx, post)
	if err != nil {
		return fmt.Errorf("post the puzzle of %s (%s) in channel %s: %w", date, d.PuzzleID, ps.Channel, err)
	}
	now := s.clock.Now()
	err = s.db.UpdatePuzzles(func(w *storage.Writer) error {
		d, err := w.Daily(guild, date)
		if err != nil {
			return err
		}
		if d.State == storage.DailyPosted {
			return nil
		}
		d.State, d.MessageID, d.Posted, d.ChannelID = storage.DailyPosted, msg, now, ps.Channel
		return w.PutDaily(d)
	})
	if err != nil {
		return fmt.Errorf("record the post of %s in guild %s (message %s): %w", date, guild, msg, err)
	}
	s.log.Info("puzzles: posted the puzzle of the day", "guild", guild, "date", date, "puzzle", d.PuzzleID, "message", msg)
	return nil
}

// dailyPost gathers what a day's post shows.
func (s *Service) dailyPost(ctx context.Context, d *storage.Daily, ps storage.PuzzleSettings) (*DailyPost, error) {
	p, l, err := s.Puzzle(ctx, d.PuzzleID)
	if err != nil {
		return nil, fmt.Errorf("the puzzle of %s in guild %s: %w", d.Date, d.GuildID, err)
	}
	post := &DailyPost{Day: d, Puzzle: p, Line: l, Settings: ps, Now: s.clock.Now()}
	if d.Prev != "" {
		pd, err := s.db.Daily(d.GuildID, d.Prev)
		if err == nil {
			if pp, pl, err := s.Puzzle(ctx, pd.PuzzleID); err == nil {
				post.Previous = &Recap{Day: pd, Puzzle: pp, Line: pl}
			}
		} else if !errors.Is(err, storage.ErrNotFound) {
			return nil, err
		}
	}
	return post, nil
}

// planDay returns the guild's record of the day, creating it (with the day's puzzle)
// in one transaction if there is none: a planned day for a post, a silent one for a
// guild without. A silent day that becomes due for a post turns planned. Older planned
// days that were never posted are abandoned.
func (s *Service) planDay(guild string, ps storage.PuzzleSettings, date string, state storage.DailyState) (*storage.Daily, error) {
	seed := s.rand()
	now := s.clock.Now()
	var out *storage.Daily
	err := s.db.UpdatePuzzles(func(w *storage.Writer) error {
		out = nil
		d, err := w.Daily(guild, date)
		if err == nil {
			if d.State == storage.DailySilent && state == storage.DailyPlanned {
				d.State, d.ChannelID = storage.DailyPlanned, ps.Channel
				if err := w.PutDaily(d); err != nil {
					return err
				}
			}
			out = d
			return nil
		}
		if !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		days, err := w.Dailies(guild)
		if err != nil {
			return err
		}
		prev := ""
		for _, old := range days {
			if old.Date >= date {
				continue
			}
			switch old.State {
			case storage.DailyPlanned:
				old.State = storage.DailyAbandoned
				if err := w.PutDaily(old); err != nil {
					return err
				}
			case storage.DailyPosted, storage.DailySilent:
				prev = old.Date
			}
		}
		p, err := pickDaily(w, guild, ps, seed)
		if err != nil {
			return err
		}
		d = &storage.Daily{GuildID: guild, Date: date, PuzzleID: p.ID, State: state, Planned: now, Prev: prev}
		if state == storage.DailyPlanned {
			d.ChannelID = ps.Channel
		}
		if err := w.PutDaily(d); err != nil {
			return err
		}
		out = d
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("plan the puzzle of %s in guild %s: %w", date, guild, err)
	}
	return out, nil
}

// pickDaily chooses a day's puzzle: one the guild never had, from its own games first,
// in its rating range; failing that, outside the range; failing that (every puzzle was
// a daily), any.
func pickDaily(w *storage.Writer, guild string, ps storage.PuzzleSettings, seed uint64) (*storage.Puzzle, error) {
	q := storage.PuzzlePick{GuildID: guild, MinRating: ps.MinRating, MaxRating: ps.MaxRating, Seed: seed, PreferOwn: true, NotDailyIn: guild}
	p, err := w.PickPuzzle(q)
	if errors.Is(err, storage.ErrNoPuzzle) {
		q.MinRating, q.MaxRating = 0, 0
		p, err = w.PickPuzzle(q)
	}
	if errors.Is(err, storage.ErrNoPuzzle) {
		q.NotDailyIn = ""
		p, err = w.PickPuzzle(q)
	}
	if errors.Is(err, storage.ErrNoPuzzle) {
		return nil, ErrNoPuzzles
	}
	return p, err
}

// TodayDaily returns the guild's puzzle of the day: the latest day (posted or about to
// be) for a guild with a daily post; for one without, the day's record, chosen by the
// first member who asks.
func (s *Service) TodayDaily(ctx context.Context, guild string) (*storage.Daily, error) {
	if guild == "" {
		return nil, ErrNotInGuild
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	gs, err := s.db.GuildSettings(guild)
	if err != nil {
		return nil, err
	}
	ps := gs.Puzzle
	date, _, err := DayAt(ps, s.clock.Now())
	if err != nil {
		return nil, err
	}
	d, err := s.db.LatestDaily(guild, date)
	if err == nil && (ps.Channel != "" || d.Date == date) {
		return d, nil
	}
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	unlock := s.lock(guild, "")
	defer unlock()
	return s.planDay(guild, ps, date, storage.DailySilent)
}

// SolutionSAN writes the solver's line in SAN with move numbers, the opponent's replies
// included: "24. Qxf7+ Kxf7 25. Ng5+" or "24... Qxf7#".
func SolutionSAN(l Line) string {
	var b strings.Builder
	pos := l.Shown
	for i, m := range l.Moves[1:] {
		num := strconv.Itoa(pos.FullmoveNumber())
		switch {
		case pos.Turn() == cc.White:
			b.WriteString(num + ". ")
		case i == 0:
			b.WriteString(num + "... ")
		}
		b.WriteString(pos.SAN(m))
		b.WriteByte(' ')
		pos = pos.Play(m)
	}
	return strings.TrimSpace(b.String())
}

// Ago says how long ago then was, in the words of a description: "today",
// "yesterday", "this week", "last week", "3 weeks ago", "last month", "in March 2025".
func Ago(then, now time.Time) string {
	d := now.Sub(then)
	days := int(d.Hours() / 24)
	switch {
	case then.IsZero():
		return ""
	case d < 0 || days == 0:
		return "today"
	case days == 1:
		return "yesterday"
	case days < 7:
		return "this week"
	case days < 14:
		return "last week"
	case days < 31:
		return fmt.Sprintf("%d weeks ago", days/7)
	case days < 62:
		return "last month"
	}
	return "in " + then.Format("January 2006")
}
