// votegames.go: vote chess games in the bbolt backend.
//
// Layout: game id (8 bytes, big-endian) → JSON envelope of VoteGame.

package bolt

import (
	"errors"
	"fmt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// VoteGame reads the vote record of a game.
func (t boltTx) VoteGame(gameID uint64) (*storage.VoteGame, error) {
	v := t.tx.Bucket([]byte(bucketVoteGames)).Get(codec.IDKey(gameID))
	if v == nil {
		return nil, fmt.Errorf("vote game %d: %w", gameID, storage.ErrNotFound)
	}
	return codec.DecodeVoteGame(gameID, v)
}

// PutVoteGame writes the vote record of a stored game from its stored version.
func (t boltTx) PutVoteGame(v *storage.VoteGame) error {
	if err := v.Validate(); err != nil {
		return err
	}
	if _, err := t.Game(v.GameID); err != nil {
		return fmt.Errorf("put vote game: %w", err)
	}
	stored, err := t.VoteGame(v.GameID)
	if errors.Is(err, storage.ErrNotFound) {
		stored, err = nil, nil
	}
	if err != nil {
		return err
	}
	w, err := storage.NextVoteVersion(stored, v)
	if err != nil {
		return err
	}
	b, err := codec.EncodeJSON(w)
	if err == nil {
		err = t.tx.Bucket([]byte(bucketVoteGames)).Put(codec.IDKey(w.GameID), b)
	}
	if err != nil {
		return fmt.Errorf("write vote game %d: %w", v.GameID, err)
	}
	return nil
}

// LiveVoteGames reads the vote records not over, in game id order.
func (t boltTx) LiveVoteGames() ([]*storage.VoteGame, error) {
	var out []*storage.VoteGame
	err := t.EachVoteGame(func(v *storage.VoteGame) error {
		if !v.Over {
			out = append(out, v)
		}
		return nil
	})
	return out, err
}

// EachVoteGame calls fn with every vote record in game id order.
func (t boltTx) EachVoteGame(fn func(*storage.VoteGame) error) error {
	return t.records(bucketVoteGames, func(k, v []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("%w: vote game key %x", storage.ErrCorrupt, k)
		}
		rec, err := codec.DecodeVoteGame(codec.KeyID(k), v)
		if err != nil {
			return err
		}
		return fn(rec)
	})
}
