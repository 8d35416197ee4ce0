// deadlines.go: the service's timers (flag falls, correspondence deadlines and reminders,
// first-move aborts, challenge expiries, heartbeats, receipt expiry), and the start-up
// that rebuilds them and credits clocks for downtime.

package games

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
)

// Timer kinds.
const (
	kindFlag      timers.Kind = iota + 1 // a live game's flag, or a correspondence deadline
	kindReminder                         // a reminder before a correspondence deadline
	kindAbort                            // a first move that has not come
	kindChallenge                        // a challenge's expiry
	kindHeartbeat                        // the service's heartbeat
	kindPrune                            // expiry of old receipts
	kindDiscover                         // with Options.Owns: a look for the owned work other processes wrote
	kindVacation                         // a vacation's end, or its games' clocks to bring in line (vacation.go)
)

// firstMoveWait is how long a live game waits for a side's first move: the game's
// no-show time for a tournament game, else Options.FirstMoveTimeout.
func (s *Service) firstMoveWait(rec *storage.Game) time.Duration {
	if rec.NoShow > 0 {
		return rec.NoShow
	}
	return s.opts.FirstMoveTimeout
}

func challengeKey(id uint64) timers.Key { return timers.Key{Kind: kindChallenge, ID: id} }

// pruneEvery is how often old receipts are dropped.
const pruneEvery = time.Hour

// schedule sets the timers of a committed game: its flag (or correspondence deadline),
// the reminder before a correspondence deadline, and the first-move abort. The caller
// holds the game's lock.
func (s *Service) schedule(e *entry) {
	rec := e.rec
	flag := timers.Key{Kind: kindFlag, ID: rec.ID}
	reminder := timers.Key{Kind: kindReminder, ID: rec.ID}
	abort := timers.Key{Kind: kindAbort, ID: rec.ID}
	if !rec.Live() || !s.inScope(rec) {
		s.sched.Cancel(flag)
		s.sched.Cancel(reminder)
		s.sched.Cancel(abort)
		return
	}
	deadline := time.Time{}
	if rec.Clock != nil && rec.Clock.State == clock.Running {
		deadline = rec.Clock.FlagAt()
	}
	if deadline.IsZero() {
		s.sched.Cancel(flag)
	} else {
		s.sched.Set(flag, deadline)
	}
	if at, ok := s.reminderAt(rec, deadline); ok {
		s.sched.Set(reminder, at)
	} else {
		s.sched.Cancel(reminder)
	}
	if rec.AbortAt.IsZero() {
		s.sched.Cancel(abort)
	} else {
		s.sched.Set(abort, rec.AbortAt)
	}
}

// reminderAt returns when to remind the player to move of a correspondence game of its
// deadline: ReminderBefore (their preference; default a quarter of the allowance)
// before it, once per turn, if they want reminders.
func (s *Service) reminderAt(rec *storage.Game, deadline time.Time) (time.Time, bool) {
	if deadline.IsZero() || rec.Control.Kind() != clock.KindCorrespondence || rec.ReminderPly == rec.Ply()+1 {
		return time.Time{}, false
	}
	player := rec.Player(rec.Clock.Turn)
	prefs, err := s.opts.Settings.Prefs(context.Background(), player.ID)
	if err != nil {
		s.log.Error("games: read preferences", "user", player.ID, "err", err)
		prefs = storage.DefaultUserPrefs()
	}
	if !prefs.Reminders {
		return time.Time{}, false
	}
	before := prefs.ReminderBefore
	if before <= 0 {
		before = rec.Control.PerMove / 4
	}
	at := deadline.Add(-before)
	if !at.After(rec.Clock.Since) { // a reminder as the turn begins is no reminder
		return time.Time{}, false
	}
	return at, true
}

func (s *Service) scheduleChallenge(c *storage.Challenge) {
	s.sched.Set(challengeKey(c.ID), c.ExpiresAt)
}

// onTimer handles a due timer that the scheduler found due at seen. With async (under
// Run), a decided flag fall is left to the flag committer, which keeps the game's lock
// until it is written, so the handler can go on to the next timer while the disk works.
func (s *Service) onTimer(t timers.Entry, seen time.Time, async bool) {
	done, err := s.enter(context.Background())
	if err != nil {
		return // closed
	}
	defer done()
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.BackgroundTimeout)
	defer cancel()
	switch t.Key.Kind {
	case kindFlag, kindReminder, kindAbort:
		s.gameTimer(ctx, t, seen, async)
	case kindChallenge:
		s.expireChallenge(ctx, t.Key.ID)
	case kindVacation:
		s.vacationTimer(ctx, t.Key)
	case kindHeartbeat:
		now := s.clock.Now()
		if err := s.heartbeat(ctx, now); err != nil {
			s.log.Error("games: heartbeat", "err", err)
		}
		s.sched.Set(t.Key, now.Add(s.opts.Heartbeat))
	case kindDiscover:
		if _, err := s.discover(ctx); err != nil {
			s.log.Error("games: discover", "err", err)
		}
		s.sched.Set(t.Key, s.clock.Now().Add(discoverEvery))
	case kindPrune:
		now := s.clock.Now()
		n, err := storage.Write(ctx, s.db, func(tx storage.Tx) (int, error) { return tx.PruneReceipts(now.Add(-s.opts.ReceiptTTL)) })
		if err != nil {
			s.log.Error("games: prune receipts", "err", err)
		} else if n > 0 {
			s.log.Debug("games: pruned receipts", "count", n)
		}
		s.sched.Set(t.Key, now.Add(pruneEvery))
	}
}

// gameTimer handles a game's flag, reminder or abort timer: under the game's lock it
// checks the committed state (the timer may be out of date) and acts, or reschedules.
func (s *Service) gameTimer(ctx context.Context, t timers.Entry, seen time.Time, async bool) {
	id := t.Key.ID
	unlock := s.lockGame(id)
	handedOff := false
	defer func() {
		if !handedOff {
			unlock()
		}
	}()
	e, err := s.load(ctx, id)
	if err != nil {
		s.log.Error("games: timer", "game", id, "err", err)
		return
	}
	if !e.rec.Live() || !s.owns(e.rec) && !e.wrote {
		return // over, or another process's to fire
	}
	now := s.clock.Now()
	retry := func(err error) {
		if errors.Is(err, storage.ErrConflict) {
			// Another process changed the game (the owner fired the same deadline, or a
			// move came in there): the next try reloads it and finds what it did.
			s.forget(id)
			s.log.Debug("games: timer raced another process", "game", id, "kind", t.Key.Kind)
			s.sched.Set(t.Key, now.Add(time.Second))
			return
		}
		s.log.Error("games: timer", "game", id, "kind", t.Key.Kind, "err", err)
		s.sched.Set(t.Key, now.Add(time.Second))
	}
	switch t.Key.Kind {
	case kindFlag:
		if flagFallen(e.rec, now) {
			if st, err := s.autoVacation(ctx, e, now); err != nil || st != nil {
				if err == nil {
					_, err = s.commitVacation(ctx, st)
				}
				if err != nil {
					retry(err)
				}
				return
			}
			if hook := s.testFlagDetected; hook != nil {
				hook(e.rec.Clock.FlagAt(), seen)
			}
			st, err := s.flagFall(e, now)
			if err != nil {
				retry(err)
				return
			}
			if !async || s.flags == nil {
				if _, err := s.commit(ctx, st, ""); err != nil {
					retry(err)
				}
				return
			}
			handedOff = true // the flag committer releases the lock once the fall is written
			s.async.Add(1)
			s.flags.push(flagCommit{p: s.prepare(st, ""), retry: retry, unlock: unlock})
			return
		}
	case kindAbort:
		if at := e.rec.AbortAt; !at.IsZero() && !now.Before(at) && e.rec.Ply() < 2 {
			st := &opState{s: s, now: now, rec: e.rec.Clone(), chess: e.chess.Clone()}
			end := st.chess.Abort
			if e.rec.NoShow > 0 { // a tournament game: the absent side loses by forfeit
				absent := st.chess.Turn()
				end = func() error {
					return st.chess.End(chesscore.Outcome{Result: chesscore.WinFor(absent.Other()), Termination: chesscore.NoShow})
				}
				st.endedAt = at
			}
			if err := end(); err != nil {
				retry(err)
				return
			}
			if _, err := s.commit(ctx, st, ""); err != nil {
				retry(err)
			}
			return
		}
	case kindReminder:
		if e.rec.Clock == nil {
			break
		}
		deadline := e.rec.Clock.FlagAt()
		if at, ok := s.reminderAt(e.rec, deadline); ok && !now.Before(at) {
			st := &opState{s: s, now: now, rec: e.rec.Clone(), chess: e.chess}
			st.rec.ReminderPly = st.rec.Ply() + 1
			turn := st.rec.Clock.Turn
			st.events = func(v *Game) []Event {
				return []Event{ReminderDue{Game: v, Player: v.Player(turn), Color: turn, Deadline: deadline}}
			}
			if _, err := s.commit(ctx, st, ""); err != nil {
				retry(err)
			}
			return
		}
	}
	s.schedule(e) // not due after all: the timer follows the committed state
}

// restore loads the live games, credits their clocks for the time the service was down,
// ends the games whose flag fell while it was up, and rebuilds every timer.
//
// Downtime policy: a clock is charged only while the service is known to be alive: up
// to its last heartbeat (written every Options.Heartbeat and at Close), or the latest
// heartbeat of a peer (Options.Peers: another process running the same games), or the
// game's last event, whichever is latest. At start-up each running clock is paused at that
// instant and resumed now, so nobody loses time to a crash or a restart; a player gains
// at most one heartbeat interval (the time between the last heartbeat and the crash). A
// flag that fell before that instant fell while the service was running: the game is
// lost on time now, as it would have been then. Correspondence deadlines, reminders and
// first-move abort deadlines move with the clocks.
func (s *Service) restore() error {
	ctx, cancel := context.WithTimeout(context.Background(), restoreTimeout)
	defer cancel()
	now := s.clock.Now()
	alive, err := s.lastAlive(ctx)
	if err != nil {
		return fmt.Errorf("start game service: %w", err)
	}
	games, err := storage.Read(ctx, s.db, storage.Tx.OpenGames)
	if err != nil {
		return fmt.Errorf("start game service: load live games: %w", err)
	}
	var changes []*storage.Change
	var entries []*entry
	var flagged []*entry
	mine := games[:0:0]
	for _, rec := range games {
		if s.inScope(rec) && s.owns(rec) {
			mine = append(mine, rec)
		}
	}
	open, err := storage.Read(ctx, s.db, storage.Tx.OpenVacations)
	if err != nil {
		return fmt.Errorf("start game service: load vacations: %w", err)
	}
	replayed, replayErrs := replayAll(mine)
	for i, rec := range mine {
		chess, err := replayed[i], replayErrs[i]
		if err != nil { // never expected; one broken game must not stop the others
			s.log.Error("games: live game does not replay; its timers are not run", "game", rec.ID, "err", err)
			continue
		}
		e := &entry{rec: rec, chess: chess}
		paused := s.pauseForVacation(ctx, e, open, now) // before the credit: the vacation's start is exact
		switch creditDowntime(rec, alive, now) {
		case credited:
			changes = append(changes, &storage.Change{Game: rec})
		case unchanged:
			if paused {
				changes = append(changes, &storage.Change{Game: rec})
			}
		case fell:
			flagged = append(flagged, e)
			continue
		}
		entries = append(entries, e)
	}
	if len(changes) > 0 {
		if err := s.db.CommitAll(ctx, changes); err != nil {
			return fmt.Errorf("start game service: credit downtime to %d games: %w", len(changes), err)
		}
		s.log.Info("games: credited downtime", "games", len(changes), "last_alive", alive, "now", now)
	}
	for _, e := range entries {
		s.remember(e)
		s.schedule(e)
	}
	for _, e := range flagged {
		if _, err := s.commitFlag(ctx, e, now); err != nil {
			return fmt.Errorf("start game service: %w", err)
		}
	}
	s.restoreVacations(ctx, entries, open)
	pending, err := storage.Read(ctx, s.db, storage.Tx.PendingChallenges)
	if err != nil {
		return fmt.Errorf("start game service: load challenges: %w", err)
	}
	for _, c := range pending {
		s.scheduleChallenge(c)
	}
	if err := s.heartbeat(ctx, now); err != nil {
		return fmt.Errorf("start game service: %w", err)
	}
	s.sched.Set(timers.Key{Kind: kindHeartbeat}, now.Add(s.opts.Heartbeat))
	s.sched.Set(timers.Key{Kind: kindPrune}, now.Add(time.Minute))
	if s.opts.Owns != nil {
		s.sched.Set(timers.Key{Kind: kindDiscover}, now.Add(discoverEvery))
	}
	return nil
}

// restoreTimeout bounds the start-up work of restore (loading every live game and
// crediting their downtime): generous, as a large store has many, but finite, so a
// database that does not answer fails the start instead of hanging it.
const restoreTimeout = 5 * time.Minute

// credit is what creditDowntime did.
type credit int

const (
	unchanged credit = iota
	credited         // the clock (or abort deadline) was moved past the downtime
	fell             // the flag fell while the service was alive
)

// creditDowntime applies the downtime policy to one game's record.
func creditDowntime(rec *storage.Game, lastAlive, now time.Time) credit {
	c := rec.Clock
	alive := lastAlive
	if c != nil && c.Since.After(alive) {
		alive = c.Since
	}
	result := unchanged
	if !rec.AbortAt.IsZero() && rec.AbortAt.After(alive) && alive.Before(now) {
		rec.AbortAt = rec.AbortAt.Add(now.Sub(alive))
		result = credited
	}
	if c == nil || c.State != clock.Running || !alive.Before(now) {
		return result
	}
	if flagAt := c.FlagAt(); !flagAt.IsZero() && !alive.Before(flagAt) {
		return fell
	}
	if err := c.Pause(alive); err != nil {
		return result // a flag at alive exactly was caught above; nothing else fails
	}
	if err := c.Resume(now); err != nil {
		return result
	}
	return credited
}

// lastAlive returns the latest heartbeat of this instance or of its peers
// (Options.Peers): the last instant some process was running these games' clocks.
func (s *Service) lastAlive(ctx context.Context) (time.Time, error) {
	if !s.opts.LastAlive.IsZero() {
		return s.opts.LastAlive, nil
	}
	return LastAlive(ctx, s.db, s.opts.Instance, s.opts.Peers)
}

// LastAlive returns the latest heartbeat in db of instance or of its peers (nil: of
// instance only): the last instant some process was running their games' clocks. A
// process that divides the servers with others reads it before it takes its share and
// passes it as Options.LastAlive.
func LastAlive(ctx context.Context, db storage.Store, instance string, peers func(instance string) bool) (time.Time, error) {
	if instance == "" {
		instance = "bot"
	}
	if peers == nil {
		return storage.Read(ctx, db, func(tx storage.Tx) (time.Time, error) { return tx.Heartbeat(instance) })
	}
	beats, err := storage.Read(ctx, db, storage.Tx.Heartbeats)
	if err != nil {
		return time.Time{}, err
	}
	var alive time.Time
	for _, b := range beats {
		if (b.Instance == instance || peers(b.Instance)) && b.At.After(alive) {
			alive = b.At
		}
	}
	return alive, nil
}

// heartbeat records that this instance was alive at now.
func (s *Service) heartbeat(ctx context.Context, now time.Time) error {
	return s.db.Update(ctx, func(tx storage.Tx) error { return tx.PutHeartbeat(s.opts.Instance, now) })
}
