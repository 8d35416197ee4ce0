// requests.go: what members ask of a vote game (start it, join the team, vote), what
// they see of it (View: the tally and the choices), and the rule that counts a vote.

package votechess

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// View is a vote game as members see it.
type View struct {
	// Vote is the record (a copy).
	Vote *storage.VoteGame
	// Game is the game, as the view was made.
	Game *games.Game
	// Level is the engine's level.
	Level int
	// Tally counts the ballots of the vote of Vote.Round, the most voted first (the
	// move the vote would choose now first).
	Tally []Count
	// Choices are the moves offered to pick from while the vote is open (at most
	// MaxChoices); nil otherwise.
	Choices []Choice
}

// Open reports whether the view's vote takes ballots at now.
func (v *View) Open(now time.Time) bool {
	return !v.Vote.Over && v.Vote.Round.Open && v.Game.Ply() == v.Vote.Round.Ply && now.Before(v.Vote.Round.Closes)
}

// Count is how many ballots a move has.
type Count struct {
	Move, SAN string // UCI, and SAN in the vote's position
	Votes     int
	first     time.Time // the earliest standing ballot for it
}

// Choice is a move offered in a vote.
type Choice struct {
	Move, SAN string
}

// tallyOf counts ballots (cast in pos) per move, in the order that decides the vote:
// most ballots; then the earliest standing ballot; then the lower UCI text.
func tallyOf(ballots []storage.Ballot, pos *chesscore.Position) []Count {
	by := map[string]*Count{}
	for _, b := range ballots {
		c := by[b.Move]
		if c == nil {
			c = &Count{Move: b.Move, SAN: b.Move, first: b.At}
			if m, err := pos.ParseSAN(b.Move); err == nil {
				c.SAN = pos.SAN(m)
			}
			by[b.Move] = c
		}
		c.Votes++
		if b.At.Before(c.first) {
			c.first = b.At
		}
	}
	out := make([]Count, 0, len(by))
	for _, c := range by {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Count) int {
		if a.Votes != b.Votes {
			return b.Votes - a.Votes
		}
		if c := a.first.Compare(b.first); c != 0 {
			return c
		}
		return strings.Compare(a.Move, b.Move)
	})
	return out
}

// view makes the view of v in g.
func (s *Service) view(ctx context.Context, v *storage.VoteGame, g *games.Game) *View {
	out := &View{Vote: v.Clone(), Game: g}
	if _, eng, err := s.bound(); err == nil {
		if e, ok := eng.EngineGame(ctx, v.GameID); ok {
			out.Level = e.Level
		}
	}
	if g.Ply() == v.Round.Ply {
		out.Tally = tallyOf(v.Round.Ballots, &g.Position)
		if v.Round.Open && !v.Over && g.Live() {
			out.Choices = s.choices(g, out.Tally)
		}
	}
	return out
}

// candKey names the candidates of a game's position.
type candKey struct {
	id  uint64
	ply int
}

// choices are the moves a vote offers: every legal move when they fit in MaxChoices
// (sorted by SAN); otherwise the moves already voted for, then the engine's best
// candidates, up to MaxChoices.
func (s *Service) choices(g *games.Game, tally []Count) []Choice {
	pos := g.Position
	var ml chesscore.MoveList
	pos.LegalMoves(&ml)
	if ml.N <= MaxChoices {
		out := make([]Choice, 0, ml.N)
		for _, m := range ml.Moves[:ml.N] {
			out = append(out, Choice{Move: m.UCI(), SAN: pos.SAN(m)})
		}
		slices.SortFunc(out, func(a, b Choice) int { return cmp.Compare(a.SAN, b.SAN) })
		return out
	}
	var out []Choice
	seen := map[string]bool{}
	for _, c := range tally {
		if len(out) < MaxChoices {
			out = append(out, Choice{Move: c.Move, SAN: c.SAN})
			seen[c.Move] = true
		}
	}
	for _, c := range s.candidates(g) {
		if len(out) < MaxChoices && !seen[c.Move] {
			out = append(out, c)
			seen[c.Move] = true
		}
	}
	return out
}

// candidates are the built-in engine's best moves in g's position, best first, from a
// search bounded by nodes on a fresh engine (so every process finds the same),
// remembered per position.
func (s *Service) candidates(g *games.Game) []Choice {
	key := candKey{g.ID, g.Ply()}
	s.candMu.Lock()
	if c, ok := s.cands[key]; ok {
		s.candMu.Unlock()
		return c
	}
	s.candMu.Unlock()
	pos := g.Position
	lines, err := engine.New(engine.Options{HashMB: 1}).Analyse(pos, nil, engine.Limits{Nodes: s.opts.CandidateNodes}, MaxChoices)
	if err != nil {
		s.log.Error("vote chess: candidates", "game", g.ID, "err", err)
	}
	out := make([]Choice, 0, len(lines))
	for _, l := range lines {
		out = append(out, Choice{Move: l.Move.UCI(), SAN: pos.SAN(l.Move)})
	}
	s.candMu.Lock()
	if len(s.cands) >= 256 {
		clear(s.cands)
	}
	s.cands[key] = out
	s.candMu.Unlock()
	return out
}

// StartRequest is a new vote game: a server's team against the engine.
type StartRequest struct {
	// RequestID is the idempotency key (the interaction id); it also names the team.
	RequestID          string
	GuildID, ChannelID string
	// Starter is the member who starts it, the team's first member.
	Starter storage.Player
	// Level is the engine's level (engineplay's range).
	Level int
	// Color is the team's colour: white, black or random (the default).
	Color storage.ColorChoice
	// Window is how long each vote stays open: MinWindow to storage.MaxVoteWindow.
	Window time.Duration
}

// Start creates a vote game. It fails with ErrBadWindow, with engineplay's errors
// (ErrBadLevel) and with the game service's.
func (s *Service) Start(ctx context.Context, r StartRequest) (*View, error) {
	gs, eng, err := s.bound()
	if err != nil {
		return nil, err
	}
	switch {
	case r.Window < MinWindow || r.Window > storage.MaxVoteWindow:
		return nil, fmt.Errorf("%w: %v: want %v to %v", ErrBadWindow, r.Window, MinWindow, storage.MaxVoteWindow)
	case r.GuildID == "" || r.ChannelID == "":
		return nil, fmt.Errorf("%w: a vote game is played in a server's channel", games.ErrBadRequest)
	case r.RequestID == "" || len(TeamPrefix+r.RequestID) > storage.MaxIDLen:
		return nil, fmt.Errorf("%w: request id %q", games.ErrBadRequest, r.RequestID)
	case r.Starter.ID == "" || IsTeam(r.Starter.ID):
		return nil, fmt.Errorf("%w: starter %q", games.ErrBadRequest, r.Starter.ID)
	}
	team := storage.Player{ID: TeamPrefix + r.RequestID, Name: TeamName}
	// Nobody is pinged, messaged or reminded for the team's turns: the vote post is
	// the team's call.
	if err := gs.SetUserPrefs(ctx, team.ID, storage.UserPrefs{}); err != nil {
		return nil, fmt.Errorf("silence the team's notifications: %w", err)
	}
	now := s.clock.Now()
	res, err := eng.Start(ctx, engineplay.StartRequest{
		RequestID: r.RequestID, GuildID: r.GuildID, ChannelID: r.ChannelID, Human: team, Level: r.Level, Control: "-", Color: r.Color,
		After: func(tx storage.Tx, g *storage.Game) error {
			color, _ := g.ColorOf(team.ID)
			v := &storage.VoteGame{GameID: g.ID, GuildID: r.GuildID, ChannelID: r.ChannelID, TeamID: team.ID, Color: color,
				Window: r.Window, Members: []string{r.Starter.ID}, Created: g.Created}
			if color == chesscore.White {
				v.Round = storage.VoteRound{Ply: 0, Open: true, Opened: now, Closes: now.Add(r.Window)}
			}
			return tx.PutVoteGame(v)
		},
	})
	if err != nil {
		return nil, err
	}
	// No kick here: the game's GameStarted event queues it once the game has its
	// place (its thread), where the first vote is announced.
	return s.Get(ctx, res.Game.ID, r.GuildID)
}

// Get returns vote game id of guild (ErrNotFound for another server's, or none).
func (s *Service) Get(ctx context.Context, id uint64, guildID string) (*View, error) {
	gs, _, err := s.bound()
	if err != nil {
		return nil, err
	}
	v, err := s.read(ctx, id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && v.GuildID != guildID {
		return nil, fmt.Errorf("game %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	g, err := gs.Game(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load vote game %d: %w", id, err)
	}
	return s.view(ctx, v, g), nil
}

// InChannel returns the live vote games of guild played in channel (started there, or
// in their thread), oldest first.
func (s *Service) InChannel(ctx context.Context, guildID, channelID string) ([]*View, error) {
	gs, _, err := s.bound()
	if err != nil {
		return nil, err
	}
	live, err := storage.Read(ctx, s.db, storage.Tx.LiveVoteGames)
	if err != nil {
		return nil, fmt.Errorf("read the live vote games: %w", err)
	}
	var out []*View
	for _, v := range live {
		if v.GuildID != guildID {
			continue
		}
		g, err := gs.Game(ctx, v.GameID)
		if err != nil {
			return nil, fmt.Errorf("load vote game %d: %w", v.GameID, err)
		}
		if v.ChannelID == channelID || g.ThreadID == channelID {
			out = append(out, s.view(ctx, v, g))
		}
	}
	return out, nil
}

// maxWriteAttempts bounds how often a request reads again after losing a write.
const maxWriteAttempts = 16

// change applies edit to the stored record of game id of guild and writes it from its
// version, reading again when another write came first.
func (s *Service) change(ctx context.Context, id uint64, guildID string, edit func(v *storage.VoteGame, g *games.Game) error) (*View, error) {
	gs, _, err := s.bound()
	if err != nil {
		return nil, err
	}
	unlock := s.lock(id) // one writer at a time in this process; other processes conflict
	defer unlock()
	for attempt := 1; ; attempt++ {
		v, err := s.read(ctx, id)
		if errors.Is(err, storage.ErrNotFound) || err == nil && v.GuildID != guildID {
			return nil, fmt.Errorf("game %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		g, err := gs.Game(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("load vote game %d: %w", id, err)
		}
		if v.Over || !g.Live() {
			return nil, fmt.Errorf("game %d: %w", id, ErrGameOver)
		}
		w := v.Clone()
		if err := edit(w, g); err != nil {
			return nil, err
		}
		err = s.put(ctx, w)
		if err == nil {
			w.Version++
			return s.view(ctx, w, g), nil
		}
		if !errors.Is(err, storage.ErrConflict) || attempt == maxWriteAttempts {
			return nil, err
		}
	}
}

// Join adds user to the team of game id (of guild).
func (s *Service) Join(ctx context.Context, id uint64, guildID, user string) (*View, error) {
	if user == "" || len(user) > storage.MaxIDLen || IsTeam(user) {
		return nil, fmt.Errorf("%w: user %q", games.ErrBadRequest, user)
	}
	return s.change(ctx, id, guildID, func(v *storage.VoteGame, _ *games.Game) error {
		i, found := slices.BinarySearch(v.Members, user)
		switch {
		case found:
			return fmt.Errorf("game %d: %s: %w", id, user, ErrAlreadyMember)
		case len(v.Members) >= storage.MaxTeamMembers:
			return fmt.Errorf("game %d: %d members: %w", id, len(v.Members), ErrTeamFull)
		}
		v.Members = slices.Insert(v.Members, i, user)
		return nil
	})
}

// BallotRequest is a member's vote.
type BallotRequest struct {
	GameID  uint64
	GuildID string
	UserID  string
	// Ply is the ply of the vote the member saw (from the vote post); negative: the
	// vote open now. A ballot for another ply's vote is refused with ErrVoteClosed.
	Ply int
	// Move is the move, in SAN or UCI.
	Move string
}

// Ballot records a member's vote for the open vote of the game, replacing the
// member's earlier ballot in that vote. It fails with ErrNotFound, ErrNotMember,
// ErrVoteClosed, ErrIllegalMove or ErrGameOver and then changes nothing. The view
// returned holds the tally with the ballot.
func (s *Service) Ballot(ctx context.Context, r BallotRequest) (*View, error) {
	if len(r.Move) > 16 {
		return nil, fmt.Errorf("%w: %q is too long for a move", ErrIllegalMove, r.Move[:16])
	}
	return s.change(ctx, r.GameID, r.GuildID, func(v *storage.VoteGame, g *games.Game) error {
		now := s.clock.Now()
		if !v.IsMember(r.UserID) {
			return fmt.Errorf("game %d: %s: %w", r.GameID, r.UserID, ErrNotMember)
		}
		round := &v.Round
		if !round.Open || g.Ply() != round.Ply || !now.Before(round.Closes) || g.Turn() != v.Color {
			return fmt.Errorf("game %d at ply %d: %w", r.GameID, g.Ply(), ErrVoteClosed)
		}
		if r.Ply >= 0 && r.Ply != round.Ply {
			return fmt.Errorf("game %d: a ballot for ply %d, the vote is on ply %d: %w", r.GameID, r.Ply, round.Ply, ErrVoteClosed)
		}
		pos := g.Position
		m, err := pos.ParseSAN(strings.TrimSpace(r.Move))
		if err != nil {
			return fmt.Errorf("%w: %w", ErrIllegalMove, err)
		}
		b := storage.Ballot{UserID: r.UserID, Move: m.UCI(), At: now}
		i, found := slices.BinarySearchFunc(round.Ballots, r.UserID, func(b storage.Ballot, u string) int { return strings.Compare(b.UserID, u) })
		if found {
			round.Ballots[i] = b
		} else {
			round.Ballots = slices.Insert(round.Ballots, i, b)
		}
		return nil
	})
}

// MarkPosted records that the vote of game id at ply has been announced, so a restart
// does not announce it again.
func (s *Service) MarkPosted(ctx context.Context, id uint64, ply int) error {
	unlock := s.lock(id)
	defer unlock()
	for attempt := 1; ; attempt++ {
		v, err := s.read(ctx, id)
		if err != nil {
			return fmt.Errorf("mark the vote of game %d posted: %w", id, err)
		}
		if v.Round.Ply != ply || v.Round.Posted || !v.Round.Open {
			return nil
		}
		w := v.Clone()
		w.Round.Posted = true
		err = s.put(ctx, w)
		if err == nil || !errors.Is(err, storage.ErrConflict) || attempt == maxWriteAttempts {
			return err
		}
	}
}
