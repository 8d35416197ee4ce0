// ratings.go: the ladders: one player record per guild, category and user, and the rated
// results they are computed from.
//
// # Encoding
//
// The key carries the guild, category, user and game, which the value does not repeat.
//
//	ratings        len(guild)·guild·category·user → ladder player (binary, below)
//	               (category is one byte, clock.Category: 1 bullet … 5 correspondence)
//	rated_results  len(guild)·guild·8-byte end (unix ns)·8-byte game id → RatedResult
//	               (JSON envelope: 'J' and the JSON of the struct)
//	               0x00·8-byte game id → the key above (one per game: a game counts once)
//
// A guild's prefix starts with its length (1 to MaxIDLen), so the 0x00 family of the
// game index never mixes with a guild's results, and big-endian instants and ids make a
// guild's results sort by end time, then game id.
//
// A ladder player is rewritten at every rated game and carries its rating history, so it
// is binary (JSON made ending a game cost milliseconds once histories grew). Floats are
// IEEE 754 bits, 8 bytes big-endian; other integers are varints as in the game record:
//
//	byte     format = 'L'
//	float64  rating, RD, volatility, peak
//	uvarint  games, wins, draws, losses, seed (0 = none)
//	uvarint  n (at most MaxRatingHistory), then n points: varint instant (unix ns, the
//	         first absolute, the others after the previous point), float64 rating
//
// Rated results are written by the ladder service in the transaction that ends the game
// (the games service's OnFinish hook, through a *Writer): the result and the ratings it
// moved commit together or not at all, and AddRatedResult refuses a game it already has,
// so no retry or replay counts a game twice.

package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/chesscore/clock"
)

// LadderPlayer is one player's standing in one ladder: a guild's category.
type LadderPlayer struct {
	// GuildID, Category and UserID name the ladder and the player (the record's key).
	GuildID  string
	Category clock.Category
	UserID   string
	// Rating is the rating (whole under FIDE); RD and Volatility are Glicko-2's.
	Rating, RD, Volatility float64
	// Peak is the highest rating reached.
	Peak float64
	// Games, Wins, Draws and Losses count the rated games played in the ladder.
	Games, Wins, Draws, Losses int
	// Seed is the known rating an admin seeded the player with (0: none); a recompute
	// starts the player there.
	Seed int
	// History is the rating after each rated game, oldest first.
	History []RatingPoint
}

// RatingPoint is a rating at one instant.
type RatingPoint struct {
	At     time.Time
	Rating float64
}

// ladderFormat is the first byte of an encoded ladder player.
const ladderFormat = 'L'

// maxLadderCount bounds the counts a decoded ladder player may hold.
const maxLadderCount = 1 << 40

func (e *encoder) float(f float64) { e.b = binary.BigEndian.AppendUint64(e.b, math.Float64bits(f)) }

func (d *decoder) float(what string) float64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail("%s: record ends early", what)
		return 0
	}
	f := math.Float64frombits(binary.BigEndian.Uint64(d.b))
	d.b = d.b[8:]
	if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		d.fail("%s: %v", what, f)
		return 0
	}
	return f
}

// encodeLadderPlayer returns the binary value of p (its key holds guild, category, user).
func encodeLadderPlayer(p *LadderPlayer) []byte {
	e := &encoder{b: make([]byte, 0, 48+len(p.History)*14)}
	e.byte(ladderFormat)
	e.float(p.Rating)
	e.float(p.RD)
	e.float(p.Volatility)
	e.float(p.Peak)
	for _, n := range []int{p.Games, p.Wins, p.Draws, p.Losses, p.Seed} {
		e.int(n)
	}
	e.int(len(p.History))
	var prev int64
	for i, h := range p.History {
		at := int64(0)
		if !h.At.IsZero() {
			at = h.At.UnixNano()
		}
		if i == 0 {
			e.varint(at)
		} else {
			e.varint(at - prev)
		}
		prev = at
		e.float(h.Rating)
	}
	return e.b
}

// decodeLadderPlayerValue reads the value written by encodeLadderPlayer into p.
func decodeLadderPlayerValue(b []byte, p *LadderPlayer) error {
	d := &decoder{b: b}
	if f := d.byte("format"); d.err == nil && f != ladderFormat {
		d.fail("format %d: want %d", f, ladderFormat)
	}
	p.Rating, p.RD, p.Volatility, p.Peak = d.float("rating"), d.float("rd"), d.float("volatility"), d.float("peak")
	p.Games, p.Wins, p.Draws, p.Losses = d.int("games", maxLadderCount), d.int("wins", maxLadderCount), d.int("draws", maxLadderCount), d.int("losses", maxLadderCount)
	p.Seed = d.int("seed", maxLadderCount)
	n := d.int("history", MaxRatingHistory)
	if d.err == nil && n > 0 {
		p.History = make([]RatingPoint, n)
		var at int64
		for i := range p.History {
			delta := d.varint("history instant")
			at += delta
			if i == 0 {
				at = delta
			}
			r := d.float("history rating")
			if d.err != nil {
				break
			}
			if at != 0 {
				p.History[i].At = time.Unix(0, at).UTC()
			}
			p.History[i].Rating = r
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d trailing bytes", len(d.b))
	}
	if d.err == nil && p.Wins+p.Draws+p.Losses != p.Games {
		d.fail("record %d games = %d+%d+%d does not add up", p.Games, p.Wins, p.Draws, p.Losses)
	}
	if d.err != nil {
		p.History = nil
	}
	return d.err
}

// RatedResult is one finished rated game as the ladders count it, with the ratings it
// moved.
type RatedResult struct {
	GuildID  string         `json:"guild"`
	GameID   uint64         `json:"game"`
	White    string         `json:"white"`
	Black    string         `json:"black"`
	Score    float64        `json:"score"` // White's: 1, 0.5 or 0
	Category clock.Category `json:"category"`
	Ended    time.Time      `json:"ended"`
	// WhiteBefore, WhiteAfter, BlackBefore and BlackAfter are the players' ratings
	// before and after the game, as last computed (a recompute rewrites them).
	WhiteBefore float64 `json:"white_before"`
	WhiteAfter  float64 `json:"white_after"`
	BlackBefore float64 `json:"black_before"`
	BlackAfter  float64 `json:"black_after"`
}

// MaxRatingHistory bounds the points a player record keeps.
const MaxRatingHistory = 1000

// checkLadderKey checks the parts of a ladder player's key.
func checkLadderKey(guildID string, cat clock.Category, userID string) error {
	if guildID == "" || len(guildID) > MaxIDLen {
		return fmt.Errorf("ladder: guild id %q: want 1 to %d bytes", guildID, MaxIDLen)
	}
	if cat <= clock.NoCategory || cat > clock.Correspondence {
		return fmt.Errorf("ladder of guild %s: category %d: want bullet to correspondence", guildID, cat)
	}
	if userID == "" || len(userID) > MaxIDLen {
		return fmt.Errorf("ladder of guild %s: user id %q: want 1 to %d bytes", guildID, userID, MaxIDLen)
	}
	return nil
}

// validate checks a player record before it is written.
func (p *LadderPlayer) validate() error {
	if err := checkLadderKey(p.GuildID, p.Category, p.UserID); err != nil {
		return err
	}
	for _, f := range []float64{p.Rating, p.RD, p.Volatility, p.Peak} {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return fmt.Errorf("ladder player %s in guild %s: rating fields must be finite and not negative", p.UserID, p.GuildID)
		}
	}
	if p.Games < 0 || p.Wins < 0 || p.Draws < 0 || p.Losses < 0 || p.Wins+p.Draws+p.Losses != p.Games {
		return fmt.Errorf("ladder player %s in guild %s: record %d games = %d+%d+%d does not add up",
			p.UserID, p.GuildID, p.Games, p.Wins, p.Draws, p.Losses)
	}
	if len(p.History) > MaxRatingHistory {
		return fmt.Errorf("ladder player %s in guild %s: %d history points, at most %d", p.UserID, p.GuildID, len(p.History), MaxRatingHistory)
	}
	return nil
}

// validate checks a rated result before it is written.
func (r *RatedResult) validate() error {
	if r.GameID == 0 {
		return fmt.Errorf("rated result: no game id")
	}
	if err := checkLadderKey(r.GuildID, r.Category, r.White); err != nil {
		return fmt.Errorf("rated result of game %d: %w", r.GameID, err)
	}
	if r.Black == "" || len(r.Black) > MaxIDLen || r.Black == r.White {
		return fmt.Errorf("rated result of game %d: black %q: want another player than white", r.GameID, r.Black)
	}
	if r.Score != 0 && r.Score != 0.5 && r.Score != 1 {
		return fmt.Errorf("rated result of game %d: score %v: want 0, 0.5 or 1", r.GameID, r.Score)
	}
	if r.Ended.UnixNano() <= 0 {
		return fmt.Errorf("rated result of game %d: end time %v: want an instant after 1970", r.GameID, r.Ended)
	}
	return nil
}

// guildPrefix is len(guild)·guild.
func guildPrefix(guildID string) []byte {
	return append([]byte{byte(len(guildID))}, guildID...)
}

func ladderPrefix(guildID string, cat clock.Category) []byte {
	return append(guildPrefix(guildID), byte(cat))
}

func ladderKey(guildID string, cat clock.Category, userID string) []byte {
	return append(ladderPrefix(guildID, cat), userID...)
}

func resultKey(r *RatedResult) []byte {
	k := guildPrefix(r.GuildID)
	k = binary.BigEndian.AppendUint64(k, uint64(r.Ended.UnixNano()))
	return binary.BigEndian.AppendUint64(k, r.GameID)
}

func resultGameKey(gameID uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{0}, gameID)
}

// decodeLadderPlayer reads a player record stored under key k.
func decodeLadderPlayer(k, v []byte) (LadderPlayer, error) {
	var p LadderPlayer
	if len(k) < 3 || int(k[0])+2 > len(k) {
		return p, fmt.Errorf("%w: ladder key %x", ErrCorrupt, k)
	}
	n := int(k[0])
	p.GuildID, p.Category, p.UserID = string(k[1:1+n]), clock.Category(k[1+n]), string(k[2+n:])
	if err := decodeLadderPlayerValue(v, &p); err != nil {
		return p, fmt.Errorf("ladder player %s in guild %s: %w", p.UserID, p.GuildID, err)
	}
	return p, nil
}

func getLadderPlayer(tx *bolt.Tx, guildID string, cat clock.Category, userID string) (LadderPlayer, error) {
	if err := checkLadderKey(guildID, cat, userID); err != nil {
		return LadderPlayer{}, err
	}
	k := ladderKey(guildID, cat, userID)
	v := tx.Bucket([]byte(bucketRatings)).Get(k)
	if v == nil {
		return LadderPlayer{}, fmt.Errorf("%s in the %s ladder of guild %s: %w", userID, cat, guildID, ErrNotFound)
	}
	return decodeLadderPlayer(k, v)
}

func putLadderPlayer(tx *bolt.Tx, p LadderPlayer) error {
	if err := p.validate(); err != nil {
		return err
	}
	return tx.Bucket([]byte(bucketRatings)).Put(ladderKey(p.GuildID, p.Category, p.UserID), encodeLadderPlayer(&p))
}

// scanPlayers returns the player records under prefix, in key order.
func scanPlayers(tx *bolt.Tx, prefix []byte) ([]LadderPlayer, error) {
	var out []LadderPlayer
	c := tx.Bucket([]byte(bucketRatings)).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		p, err := decodeLadderPlayer(k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// SortLadder orders players as a leaderboard: rating, highest first; then more games;
// then user id.
func SortLadder(ps []LadderPlayer) {
	slices.SortStableFunc(ps, func(a, b LadderPlayer) int {
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Games, a.Games); c != 0 {
			return c
		}
		return cmp.Compare(a.UserID, b.UserID)
	})
}

func ladder(tx *bolt.Tx, guildID string, cat clock.Category) ([]LadderPlayer, error) {
	if guildID == "" || len(guildID) > MaxIDLen {
		return nil, fmt.Errorf("ladder: guild id %q: want 1 to %d bytes", guildID, MaxIDLen)
	}
	ps, err := scanPlayers(tx, ladderPrefix(guildID, cat))
	if err != nil {
		return nil, err
	}
	SortLadder(ps)
	return ps, nil
}

func ratedResults(tx *bolt.Tx, guildID string) ([]RatedResult, error) {
	if guildID == "" || len(guildID) > MaxIDLen {
		return nil, fmt.Errorf("rated results: guild id %q: want 1 to %d bytes", guildID, MaxIDLen)
	}
	prefix := guildPrefix(guildID)
	var out []RatedResult
	c := tx.Bucket([]byte(bucketRatedResults)).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var r RatedResult
		if err := decodeJSON(v, &r); err != nil {
			return nil, fmt.Errorf("rated result %x of guild %s: %w", k, guildID, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func getRatedResult(tx *bolt.Tx, gameID uint64) (RatedResult, error) {
	b := tx.Bucket([]byte(bucketRatedResults))
	k := b.Get(resultGameKey(gameID))
	if k == nil {
		return RatedResult{}, fmt.Errorf("rated result of game %d: %w", gameID, ErrNotFound)
	}
	var r RatedResult
	v := b.Get(k)
	if v == nil {
		return r, fmt.Errorf("%w: rated result of game %d: index names a missing record", ErrCorrupt, gameID)
	}
	if err := decodeJSON(v, &r); err != nil {
		return r, fmt.Errorf("rated result of game %d: %w", gameID, err)
	}
	return r, nil
}

func putRatedResult(tx *bolt.Tx, r RatedResult) error {
	v, err := encodeJSON(r)
	if err != nil {
		return fmt.Errorf("encode rated result of game %d: %w", r.GameID, err)
	}
	b := tx.Bucket([]byte(bucketRatedResults))
	k := resultKey(&r)
	if err := b.Put(k, v); err != nil {
		return fmt.Errorf("write rated result of game %d: %w", r.GameID, err)
	}
	return b.Put(resultGameKey(r.GameID), k)
}

// LadderPlayer returns a player's record in a guild's ladder (ErrNotFound for a player
// who has none).
func (db *DB) LadderPlayer(guildID string, cat clock.Category, userID string) (LadderPlayer, error) {
	var p LadderPlayer
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		p, err = getLadderPlayer(tx, guildID, cat, userID)
		return err
	})
	return p, err
}

// PlayerLadders returns a user's records in every ladder of a guild, in category order
// (only the ladders the user is in).
func (db *DB) PlayerLadders(guildID, userID string) ([]LadderPlayer, error) {
	var out []LadderPlayer
	err := db.bolt.View(func(tx *bolt.Tx) error {
		for cat := clock.Bullet; cat <= clock.Correspondence; cat++ {
			p, err := getLadderPlayer(tx, guildID, cat, userID)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// Ladder returns the players of a guild's category, sorted as a leaderboard (SortLadder).
func (db *DB) Ladder(guildID string, cat clock.Category) ([]LadderPlayer, error) {
	var out []LadderPlayer
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		out, err = ladder(tx, guildID, cat)
		return err
	})
	return out, err
}

// RatedResults returns a guild's rated results in end order (end time, then game id).
func (db *DB) RatedResults(guildID string) ([]RatedResult, error) {
	var out []RatedResult
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		out, err = ratedResults(tx, guildID)
		return err
	})
	return out, err
}

// RatedResult returns the rated result of a game (ErrNotFound for a game that did not
// count).
func (db *DB) RatedResult(gameID uint64) (RatedResult, error) {
	var r RatedResult
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		r, err = getRatedResult(tx, gameID)
		return err
	})
	return r, err
}

// PutLadderPlayer writes a player's record in its own transaction.
func (db *DB) PutLadderPlayer(p LadderPlayer) error {
	if err := p.validate(); err != nil {
		return err
	}
	return db.update(func(tx *bolt.Tx) error { return putLadderPlayer(tx, p) })
}

// UpdateLadders runs fn in one write transaction (grouped with other commits) with typed
// access to the ladders, for changes that must be atomic: settings with the recompute
// they cause, a seed. An error from fn writes nothing. fn may run more than once (a
// retried group commit), each time in a fresh transaction: it must not act outside it.
func (db *DB) UpdateLadders(fn func(w *Writer) error) error {
	return db.update(func(tx *bolt.Tx) error { return fn(&Writer{tx: tx}) })
}

// LadderPlayer reads a player's record as the transaction sees it (ErrNotFound for
// none).
func (w *Writer) LadderPlayer(guildID string, cat clock.Category, userID string) (LadderPlayer, error) {
	return getLadderPlayer(w.tx, guildID, cat, userID)
}

// PutLadderPlayer writes a player's record.
func (w *Writer) PutLadderPlayer(p LadderPlayer) error { return putLadderPlayer(w.tx, p) }

// GuildLadders returns every player record of a guild, by category then user id.
func (w *Writer) GuildLadders(guildID string) ([]LadderPlayer, error) {
	if guildID == "" || len(guildID) > MaxIDLen {
		return nil, fmt.Errorf("ladders: guild id %q: want 1 to %d bytes", guildID, MaxIDLen)
	}
	return scanPlayers(w.tx, guildPrefix(guildID))
}

// AddRatedResult records a rated result, unless its game already has one: added
// reports whether it was written. Call it in the transaction that ends the game, and
// move the ratings only when it returns true.
func (w *Writer) AddRatedResult(r RatedResult) (added bool, err error) {
	if err := r.validate(); err != nil {
		return false, err
	}
	if w.tx.Bucket([]byte(bucketRatedResults)).Get(resultGameKey(r.GameID)) != nil {
		return false, nil
	}
	if err := putRatedResult(w.tx, r); err != nil {
		return false, err
	}
	return true, nil
}

// RatedResults returns a guild's rated results in end order, as the transaction sees
// them.
func (w *Writer) RatedResults(guildID string) ([]RatedResult, error) {
	return ratedResults(w.tx, guildID)
}

// ReplaceRatedResult rewrites the rating fields of a game's rated result (a recompute);
// the game, players, score, category and end time must be those already stored.
func (w *Writer) ReplaceRatedResult(r RatedResult) error {
	old, err := getRatedResult(w.tx, r.GameID)
	if err != nil {
		return err
	}
	if old.GuildID != r.GuildID || old.White != r.White || old.Black != r.Black || old.Score != r.Score ||
		old.Category != r.Category || !old.Ended.Equal(r.Ended) {
		return fmt.Errorf("replace rated result of game %d: only the ratings may change", r.GameID)
	}
	return putRatedResult(w.tx, r)
}

// ReplaceLadders replaces every player record of a guild, in every category, with
// players (all of that guild): the end of a recompute.
func (w *Writer) ReplaceLadders(guildID string, players []LadderPlayer) error {
	if guildID == "" || len(guildID) > MaxIDLen {
		return fmt.Errorf("replace ladders: guild id %q: want 1 to %d bytes", guildID, MaxIDLen)
	}
	for i := range players {
		if players[i].GuildID != guildID {
			return fmt.Errorf("replace ladders of guild %s: a player of guild %q", guildID, players[i].GuildID)
		}
		if err := players[i].validate(); err != nil {
			return fmt.Errorf("replace ladders of guild %s: %w", guildID, err)
		}
	}
	b := w.tx.Bucket([]byte(bucketRatings))
	prefix := guildPrefix(guildID)
	var old [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		old = append(old, bytes.Clone(k))
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return fmt.Errorf("replace ladders of guild %s: %w", guildID, err)
		}
	}
	for _, p := range players {
		if err := putLadderPlayer(w.tx, p); err != nil {
			return fmt.Errorf("replace ladders of guild %s: %w", guildID, err)
		}
	}
	return nil
}

// RecordUserName records a user's name if the store knows none (a player an admin seeds
// before they ever played): a known user keeps the name they last played under.
func (w *Writer) RecordUserName(u User) error {
	old, err := getUser(w.tx, u.ID)
	switch {
	case err == nil && old.Name != "":
		return nil
	case err == nil:
		old.Name, old.Updated = u.Name, u.Updated
		return putUser(w.tx, old)
	case errors.Is(err, ErrNotFound):
		return putUser(w.tx, User{ID: u.ID, Name: u.Name, Prefs: DefaultUserPrefs(), Updated: u.Updated})
	}
	return err
}

// SetGuildSettings validates and writes a guild's settings in the transaction.
func (w *Writer) SetGuildSettings(s GuildSettings) error {
	if s.GuildID == "" {
		return fmt.Errorf("guild settings: no guild id")
	}
	if err := s.Validate(); err != nil {
		return err
	}
	v, err := encodeJSON(s)
	if err != nil {
		return fmt.Errorf("encode settings of guild %s: %w", s.GuildID, err)
	}
	return w.tx.Bucket([]byte(bucketGuilds)).Put([]byte(s.GuildID), v)
}
