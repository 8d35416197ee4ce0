// ratings.go: ladder players and rated results in the bbolt backend.
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

package bolt

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

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

func resultKey(r *storage.RatedResult) []byte {
	k := guildPrefix(r.GuildID)
	k = binary.BigEndian.AppendUint64(k, uint64(r.Ended.UnixNano()))
	return binary.BigEndian.AppendUint64(k, r.GameID)
}

func resultGameKey(gameID uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{0}, gameID)
}

// decodeLadderPlayer reads a player record stored under key k.
func decodeLadderPlayer(k, v []byte) (storage.LadderPlayer, error) {
	var p storage.LadderPlayer
	if len(k) < 3 || int(k[0])+2 > len(k) {
		return p, fmt.Errorf("%w: ladder key %x", storage.ErrCorrupt, k)
	}
	n := int(k[0])
	p.GuildID, p.Category, p.UserID = string(k[1:1+n]), clock.Category(k[1+n]), string(k[2+n:])
	if err := codec.DecodeLadderPlayerValue(v, &p); err != nil {
		return p, fmt.Errorf("ladder player %s in guild %s: %w", p.UserID, p.GuildID, err)
	}
	return p, nil
}

// LadderPlayer reads a player's record.
func (t boltTx) LadderPlayer(guildID string, cat clock.Category, userID string) (storage.LadderPlayer, error) {
	if err := storage.CheckLadderKey(guildID, cat, userID); err != nil {
		return storage.LadderPlayer{}, err
	}
	k := ladderKey(guildID, cat, userID)
	v := t.tx.Bucket([]byte(bucketRatings)).Get(k)
	if v == nil {
		return storage.LadderPlayer{}, fmt.Errorf("%s in the %s ladder of guild %s: %w", userID, cat, guildID, storage.ErrNotFound)
	}
	return decodeLadderPlayer(k, v)
}

// PutLadderPlayer writes a player's record.
func (t boltTx) PutLadderPlayer(p storage.LadderPlayer) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return t.tx.Bucket([]byte(bucketRatings)).Put(ladderKey(p.GuildID, p.Category, p.UserID), codec.EncodeLadderPlayer(&p))
}

// scanPlayers returns the player records under prefix, in key order.
func scanPlayers(tx *bbolt.Tx, prefix []byte) ([]storage.LadderPlayer, error) {
	var out []storage.LadderPlayer
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

// Ladder reads the players of a guild's category, in user id order.
func (t boltTx) Ladder(guildID string, cat clock.Category) ([]storage.LadderPlayer, error) {
	if guildID == "" || len(guildID) > storage.MaxIDLen {
		return nil, fmt.Errorf("ladder: guild id %q: want 1 to %d bytes", guildID, storage.MaxIDLen)
	}
	return scanPlayers(t.tx, ladderPrefix(guildID, cat))
}

// GuildLadders reads every player record of a guild, by category then user id.
func (t boltTx) GuildLadders(guildID string) ([]storage.LadderPlayer, error) {
	if guildID == "" || len(guildID) > storage.MaxIDLen {
		return nil, fmt.Errorf("ladders: guild id %q: want 1 to %d bytes", guildID, storage.MaxIDLen)
	}
	return scanPlayers(t.tx, guildPrefix(guildID))
}

// UserLadders reads every ladder record of a user, by guild then category. The bucket
// is keyed by guild, so this reads it whole: it serves a user's Linked Roles push,
// made when they link their account and when a rated game of theirs ends.
func (t boltTx) UserLadders(userID string) ([]storage.LadderPlayer, error) {
	if userID == "" || len(userID) > storage.MaxIDLen {
		return nil, fmt.Errorf("ladders: user id %q: want 1 to %d bytes", userID, storage.MaxIDLen)
	}
	var out []storage.LadderPlayer
	err := t.tx.Bucket([]byte(bucketRatings)).ForEach(func(k, v []byte) error {
		if !bytes.HasSuffix(k, []byte(userID)) {
			return nil
		}
		p, err := decodeLadderPlayer(k, v)
		if err != nil {
			return err
		}
		if p.UserID == userID {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("ladders of user %s: %w", userID, err)
	}
	return out, nil
}

// ReplaceLadders replaces every player record of a guild with players.
func (t boltTx) ReplaceLadders(guildID string, players []storage.LadderPlayer) error {
	if err := storage.ValidateLadders(guildID, players); err != nil {
		return err
	}
	b := t.tx.Bucket([]byte(bucketRatings))
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
		if err := t.PutLadderPlayer(p); err != nil {
			return fmt.Errorf("replace ladders of guild %s: %w", guildID, err)
		}
	}
	return nil
}

// RatedResults reads a guild's rated results in end order.
func (t boltTx) RatedResults(guildID string) ([]storage.RatedResult, error) {
	if guildID == "" || len(guildID) > storage.MaxIDLen {
		return nil, fmt.Errorf("rated results: guild id %q: want 1 to %d bytes", guildID, storage.MaxIDLen)
	}
	prefix := guildPrefix(guildID)
	var out []storage.RatedResult
	c := t.tx.Bucket([]byte(bucketRatedResults)).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var r storage.RatedResult
		if err := codec.DecodeJSON(v, &r); err != nil {
			return nil, fmt.Errorf("rated result %x of guild %s: %w", k, guildID, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// RatedResult reads the rated result of a game.
func (t boltTx) RatedResult(gameID uint64) (storage.RatedResult, error) {
	b := t.tx.Bucket([]byte(bucketRatedResults))
	k := b.Get(resultGameKey(gameID))
	if k == nil {
		return storage.RatedResult{}, fmt.Errorf("rated result of game %d: %w", gameID, storage.ErrNotFound)
	}
	var r storage.RatedResult
	v := b.Get(k)
	if v == nil {
		return r, fmt.Errorf("%w: rated result of game %d: index names a missing record", storage.ErrCorrupt, gameID)
	}
	if err := codec.DecodeJSON(v, &r); err != nil {
		return r, fmt.Errorf("rated result of game %d: %w", gameID, err)
	}
	return r, nil
}

func putRatedResult(tx *bbolt.Tx, r storage.RatedResult) error {
	v, err := codec.EncodeJSON(r)
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

// AddRatedResult records a rated result unless its game already has one.
func (t boltTx) AddRatedResult(r storage.RatedResult) (added bool, err error) {
	if err := r.Validate(); err != nil {
		return false, err
	}
	if t.tx.Bucket([]byte(bucketRatedResults)).Get(resultGameKey(r.GameID)) != nil {
		return false, nil
	}
	if err := putRatedResult(t.tx, r); err != nil {
		return false, err
	}
	return true, nil
}

// ReplaceRatedResult rewrites the rating fields of a game's rated result.
func (t boltTx) ReplaceRatedResult(r storage.RatedResult) error {
	old, err := t.RatedResult(r.GameID)
	if err != nil {
		return err
	}
	if old.GuildID != r.GuildID || old.White != r.White || old.Black != r.Black || old.Score != r.Score ||
		old.Category != r.Category || !old.Ended.Equal(r.Ended) {
		return fmt.Errorf("replace rated result of game %d: only the ratings may change", r.GameID)
	}
	return putRatedResult(t.tx, r)
}
