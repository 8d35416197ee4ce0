// service.go: the ladders kept in the store: the hook that rates a game as it ends, the
// settings and seeds that recompute a server's ladders, and the reads behind /ladder and
// /rating.

package ladder

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/chess960"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/service/settings"
	"github.com/gambitchess/gambit/storage"
)

// Service keeps the servers' ladders in the store. Games are rated by Record, which the
// game service runs in the transaction that ends a game (games.Options.OnFinish), so a
// result and the ratings it moves commit together; a settings change or a seed
// recomputes the server's ladders from its rated results in one transaction. Its methods
// are safe for concurrent use.
type Service struct {
	db  storage.Store
	log *slog.Logger
	now func() time.Time
	// settings is told of the guild settings SetSettings changes (nil: no one).
	settings *settings.Service
}

// Options configure a Service. The zero value is the production setting.
type Options struct {
	// Logger receives the service's logs (default slog.Default()).
	Logger *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Settings, the owner of the guilds' settings, is told when SetSettings changes
	// them in its own transaction (nil: no one to tell).
	Settings *settings.Service
}

// NewService returns the ladder service on db.
func NewService(db storage.Store, opts Options) *Service {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Service{db: db, log: opts.Logger, now: opts.Now, settings: opts.Settings}
}

// Errors of the service, for errors.Is.
var (
	// ErrNoGuild: ladders belong to a server.
	ErrNoGuild = errors.New("ladders belong to a server")
	// ErrCategory: not one of the ladders' categories.
	ErrCategory = errors.New("not a ladder category")
)

// SettingsOf returns the ladder settings of a guild's settings.
func SettingsOf(gs storage.GuildSettings) Settings {
	return Settings{System: System(gs.RatingSystem), StartRating: gs.StartRating}
}

// Counts returns a finished game as the ladder rates it, and false when the game does not
// count: casual, without a result (aborted, in progress), untimed, played outside a
// server, from a set-up position, a player against themselves, or one in which a side
// never moved (whatever ended it: a second account resigning at once gives no rating).
func Counts(g *storage.Game) (Game, bool) {
	chess960Start := false
	if g.Variant == chesscore.Chess960 {
		_, chess960Start = chess960.Number(g.StartFEN)
	}
	if !g.Rated || g.GuildID == "" || (g.StartFEN != "" && !chess960Start) || g.White.ID == g.Black.ID || g.ID == 0 {
		return Game{}, false
	}
	if len(g.Moves) < 2 {
		return Game{}, false // a side never moved: no game was played
	}
	if g.Outcome.Termination == chesscore.NoShow {
		return Game{}, false // a forfeit: no game was played, so none is rated
	}
	cat := g.Control.Category()
	if cat == clock.NoCategory {
		return Game{}, false
	}
	if chess960Start {
		cat = clock.Chess960 // one ladder for Chess960, whatever the speed
	}
	var score float64
	switch g.Outcome.Result {
	case chesscore.WhiteWins:
		score = 1
	case chesscore.BlackWins:
		score = 0
	case chesscore.Draw:
		score = 0.5
	default:
		return Game{}, false
	}
	at := g.Ended
	if at.IsZero() {
		at = g.Created
	}
	return Game{GameID: g.ID, White: g.White.ID, Black: g.Black.ID, Score: score, Category: cat, At: at}, true
}

// RecordTx is what Record reads and writes: the ladders, and the guild's settings.
type RecordTx interface {
	storage.LaddersTx
	storage.SettingsTx
}

// Record rates a game that has just ended, inside the transaction that ends it: the
// games service's OnFinish hook. A game that does not count (Counts) or was already
// rated changes nothing.
func (s *Service) Record(w RecordTx, g *storage.Game) error {
	lg, ok := Counts(g)
	if !ok {
		return nil
	}
	gs, err := w.GuildSettings(g.GuildID)
	if err != nil {
		return fmt.Errorf("rate game %d: %w", g.ID, err)
	}
	set := SettingsOf(gs)
	white, err := loadPlayer(w, set, g.GuildID, lg.Category, lg.White)
	if err != nil {
		return fmt.Errorf("rate game %d: %w", g.ID, err)
	}
	black, err := loadPlayer(w, set, g.GuildID, lg.Category, lg.Black)
	if err != nil {
		return fmt.Errorf("rate game %d: %w", g.ID, err)
	}
	nw, nb, cw, cb, err := Apply(set, white.Player, black.Player, lg)
	if err != nil {
		return fmt.Errorf("rate game %d: %w", g.ID, err)
	}
	added, err := w.AddRatedResult(ratedResult(g.GuildID, lg, cw, cb))
	if err != nil {
		return fmt.Errorf("rate game %d: %w", g.ID, err)
	}
	if !added {
		return nil // rated already: this is a replay
	}
	if err := w.PutLadderPlayer(toRecord(g.GuildID, lg.Category, nw, white.seed)); err != nil {
		return fmt.Errorf("rate game %d: %w", g.ID, err)
	}
	if err := w.PutLadderPlayer(toRecord(g.GuildID, lg.Category, nb, black.seed)); err != nil {
		return fmt.Errorf("rate game %d: %w", g.ID, err)
	}
	return nil
}

// seededPlayer is a player with the seed their record keeps.
type seededPlayer struct {
	Player
	seed int
}

// loadPlayer returns a player's standing, or a newcomer's.
func loadPlayer(w storage.LaddersTx, set Settings, guildID string, cat clock.Category, userID string) (seededPlayer, error) {
	rec, err := w.LadderPlayer(guildID, cat, userID)
	if errors.Is(err, storage.ErrNotFound) {
		return seededPlayer{Player: NewPlayer(set, userID)}, nil
	}
	if err != nil {
		return seededPlayer{}, err
	}
	return seededPlayer{Player: fromRecord(rec), seed: rec.Seed}, nil
}

func ratedResult(guildID string, g Game, cw, cb Change) storage.RatedResult {
	return storage.RatedResult{
		GuildID: guildID, GameID: g.GameID, White: g.White, Black: g.Black, Score: g.Score,
		Category: g.Category, Ended: g.At,
		WhiteBefore: cw.Before, WhiteAfter: cw.After, BlackBefore: cb.Before, BlackAfter: cb.After,
	}
}

func fromRecord(r storage.LadderPlayer) Player {
	p := Player{
		UserID: r.UserID, Rating: r.Rating, RD: r.RD, Volatility: r.Volatility, Peak: r.Peak,
		Games: r.Games, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses, Seeded: r.Seed != 0,
	}
	if len(r.History) > 0 {
		p.History = make([]Point, len(r.History))
		for i, h := range r.History {
			p.History[i] = Point{At: h.At, Rating: h.Rating}
		}
	}
	return p
}

func toRecord(guildID string, cat clock.Category, p Player, seed int) storage.LadderPlayer {
	r := storage.LadderPlayer{
		GuildID: guildID, Category: cat, UserID: p.UserID, Rating: p.Rating, RD: p.RD, Volatility: p.Volatility,
		Peak: p.Peak, Games: p.Games, Wins: p.Wins, Draws: p.Draws, Losses: p.Losses, Seed: seed,
	}
	if len(p.History) > 0 {
		r.History = make([]storage.RatingPoint, len(p.History))
		for i, h := range p.History {
			r.History[i] = storage.RatingPoint{At: h.At, Rating: h.Rating}
		}
	}
	return r
}

// Settings returns a guild's ladder settings.
func (s *Service) Settings(ctx context.Context, guildID string) (Settings, error) {
	if err := ctx.Err(); err != nil {
		return Settings{}, err
	}
	gs, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings(guildID) })
	if err != nil {
		return Settings{}, fmt.Errorf("ladder settings of guild %s: %w", guildID, err)
	}
	return SettingsOf(gs), nil
}

// SetSettings stores a guild's rating system and start rating and, in the same
// transaction, recomputes its ladders from its rated results (when the settings change).
// It returns how many games were replayed.
func (s *Service) SetSettings(ctx context.Context, guildID string, set Settings) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if guildID == "" {
		return 0, ErrNoGuild
	}
	if err := set.Validate(); err != nil {
		return 0, err
	}
	var replayed int
	err := s.db.Update(ctx, func(w storage.Tx) error {
		gs, err := w.GuildSettings(guildID)
		if err != nil {
			return err
		}
		if SettingsOf(gs) == set {
			replayed = 0
			return nil
		}
		gs.RatingSystem, gs.StartRating = storage.RatingSystem(set.System), set.StartRating
		if err := w.PutGuildSettings(gs); err != nil {
			return err
		}
		replayed, err = rebuild(w, guildID, set, nil)
		return err
	})
	if s.settings != nil {
		s.settings.Forget(guildID) // even after an error: the commit may have happened
	}
	if err != nil {
		return 0, fmt.Errorf("ladder settings of guild %s: %w", guildID, err)
	}
	s.log.Info("ladder: settings changed", "guild", guildID, "system", set.System, "start", set.StartRating, "replayed", replayed)
	return replayed, nil
}

// Recompute rebuilds a guild's ladders from its rated results under its settings and
// seeds, in one transaction, and returns how many games were replayed.
func (s *Service) Recompute(ctx context.Context, guildID string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if guildID == "" {
		return 0, ErrNoGuild
	}
	var replayed int
	err := s.db.Update(ctx, func(w storage.Tx) error {
		gs, err := w.GuildSettings(guildID)
		if err != nil {
			return err
		}
		replayed, err = rebuild(w, guildID, SettingsOf(gs), nil)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("recompute the ladders of guild %s: %w", guildID, err)
	}
	return replayed, nil
}

// seedKey names a seed: a player in a category.
type seedKey struct {
	cat  clock.Category
	user string
}

// Seed sets the known rating a player starts a category's ladder from (an admin's
// decision, e.g. their FIDE rating) and recomputes the guild's ladders, so games already
// played count from the seed. The user's name is recorded if the store has none. It
// returns the player's new standing.
func (s *Service) Seed(ctx context.Context, guildID string, cat clock.Category, user storage.Player, known int) (Player, error) {
	userID := user.ID
	if err := ctx.Err(); err != nil {
		return Player{}, err
	}
	if guildID == "" {
		return Player{}, ErrNoGuild
	}
	if !isLadderCategory(cat) {
		return Player{}, fmt.Errorf("%w: %s", ErrCategory, cat)
	}
	var p Player
	err := s.db.Update(ctx, func(w storage.Tx) error {
		gs, err := w.GuildSettings(guildID)
		if err != nil {
			return err
		}
		set := SettingsOf(gs)
		if _, err := Seed(set, userID, known); err != nil {
			return err
		}
		if err := recordUserName(w, storage.User{ID: userID, Name: user.Name, Updated: s.now()}); err != nil {
			return err
		}
		if _, err := rebuild(w, guildID, set, map[seedKey]int{{cat, userID}: known}); err != nil {
			return err
		}
		rec, err := w.LadderPlayer(guildID, cat, userID)
		if err != nil {
			return err
		}
		p = fromRecord(rec)
		return nil
	})
	if err != nil {
		return Player{}, fmt.Errorf("seed %s at %d in the %s ladder of guild %s: %w", userID, known, cat, guildID, err)
	}
	s.log.Info("ladder: seeded", "guild", guildID, "category", cat, "user", userID, "rating", known)
	return p, nil
}

// rebuild replays a guild's rated results under set, starting every player from their
// seed (the seeds in the records, overridden by extra), and replaces the guild's ladders
// and the ratings stored with each result. It returns the number of games replayed.
func rebuild(w storage.LaddersTx, guildID string, set Settings, extra map[seedKey]int) (int, error) {
	old, err := w.GuildLadders(guildID)
	if err != nil {
		return 0, err
	}
	seeds := make(map[seedKey]int)
	for _, p := range old {
		if p.Seed != 0 {
			seeds[seedKey{p.Category, p.UserID}] = p.Seed
		}
	}
	for k, v := range extra {
		seeds[k] = v
	}
	results, err := w.RatedResults(guildID)
	if err != nil {
		return 0, err
	}
	games := make([]Game, len(results))
	for i, r := range results {
		games[i] = Game{GameID: r.GameID, White: r.White, Black: r.Black, Score: r.Score, Category: r.Category, At: r.Ended}
	}
	ladders, replayed, err := Replay(set, func(cat clock.Category, id string) (int, bool) {
		known, ok := seeds[seedKey{cat, id}]
		return known, ok
	}, games)
	if err != nil {
		return 0, err
	}
	var players []storage.LadderPlayer
	for _, cat := range Categories() {
		for id, p := range ladders[cat] {
			players = append(players, toRecord(guildID, cat, p, seeds[seedKey{cat, id}]))
		}
	}
	for k, known := range seeds { // seeded players who have not played yet
		if _, played := ladders[k.cat][k.user]; played {
			continue
		}
		p := seeded(set, k.user, known) // a stored seed out of bounds counts as the nearest bound
		players = append(players, toRecord(guildID, k.cat, p, known))
	}
	if err := w.ReplaceLadders(guildID, players); err != nil {
		return 0, err
	}
	for i, r := range results {
		nr := ratedResult(guildID, games[i], replayed[i].White, replayed[i].Black)
		if nr != r {
			if err := w.ReplaceRatedResult(nr); err != nil {
				return 0, err
			}
		}
	}
	return len(results), nil
}

func isLadderCategory(cat clock.Category) bool {
	return cat >= clock.Bullet && cat <= clock.Chess960
}

// Standing is a player's place in a ladder.
type Standing struct {
	Rank int // 1 for the first; players with equal ratings share a rank
	Name string
	Player
}

// Leaderboard returns the first limit players (all when limit ≤ 0) of a guild's ladder
// for a category, best first, with the ladder's settings and its size.
func (s *Service) Leaderboard(ctx context.Context, guildID string, cat clock.Category, limit int) (rows []Standing, set Settings, total int, err error) {
	if err := ctx.Err(); err != nil {
		return nil, Settings{}, 0, err
	}
	if guildID == "" {
		return nil, Settings{}, 0, ErrNoGuild
	}
	if !isLadderCategory(cat) {
		return nil, Settings{}, 0, fmt.Errorf("%w: %s", ErrCategory, cat)
	}
	if set, err = s.Settings(ctx, guildID); err != nil {
		return nil, Settings{}, 0, err
	}
	recs, err := s.ranked(ctx, guildID, cat)
	if err != nil {
		return nil, Settings{}, 0, fmt.Errorf("%s ladder of guild %s: %w", cat, guildID, err)
	}
	total = len(recs)
	if limit > 0 && len(recs) > limit {
		recs = recs[:limit]
	}
	rows = make([]Standing, len(recs))
	for i, r := range recs {
		rows[i] = Standing{Rank: i + 1, Name: s.name(ctx, r.UserID), Player: fromRecord(r)}
		if i > 0 && shownRating(recs[i-1].Rating) == shownRating(r.Rating) {
			rows[i].Rank = rows[i-1].Rank
		}
	}
	return rows, set, total, nil
}

func shownRating(r float64) int { return int(math.Round(r)) }

// Busiest returns the category of a guild's ladder with the most players (the first in
// display order on a tie), and false when the guild has no rated players.
func (s *Service) Busiest(ctx context.Context, guildID string) (clock.Category, bool, error) {
	if err := ctx.Err(); err != nil {
		return clock.NoCategory, false, err
	}
	best, most := clock.NoCategory, 0
	for _, cat := range Categories() {
		recs, err := storage.Read(ctx, s.db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.Ladder(guildID, cat) })
		if err != nil {
			return clock.NoCategory, false, err
		}
		if len(recs) > most {
			best, most = cat, len(recs)
		}
	}
	return best, most > 0, nil
}

// Entry is a player's standing in one category's ladder.
type Entry struct {
	Category clock.Category
	Rank     int // the place in the ladder, 1 for the first
	Of       int // players in the ladder
	Player
}

// Profile is a player's standings in a guild's ladders.
type Profile struct {
	UserID, Name string
	Settings     Settings
	// Entries are the ladders the player is in, in display order.
	Entries []Entry
}

// Games returns the player's rated games, wins, draws and losses over all categories.
func (p Profile) Games() (games, wins, draws, losses int) {
	for _, e := range p.Entries {
		games, wins, draws, losses = games+e.Games, wins+e.Wins, draws+e.Draws, losses+e.Losses
	}
	return
}

// Main returns the entry with the most games (the first on a tie), false for none.
func (p Profile) Main() (Entry, bool) {
	var best Entry
	found := false
	for _, e := range p.Entries {
		if !found || e.Games > best.Games {
			best, found = e, true
		}
	}
	return best, found
}

// Profile returns a user's standings in every ladder of a guild.
func (s *Service) Profile(ctx context.Context, guildID, userID string) (Profile, error) {
	if err := ctx.Err(); err != nil {
		return Profile{}, err
	}
	if guildID == "" {
		return Profile{}, ErrNoGuild
	}
	set, err := s.Settings(ctx, guildID)
	if err != nil {
		return Profile{}, err
	}
	pr := Profile{UserID: userID, Name: s.name(ctx, userID), Settings: set}
	for _, cat := range Categories() {
		recs, err := s.ranked(ctx, guildID, cat)
		if err != nil {
			return Profile{}, fmt.Errorf("%s ladder of guild %s: %w", cat, guildID, err)
		}
		for i, r := range recs {
			if r.UserID != userID {
				continue
			}
			rank := i + 1
			for rank > 1 && shownRating(recs[rank-2].Rating) == shownRating(r.Rating) {
				rank--
			}
			pr.Entries = append(pr.Entries, Entry{Category: cat, Rank: rank, Of: len(recs), Player: fromRecord(r)})
		}
	}
	return pr, nil
}

// GameResult returns what a rated game did to its players' ratings, false for a game
// that did not count.
func (s *Service) GameResult(ctx context.Context, gameID uint64) (storage.RatedResult, bool, error) {
	if err := ctx.Err(); err != nil {
		return storage.RatedResult{}, false, err
	}
	r, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.RatedResult, error) { return tx.RatedResult(gameID) })
	if errors.Is(err, storage.ErrNotFound) {
		return storage.RatedResult{}, false, nil
	}
	if err != nil {
		return storage.RatedResult{}, false, err
	}
	return r, true, nil
}

// name returns a user's stored display name, or the id when none is known.
func (s *Service) name(ctx context.Context, userID string) string {
	u, err := storage.Read(ctx, s.db, func(tx storage.Tx) (storage.User, error) { return tx.User(userID) })
	if err != nil || u.Name == "" {
		return userID
	}
	return u.Name
}

// recordUserName records a user's name if the store knows none (a player an admin seeds
// before they ever played): a known user keeps the name they last played under.
func recordUserName(tx storage.UsersTx, u storage.User) error {
	old, err := tx.User(u.ID)
	switch {
	case err == nil && old.Name != "":
		return nil
	case err == nil:
		old.Name, old.Updated = u.Name, u.Updated
		return tx.PutUser(old)
	case errors.Is(err, storage.ErrNotFound):
		return tx.PutUser(storage.User{ID: u.ID, Name: u.Name, Prefs: storage.DefaultUserPrefs(), Updated: u.Updated})
	}
	return err
}
