// ops.go: the requests on a game (move, draw offers, claims, resignation, abort,
// takebacks), each one load → validate → apply → commit under the game's lock.

package games

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

// opState is a request being applied to working copies of a game.
type opState struct {
	s      *Service
	now    time.Time
	rec    *storage.Game   // working copy of the record
	chess  *chesscore.Game // working copy of the chess
	color  chesscore.Color // the requester's colour
	effect Effect
	san    string
	// endedAt, if set, is the instant the game ended (a flag fall's deadline); else now.
	endedAt time.Time
	// events returns the events of the request, given the committed snapshot.
	events func(v *Game) []Event
	// after, if set, runs in the transaction that commits the request (a berserk's
	// record in its tournament).
	after func(tx storage.Tx) error
}

// gameOp runs fn as the request a on its game by one of its players: the game's lock,
// the receipt of a repeated request, the player, a fallen flag, the game being live and
// the expected ply are handled here; fn validates and applies the request to the
// working copies, which are committed (with the receipt) only if fn succeeds.
func (s *Service) gameOp(ctx context.Context, a Action, effect Effect, fn func(st *opState) error) (*Result, error) {
	player := func(rec *storage.Game) (chesscore.Color, bool, error) {
		color, ok := rec.ColorOf(a.UserID)
		if !ok {
			return color, false, fmt.Errorf("game %d: %w", a.GameID, ErrNotAPlayer)
		}
		return color, true, nil
	}
	if a.After != nil {
		apply := fn
		fn = func(st *opState) error {
			if err := apply(st); err != nil {
				return err
			}
			rec := st.rec // the working record: settled (outcome, clock) before the commit runs this
			st.addAfter(func(tx storage.Tx) error { return a.After(tx, rec) })
			return nil
		}
	}
	return s.op(ctx, a.RequestID, a.GameID, a.Expect, effect, player, fn)
}

// op runs fn as a request on game id by whoever who admits: a player (who returns
// their colour and true) or an arbiter (false); see gameOp.
func (s *Service) op(ctx context.Context, requestID string, id uint64, expect Ply, effect Effect,
	who func(rec *storage.Game) (color chesscore.Color, player bool, err error), fn func(st *opState) error) (*Result, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	unlock := s.lockGame(id)
	defer unlock()
	for attempt := 1; ; attempt++ {
		res, err := s.opOnce(ctx, requestID, id, expect, effect, who, fn)
		if err == nil || attempt == maxOpAttempts || ctx.Err() != nil || !s.staleCopy(ctx, id, err) {
			return res, err
		}
		s.forget(id)
	}
}

// maxOpAttempts bounds how often a request is run again after another process changed
// its game under it.
const maxOpAttempts = 5

// staleCopy reports whether a request on game id failed because this process's copy of
// the game is out of date: the store refused the write (another process changed the game
// or answered the same request first), or the request was refused against a cached copy
// older than the stored game. The caller holds the game's lock.
func (s *Service) staleCopy(ctx context.Context, id uint64, err error) bool {
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrRepeatedRequest) {
		return true
	}
	e := s.cached(id)
	if e == nil {
		return false
	}
	rec, rerr := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
	return rerr == nil && rec.Version != e.rec.Version
}

// forget drops the cached copy of game id, so the next request reloads it from the store.
// The caller holds the game's lock.
func (s *Service) forget(id uint64) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	delete(s.cache, id)
}

// opOnce is one attempt of op under the game's lock: the committed game (cached or
// loaded), the receipt, the checks, fn and the commit.
func (s *Service) opOnce(ctx context.Context, requestID string, id uint64, expect Ply, effect Effect,
	who func(rec *storage.Game) (color chesscore.Color, player bool, err error), fn func(st *opState) error) (*Result, error) {
	e, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	// The receipt is read after the game: another process commits both together, so a
	// game loaded after that commit comes with its receipt, and the request is answered
	// from it rather than refused against the position it produced.
	if res, ok, err := s.receipt(ctx, requestID); err != nil || ok {
		return res, err
	}
	color, player, err := who(e.rec)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	if flagFallen(e.rec, now) {
		flagged := e.rec.Clock.Turn
		ne, err := s.commitFlag(ctx, e, now)
		if err != nil {
			return nil, err
		}
		if !ne.rec.Live() {
			over := overError(ne.rec)
			if player && flagged == color {
				return nil, fmt.Errorf("%w: %w", ErrTimeUp, over)
			}
			return nil, over
		}
		e = ne // an auto vacation instead of the fall (vacation.go)
	}
	if !e.rec.Live() {
		return nil, overError(e.rec)
	}
	if expect.set && expect.n != e.rec.Ply() {
		return nil, fmt.Errorf("%w (the game is at ply %d, the request was made at ply %d)", ErrStale, e.rec.Ply(), expect.n)
	}
	st := &opState{s: s, now: now, rec: e.rec.Clone(), chess: e.chess.Clone(), color: color, effect: effect}
	st.resumeForRequest()
	if err := fn(st); err != nil {
		return nil, err
	}
	if _, err := s.vacationClock(ctx, st); err != nil { // a vacation holds the clock of the player now to move
		return nil, err
	}
	ne, err := s.commit(ctx, st, requestID)
	if err != nil {
		return nil, err
	}
	return &Result{Effect: st.effect, Game: ne.view(), SAN: st.san, Ply: ne.rec.Ply(), Outcome: ne.rec.Outcome}, nil
}

// commit settles the working copies (an ending stops the clock and clears the offers),
// writes them with the receipt, and then publishes the new entry: cache, timers, events.
func (s *Service) commit(ctx context.Context, st *opState, requestID string) (*entry, error) {
	p := s.prepare(st, requestID)
	if err := s.db.Commit(ctx, p.change); err != nil {
		return nil, fmt.Errorf("commit game %d: %w", st.rec.ID, err)
	}
	p.publish()
	return p.ne, nil
}

// prepared is a change ready to commit and what to publish once it is.
type prepared struct {
	s      *Service
	change *storage.Change
	ne     *entry
	events func(v *Game) []Event
	ended  bool
}

// prepare settles the working copies and builds the change that commits them.
func (s *Service) prepare(st *opState, requestID string) *prepared {
	ended := st.rec.Live() && st.chess.Over()
	st.rec.Outcome = st.chess.Outcome()
	if ended {
		st.finish()
		id := st.rec.ID
		st.addAfter(func(tx storage.Tx) error { return tx.DeletePlans(id) }) // plans die with the game
	}
	// What the dead-position test after the move found (who can still mate) goes with
	// the record: the game rebuilt from it (another process, or after the cache let it
	// go) answers a flag fall or a resignation without a search.
	st.rec.Mates = chesscore.MateKnowledge{}
	if k := st.chess.MateKnowledge(); k.Known() {
		st.rec.Mates = k
	}
	change := &storage.Change{Game: st.rec}
	if requestID != "" {
		change.Receipt = &storage.Receipt{RequestID: requestID, At: st.now, Effect: string(st.effect),
			GameID: st.rec.ID, Ply: st.rec.Ply(), SAN: st.san, Outcome: st.rec.Outcome}
	}
	ne := &entry{rec: st.rec, chess: st.chess}
	if ended && s.opts.OnFinish != nil {
		v := ne.view()
		change.After = func(tx storage.Tx) error { return s.opts.OnFinish(tx, v) }
	}
	if after, finish := st.after, change.After; after != nil {
		change.After = func(tx storage.Tx) error {
			if err := after(tx); err != nil {
				return err
			}
			if finish != nil {
				return finish(tx)
			}
			return nil
		}
	}
	return &prepared{s: s, change: change, ne: ne, events: st.events, ended: ended}
}

// publish makes the committed change current.
func (p *prepared) publish() { p.s.publish(p.ne, p.events, p.ended) }

// finish records the end of the game in the working record.
func (st *opState) finish() {
	st.rec.Ended = st.now
	if !st.endedAt.IsZero() {
		st.rec.Ended = st.endedAt
	}
	if c := st.rec.Clock; c != nil {
		c.Stop(st.now)
	}
	st.rec.DrawOffer, st.rec.Takeback, st.rec.DrawWithMove = storage.Offer{}, storage.Offer{}, false
	st.rec.AbortAt = time.Time{}
}

// publish makes a committed entry current: cache, timers, then the events (a GameOver
// last when the change ended the game).
func (s *Service) publish(ne *entry, events func(v *Game) []Event, ended bool) {
	ne.wrote = true
	s.remember(ne)
	s.schedule(ne)
	if events == nil && !ended {
		return
	}
	v := ne.view()
	var evs []Event
	if events != nil {
		evs = events(v)
	}
	if ended {
		evs = append(evs, GameOver{Game: v, Outcome: ne.rec.Outcome})
	}
	s.events.push(evs...)
}

// flagFallen reports whether the side to move of a live game has run out of time at now.
func flagFallen(rec *storage.Game, now time.Time) bool {
	c := rec.Clock
	return rec.Live() && c != nil && c.State == clock.Running && c.Flagged(now)
}

// commitFlag ends a game whose flag has fallen (FIDE 6.9 through chesscore) and commits
// it. The caller holds the game's lock.
func (s *Service) commitFlag(ctx context.Context, e *entry, now time.Time) (*entry, error) {
	if st, err := s.autoVacation(ctx, e, now); err != nil || st != nil {
		if err != nil {
			return nil, err
		}
		return s.commitVacation(ctx, st)
	}
	st, err := s.flagFall(e, now)
	if err != nil {
		return nil, err
	}
	return s.commit(ctx, st, "")
}

// flagFall applies a flag fall to working copies of the game, ready to commit. It is the
// costly part of a flag (6.9 asks whether the opponent could still checkmate).
func (s *Service) flagFall(e *entry, now time.Time) (*opState, error) {
	st := &opState{s: s, now: now, rec: e.rec.Clone(), chess: e.chess.Clone()}
	flagged := st.rec.Clock.Turn
	deadline := st.rec.Clock.FlagAt()
	end := func() error { return st.chess.FlagFall(flagged) }
	if Unplayed(st.rec) {
		end = st.chess.Abort // nobody loses a game that was never played
	}
	if err := end(); err != nil {
		return nil, fmt.Errorf("flag fall in game %d: %w", e.rec.ID, err)
	}
	st.endedAt = deadline
	st.events = func(v *Game) []Event { return []Event{FlagFell{Game: v, Color: flagged}} }
	return st, nil
}

// Unplayed reports whether a side of the game has not moved yet outside a tournament:
// such a game that ends by resignation or on time is aborted instead (no result, never
// rated), so a second account cannot hand out rating by resigning at once. A
// tournament game keeps its result for the event (its no-show rule covers absence);
// the ladder does not rate it either (ladder.Counts).
func Unplayed(rec *storage.Game) bool { return rec.Ply() < 2 && rec.NoShow <= 0 }

// overError describes a finished game as an error wrapping ErrGameOver.
func overError(rec *storage.Game) error {
	return fmt.Errorf("%w: %s", ErrGameOver, rec.Outcome)
}

// moverAt returns the side that makes the move at ply (0 is the first move).
func (st *opState) moverAt(ply int) chesscore.Color {
	start := st.chess.Start()
	c := start.Turn()
	if ply%2 == 1 {
		c = c.Other()
	}
	return c
}

// recordMove adds a move the working chess has just played to the record: the clock is
// pressed (the mover's time at the move is kept for takebacks and PGN), offers the
// mover leaves unanswered lapse, and the first-move abort deadline moves on.
func (st *opState) recordMove(m chesscore.Move) error {
	rec := st.rec
	mover := st.moverAt(rec.Ply())
	if c := rec.Clock; c != nil {
		left := c.Remaining(mover, st.now).Truncate(time.Millisecond)
		if err := c.Press(st.now); err != nil {
			return fmt.Errorf("%w: %w", ErrTimeUp, err)
		}
		rec.MoveClocks = append(rec.MoveClocks, left)
		if c.FreeFirstMoves && c.Moves[c.Turn] == 0 {
			rec.AbortAt = st.now.Add(st.s.firstMoveWait(rec))
		} else {
			rec.AbortAt = time.Time{}
		}
	}
	rec.Moves = append(rec.Moves, m)
	sans := st.chess.SAN()
	st.san = sans[len(sans)-1]
	rec.DrawOffer = storage.Offer{} // moving declines the opponent's offer (9.1.2.3)
	rec.DrawWithMove = false
	rec.Takeback = storage.Offer{}
	rec.ReminderPly = 0
	rec.Moved = st.now
	return nil
}

// Move plays a move for the player to move, optionally offering a draw with it. The
// move is acknowledged (the call returns) only once it is committed.
func (s *Service) Move(ctx context.Context, r MoveRequest) (*Result, error) {
	return s.gameOp(ctx, r.Action, EffectMoved, func(st *opState) error {
		if st.chess.Turn() != st.color {
			return ErrNotYourTurn
		}
		if r.OfferDraw {
			if err := st.canOfferDraw(st.rec.Ply() + 1); err != nil {
				return err
			}
		}
		offered := r.OfferDraw || st.rec.DrawWithMove // an offer made before the move goes with it
		m, err := st.chess.PlaySAN(r.Move)
		if err != nil {
			if errors.Is(err, chesscore.ErrGameOver) {
				return err
			}
			return fmt.Errorf("%w: %w", ErrIllegalMove, err)
		}
		if err := st.recordMove(m); err != nil {
			return err
		}
		// An offer made before the move was checked then; one that no longer may stand
		// (it cannot, short of a limit reached meanwhile) lapses rather than refuse the move.
		offered = offered && !st.chess.Over() && st.canOfferDraw(st.rec.Ply()) == nil
		if offered {
			st.offerDraw()
		}
		planned, replied, err := st.answerWithPlan(ctx, m, st.san, offered)
		if err != nil {
			return err
		}
		if replied { // the opponent's conditional reply is played with the move
			st.events = planned
			return nil
		}
		st.events = func(v *Game) []Event {
			if !v.Live() {
				return nil
			}
			opp := st.color.Other()
			evs := []Event{YourTurn{Game: v, Player: v.Player(opp), Color: opp}}
			if offered {
				evs = append(evs, DrawOffered{Game: v, By: st.color})
			}
			if planned != nil {
				evs = append(evs, planned(v)...)
			}
			return evs
		}
		return nil
	})
}

// canOfferDraw checks a draw offer by the requester that would stand at ply.
func (st *opState) canOfferDraw(ply int) error {
	rec, c := st.rec, st.color
	switch {
	case rec.DrawOffer.Pending && rec.DrawOffer.By == c:
		return fmt.Errorf("%w: your draw offer is still open", ErrOfferPending)
	case rec.DrawOffer.Pending:
		return fmt.Errorf("%w: your opponent has offered a draw; accept or decline it", ErrOfferPending)
	case ply < 2:
		return fmt.Errorf("%w: a draw can be offered once both players have made a move", ErrTooEarly)
	case rec.DrawOffers[c] >= st.s.opts.MaxDrawOffers:
		return fmt.Errorf("%w: you have made %d draw offers in this game, the most allowed", ErrTooManyDrawOffers, rec.DrawOffers[c])
	case rec.LastDrawOffer[c] == ply:
		return fmt.Errorf("%w: you have already offered a draw on this move; make another move first", ErrTooManyDrawOffers)
	}
	return nil
}

// offerDraw records the requester's offer at the current ply.
func (st *opState) offerDraw() {
	c, ply := st.color, st.rec.Ply()
	st.rec.DrawOffer = storage.Offer{Pending: true, By: c, Ply: ply}
	st.rec.DrawOffers[c]++
	st.rec.LastDrawOffer[c] = ply
}

// OfferDraw offers a draw as FIDE 9.1.2.1 wants it, with one's move. On one's own turn
// the offer waits for one's next move and is made with it (the opponent sees it with
// the move, as with MoveRequest.OfferDraw; Effect EffectDrawWithMove). While the
// opponent is to move it is made at once if one moved at most
// Options.DrawOfferWindow ago, and refused with ErrOfferWithMove later on: an offer
// out of the blue while the opponent thinks is what 11.5 warns against. The offer
// stands until the opponent accepts, declines or moves.
func (s *Service) OfferDraw(ctx context.Context, a Action) (*Result, error) {
	return s.gameOp(ctx, a, EffectDrawOffered, func(st *opState) error {
		if st.chess.Turn() == st.color {
			if st.rec.DrawWithMove {
				return fmt.Errorf("%w: your draw offer already goes with your next move", ErrOfferPending)
			}
			if err := st.canOfferDraw(st.rec.Ply() + 1); err != nil {
				return err
			}
			st.rec.DrawWithMove = true
			st.effect = EffectDrawWithMove
			return nil
		}
		if err := st.canOfferDraw(st.rec.Ply()); err != nil {
			return err
		}
		if moved := st.rec.Moved; moved.IsZero() || st.now.Sub(moved) > st.s.opts.DrawOfferWindow {
			return fmt.Errorf("%w: offer it on your turn (it goes with your next move) or right after your move", ErrOfferWithMove)
		}
		st.offerDraw()
		st.events = func(v *Game) []Event { return []Event{DrawOffered{Game: v, By: st.color}} }
		return nil
	})
}

// pendingFromOpponent checks that an offer waits for the requester's answer.
func (st *opState) pendingFromOpponent(o storage.Offer, none error) error {
	if !o.Pending {
		return none
	}
	if o.By == st.color {
		return ErrCannotAcceptOwn
	}
	return nil
}

// AcceptDraw accepts the opponent's draw offer: the game is drawn by agreement.
func (s *Service) AcceptDraw(ctx context.Context, a Action) (*Result, error) {
	return s.gameOp(ctx, a, EffectDrawAccepted, func(st *opState) error {
		if err := st.pendingFromOpponent(st.rec.DrawOffer, ErrNoDrawOffer); err != nil {
			return err
		}
		return st.chess.AgreeDraw()
	})
}

// DeclineDraw declines the opponent's draw offer.
func (s *Service) DeclineDraw(ctx context.Context, a Action) (*Result, error) {
	return s.gameOp(ctx, a, EffectDrawDeclined, func(st *opState) error {
		if err := st.pendingFromOpponent(st.rec.DrawOffer, ErrNoDrawOffer); err != nil {
			if errors.Is(err, ErrCannotAcceptOwn) {
				return fmt.Errorf("%w: an offer cannot be withdrawn (FIDE 9.1.2.2)", ErrCannotAcceptOwn)
			}
			return err
		}
		st.rec.DrawOffer = storage.Offer{}
		st.events = func(v *Game) []Event { return []Event{DrawDeclined{Game: v, By: st.color}} }
		return nil
	})
}

// ClaimDraw claims a draw by threefold repetition or the fifty moves, on the board or
// with an intended move. Gambit checks a claim before acting: an incorrect claim is
// refused with ErrIncorrectClaim and changes nothing (the intended move is not played,
// and no time is added, unlike FIDE 9.5.3 over the board).
func (s *Service) ClaimDraw(ctx context.Context, r ClaimRequest) (*Result, error) {
	return s.gameOp(ctx, r.Action, EffectDrawClaimed, func(st *opState) error {
		if st.chess.Turn() != st.color {
			return fmt.Errorf("%w: only the player to move may claim a draw", ErrNotYourTurn)
		}
		intended := chesscore.NullMove
		if r.Move != "" {
			pos := st.chess.Position()
			m, err := pos.ParseSAN(r.Move)
			if err != nil {
				return fmt.Errorf("%w: %w", ErrIllegalMove, err)
			}
			intended = m
		}
		if err := st.chess.ClaimDraw(intended); err != nil {
			return err // the working copies are dropped: an incorrect claim changes nothing
		}
		if intended != chesscore.NullMove {
			if err := st.recordMove(intended); err != nil {
				return err
			}
		}
		return nil
	})
}

// Resign resigns the game for the requester, whoever is to move. The opponent wins,
// unless they could not checkmate by any series of legal moves (then it is a draw).
// Before both sides have moved (outside a tournament) the game is aborted instead,
// with Effect EffectAborted: no result, so nothing to rate.
func (s *Service) Resign(ctx context.Context, a Action) (*Result, error) {
	return s.gameOp(ctx, a, EffectResigned, func(st *opState) error {
		if Unplayed(st.rec) {
			st.effect = EffectAborted
			return st.chess.Abort()
		}
		return st.chess.Resign(st.color)
	})
}

// Abort calls the game off without a result; either player may, until both sides have
// made a move.
func (s *Service) Abort(ctx context.Context, a Action) (*Result, error) {
	return s.gameOp(ctx, a, EffectAborted, func(st *opState) error {
		if st.rec.Ply() >= 2 {
			return ErrTooLateToAbort
		}
		if st.rec.NoShow > 0 {
			return fmt.Errorf("%w: a tournament game cannot be aborted (resign instead)", ErrBadRequest)
		}
		return st.chess.Abort()
	})
}

// takebackPlies returns how many plies a takeback by c undoes at the current ply: one
// when c made the last move, two (the opponent's reply too) when c is to move.
func (st *opState) takebackPlies(c chesscore.Color) int {
	if st.chess.Turn() == c {
		return 2
	}
	return 1
}

// takebacksAllowed checks that the game allows takebacks. A completed move is final
// (FIDE 4.7): a tournament game never allows them, a rated game only where the guild's
// settings do (RatedTakebacks), a casual game (against the engine too) always.
func (st *opState) takebacksAllowed(ctx context.Context) error {
	rec := st.rec
	switch {
	case rec.NoShow > 0:
		return fmt.Errorf("%w: in a tournament game a completed move is final (FIDE 4.7)", ErrNoTakebacks)
	case !rec.Rated:
		return nil
	}
	gs, err := storage.Read(ctx, st.s.db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings(rec.GuildID) })
	if err != nil {
		return fmt.Errorf("read settings of guild %s: %w", rec.GuildID, err)
	}
	if !gs.RatedTakebacks {
		return fmt.Errorf("%w: in a rated game a completed move is final (FIDE 4.7); this server allows takebacks in casual games only", ErrNoTakebacks)
	}
	return nil
}

// RequestTakeback asks the opponent to let the requester take back their last move (and
// the opponent's reply, if they have made one), where the game allows takebacks
// (ErrNoTakebacks otherwise).
func (s *Service) RequestTakeback(ctx context.Context, a Action) (*Result, error) {
	return s.gameOp(ctx, a, EffectTakebackRequested, func(st *opState) error {
		if err := st.takebacksAllowed(ctx); err != nil {
			return err
		}
		rec, c := st.rec, st.color
		switch {
		case rec.Takeback.Pending:
			return ErrOfferPending
		case rec.Ply() < st.takebackPlies(c):
			return ErrNothingToTakeBack
		case rec.LastTakeback[c] == rec.Ply():
			return ErrAlreadyAsked
		}
		rec.Takeback = storage.Offer{Pending: true, By: c, Ply: rec.Ply()}
		rec.LastTakeback[c] = rec.Ply()
		st.events = func(v *Game) []Event { return []Event{TakebackRequested{Game: v, By: c}} }
		return nil
	})
}

// AcceptTakeback grants the opponent's takeback request: the moves are undone and the
// clocks set back to what they showed when those moves were made (the side that was
// thinking is charged its thinking time). The game must still allow takebacks (a
// server may have turned them off in rated games since the request).
func (s *Service) AcceptTakeback(ctx context.Context, a Action) (*Result, error) {
	return s.gameOp(ctx, a, EffectTakebackAccepted, func(st *opState) error {
		rec := st.rec
		if err := st.pendingFromOpponent(rec.Takeback, ErrNoTakeback); err != nil {
			return err
		}
		if err := st.takebacksAllowed(ctx); err != nil {
			return err
		}
		by := rec.Takeback.By
		n := st.takebackPlies(by)
		if rec.Ply() < n {
			return ErrNothingToTakeBack
		}
		if c := rec.Clock; c != nil && c.State == clock.Running {
			times := len(rec.MoveClocks) == rec.Ply()
			c.Left[c.Turn] = c.Remaining(c.Turn, st.now)
			for i := range n {
				ply := rec.Ply() - 1 - i
				mover := st.moverAt(ply)
				if times {
					c.Left[mover] = rec.MoveClocks[ply]
				}
				c.Moves[mover] = max(0, c.Moves[mover]-1)
			}
			c.Turn, c.Since, c.Spent = by, st.now, 0
			if times {
				rec.MoveClocks = rec.MoveClocks[:rec.Ply()-n]
			}
			if c.FreeFirstMoves && c.Moves[by] == 0 {
				rec.AbortAt = st.now.Add(s.firstMoveWait(rec))
			}
		}
		for range n {
			if err := st.chess.Undo(); err != nil {
				return err
			}
		}
		rec.Moves = rec.Moves[:rec.Ply()-n]
		rec.Takeback, rec.DrawOffer, rec.DrawWithMove = storage.Offer{}, storage.Offer{}, false
		rec.ReminderPly = 0
		rec.Moved = time.Time{}    // the window for an offer after one's move closes
		for i := range rec.Notes { // the arbiter's notes stay, on the position they now follow
			rec.Notes[i].Ply = min(rec.Notes[i].Ply, rec.Ply())
		}
		id := rec.ID // the plans answered moves now undone
		st.after = func(tx storage.Tx) error { return tx.DeletePlans(id) }
		st.events = func(v *Game) []Event {
			return []Event{TakebackAccepted{Game: v, By: by}, YourTurn{Game: v, Player: v.Player(by), Color: by}}
		}
		return nil
	})
}

// DeclineTakeback refuses the opponent's takeback request.
func (s *Service) DeclineTakeback(ctx context.Context, a Action) (*Result, error) {
	return s.gameOp(ctx, a, EffectTakebackDeclined, func(st *opState) error {
		if err := st.pendingFromOpponent(st.rec.Takeback, ErrNoTakeback); err != nil {
			return err
		}
		st.rec.Takeback = storage.Offer{}
		st.events = func(v *Game) []Event { return []Event{TakebackDeclined{Game: v, By: st.color}} }
		return nil
	})
}
