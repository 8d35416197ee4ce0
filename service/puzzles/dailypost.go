// dailypost.go: the daily post: one per guild and day, made when its time comes, across
// restarts.
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
//
// # Once across processes
//
// Several processes on one store may each fire a guild's timer (each schedules the
// guilds it owns, Options.Owns, and those whose settings it changed). Before posting, a
// process reserves the day in the store (storage.ReserveEffect, in the transaction that
// checks the day is still planned); a process that finds the reservation held by
// another looks again when the reservation expires, by which time the day is posted.
// The post is made within the reservation's lifetime (dailyReservationTTL, 2 minutes;
// the post itself is cut off after dailyPostTimeout, 90 s). Holding the reservation
// until the post is recorded, rather than for good, is the choice that keeps a post
// from being lost: a process that dies between the reservation and the post delays the
// day by at most the reservation's lifetime, then another process (or the same one
// restarted) reserves it and posts. The cost is the window described above, which it
// does not widen: a post Discord accepted but that was not recorded (a crash in
// between, or a post that outlived its timeout) is made again once the reservation
// expires.

package puzzles

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/puzzle"
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
	Puzzle   *puzzle.Puzzle
	Line     puzzle.Line
	Settings storage.PuzzleSettings
	Previous *Recap
	// Now is when the post is made (to say how long ago a mined puzzle's game ended).
	Now time.Time
}

// Recap is a past day with its puzzle.
type Recap struct {
	Day    *storage.Daily
	Puzzle *puzzle.Puzzle
	Line   puzzle.Line
}

// kindDaily is the timer kind of a guild's daily post.
const kindDaily timers.Kind = 1

// Retry delays of a failed post: doubling from a minute up to an hour.
const (
	firstRetry = time.Minute
	maxRetry   = time.Hour
)

// The reservation on a day's post: how long it holds, and how long the post may take
// within it (the rest covers gathering the post and recording it).
const (
	dailyReservationTTL = 2 * time.Minute
	dailyPostTimeout    = 90 * time.Second
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

// restoreDaily schedules every guild with a daily post for now: the timer decides
// whether a post is due.
func (s *Service) restoreDaily(ctx context.Context) error {
	gs, err := puzzleGuilds(ctx, s.db)
	if err != nil {
		return fmt.Errorf("start puzzle service: %w", err)
	}
	now := s.clock.Now()
	for _, g := range gs {
		if s.owns(g.GuildID) {
			s.sched.Set(s.daily.key(g.GuildID), now)
		}
	}
	return nil
}

// owns reports whether the service schedules guild's daily post at start-up and on
// Adopt (Options.Owns).
func (s *Service) owns(guild string) bool { return s.opts.Owns == nil || s.opts.Owns(guild) }

// Adopt schedules, for now, the daily post of every guild with one that the service
// owns (Options.Owns): a post due while no process owned the guild is made at the next
// timer pass, once (the reservation and the day's state in the store decide). It
// returns how many guilds it scheduled. Call it when the service gains guilds (a
// partition's lease).
func (s *Service) Adopt(ctx context.Context) (int, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return 0, err
	}
	defer done()
	gs, err := puzzleGuilds(ctx, s.db)
	if err != nil {
		return 0, fmt.Errorf("adopt daily posts: %w", err)
	}
	now, n := s.clock.Now(), 0
	for _, g := range gs {
		if s.owns(g.GuildID) {
			s.sched.Set(s.daily.key(g.GuildID), now)
			n++
		}
	}
	return n, nil
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
	gs, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings(guild) })
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
	busyUntil, err := s.postDay(ctx, guild, ps, date)
	if !busyUntil.IsZero() && busyUntil.Before(next) {
		next = busyUntil
	}
	return next, err
}

// postDay plans the day (if not yet) and makes its post (if not yet), under the day's
// reservation. When another process holds the reservation it returns when the
// reservation expires, to look again then.
func (s *Service) postDay(ctx context.Context, guild string, ps storage.PuzzleSettings, date string) (busyUntil time.Time, err error) {
	unlock := s.lock(guild, "")
	defer unlock()
	d, err := s.planDay(ctx, guild, ps, date, storage.DailyPlanned)
	if err != nil {
		return time.Time{}, err
	}
	if d.State != storage.DailyPlanned || s.opts.Poster == nil {
		return time.Time{}, nil
	}
	d, res, err := s.reserveDay(ctx, guild, date)
	if err != nil || d == nil {
		return time.Time{}, err
	}
	if !res.Held {
		s.log.Debug("puzzles: the daily post is reserved by another process", "guild", guild, "date", date,
			"holder", res.Holder, "until", res.Until)
		return res.Until, nil
	}
	post, err := s.dailyPost(ctx, d, ps)
	if err != nil {
		return time.Time{}, err
	}
	postCtx, cancel := context.WithTimeout(ctx, dailyPostTimeout)
	msg, err := s.opts.Poster.PostDaily(postCtx, post)
	cancel()
	if err != nil {
		return time.Time{}, fmt.Errorf("post the puzzle of %s (%s) in channel %s: %w", date, d.PuzzleID, ps.Channel, err)
	}
	now := s.clock.Now()
	err = s.db.Update(ctx, func(w storage.Tx) error {
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
		return time.Time{}, fmt.Errorf("record the post of %s in guild %s (message %s): %w", date, guild, msg, err)
	}
	s.log.Info("puzzles: posted the puzzle of the day", "guild", guild, "date", date, "puzzle", d.PuzzleID, "message", msg)
	return time.Time{}, nil
}

// reserveDay reserves the post of a guild's day in the transaction that reads the day: it
// returns the day (nil when it is no longer planned: posted, or replaced) and the
// reservation, held by this service or, if not, by whom and until when.
func (s *Service) reserveDay(ctx context.Context, guild, date string) (*storage.Daily, storage.Reservation, error) {
	var (
		day *storage.Daily
		res storage.Reservation
	)
	now := s.clock.Now()
	err := s.db.Update(ctx, func(w storage.Tx) error {
		day, res = nil, storage.Reservation{}
		d, err := w.Daily(guild, date)
		if err != nil {
			return err
		}
		if d.State != storage.DailyPlanned {
			return nil
		}
		res, err = storage.ReserveEffect(w, dailyPostKey(guild, date), s.holder, now, dailyReservationTTL)
		day = d
		return err
	})
	if err != nil {
		return nil, storage.Reservation{}, fmt.Errorf("reserve the post of %s in guild %s: %w", date, guild, err)
	}
	return day, res, nil
}

// dailyPostKey names the reservation on a guild's post of a day.
func dailyPostKey(guild, date string) string { return "daily/" + guild + "/" + date }

// dailyPost gathers what a day's post shows.
func (s *Service) dailyPost(ctx context.Context, d *storage.Daily, ps storage.PuzzleSettings) (*DailyPost, error) {
	p, l, err := s.Puzzle(ctx, d.PuzzleID)
	if err != nil {
		return nil, fmt.Errorf("the puzzle of %s in guild %s: %w", d.Date, d.GuildID, err)
	}
	post := &DailyPost{Day: d, Puzzle: p, Line: l, Settings: ps, Now: s.clock.Now()}
	if d.Prev != "" {
		pd, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Daily, error) { return tx.Daily(d.GuildID, d.Prev) })
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
