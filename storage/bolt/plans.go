// plans.go: the players' conditional moves in the bbolt backend.
//
// Layout: game id (8 bytes, big-endian) · colour (1 byte) → JSON envelope of Plan.

package bolt

import (
	"fmt"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// planKey is the key of side c's plan in a game.
func planKey(gameID uint64, c chesscore.Color) []byte {
	return append(codec.IDKey(gameID), byte(c))
}

// decodePlan reads a plan's key and record.
func decodePlan(k, v []byte) (*storage.Plan, error) {
	if len(k) != 9 || k[8] > 1 {
		return nil, fmt.Errorf("%w: plan key %x", storage.ErrCorrupt, k)
	}
	return codec.DecodePlan(codec.KeyID(k[:8]), chesscore.Color(k[8]), v)
}

// Plan reads side c's plan in a game.
func (t boltTx) Plan(gameID uint64, c chesscore.Color) (*storage.Plan, error) {
	k := planKey(gameID, c)
	v := t.tx.Bucket([]byte(bucketPlans)).Get(k)
	if v == nil {
		return nil, fmt.Errorf("plan of game %d: %w", gameID, storage.ErrNotFound)
	}
	return decodePlan(k, v)
}

// PutPlan writes a plan of a stored game.
func (t boltTx) PutPlan(p *storage.Plan) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if _, err := t.Game(p.GameID); err != nil {
		return fmt.Errorf("put plan: %w", err)
	}
	v, err := codec.EncodeJSON(p)
	if err != nil {
		return fmt.Errorf("encode plan of game %d: %w", p.GameID, err)
	}
	if err := t.tx.Bucket([]byte(bucketPlans)).Put(planKey(p.GameID, p.Color), v); err != nil {
		return fmt.Errorf("write plan of game %d: %w", p.GameID, err)
	}
	return nil
}

// DeletePlans deletes the plans of a game's sides (both when none is given).
func (t boltTx) DeletePlans(gameID uint64, sides ...chesscore.Color) error {
	if len(sides) == 0 {
		sides = []chesscore.Color{chesscore.White, chesscore.Black}
	}
	b := t.tx.Bucket([]byte(bucketPlans))
	for _, c := range sides {
		if err := b.Delete(planKey(gameID, c)); err != nil {
			return fmt.Errorf("delete plan of game %d: %w", gameID, err)
		}
	}
	return nil
}

// EachPlan calls fn with every plan, by game id then colour.
func (t boltTx) EachPlan(fn func(*storage.Plan) error) error {
	return t.records(bucketPlans, func(k, v []byte) error {
		p, err := decodePlan(k, v)
		if err != nil {
			return err
		}
		return fn(p)
	})
}
