// Package digest sends the daily digest: once a day, at the hour a player chose (UTC),
// one direct message listing the games where it is their move, each with its deadline.
// A player opts in with /notify (storage.UserPrefs.Digest, DigestHour).
//
// # Once a day, across processes and restarts: at most once
//
// Every process that runs the service looks once an hour, at the start of the hour (and
// at start-up), for the users whose digest hour it is and whose day's digest was not
// claimed (storage.User.DigestSent). Each such user is claimed in one store transaction
// that reads the user's record and writes the day as claimed; of several processes (on
// PostgreSQL) only one commits the claim, the others find the day claimed. Only then
// is the direct message sent. So a day's digest is sent at most once: a process killed
// after its claim, or a send whose outcome is unknown (a timeout, a 5xx), does not send
// it again; that day's digest is lost, and the next day's comes as usual. A send that
// never reached Discord (the sender says so with ErrNotSent) gives the claim back, and
// the digest is tried again a minute later while the hour lasts. A process that stops
// (Run's context ends) finishes the send in flight and claims no more; the digests it
// did not reach are sent by a later sweep within the hour, here or in another process. A bot down for the
// whole hour sends no digest that day: the digest belongs to its hour.
//
// # Closed DMs
//
// Discord refuses a direct message to a user who does not accept them from the bot
// (their privacy settings, or no server shared any more). The sender reports it as
// ErrDMRefused; the service logs it once and turns the user's digest off, with a note
// (UserPrefs.DigestRefused) that the next answer to the user shows, once
// (TakeRefusedNote).
package digest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/settings"
	"github.com/gambitchess/gambit/storage"
)

// Errors a Sender wraps.
var (
	// ErrDMRefused: Discord refused the direct message (the user's DMs are closed).
	ErrDMRefused = errors.New("the user does not accept direct messages from the bot")
	// ErrNotSent: the message never reached Discord, so it may be sent again.
	ErrNotSent = errors.New("the direct message did not leave")
)

// Sender sends a user's digest by direct message (package bot implements it).
type Sender interface {
	SendDigest(ctx context.Context, d *Digest) error
}

// Digest is one user's digest of a day.
type Digest struct {
	UserID string
	// Day is the UTC day, YYYY-MM-DD.
	Day string
	// Games are the games where it is the user's move, the nearest deadline first
	// (games without one last), at most MaxGames.
	Games []*games.Game
	// More counts the games left out beyond MaxGames.
	More int
	// Now is when the digest was made (to say how much time is left).
	Now time.Time
}

// MaxGames bounds the games one digest lists (a direct message holds 2000 characters).
const MaxGames = 20

// Timing of the sweeps.
const (
	// retryAfter is how soon a digest that never left is tried again.
	retryAfter = time.Minute
	// sendTimeout bounds one digest's send.
	sendTimeout = 30 * time.Second
	// sweepTimeout bounds the work of one sweep; a user is claimed only with more than
	// sendTimeout + claimMargin of it left.
	sweepTimeout = 5 * time.Minute
	claimMargin  = 10 * time.Second
)

// Options configure a Service.
type Options struct {
	// Games lists the users' games; Settings writes their preferences (required).
	Games    *games.Service
	Settings *settings.Service
	// Sender sends the digests (nil: none is sent, none is claimed).
	Sender Sender
	// Clock is the time source (default the system clock).
	Clock  timers.Clock
	Logger *slog.Logger
}

// Service sends the daily digests. It is safe for concurrent use.
type Service struct {
	db    storage.Store
	opts  Options
	clock timers.Clock
	log   *slog.Logger
	sched *timers.Scheduler
	// mu serialises the sweeps of this process (Run's and FireDue's).
	mu sync.Mutex
}

// sweepKey is the service's one timer: the next sweep.
var sweepKey = timers.Key{Kind: 1}

// New returns the service of db's digests; its first sweep is due at once.
func New(db storage.Store, o Options) (*Service, error) {
	if o.Games == nil || o.Settings == nil {
		return nil, errors.New("digest: the games and settings services are required")
	}
	if o.Clock == nil {
		o.Clock = timers.SystemClock{}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	s := &Service{db: db, opts: o, clock: o.Clock, log: o.Logger, sched: timers.New()}
	s.sched.Set(sweepKey, s.clock.Now())
	return s, nil
}

// Run sweeps as the sweeps come due (each hour, at its start), until ctx is done.
func (s *Service) Run(ctx context.Context) error {
	return s.sched.Run(ctx, s.clock, func(timers.Entry) { s.sweep(ctx) })
}

// FireDue sweeps on the caller's goroutine if a sweep is due at the clock's present
// time, and reports whether one was. Tests drive the service with a manual clock and
// FireDue instead of Run.
func (s *Service) FireDue() bool {
	if len(s.sched.PopDue(s.clock.Now(), nil)) == 0 {
		return false
	}
	s.sweep(context.Background())
	return true
}

// NextSweep returns when the next sweep is due.
func (s *Service) NextSweep() (time.Time, bool) {
	e, ok := s.sched.Next()
	return e.At, ok
}

// Day is the UTC day of instant t, as the digest counts days.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// NextAt returns the next instant after t at which a digest of hour (UTC) is due.
func NextAt(hour int, t time.Time) time.Time {
	t = t.UTC()
	at := time.Date(t.Year(), t.Month(), t.Day(), hour, 0, 0, 0, time.UTC)
	if !at.After(t) {
		at = at.AddDate(0, 0, 1)
	}
	return at
}

// sweep sends the digests of the present hour not sent yet and sets the next sweep.
func (s *Service) sweep(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	next := now.UTC().Truncate(time.Hour).Add(time.Hour)
	// The work outlives ctx: a shutdown stops the sweep between two users (sendDue
	// looks at ctx), never in the middle of a claimed digest's send.
	work, cancel := context.WithTimeout(context.WithoutCancel(ctx), sweepTimeout)
	defer cancel()
	retry, err := s.sendDue(ctx, work, now)
	if err != nil {
		s.log.Error("digest: sweep", "err", err)
		retry = true
	}
	if retry && now.Add(retryAfter).Before(next) {
		next = now.Add(retryAfter)
	}
	s.sched.Set(sweepKey, next)
}

// sendDue sends, on work, the digest of each user whose hour it is at now and whose
// day is not claimed, until stop ends; retry reports a digest that never left or was
// not tried (stop ended, or too little of work's time was left to claim and send one).
func (s *Service) sendDue(stop, work context.Context, now time.Time) (retry bool, err error) {
	if s.opts.Sender == nil {
		return false, nil
	}
	users, err := storage.Read(work, s.db, storage.Tx.DigestUsers)
	if err != nil {
		return false, fmt.Errorf("list the users with a digest: %w", err)
	}
	day, hour := Day(now), now.UTC().Hour()
	for _, u := range users {
		if u.Prefs.DigestHour != hour || u.DigestSent == day {
			continue
		}
		if stop.Err() != nil {
			return true, nil
		}
		if dl, ok := work.Deadline(); ok && time.Until(dl) < sendTimeout+claimMargin {
			// A claim now might not leave in time, and would be lost: the rest wait
			// for the next sweep.
			return true, nil
		}
		again, err := s.send(work, u.ID, day, now)
		if err != nil {
			s.log.Error("digest: send", "user", u.ID, "day", day, "err", err)
		}
		retry = retry || again
	}
	return retry, nil
}

// send claims a user's day and sends their digest; again reports a digest that never
// left (its claim given back).
func (s *Service) send(ctx context.Context, userID, day string, now time.Time) (again bool, err error) {
	prev, claimed, err := s.claim(ctx, userID, day, now)
	if err != nil || !claimed {
		return false, err
	}
	d, err := s.gather(ctx, userID, day, now)
	if err != nil {
		// Nothing left: the claim is given back, to look again.
		return true, errors.Join(err, s.unclaim(ctx, userID, day, prev))
	}
	if len(d.Games) == 0 {
		s.log.Debug("digest: nothing to list", "user", userID, "day", day)
		return false, nil
	}
	sendCtx, cancel := context.WithTimeout(ctx, sendTimeout)
	err = s.opts.Sender.SendDigest(sendCtx, d)
	cancel()
	switch {
	case err == nil:
		s.log.Info("digest: sent", "user", userID, "day", day, "games", len(d.Games)+d.More)
		return false, nil
	case errors.Is(err, ErrDMRefused):
		s.log.Warn("digest: Discord refused the direct message (the user's DMs are closed); the digest is turned off", "user", userID)
		_, uerr := s.opts.Settings.UpdatePrefs(ctx, userID, func(p *storage.UserPrefs) bool {
			if !p.Digest {
				return false
			}
			p.Digest, p.DigestRefused = false, true
			return true
		})
		if uerr != nil {
			return false, fmt.Errorf("turn the digest of %s off: %w", userID, uerr)
		}
		return false, nil
	case errors.Is(err, ErrNotSent):
		return true, errors.Join(fmt.Errorf("digest of %s for %s did not leave; tried again soon: %w", userID, day, err),
			s.unclaim(ctx, userID, day, prev))
	default:
		// The outcome is unknown: the day stays claimed (at most once a day).
		return false, fmt.Errorf("digest of %s for %s (not sent again today): %w", userID, day, err)
	}
}

// claim marks a user's day as claimed, in the transaction that checks the digest is
// still on, of this hour and not claimed; it returns the day claimed before.
func (s *Service) claim(ctx context.Context, userID, day string, now time.Time) (prev string, claimed bool, err error) {
	hour := now.UTC().Hour()
	err = s.db.Update(ctx, func(tx storage.Tx) error {
		prev, claimed = "", false
		u, err := tx.User(userID)
		if err != nil {
			return err
		}
		if !u.Prefs.Digest || u.Prefs.DigestHour != hour || u.DigestSent == day {
			return nil
		}
		prev, claimed = u.DigestSent, true
		u.DigestSent = day
		return tx.PutUser(u)
	})
	if err != nil {
		return "", false, fmt.Errorf("claim the digest of %s for %s: %w", userID, day, err)
	}
	return prev, claimed, nil
}

// unclaim gives back a claim that sent nothing: the day reads as before, unless
// something else changed it meanwhile.
func (s *Service) unclaim(ctx context.Context, userID, day, prev string) error {
	err := s.db.Update(ctx, func(tx storage.Tx) error {
		u, err := tx.User(userID)
		if err != nil || u.DigestSent != day {
			return err
		}
		u.DigestSent = prev
		return tx.PutUser(u)
	})
	if err != nil {
		return fmt.Errorf("give back the claim of the digest of %s for %s: %w", userID, day, err)
	}
	return nil
}

// gather lists the live games, on a Discord server, where it is the user's move.
func (s *Service) gather(ctx context.Context, userID, day string, now time.Time) (*Digest, error) {
	recs, err := s.opts.Games.GamesByUser(ctx, userID, storage.Query{LiveOnly: true})
	if err != nil {
		return nil, fmt.Errorf("the games of %s: %w", userID, err)
	}
	d := &Digest{UserID: userID, Day: day, Now: now}
	for _, rec := range recs {
		if rec.GuildID == "" || rec.ChannelID == "" {
			continue // not on a server (a game played elsewhere)
		}
		g, err := s.opts.Games.Game(ctx, rec.ID)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("game %d of %s: %w", rec.ID, userID, err)
		}
		if !g.Live() || g.Player(g.Turn()).ID != userID {
			continue
		}
		d.Games = append(d.Games, g)
	}
	slices.SortStableFunc(d.Games, func(a, b *games.Game) int {
		da, db := a.Deadline(), b.Deadline()
		switch {
		case da.IsZero() != db.IsZero():
			if da.IsZero() {
				return 1
			}
			return -1
		case !da.Equal(db):
			return da.Compare(db)
		}
		return cmp.Compare(a.ID, b.ID)
	})
	if len(d.Games) > MaxGames {
		d.More, d.Games = len(d.Games)-MaxGames, d.Games[:MaxGames]
	}
	return d, nil
}

// TakeRefusedNote reports, once, that the user's digest was turned off because their
// DMs are closed: true for the first caller after that happened, then false. It reads
// the cached preferences first, so the answers to users without a note cost no store
// read.
func (s *Service) TakeRefusedNote(ctx context.Context, userID string) (bool, error) {
	p, err := s.opts.Settings.Prefs(ctx, userID)
	if err != nil || !p.DigestRefused {
		return false, err
	}
	return s.opts.Settings.UpdatePrefs(ctx, userID, func(p *storage.UserPrefs) bool {
		if !p.DigestRefused {
			return false
		}
		p.DigestRefused = false
		return true
	})
}
