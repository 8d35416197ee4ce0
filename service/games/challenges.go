// challenges.go: challenges (direct or open) and the creation of games.
//
// With several processes on one store, a challenge's answer and its expiry are decided
// by the store: each is written only if the stored challenge is still pending, in the
// transaction of the write, so of an accept and a decline (or two accepts, or an accept
// and an expiry) in two processes one wins, and the other process answers from what
// the store then holds. The expiry is timed by every process that knows the challenge
// (the one that made it, those that read it at start-up, those that adopt it:
// AdoptChallenges); the one whose write wins announces it, once.

package games

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/chess960"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/storage"
)

// ChallengeRequest invites a user (direct) or anyone in the channel (open) to a game.
type ChallengeRequest struct {
	// RequestID is the idempotency key (the interaction id).
	RequestID string
	// GuildID and ChannelID say where the challenge is made.
	GuildID, ChannelID string
	// From is the challenger; To the challenged user, or empty (To.ID "") for an open
	// challenge.
	From, To storage.Player
	// Control is the time control in the notation players type ("5+3", "3d", "-"); empty
	// means the guild's default.
	Control string
	// Color is the challenger's colour: white, black or random (the default).
	Color storage.ColorChoice
	// Rated asks for a game that counts for the ladder.
	Rated bool
	// FEN is a start position (empty for the standard one, or for Chess960 the one
	// Position names).
	FEN string
	// Variant and Position choose the kind of chess, as in StartRequest: a Chess960
	// position is drawn when the challenge is made, so both players see it.
	Variant  chesscore.Variant
	Position int
	// ExpiresIn is how long the challenge waits (0: the service's default).
	ExpiresIn time.Duration
	// Roles are the challenger's roles in the guild, checked against the guild's
	// ChallengeRole setting.
	Roles []string
	// Guest makes a challenge where the bot is not a member (storage.Game.Guest):
	// GuildID must be empty and the challenge unrated (a guest game belongs to no
	// server, so to no ladder).
	Guest bool
}

// ChallengeAction is an answer to a challenge: accept, decline or cancel.
type ChallengeAction struct {
	RequestID   string
	ChallengeID uint64
	// User is the one answering (their name is stored when they accept).
	User storage.Player
}

// StartRequest creates a game directly, without a challenge (a terminal game, a game
// against the engine, an arranged ladder game).
type StartRequest struct {
	RequestID          string
	GuildID, ChannelID string
	White, Black       storage.Player
	Control            string
	FEN                string
	Rated              bool
	// Variant is the kind of chess: chesscore.Standard (the zero value) or
	// chesscore.Chess960.
	Variant chesscore.Variant
	// Position is, for a Chess960 game without FEN, the number of its start position (0
	// to 959), or RandomPosition for one drawn uniformly from the 960.
	Position int
	// After, if set, runs in the transaction that creates the game, with the new record
	// (its id assigned): a game against the engine records the engine's side there. An
	// error fails the request and nothing is written. It may run more than once (a
	// retried group commit), so it must write only through w.
	After func(tx storage.Tx, g *storage.Game) error
	// NoShow, when positive, is the forfeit time of a tournament game with a live
	// control: a side that has not made its first move this long after its turn began
	// loses by forfeit (chesscore.NoShow) instead of the game being aborted after
	// Options.FirstMoveTimeout.
	NoShow time.Duration
	// BlackTime, when positive, is Black's main time at the start of a game with a live
	// control, instead of the control's base time (White keeps the base): an Armageddon
	// game, where White has more time, or a time handicap.
	BlackTime time.Duration
	// Guest makes a guest game (storage.Game.Guest), played where the bot is not a
	// member.
	Guest bool
}

// parseControl reads a time control, or returns def for an empty text.
func parseControl(text string, def clock.TimeControl) (clock.TimeControl, error) {
	if text == "" {
		return def, nil
	}
	tc, err := clock.Parse(text)
	if err != nil {
		return clock.TimeControl{}, fmt.Errorf("%w: time control: %w", ErrBadRequest, err)
	}
	if tc.Kind() == clock.KindUnknown {
		return clock.TimeControl{}, fmt.Errorf("%w: time control %q: give a time control, or - for none", ErrBadRequest, text)
	}
	return tc, nil
}

// RandomPosition asks for a Chess960 start position drawn uniformly from the 960.
const RandomPosition = -1

// resolveStart returns the start FEN of a game of variant v: fen, read and checked, or
// for Chess960 without one the start position numbered n (RandomPosition: drawn with
// s.opts.Rand). It refuses an unknown variant, a position number outside 0 to 959, a
// standard game from a position with Chess960 castling rights, and a position that is
// already over.
func (s *Service) resolveStart(fen string, v chesscore.Variant, n int) (string, error) {
	switch {
	case v > chesscore.Chess960:
		return "", fmt.Errorf("%w: variant %d: want standard or chess960", ErrBadRequest, v)
	case v == chesscore.Chess960 && fen == "":
		if n == RandomPosition {
			n = int(s.opts.Rand() % chess960.Positions)
		}
		p, err := chess960.Start(n)
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrBadRequest, err)
		}
		return p.FEN(), nil
	case fen == "":
		return "", nil
	}
	start, err := chesscore.ParseFEN(fen)
	if err == nil {
		err = start.SetVariant(v)
	}
	if err != nil {
		return "", fmt.Errorf("%w: start position: %w", ErrBadRequest, err)
	}
	if g := chesscore.NewGame(start, dead.Decider{}); g.Over() {
		return "", fmt.Errorf("%w: start position is already over (%s)", ErrBadRequest, g.Outcome())
	}
	return fen, nil
}

func checkPlayer(what string, p storage.Player) error {
	if p.ID == "" || len(p.ID) > storage.MaxIDLen {
		return fmt.Errorf("%w: %s: want a user id of 1 to %d bytes", ErrBadRequest, what, storage.MaxIDLen)
	}
	if len(p.Name) > storage.MaxNameLen {
		return fmt.Errorf("%w: %s: name is longer than %d bytes", ErrBadRequest, what, storage.MaxNameLen)
	}
	return nil
}

// RoleRequiredError is the ErrNotAllowed of a guild whose challenges need a role the
// challenger lacks: Role is the role's ID, for the caller to show as it shows roles.
type RoleRequiredError struct{ Role string }

func (e *RoleRequiredError) Error() string {
	return ErrNotAllowed.Error() + ": role " + e.Role + " is required"
}

// Unwrap returns ErrNotAllowed.
func (e *RoleRequiredError) Unwrap() error { return ErrNotAllowed }

// CreateChallenge makes a challenge. It fails with ErrSelfChallenge for a challenge to
// oneself, ErrNotAllowed (a *RoleRequiredError) when the guild requires a role the
// challenger lacks, ErrChallengeLimit (a *PendingLimitError or an *OpponentLimitError)
// when a cap on the challenger's challenges is reached (Options.ChallengeLimits), and
// ErrBadRequest for a bad time control, colour or position. A direct challenge whose
// addressee turned challenge pings off, or was mentioned by as many challenges as the
// cap allows within its window, is made Quiet: posted without the mention.
func (s *Service) CreateChallenge(ctx context.Context, r ChallengeRequest) (*Result, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := checkPlayer("challenger", r.From); err != nil {
		return nil, err
	}
	if r.Guest && (r.GuildID != "" || r.Rated) {
		return nil, fmt.Errorf("%w: a guest challenge belongs to no server and counts for no ladder", ErrBadRequest)
	}
	if r.To.ID != "" {
		if err := checkPlayer("challenged user", r.To); err != nil {
			return nil, err
		}
		if r.To.ID == r.From.ID {
			return nil, ErrSelfChallenge
		}
	}
	settings, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings(r.GuildID) })
	if err != nil {
		return nil, err
	}
	if settings.ChallengeRole != "" && r.GuildID != "" && !slices.Contains(r.Roles, settings.ChallengeRole) {
		return nil, &RoleRequiredError{Role: settings.ChallengeRole}
	}
	tc, err := parseControl(r.Control, s.opts.Settings.WithDefaultControl(settings).DefaultControl)
	if err != nil {
		return nil, err
	}
	color, err := storage.ParseColorChoice(string(r.Color))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRequest, err)
	}
	fen, err := s.resolveStart(r.FEN, r.Variant, r.Position)
	if err != nil {
		return nil, err
	}
	ttl := r.ExpiresIn
	switch {
	case ttl < 0 || ttl > 30*24*time.Hour:
		return nil, fmt.Errorf("%w: expiry %v: want up to 30 days", ErrBadRequest, ttl)
	case ttl > 0:
	case s.opts.ChallengeTTL > 0:
		ttl = s.opts.ChallengeTTL
	case tc.Kind() == clock.KindCorrespondence:
		ttl = 24 * time.Hour
	default:
		ttl = 15 * time.Minute
	}
	if r.RequestID != "" {
		unlock := s.lockString(r.RequestID)
		defer unlock()
		if res, ok, err := s.receipt(ctx, r.RequestID); err != nil || ok {
			return res, err
		}
	}
	now := s.clock.Now()
	c := &storage.Challenge{
		GuildID: r.GuildID, ChannelID: r.ChannelID, From: r.From, To: r.To, Control: tc, Color: color,
		Rated: r.Rated, StartFEN: fen, Variant: r.Variant, Created: now, ExpiresAt: now.Add(ttl), Status: storage.ChallengePending,
		Guest: r.Guest,
	}
	// The caps are checked first in a read, so a refusal costs no write, then again in
	// the transaction that stores the challenge, which alone decides: two challenges
	// racing (in this process or another on the same store) cannot both pass the last
	// free place.
	if _, err := storage.Read(ctx, s.db, func(tx storage.Tx) (bool, error) { return s.capChallenge(tx, c, now, false) }); err != nil {
		return nil, err
	}
	change := &storage.Change{Challenge: c, Users: users(now, r.From, r.To)}
	change.After = func(tx storage.Tx) error {
		_, err := s.capChallenge(tx, c, now, true)
		return err
	}
	if r.RequestID != "" {
		change.Receipt = &storage.Receipt{RequestID: r.RequestID, At: now, Effect: string(EffectChallenged)}
	}
	if err := s.db.Commit(ctx, change); err != nil {
		if limit := limitError(err); limit != nil {
			return nil, limit
		}
		if res, ok := s.replayRepeated(ctx, r.RequestID, err); ok {
			return res, nil
		}
		return nil, fmt.Errorf("commit challenge: %w", err)
	}
	s.scheduleChallenge(c)
	return &Result{Effect: EffectChallenged, Challenge: c.Clone()}, nil
}

// users returns the users to record by name.
func users(now time.Time, ps ...storage.Player) []storage.User {
	var out []storage.User
	for _, p := range ps {
		if p.ID != "" {
			out = append(out, storage.User{ID: p.ID, Name: p.Name, Updated: now})
		}
	}
	return out
}

// errChallengeTaken refuses the write of a challenge that another process (or request)
// answered or expired since it was read.
var errChallengeTaken = errors.New("the challenge was answered meanwhile")

// challengeAttempts bounds the runs of one challenge request that lost its write to
// another process.
const challengeAttempts = 5

// challengeOp runs fn on a pending challenge under its lock; fn returns the change to
// commit (the challenge is already in it) and the events. The challenge is written only
// if the stored one is still pending; if another process answered it meanwhile (or
// handled the same request), the request runs again on what the store holds.
func (s *Service) challengeOp(ctx context.Context, a ChallengeAction, effect Effect,
	fn func(c *storage.Challenge, now time.Time, change *storage.Change) (*entry, error)) (*Result, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := checkPlayer("user", a.User); err != nil {
		return nil, err
	}
	unlock := s.lockChallenge(a.ChallengeID)
	defer unlock()
	for attempt := 1; ; attempt++ {
		res, err := s.challengeOpOnce(ctx, a, effect, fn)
		if attempt < challengeAttempts && (errors.Is(err, errChallengeTaken) || errors.Is(err, storage.ErrRepeatedRequest)) {
			continue
		}
		return res, err
	}
}

// challengeOpOnce is one run of challengeOp.
func (s *Service) challengeOpOnce(ctx context.Context, a ChallengeAction, effect Effect,
	fn func(c *storage.Challenge, now time.Time, change *storage.Change) (*entry, error)) (*Result, error) {
	// The receipt is read after the challenge: a request that another process handled
	// after the challenge was read is answered from its receipt, not refused against the
	// challenge it changed.
	c, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Challenge, error) { return tx.Challenge(a.ChallengeID) })
	if res, ok, rerr := s.receipt(ctx, a.RequestID); rerr != nil || ok {
		return res, rerr
	}
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("challenge %d: %w", a.ChallengeID, ErrNoSuchChallenge)
	}
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	if c.Status == storage.ChallengePending && !now.Before(c.ExpiresAt) {
		if err := s.commitExpiry(ctx, c, now); err != nil {
			return nil, err
		}
	}
	switch c.Status {
	case storage.ChallengePending:
	case storage.ChallengeExpired:
		return nil, ErrChallengeExpired
	default:
		return nil, fmt.Errorf("%w (it was %s)", ErrChallengeClosed, c.Status)
	}
	change := &storage.Change{}
	if a.RequestID != "" {
		change.Receipt = &storage.Receipt{RequestID: a.RequestID, At: now, Effect: string(effect), ChallengeID: c.ID}
	}
	ne, err := fn(c, now, change)
	if err != nil {
		return nil, err
	}
	c.Resolved, c.ResolvedBy = now, a.User.ID
	// The challenge is written by the hook, after checking the stored one is pending.
	change.Challenge = nil
	after := change.After
	change.After = func(tx storage.Tx) error {
		if change.Game != nil {
			c.GameID = change.Game.ID
		}
		if err := putIfPending(tx, c); err != nil {
			return err
		}
		if after != nil {
			return after(tx)
		}
		return nil
	}
	if err := s.db.Commit(ctx, change); err != nil {
		return nil, fmt.Errorf("commit challenge %d: %w", c.ID, err)
	}
	s.sched.Cancel(challengeKey(c.ID))
	res := &Result{Effect: effect, Challenge: c.Clone()}
	switch {
	case ne != nil:
		s.publishNew(ctx, ne)
		res.Game = ne.view()
	case effect == EffectDeclined:
		s.events.push(ChallengeDeclined{Challenge: c.Clone()})
	}
	return res, nil
}

// putIfPending writes c over a stored challenge that is still pending, else refuses
// with errChallengeTaken.
func putIfPending(tx storage.ChallengesTx, c *storage.Challenge) error {
	cur, err := tx.Challenge(c.ID)
	if err != nil {
		return err
	}
	if cur.Status != storage.ChallengePending {
		return fmt.Errorf("challenge %d is %s: %w", c.ID, cur.Status, errChallengeTaken)
	}
	return tx.PutChallenge(c)
}

// AcceptChallenge accepts a challenge and starts its game. The challenger cannot accept
// (ErrCannotAcceptOwn); a direct challenge only its addressee (ErrNotYourChallenge).
func (s *Service) AcceptChallenge(ctx context.Context, a ChallengeAction) (*Result, error) {
	return s.challengeOp(ctx, a, EffectAccepted, func(c *storage.Challenge, now time.Time, change *storage.Change) (*entry, error) {
		switch {
		case a.User.ID == c.From.ID:
			return nil, ErrCannotAcceptOwn
		case !c.Open() && a.User.ID != c.To.ID:
			return nil, ErrNotYourChallenge
		}
		opponent := a.User
		white, black := c.From, opponent
		switch c.Color {
		case storage.ChooseBlack:
			white, black = opponent, c.From
		case storage.ChooseRandom:
			if s.opts.Rand()&1 == 1 {
				white, black = opponent, c.From
			}
		}
		rec, chess, err := s.newGame(now, StartRequest{GuildID: c.GuildID, ChannelID: c.ChannelID,
			White: white, Black: black, FEN: c.StartFEN, Variant: c.Variant, Rated: c.Rated, Guest: c.Guest}, c.Control)
		if err != nil {
			return nil, err
		}
		rec.ChallengeID = c.ID
		c.Status = storage.ChallengeAccepted
		c.To = opponent
		change.Game = rec
		change.Users = users(now, opponent)
		if change.Receipt != nil {
			change.Receipt.Effect = string(EffectAccepted)
		}
		return &entry{rec: rec, chess: chess}, nil
	})
}

// DeclineChallenge declines a direct challenge (only its addressee may; an open
// challenge is not declined, it expires or is cancelled).
func (s *Service) DeclineChallenge(ctx context.Context, a ChallengeAction) (*Result, error) {
	return s.challengeOp(ctx, a, EffectDeclined, func(c *storage.Challenge, _ time.Time, _ *storage.Change) (*entry, error) {
		switch {
		case a.User.ID == c.From.ID:
			return nil, fmt.Errorf("%w: cancel your own challenge instead", ErrNotYourChallenge)
		case c.Open() || a.User.ID != c.To.ID:
			return nil, ErrNotYourChallenge
		}
		c.Status = storage.ChallengeDeclined
		return nil, nil
	})
}

// CancelChallenge withdraws a challenge (only the challenger may).
func (s *Service) CancelChallenge(ctx context.Context, a ChallengeAction) (*Result, error) {
	return s.challengeOp(ctx, a, EffectCancelled, func(c *storage.Challenge, _ time.Time, _ *storage.Change) (*entry, error) {
		if a.User.ID != c.From.ID {
			return nil, ErrNotYourChallenge
		}
		c.Status = storage.ChallengeCancelled
		return nil, nil
	})
}

// commitExpiry marks a pending challenge expired and tells the notifier, if the stored
// challenge is still pending; if another process answered or expired it meanwhile, c
// becomes the stored challenge and nothing is announced.
func (s *Service) commitExpiry(ctx context.Context, c *storage.Challenge, now time.Time) error {
	exp := c.Clone()
	exp.Status, exp.Resolved = storage.ChallengeExpired, now
	var stored *storage.Challenge
	err := s.db.Update(ctx, func(tx storage.Tx) error {
		stored = nil
		err := putIfPending(tx, exp)
		if errors.Is(err, errChallengeTaken) {
			stored, err = tx.Challenge(c.ID)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("expire challenge %d: %w", c.ID, err)
	}
	s.sched.Cancel(challengeKey(c.ID))
	if stored != nil {
		*c = *stored
		return nil
	}
	*c = *exp
	s.events.push(ChallengeExpired{Challenge: c.Clone()})
	return nil
}

// AdoptChallenges schedules the expiry of every pending challenge of the servers the
// service owns (Options.Owns; every server when nil), including those made by other
// processes: one that expired meanwhile expires at the next timer pass, announced once.
// It returns how many it scheduled. Call it with Adopt when the service gains servers,
// and now and then (a minute apart, say) to take up the challenges of a process that
// stopped while their servers' owner stayed.
func (s *Service) AdoptChallenges(ctx context.Context) (int, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return 0, err
	}
	defer done()
	pending, err := storage.Read(ctx, s.db, storage.Tx.PendingChallenges)
	if err != nil {
		return 0, fmt.Errorf("adopt challenges: %w", err)
	}
	n := 0
	for _, c := range pending {
		if s.opts.Owns == nil || s.opts.Owns(c.GuildID) {
			s.scheduleChallenge(c)
			n++
		}
	}
	return n, nil
}

// expireChallenge handles a challenge's expiry timer.
func (s *Service) expireChallenge(ctx context.Context, id uint64) {
	unlock := s.lockChallenge(id)
	defer unlock()
	c, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.Challenge, error) { return tx.Challenge(id) })
	if err != nil {
		s.log.Error("games: expire challenge", "challenge", id, "err", err)
		return
	}
	if c.Status != storage.ChallengePending {
		return
	}
	now := s.clock.Now()
	if now.Before(c.ExpiresAt) {
		s.scheduleChallenge(c)
		return
	}
	if err := s.commitExpiry(ctx, c, now); err != nil {
		s.log.Error("games: expire challenge", "challenge", id, "err", err)
		s.sched.Set(challengeKey(id), now.Add(time.Second))
	}
}

// StartGame creates a game directly (no challenge). Both players must differ.
func (s *Service) StartGame(ctx context.Context, r StartRequest) (*Result, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if r.RequestID != "" {
		unlock := s.lockString(r.RequestID)
		defer unlock()
		if res, ok, err := s.receipt(ctx, r.RequestID); err != nil || ok {
			return res, err
		}
	}
	tc, err := parseControl(r.Control, clock.TimeControl{Untimed: true})
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	rec, chess, err := s.newGame(now, r, tc)
	if err != nil {
		return nil, err
	}
	change := &storage.Change{Game: rec, Users: users(now, r.White, r.Black)}
	if r.RequestID != "" {
		change.Receipt = &storage.Receipt{RequestID: r.RequestID, At: now, Effect: string(EffectStarted)}
	}
	if r.After != nil {
		change.After = func(tx storage.Tx) error { return r.After(tx, rec) }
	}
	if err := s.db.Commit(ctx, change); err != nil {
		if res, ok := s.replayRepeated(ctx, r.RequestID, err); ok {
			return res, nil
		}
		return nil, fmt.Errorf("commit new game: %w", err)
	}
	ne := &entry{rec: rec, chess: chess}
	s.publishNew(ctx, ne)
	return &Result{Effect: EffectStarted, Game: ne.view(), Ply: 0}, nil
}

// replayRepeated answers a request whose commit was refused because another process
// handled the same request meanwhile (storage.ErrRepeatedRequest): from its receipt,
// as if this process had found the receipt first.
func (s *Service) replayRepeated(ctx context.Context, requestID string, err error) (*Result, bool) {
	if requestID == "" || !errors.Is(err, storage.ErrRepeatedRequest) {
		return nil, false
	}
	res, ok, rerr := s.receipt(ctx, requestID)
	if rerr != nil || !ok {
		return nil, false
	}
	return res, true
}

// newGame builds the record of a new game (id 0) and its chess: a live clock starts at
// once with untimed first moves and an abort deadline; a correspondence clock runs from
// the start.
func (s *Service) newGame(now time.Time, r StartRequest, tc clock.TimeControl) (*storage.Game, *chesscore.Game, error) {
	if err := checkPlayer("white", r.White); err != nil {
		return nil, nil, err
	}
	if err := checkPlayer("black", r.Black); err != nil {
		return nil, nil, err
	}
	if r.White.ID == r.Black.ID {
		return nil, nil, ErrSelfChallenge
	}
	if r.NoShow < 0 {
		return nil, nil, fmt.Errorf("%w: no-show time %v: want a positive time, or 0 for none", ErrBadRequest, r.NoShow)
	}
	fen, err := s.resolveStart(r.FEN, r.Variant, r.Position)
	if err != nil {
		return nil, nil, err
	}
	if r.BlackTime < 0 || (r.BlackTime > 0 && tc.Kind() != clock.KindLive) {
		return nil, nil, fmt.Errorf("%w: Black's time %v: want a positive time with a live control (%s), or 0", ErrBadRequest, r.BlackTime, tc)
	}
	rec := &storage.Game{
		GuildID: r.GuildID, ChannelID: r.ChannelID, White: r.White, Black: r.Black, Rated: r.Rated,
		Control: tc, StartFEN: fen, Variant: r.Variant, Created: now, NoShow: r.NoShow, Guest: r.Guest,
	}
	chess, err := Replay(rec)
	if err != nil {
		return nil, nil, err
	}
	if k := tc.Kind(); k == clock.KindLive || k == clock.KindCorrespondence {
		c, err := clock.New(tc)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrBadRequest, err)
		}
		c.FreeFirstMoves = k == clock.KindLive
		c.Turn = chess.Turn()
		if r.BlackTime > 0 {
			c.Left[chesscore.Black] = r.BlackTime
		}
		if err := c.Start(now); err != nil {
			return nil, nil, err
		}
		rec.Clock = &c
		if c.FreeFirstMoves {
			rec.AbortAt = now.Add(s.firstMoveWait(rec))
		}
	}
	return rec, chess, nil
}

// publishNew publishes a game just created. Its id became known at commit, so another
// request may already have loaded or changed it: under the game's lock, the latest
// committed entry (the cache's, else the store's) is the one scheduled.
func (s *Service) publishNew(ctx context.Context, ne *entry) {
	unlock := s.lockGame(ne.rec.ID)
	defer unlock()
	cur, err := s.load(ctx, ne.rec.ID)
	if err != nil {
		s.log.Error("games: load new game", "game", ne.rec.ID, "err", err)
		cur = ne
	}
	if cur.rec.Version == ne.rec.Version {
		cur.wrote = true // still as this process wrote it
	}
	s.schedule(cur)
	if cur.rec.Control.Kind() == clock.KindCorrespondence { // a player to move may be on vacation
		if _, err := s.vacationGameLocked(ctx, cur.rec.ID); err != nil {
			s.log.Error("games: bring a new game in line with a vacation", "game", cur.rec.ID, "err", err)
		}
	}
	s.events.push(GameStarted{Game: ne.view()})
}

// ChallengeLimits cap what one user's challenges may do, so that nobody can flood a
// channel or pester a person. A zero field takes its default; a negative one lifts its
// cap. They are counted from the store (the challenge records and the marks of the
// users' records, storage.User.Sent and Pinged), so they hold across restarts and
// between processes sharing one store.
type ChallengeLimits struct {
	// MaxPending is how many challenges, direct or open, one user may have waiting for
	// an answer at once (default 5).
	MaxPending int
	// PerOpponent is how many challenges one user may send the same person within
	// Window (default 3). An accepted challenge does not count: it is a game, not
	// pestering.
	PerOpponent int
	// Pings is how many challenges may mention one person within Window (default 3);
	// later ones are posted without the mention (Quiet). A challenge the person accepted
	// does not count.
	Pings int
	// Window is the span PerOpponent and Pings count over (default 10 minutes).
	Window time.Duration
}

// withDefaults fills the zero fields with the defaults.
func (l ChallengeLimits) withDefaults() ChallengeLimits {
	if l.MaxPending == 0 {
		l.MaxPending = 5
	}
	if l.PerOpponent == 0 {
		l.PerOpponent = 3
	}
	if l.Pings == 0 {
		l.Pings = 3
	}
	if l.Window <= 0 {
		l.Window = 10 * time.Minute
	}
	return l
}

// ErrChallengeLimit is a challenge refused by a cap on one user's challenges: the error
// is a *PendingLimitError or an *OpponentLimitError.
var ErrChallengeLimit = errors.New("too many challenges")

// PendingLimitError refuses a challenge from a user who has Limit challenges waiting
// for an answer already (ChallengeLimits.MaxPending).
type PendingLimitError struct{ Limit int }

func (e *PendingLimitError) Error() string {
	return fmt.Sprintf("%v: you already have %d challenges waiting for an answer", ErrChallengeLimit, e.Limit)
}

// Unwrap returns ErrChallengeLimit.
func (e *PendingLimitError) Unwrap() error { return ErrChallengeLimit }

// OpponentLimitError refuses a challenge to a person the challenger has already
// challenged Count times within Window (ChallengeLimits.PerOpponent); from RetryAt on,
// one of those has left the window.
type OpponentLimitError struct {
	Opponent storage.Player
	Count    int
	Window   time.Duration
	RetryAt  time.Time
}

func (e *OpponentLimitError) Error() string {
	return fmt.Sprintf("%v: you challenged %s %d times in the last %v (try again at %s)",
		ErrChallengeLimit, e.Opponent.ID, e.Count, e.Window, e.RetryAt.UTC().Format(time.RFC3339))
}

// Unwrap returns ErrChallengeLimit.
func (e *OpponentLimitError) Unwrap() error { return ErrChallengeLimit }

// limitError returns the cap's refusal a failed commit carries, or nil.
func limitError(err error) error {
	var pending *PendingLimitError
	if errors.As(err, &pending) {
		return pending
	}
	var opponent *OpponentLimitError
	if errors.As(err, &opponent) {
		return opponent
	}
	return nil
}

// challengeTx is what the cap on open challenges reads and writes: the challenges and
// the challenger's preferences.
type challengeTx interface {
	storage.ChallengesTx
	storage.UsersTx
}

// capChallenge applies the caps to c, a challenge made at now, in tx: it refuses c
// with a *PendingLimitError or an *OpponentLimitError, and reports whether c must be
// quiet. With write (in the transaction that stores c, c.ID assigned) it also records
// c in the marks of its challenger and, if c mentions them, of its addressee, pruning
// the marks that no longer count, and stores c again if it is quiet. It may run more
// than once for one challenge (a retried commit), each time in a fresh transaction.
func (s *Service) capChallenge(tx challengeTx, c *storage.Challenge, now time.Time, write bool) (quiet bool, err error) {
	lim := s.opts.ChallengeLimits.withDefaults()
	from, err := userRecord(tx, c.From.ID)
	if err != nil {
		return false, err
	}
	pending := 0
	waiting := map[uint64]bool{} // the marks of the challenges still waiting
	var toSame []time.Time       // creation times of the counted challenges to c's addressee
	sent := from.Sent[:0:0]
	for _, m := range from.Sent {
		ch, err := tx.Challenge(m.ID)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("challenge caps of %s: %w", c.From.ID, err)
		}
		recent := now.Sub(ch.Created) < lim.Window
		if ch.Status == storage.ChallengePending && now.Before(ch.ExpiresAt) {
			pending++
			waiting[m.ID] = true
		}
		if recent && c.To.ID != "" && m.To == c.To.ID && ch.Status != storage.ChallengeAccepted {
			toSame = append(toSame, ch.Created)
		}
		if waiting[m.ID] || recent {
			sent = append(sent, m)
		}
	}
	if lim.MaxPending > 0 && pending >= lim.MaxPending {
		return false, &PendingLimitError{Limit: lim.MaxPending}
	}
	if lim.PerOpponent > 0 && len(toSame) >= lim.PerOpponent {
		slices.SortFunc(toSame, time.Time.Compare)
		return false, &OpponentLimitError{Opponent: c.To, Count: len(toSame), Window: lim.Window,
			RetryAt: toSame[len(toSame)-lim.PerOpponent].Add(lim.Window)}
	}
	var to storage.User
	if c.To.ID != "" {
		if to, err = userRecord(tx, c.To.ID); err != nil {
			return false, err
		}
		quiet = !to.Prefs.PingOnChallenge
		pings := 0
		pinged := to.Pinged[:0:0]
		for _, m := range to.Pinged {
			if now.Sub(m.At) >= lim.Window {
				continue
			}
			ch, err := tx.Challenge(m.ID)
			if errors.Is(err, storage.ErrNotFound) {
				continue
			}
			if err != nil {
				return false, fmt.Errorf("challenge pings of %s: %w", c.To.ID, err)
			}
			pinged = append(pinged, m)
			if ch.Status != storage.ChallengeAccepted {
				pings++
			}
		}
		if lim.Pings > 0 && pings >= lim.Pings {
			quiet = true
		}
		to.Pinged = pinged
	}
	if !write {
		return quiet, nil
	}
	waiting[c.ID] = true
	from.Sent = keepMarks(append(sent, storage.ChallengeMark{ID: c.ID, To: c.To.ID, At: now}), waiting)
	if err := tx.PutUser(from); err != nil {
		return false, fmt.Errorf("record challenge %d of %s: %w", c.ID, c.From.ID, err)
	}
	if c.To.ID != "" && !quiet {
		to.Pinged = keepMarks(append(to.Pinged, storage.ChallengeMark{ID: c.ID, At: now}), nil)
		if err := tx.PutUser(to); err != nil {
			return false, fmt.Errorf("record the ping of %s by challenge %d: %w", c.To.ID, c.ID, err)
		}
	}
	if c.Quiet = quiet; quiet {
		if err := tx.PutChallenge(c); err != nil {
			return false, fmt.Errorf("quiet challenge %d: %w", c.ID, err)
		}
	}
	return quiet, nil
}

// userRecord reads a user's record; a user the store has never seen has the default
// preferences and no marks.
func userRecord(tx storage.UsersTx, id string) (storage.User, error) {
	u, err := tx.User(id)
	if errors.Is(err, storage.ErrNotFound) {
		return storage.User{ID: id, Prefs: storage.DefaultUserPrefs()}, nil
	}
	if err != nil {
		return storage.User{}, fmt.Errorf("read user %s: %w", id, err)
	}
	return u, nil
}

// keepMarks bounds a list of marks (oldest first) to storage.MaxChallengeMarks: the
// oldest marks of challenges no longer waiting go first, so the pending challenges stay
// counted. Only a list grown past the bound within one window loses marks that count
// (for the challenges to one person, or the pings); the cap on pending challenges holds.
func keepMarks(ms []storage.ChallengeMark, waiting map[uint64]bool) []storage.ChallengeMark {
	excess := len(ms) - storage.MaxChallengeMarks
	if excess <= 0 {
		return ms
	}
	out := ms[:0:0]
	for _, m := range ms {
		if excess > 0 && !waiting[m.ID] {
			excess--
			continue
		}
		out = append(out, m)
	}
	return out[max(excess, 0):]
}
