// vacation.go: the players' vacations: while a player is on vacation in a server, the
// clocks of their correspondence games there do not run on their turns.
//
// A vacation is a record per server and player (storage.Vacation). Starting one writes
// the record, then brings every live correspondence game of the player in that server
// in line: a game where they are to move has its clock paused (from the vacation's
// start); a game where the opponent is to move pauses when the opponent moves (every
// request on a game brings its clock in line, opOnce). Ending one (by /vacation end, or
// by itself when its days are over) closes the record, counting the days it was begun,
// and resumes those clocks. The record is the truth and the clocks follow it: a process
// that stopped between the two writes, or a takeover, leaves a clock out of line only
// until the next request on the game, the start-up (restore) or the adoption of the
// server (Adopt), which bring it back.
//
// Days are counted from instants (storage.Vacation.Close), never by a ticker, and only
// the process that owns the server (Options.Owns) closes a vacation at its end; the
// write is checked against the stored version, so of two processes closing one vacation
// exactly one counts its days.
//
// Auto vacation: a player who opted in, whose correspondence flag would fall while they
// have days left, starts a vacation at the deadline instead (with all their days left);
// the move's allowance starts afresh when they come back, and the game's thread is told
// (VacationStarted). Only correspondence games pause, and in a tournament only where the
// organiser allows vacations (storage.Tournament.NoVacation).

package games

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
)

// DefaultVacationDays is each player's vacation days a year in a server, unless the bot
// (Options.VacationDays) or the server says otherwise.
const DefaultVacationDays = 14

// Errors of vacations.
var (
	// ErrOnVacation: starting a vacation while on one.
	ErrOnVacation = errors.New("you are already on vacation")
	// ErrNotOnVacation: ending a vacation while on none.
	ErrNotOnVacation = errors.New("you are not on vacation")
	// ErrNoVacationDays: no vacation days left this year, or a server that allows none.
	ErrNoVacationDays = errors.New("no vacation days left")
	// ErrVacationDays: a number of days that is not 1 to the days left.
	ErrVacationDays = errors.New("that many vacation days cannot be taken")
)

// VacationStarted: an automatic vacation started instead of a flag fall in Game (the
// player to move, Color, is on vacation until Until).
type VacationStarted struct {
	Game   *Game
	Player storage.Player
	Color  chesscore.Color
	Until  time.Time
}

func (VacationStarted) event() {}

// VacationStatus is a player's vacation in a server at an instant.
type VacationStatus struct {
	GuildID, UserID string
	// Allowance is the player's days a year in the server; Used the days used this
	// year (those begun of the vacation they are on included); Left what remains.
	Allowance, Used, Left int
	// On is set while the player is on vacation, from Start to Until; Automatic when a
	// flag started it.
	On           bool
	Start, Until time.Time
	Automatic    bool
	// AutoOptIn is the player's choice of auto vacation.
	AutoOptIn bool
	// Paused counts the player's correspondence games whose clock the vacation holds.
	Paused int
}

// VacationRequest starts a vacation: Days 0 takes every day left this year.
type VacationRequest struct {
	GuildID, UserID string
	Days            int
}

// member is a player in a server: the key of a vacation.
type member struct{ guild, user string }

// vacationSeed hashes vacations to timer ids (the timers are this process's own).
var vacationSeed = maphash.MakeSeed()

// vacationKey is the timer of the vacation of user in guild, remembered so that the
// timer's handler knows whose it is.
func (s *Service) vacationKey(guild, user string) timers.Key {
	id := maphash.String(vacationSeed, guild+"\x00"+user)
	s.vacMu.Lock()
	s.vacations[id] = member{guild, user}
	s.vacMu.Unlock()
	return timers.Key{Kind: kindVacation, ID: id}
}

// allowance returns the vacation days a year of a player in guild.
func (s *Service) allowance(ctx context.Context, guild string) (int, error) {
	gs, err := s.opts.Settings.Guild(ctx, guild)
	if err != nil {
		return 0, fmt.Errorf("read settings of guild %s: %w", guild, err)
	}
	return gs.VacationAllowance(s.opts.VacationDays), nil
}

// readVacation returns the vacation record of user in guild (an empty one, version 0,
// if none was written).
func (s *Service) readVacation(ctx context.Context, guild, user string) (*storage.Vacation, error) {
	v, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Vacation, error) { return tx.Vacation(guild, user) })
	if errors.Is(err, storage.ErrNotFound) {
		return &storage.Vacation{GuildID: guild, UserID: user}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read vacation of %s in guild %s: %w", user, guild, err)
	}
	return v, nil
}

// statusOf describes record v at now.
func statusOf(v *storage.Vacation, allowance int, now time.Time) VacationStatus {
	year := now.UTC().Year()
	used := v.UsedIn(year)
	st := VacationStatus{GuildID: v.GuildID, UserID: v.UserID, Allowance: allowance, AutoOptIn: v.AutoOptIn}
	if v.On(now) {
		st.On, st.Start, st.Until, st.Automatic = true, v.Start, v.Until, v.Automatic
		if v.Start.UTC().Year() == year {
			used += storage.DaysUsed(v.Start, now)
		}
	}
	st.Used, st.Left = used, max(0, allowance-used)
	return st
}

func checkMember(guild, user string) error {
	if guild == "" {
		return fmt.Errorf("%w: vacations belong to a server", ErrBadRequest)
	}
	if err := storage.CheckMember("vacation", guild, user); err != nil {
		return fmt.Errorf("%w: %w", ErrBadRequest, err)
	}
	return nil
}

// Vacation returns the vacation status of user in guild.
func (s *Service) Vacation(ctx context.Context, guild, user string) (VacationStatus, error) {
	if err := checkMember(guild, user); err != nil {
		return VacationStatus{}, err
	}
	v, err := s.readVacation(ctx, guild, user)
	if err != nil {
		return VacationStatus{}, err
	}
	allowance, err := s.allowance(ctx, guild)
	if err != nil {
		return VacationStatus{}, err
	}
	return statusOf(v, allowance, s.clock.Now()), nil
}

// changeVacation applies fn to the stored vacation record of user in guild at now and
// writes it from the version read, reading again when another process wrote it first.
func (s *Service) changeVacation(ctx context.Context, guild, user string, fn func(v *storage.Vacation, allowance int, now time.Time) error) (*storage.Vacation, int, error) {
	if err := checkMember(guild, user); err != nil {
		return nil, 0, err
	}
	done, err := s.enter(ctx)
	if err != nil {
		return nil, 0, err
	}
	defer done()
	allowance, err := s.allowance(ctx, guild)
	if err != nil {
		return nil, 0, err
	}
	for attempt := 1; ; attempt++ {
		v, err := s.readVacation(ctx, guild, user)
		if err != nil {
			return nil, 0, err
		}
		w := v.Clone()
		if err := fn(w, allowance, s.clock.Now()); err != nil {
			return nil, 0, err
		}
		err = s.db.Update(ctx, func(tx storage.Tx) error { return tx.PutVacation(w) })
		if errors.Is(err, storage.ErrConflict) && attempt < maxOpAttempts {
			continue
		}
		if err != nil {
			return nil, 0, fmt.Errorf("write vacation of %s in guild %s: %w", user, guild, err)
		}
		w.Version++
		return w, allowance, nil
	}
}

// StartVacation puts the player on vacation in the server for r.Days days (every day
// left this year when 0) and pauses the clocks of their correspondence games there
// where they are to move.
func (s *Service) StartVacation(ctx context.Context, r VacationRequest) (VacationStatus, error) {
	w, allowance, err := s.changeVacation(ctx, r.GuildID, r.UserID, func(v *storage.Vacation, allowance int, now time.Time) error {
		if v.On(now) {
			return fmt.Errorf("%w (until %s)", ErrOnVacation, v.Until.UTC().Format(time.RFC1123))
		}
		v.Close(v.Until) // a vacation over that nobody closed yet counts its days first
		year := now.UTC().Year()
		left := allowance - v.UsedIn(year)
		switch {
		case allowance == 0:
			return fmt.Errorf("%w: this server allows no vacations", ErrNoVacationDays)
		case left <= 0:
			return fmt.Errorf("%w: you have used your %d days this year", ErrNoVacationDays, allowance)
		case r.Days < 0 || r.Days > left:
			return fmt.Errorf("%w: %d days asked, you have %d left this year", ErrVacationDays, r.Days, left)
		}
		days := r.Days
		if days == 0 {
			days = left
		}
		if v.Year != year {
			v.Year, v.Used = year, 0
		}
		v.Start, v.Until, v.Automatic = now, now.Add(time.Duration(days)*storage.VacationDay), false
		v.Taken++
		return nil
	})
	if err != nil {
		return VacationStatus{}, err
	}
	return s.afterVacationChange(ctx, w, allowance)
}

// EndVacation ends the player's vacation in the server: the days begun count, and the
// clocks of their games run again.
func (s *Service) EndVacation(ctx context.Context, guild, user string) (VacationStatus, error) {
	w, allowance, err := s.changeVacation(ctx, guild, user, func(v *storage.Vacation, _ int, now time.Time) error {
		if !v.On(now) {
			return ErrNotOnVacation
		}
		v.Close(now)
		return nil
	})
	if err != nil {
		return VacationStatus{}, err
	}
	return s.afterVacationChange(ctx, w, allowance)
}

// SetAutoVacation turns the player's auto vacation in the server on or off.
func (s *Service) SetAutoVacation(ctx context.Context, guild, user string, on bool) (VacationStatus, error) {
	w, allowance, err := s.changeVacation(ctx, guild, user, func(v *storage.Vacation, _ int, _ time.Time) error {
		v.AutoOptIn = on
		return nil
	})
	if err != nil {
		return VacationStatus{}, err
	}
	return statusOf(w, allowance, s.clock.Now()), nil
}

// afterVacationChange brings the player's games in line with the written record w and
// describes it.
func (s *Service) afterVacationChange(ctx context.Context, w *storage.Vacation, allowance int) (VacationStatus, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return VacationStatus{}, err
	}
	defer done()
	paused, err := s.syncVacation(ctx, w.GuildID, w.UserID)
	st := statusOf(w, allowance, s.clock.Now())
	st.Paused = paused
	if err != nil {
		return st, fmt.Errorf("vacation of %s in guild %s: bring the games in line: %w", w.UserID, w.GuildID, err)
	}
	return st, nil
}

// vacationTimer handles the timer of a vacation: its end, or its games to bring in line.
func (s *Service) vacationTimer(ctx context.Context, key timers.Key) {
	s.vacMu.Lock()
	m, ok := s.vacations[key.ID]
	s.vacMu.Unlock()
	if !ok {
		return
	}
	if _, err := s.syncVacation(ctx, m.guild, m.user); err != nil {
		s.log.Error("games: vacation", "guild", m.guild, "user", m.user, "err", err)
		s.sched.Set(key, s.clock.Now().Add(time.Second))
	}
}

// ownsGuild reports whether this service fires the deadlines of guild's games.
func (s *Service) ownsGuild(guild string) bool { return s.opts.Owns == nil || s.opts.Owns(guild) }

// syncVacation closes the vacation of user in guild if its days are over (the owner of
// the server alone), brings the clocks of the player's correspondence games there in
// line with it, and sets its timer to its end. It returns how many of the games are
// paused.
func (s *Service) syncVacation(ctx context.Context, guild, user string) (int, error) {
	key := s.vacationKey(guild, user)
	v, err := s.readVacation(ctx, guild, user)
	if err != nil {
		return 0, err
	}
	now := s.clock.Now()
	if v.Open() && !now.Before(v.Until) && s.ownsGuild(guild) {
		w := v.Clone()
		w.Close(v.Until)
		err := s.db.Update(ctx, func(tx storage.Tx) error { return tx.PutVacation(w) })
		switch {
		case errors.Is(err, storage.ErrConflict): // another process closed or changed it
		case err != nil:
			return 0, fmt.Errorf("close vacation of %s in guild %s: %w", user, guild, err)
		default:
			s.log.Info("games: vacation over", "guild", guild, "user", user, "days", storage.DaysUsed(v.Start, v.Until))
		}
	}
	if v.On(now) {
		s.sched.Set(key, v.Until)
	} else {
		s.sched.Cancel(key)
	}
	games, err := storage.Read(ctx, s.db, func(tx storage.Tx) ([]*storage.Game, error) {
		return tx.GamesByUser(user, storage.Query{LiveOnly: true})
	})
	if err != nil {
		return 0, fmt.Errorf("games of %s: %w", user, err)
	}
	paused := 0
	for _, g := range games {
		if g.GuildID != guild || g.Control.Kind() != clock.KindCorrespondence {
			continue
		}
		p, err := s.vacationGame(ctx, g.ID)
		if err != nil {
			return paused, err
		}
		if p {
			paused++
		}
	}
	return paused, nil
}

// vacationGame brings the clock of game id in line with the vacation of its player to
// move, under the game's lock; it reports whether the clock is paused.
func (s *Service) vacationGame(ctx context.Context, id uint64) (bool, error) {
	unlock := s.lockGame(id)
	defer unlock()
	return s.vacationGameLocked(ctx, id)
}

// vacationGameLocked is vacationGame for a caller that holds the game's lock.
func (s *Service) vacationGameLocked(ctx context.Context, id uint64) (bool, error) {
	for attempt := 1; ; attempt++ {
		e, err := s.load(ctx, id)
		if err != nil {
			return false, err
		}
		if !e.rec.Live() {
			return false, nil
		}
		st := &opState{s: s, now: s.clock.Now(), rec: e.rec.Clone(), chess: e.chess}
		changed, err := s.vacationClock(ctx, st)
		if err != nil || !changed {
			return pausedClock(e.rec), err
		}
		_, err = s.commit(ctx, st, "")
		if errors.Is(err, storage.ErrConflict) && attempt < maxOpAttempts {
			s.forget(id)
			continue
		}
		return pausedClock(st.rec), err
	}
}

func pausedClock(rec *storage.Game) bool { return rec.Clock != nil && rec.Clock.State == clock.Paused }

// vacationAllowed reports whether a vacation may pause game rec: a correspondence game
// of a server, outside a tournament or in one whose organiser allows vacations.
func (s *Service) vacationAllowed(ctx context.Context, rec *storage.Game) (bool, error) {
	if rec.GuildID == "" || rec.Control.Kind() != clock.KindCorrespondence {
		return false, nil
	}
	if rec.NoShow <= 0 { // not a tournament game
		return true, nil
	}
	return storage.Read(ctx, s.db, func(tx storage.Tx) (bool, error) {
		tg, err := tx.TournamentGame(rec.ID)
		if errors.Is(err, storage.ErrNotFound) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		t, err := tx.Tournament(tg.TournamentID)
		if errors.Is(err, storage.ErrNotFound) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		return !t.NoVacation, nil
	})
}

// vacationClock brings the clock of the working record in line with the vacation of
// the player to move at st.now: paused (from the vacation's start, or the turn's if
// later) while they are on one, running otherwise. It reports whether it changed it.
func (s *Service) vacationClock(ctx context.Context, st *opState) (bool, error) {
	rec := st.rec
	c := rec.Clock
	if !rec.Live() || st.chess.Over() || c == nil || (c.State != clock.Running && c.State != clock.Paused) || rec.Player(c.Turn).ID == "" {
		return false, nil
	}
	allowed, err := s.vacationAllowed(ctx, rec)
	if err != nil {
		return false, fmt.Errorf("game %d: vacation rules: %w", rec.ID, err)
	}
	if !allowed && c.State == clock.Running {
		return false, nil
	}
	on := false
	var from time.Time
	if allowed {
		v, err := s.readVacation(ctx, rec.GuildID, rec.Player(c.Turn).ID)
		if err != nil {
			return false, err
		}
		on, from = v.On(st.now), v.Start
	}
	switch {
	case on && c.State == clock.Running:
		at := from
		if c.Since.After(at) {
			at = c.Since
		}
		if at.After(st.now) {
			at = st.now
		}
		if err := c.Pause(at); err != nil {
			return false, nil // the flag fell before the vacation began: it is the flag's
		}
		return true, nil
	case !on && c.State == clock.Paused:
		return true, c.Resume(st.now)
	}
	return false, nil
}

// resumeForRequest lets a request act on a clock a vacation holds: the working clock
// runs again from now (no time passes), and vacationClock pauses it again after the
// request if the player to move is still on vacation.
func (st *opState) resumeForRequest() {
	if c := st.rec.Clock; c != nil && c.State == clock.Paused {
		_ = c.Resume(st.now) // paused, so it resumes
	}
}

// autoVacation returns the working copies of game e in which the player whose flag
// falls at the deadline goes on vacation instead, or nil when they do not: they must
// have opted in and have days left, and the game must allow vacations. A player already
// on vacation whose clock still ran (a process stopped between the two writes) gets it
// paused.
func (s *Service) autoVacation(ctx context.Context, e *entry, now time.Time) (*opState, error) {
	rec := e.rec
	c := rec.Clock
	if c == nil || c.State != clock.Running {
		return nil, nil
	}
	if ok, err := s.vacationAllowed(ctx, rec); err != nil || !ok {
		return nil, err
	}
	turn := c.Turn
	player := rec.Player(turn)
	if player.ID == "" {
		return nil, nil
	}
	v, err := s.readVacation(ctx, rec.GuildID, player.ID)
	if err != nil {
		return nil, err
	}
	deadline := c.FlagAt()
	st := &opState{s: s, now: now, rec: rec.Clone(), chess: e.chess}
	if v.On(deadline) {
		if changed, err := s.vacationClock(ctx, st); err != nil || changed {
			return st, err
		}
		return nil, nil
	}
	if !v.AutoOptIn {
		return nil, nil
	}
	wc := st.rec.Clock
	if v.On(now) {
		// A vacation began after this deadline (another game's flag started it first):
		// this game waits with it, the record as it is.
		wc.Left[turn], wc.Spent, wc.State, wc.Since = rec.Control.PerMove, 0, clock.Paused, deadline
		until := v.Until
		st.events = func(g *Game) []Event {
			return []Event{VacationStarted{Game: g, Player: player, Color: turn, Until: until}}
		}
		return st, nil
	}
	allowance, err := s.allowance(ctx, rec.GuildID)
	if err != nil {
		return nil, err
	}
	w := v.Clone()
	w.Close(w.Until)
	year := deadline.UTC().Year()
	left := allowance - w.UsedIn(year)
	until := deadline.Add(time.Duration(left) * storage.VacationDay)
	if left <= 0 || !until.After(now) {
		return nil, nil
	}
	if w.Year != year {
		w.Year, w.Used = year, 0
	}
	w.Start, w.Until, w.Automatic = deadline, until, true
	w.Taken++
	wc.Left[turn], wc.Spent, wc.State, wc.Since = rec.Control.PerMove, 0, clock.Paused, deadline
	st.after = func(tx storage.Tx) error { return tx.PutVacation(w) }
	st.events = func(g *Game) []Event {
		return []Event{VacationStarted{Game: g, Player: player, Color: turn, Until: until}}
	}
	s.log.Info("games: auto vacation instead of a flag", "game", rec.ID, "guild", rec.GuildID, "user", player.ID, "until", until)
	return st, nil
}

// commitVacation commits the working copies of an auto vacation (autoVacation), then
// has the player's other games brought in line by the vacation's timer.
func (s *Service) commitVacation(ctx context.Context, st *opState) (*entry, error) {
	ne, err := s.commit(ctx, st, "")
	if err != nil {
		return nil, err
	}
	c := ne.rec.Clock
	s.sched.Set(s.vacationKey(ne.rec.GuildID, ne.rec.Player(c.Turn).ID), s.clock.Now())
	return ne, nil
}

// pauseForVacation pauses, at start-up, the running clock of a restored correspondence
// game whose player to move is on one of the open vacations (a process stopped between
// the vacation's write and its games'), from the vacation's start or the turn's: before
// the downtime credit moves the turn's start. It reports whether it paused it.
func (s *Service) pauseForVacation(ctx context.Context, e *entry, open []*storage.Vacation, now time.Time) bool {
	rec := e.rec
	c := rec.Clock
	if c == nil || c.State != clock.Running || rec.Control.Kind() != clock.KindCorrespondence {
		return false
	}
	player := rec.Player(c.Turn).ID
	for _, v := range open {
		if v.GuildID != rec.GuildID || v.UserID != player || !v.On(now) {
			continue
		}
		if ok, err := s.vacationAllowed(ctx, rec); err != nil || !ok {
			return false
		}
		at := v.Start
		if c.Since.After(at) {
			at = c.Since
		}
		return c.Pause(at) == nil // a flag that fell before the vacation is left to fall
	}
	return false
}

// restoreVacations brings the clocks of the restored games in line with the vacations
// (a clock still paused by a vacation that has ended since), and sets the timers of
// the open vacations of the servers this service owns.
func (s *Service) restoreVacations(ctx context.Context, entries []*entry, open []*storage.Vacation) {
	on := make(map[member]bool, len(open))
	for _, v := range open {
		on[member{v.GuildID, v.UserID}] = true
		if s.ownsGuild(v.GuildID) {
			s.sched.Set(s.vacationKey(v.GuildID, v.UserID), v.Until)
		}
	}
	for _, e := range entries {
		c := e.rec.Clock
		if c == nil || e.rec.Control.Kind() != clock.KindCorrespondence {
			continue
		}
		if c.State == clock.Paused || on[member{e.rec.GuildID, e.rec.Player(c.Turn).ID}] {
			if _, err := s.vacationGame(ctx, e.rec.ID); err != nil {
				s.log.Error("games: bring a game in line with a vacation", "game", e.rec.ID, "err", err)
			}
		}
	}
}

// adoptVacations brings the open vacations of the servers this service now owns in
// line: their games, and their timers.
func (s *Service) adoptVacations(ctx context.Context) error {
	open, err := storage.Read(ctx, s.db, storage.Tx.OpenVacations)
	if err != nil {
		return fmt.Errorf("adopt vacations: %w", err)
	}
	for _, v := range open {
		if !s.ownsGuild(v.GuildID) {
			continue
		}
		if _, err := s.syncVacation(ctx, v.GuildID, v.UserID); err != nil {
			return fmt.Errorf("adopt vacation of %s in guild %s: %w", v.UserID, v.GuildID, err)
		}
	}
	return nil
}

// VacationsOf returns, for each side of game g, the end of the vacation its player is
// on in the game's server at now (zero when none, or when the game is not one a
// vacation pauses): what a board shows.
func (s *Service) VacationsOf(ctx context.Context, g *storage.Game) ([2]time.Time, error) {
	var out [2]time.Time
	if ok, err := s.vacationAllowed(ctx, g); err != nil || !ok {
		return out, err
	}
	now := s.clock.Now()
	for _, c := range []chesscore.Color{chesscore.White, chesscore.Black} {
		p := g.Player(c)
		if p.ID == "" {
			continue
		}
		v, err := s.readVacation(ctx, g.GuildID, p.ID)
		if err != nil {
			return out, err
		}
		if v.On(now) {
			out[c] = v.Until
		}
	}
	return out, nil
}
