// plans.go: the players' conditional moves in the PostgreSQL backend (table
// conditional_plans: game id, colour → JSON envelope of Plan).

package pg

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// Plan reads side c's plan in a game.
func (t *pgTx) Plan(gameID uint64, c chesscore.Color) (*storage.Plan, error) {
	v, err := t.value(`SELECT record FROM conditional_plans WHERE game_id = $1 AND color = $2`, int64(gameID), int16(c))
	if err != nil {
		return nil, fmt.Errorf("plan of game %d: %w", gameID, err)
	}
	if v == nil {
		return nil, fmt.Errorf("plan of game %d: %w", gameID, storage.ErrNotFound)
	}
	return codec.DecodePlan(gameID, c, v)
}

// PutPlan writes a plan of a stored game.
func (t *pgTx) PutPlan(p *storage.Plan) error {
	if err := p.Validate(); err != nil {
		return err
	}
	var one int
	ok, err := t.scanOne(`SELECT 1 FROM games WHERE id = $1`, []any{int64(p.GameID)}, &one)
	if err != nil {
		return fmt.Errorf("put plan of game %d: %w", p.GameID, err)
	}
	if !ok {
		return fmt.Errorf("put plan: game %d: %w", p.GameID, storage.ErrNotFound)
	}
	v, err := codec.EncodeJSON(p)
	if err != nil {
		return fmt.Errorf("encode plan of game %d: %w", p.GameID, err)
	}
	if _, err := t.exec(`INSERT INTO conditional_plans (game_id, color, record) VALUES ($1, $2, $3)
		ON CONFLICT (game_id, color) DO UPDATE SET record = EXCLUDED.record`, int64(p.GameID), int16(p.Color), v); err != nil {
		return fmt.Errorf("write plan of game %d: %w", p.GameID, err)
	}
	return nil
}

// DeletePlans deletes the plans of a game's sides (both when none is given).
func (t *pgTx) DeletePlans(gameID uint64, sides ...chesscore.Color) error {
	var err error
	if len(sides) == 0 {
		_, err = t.exec(`DELETE FROM conditional_plans WHERE game_id = $1`, int64(gameID))
	}
	for _, c := range sides {
		if err != nil {
			break
		}
		_, err = t.exec(`DELETE FROM conditional_plans WHERE game_id = $1 AND color = $2`, int64(gameID), int16(c))
	}
	if err != nil {
		return fmt.Errorf("delete plans of game %d: %w", gameID, err)
	}
	return nil
}

// EachPlan calls fn with every plan, by game id then colour.
func (t *pgTx) EachPlan(fn func(*storage.Plan) error) error {
	return t.rows(`SELECT game_id, color, record FROM conditional_plans ORDER BY game_id, color`, func(r pgx.Rows) error {
		var id int64
		var c int16
		var v []byte
		if err := r.Scan(&id, &c, &v); err != nil {
			return err
		}
		if c < 0 || c > 1 {
			return fmt.Errorf("%w: plan of game %d: colour %d", storage.ErrCorrupt, id, c)
		}
		p, err := codec.DecodePlan(uint64(id), chesscore.Color(c), v)
		if err != nil {
			return err
		}
		return fn(p)
	})
}
