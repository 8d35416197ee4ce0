// puzzles.go: puzzles in the bbolt backend, and the keys of the puzzle family of
// buckets.
//
//	puzzles          puzzle id → puzzle record (binary, below)
//	                 0x00 'r' · 2-byte rating · id → 0x01     (puzzles by rating)
//	                 0x00 'g' · len(guild)·guild · id → 0x01  (puzzles mined from a guild's games)
//	                 0x00 'n' → 8-byte count of puzzles
//	puzzle_daily     len(guild)·guild · date (YYYY-MM-DD) → Daily (JSON envelope)
//	puzzle_users     len(guild)·guild · user → PuzzlePlayer (JSON envelope)
//	puzzle_attempts  len(guild)·guild · len(user)·user · puzzle id → PuzzleAttempt (JSON)
//
// A puzzle id is 1 to MaxPuzzleIDLen printable ASCII bytes and never starts with 0x00,
// so the index family under 0x00 never mixes with the records. Dates are ISO days in
// the guild's time zone, so a guild's days sort in order.
//
// A puzzle record is its format byte (2), then (strings as a uvarint length and the
// bytes, integers as uvarints, popularity as a zig-zag varint):
//
//	string   FEN
//	string   moves, UCI, separated by spaces
//	uvarint  rating, rating deviation, volatility × 10⁶
//	varint   popularity
//	uvarint  plays
//	string   themes, separated by spaces
//	string   game URL, opening tags (separated by spaces), source
//	string   white, black: the user ids of the source game's players
//	varint   added (unix ns, 0 for none), played (unix ns: when the source game ended)
//
// That is format 2. Format 1 had one string, a description, in place of white and
// black: "<@white> vs <@black>" (Discord mentions) for a puzzle mined from a guild's
// game, empty otherwise. It still decodes, into White and Black.
//
// A lichess puzzle takes about 120 bytes, so the five million of the full database
// take under a gigabyte with the index.

package bolt

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// Keys of the index family of the puzzles bucket.
var (
	puzzleIdxRating = []byte{0, 'r'}
	puzzleIdxGuild  = []byte{0, 'g'}
	puzzleCountKey  = []byte{0, 'n'}
)

func puzzleRatingKey(rating int, id string) []byte {
	k := append(bytes.Clone(puzzleIdxRating), byte(rating>>8), byte(rating))
	return append(k, id...)
}

func puzzleGuildKey(guild, id string) []byte {
	k := append(bytes.Clone(puzzleIdxGuild), byte(len(guild)))
	k = append(k, guild...)
	return append(k, id...)
}

// Puzzle reads a stored puzzle.
func (t boltTx) Puzzle(id string) (*storage.Puzzle, error) {
	if !storage.ValidPuzzleID(id) {
		return nil, fmt.Errorf("puzzle %q: %w", id, storage.ErrNotFound)
	}
	v := t.tx.Bucket([]byte(bucketPuzzles)).Get([]byte(id))
	if v == nil {
		return nil, fmt.Errorf("puzzle %s: %w", id, storage.ErrNotFound)
	}
	return codec.DecodePuzzle(id, v)
}

func puzzleCount(b *bbolt.Bucket) uint64 {
	if v := b.Get(puzzleCountKey); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

// PutPuzzle writes p, keeping the indexes in step with the record it replaces (if
// any), and reports whether p is new.
func (t boltTx) PutPuzzle(p *storage.Puzzle) (bool, error) {
	if err := storage.ValidatePuzzle(p); err != nil {
		return false, err
	}
	b := t.tx.Bucket([]byte(bucketPuzzles))
	key := []byte(p.ID)
	isNew := true
	if v := b.Get(key); v != nil {
		old, err := codec.DecodePuzzle(p.ID, v)
		if err != nil {
			return false, err
		}
		isNew = false
		if err := b.Delete(puzzleRatingKey(old.Rating, old.ID)); err != nil {
			return false, err
		}
		if g := old.SourceGuild(); g != "" {
			if err := b.Delete(puzzleGuildKey(g, old.ID)); err != nil {
				return false, err
			}
		}
	}
	if err := b.Put(key, codec.EncodePuzzle(p)); err != nil {
		return false, fmt.Errorf("write puzzle %s: %w", p.ID, err)
	}
	if err := b.Put(puzzleRatingKey(p.Rating, p.ID), present); err != nil {
		return false, err
	}
	if g := p.SourceGuild(); g != "" && len(g) <= storage.MaxIDLen {
		if err := b.Put(puzzleGuildKey(g, p.ID), present); err != nil {
			return false, err
		}
	}
	if isNew {
		if err := b.Put(puzzleCountKey, binary.BigEndian.AppendUint64(nil, puzzleCount(b)+1)); err != nil {
			return false, err
		}
	}
	return isNew, nil
}

// AddPuzzles stores the puzzles whose ids are not stored yet and returns how many.
func (t boltTx) AddPuzzles(ps []*storage.Puzzle) (added int, err error) {
	for _, p := range ps {
		if err := storage.ValidatePuzzle(p); err != nil {
			return 0, err
		}
	}
	b := t.tx.Bucket([]byte(bucketPuzzles))
	// Imports mostly append (the lichess file is sorted by id; each rating's ids come in
	// order): fuller pages halve the file.
	b.FillPercent = 0.9
	for _, p := range ps {
		if b.Get([]byte(p.ID)) != nil {
			continue
		}
		if _, err := t.PutPuzzle(p); err != nil {
			return added, err
		}
		added++
	}
	return added, nil
}

// CountPuzzles reads the number of stored puzzles.
func (t boltTx) CountPuzzles() (int, error) {
	return int(puzzleCount(t.tx.Bucket([]byte(bucketPuzzles)))), nil
}

// EachPuzzle calls fn with every stored puzzle in id order until fn returns an error.
func (t boltTx) EachPuzzle(fn func(*storage.Puzzle) error) error {
	c := t.tx.Bucket([]byte(bucketPuzzles)).Cursor()
	for k, v := c.Seek([]byte{1}); k != nil; k, v = c.Next() {
		p, err := codec.DecodePuzzle(string(k), v)
		if err != nil {
			return err
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// PickPuzzle chooses a stored puzzle that fits q.
func (t boltTx) PickPuzzle(q storage.PuzzlePick) (*storage.Puzzle, error) {
	tx := t.tx
	b := tx.Bucket([]byte(bucketPuzzles))
	used := map[string]bool{}
	if q.NotDailyIn != "" {
		ds, err := t.Dailies(q.NotDailyIn)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			used[d.PuzzleID] = true
		}
	}
	lo, hi, budget, err := q.Bounds()
	if err != nil {
		return nil, err
	}
	var attempts *bbolt.Bucket
	var triedPrefix []byte
	if q.NotTriedBy != "" {
		attempts = tx.Bucket([]byte(bucketPuzzleAttempts))
		triedPrefix = attemptPrefix(q.GuildID, q.NotTriedBy)
	}
	// fits decodes and checks the puzzle with the given id.
	fits := func(id []byte) (*storage.Puzzle, error) {
		if used[string(id)] {
			return nil, nil
		}
		if attempts != nil && attempts.Get(append(bytes.Clone(triedPrefix), id...)) != nil {
			return nil, nil
		}
		v := b.Get(id)
		if v == nil {
			return nil, fmt.Errorf("%w: puzzle index names %q, which is not stored", storage.ErrCorrupt, id)
		}
		p, err := codec.DecodePuzzle(string(id), v)
		if err != nil {
			return nil, err
		}
		if g := p.SourceGuild(); g != "" && g != q.GuildID {
			return nil, nil
		}
		if p.Rating < lo || p.Rating > hi {
			return nil, nil
		}
		return p, nil
	}
	c := b.Cursor()
	if q.PreferOwn && q.GuildID != "" {
		prefix := puzzleGuildKey(q.GuildID, "")
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && budget > 0; k, _ = c.Next() {
			budget--
			p, err := fits(k[len(prefix):])
			if p != nil || err != nil {
				return p, err
			}
		}
	}
	// From a random rating in the range and a random id within it, walk the rating index
	// up to hi, then from lo back to the start.
	r0 := lo + int(q.Seed%uint64(hi-lo+1))
	start := append(puzzleRatingKey(r0, ""), binary.BigEndian.AppendUint64(nil, q.Seed*0x9E3779B97F4A7C15)...)
	first := puzzleRatingKey(lo, "")
	end := puzzleRatingKey(hi+1, "")
	wrapped := false
	k, _ := c.Seek(start)
	for budget > 0 {
		if k == nil || bytes.Compare(k, end) >= 0 || !bytes.HasPrefix(k, puzzleIdxRating) {
			if wrapped {
				break
			}
			wrapped = true
			k, _ = c.Seek(first)
			continue
		}
		if wrapped && bytes.Compare(k, start) >= 0 {
			break
		}
		budget--
		p, err := fits(k[len(puzzleIdxRating)+2:])
		if p != nil || err != nil {
			return p, err
		}
		k, _ = c.Next()
	}
	return nil, fmt.Errorf("pick a puzzle rated %d-%d for guild %s: %w", lo, hi, q.GuildID, storage.ErrNoPuzzle)
}
