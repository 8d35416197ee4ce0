// tournaments.go: tournaments and the tournament boards of games in the bbolt
// backend.
//
//	tournaments       8-byte tournament id → Tournament (JSON envelope: 'J' and the JSON)
//	tournament_games  8-byte game id → TournamentGame (JSON envelope)

package bolt

import (
	"fmt"
	"slices"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// Tournament reads tournament id.
func (t boltTx) Tournament(id uint64) (*storage.Tournament, error) {
	v := t.tx.Bucket([]byte(bucketTournaments)).Get(codec.IDKey(id))
	if v == nil {
		return nil, fmt.Errorf("tournament %d: %w", id, storage.ErrNotFound)
	}
	return codec.DecodeTournament(id, v)
}

// PutTournament writes a tournament, giving a new one (ID 0) the next id, and
// increments its Version.
func (t boltTx) PutTournament(tm *storage.Tournament) error {
	if err := tm.Validate(); err != nil {
		return err
	}
	b := t.tx.Bucket([]byte(bucketTournaments))
	if tm.ID == 0 {
		id, err := b.NextSequence()
		if err != nil {
			return fmt.Errorf("new tournament id: %w", err)
		}
		tm.ID = id
	} else if err := keepSequence(b, tm.ID); err != nil {
		return fmt.Errorf("write tournament %d: %w", tm.ID, err)
	}
	tm.Version++
	v, err := codec.EncodeJSON(tm)
	if err != nil {
		return fmt.Errorf("encode tournament %d: %w", tm.ID, err)
	}
	if err := b.Put(codec.IDKey(tm.ID), v); err != nil {
		return fmt.Errorf("write tournament %d: %w", tm.ID, err)
	}
	return nil
}

// Tournaments reads a guild's tournaments (every guild's for ""), newest first.
func (t boltTx) Tournaments(guildID string, liveOnly bool) ([]*storage.Tournament, error) {
	var out []*storage.Tournament
	err := t.tx.Bucket([]byte(bucketTournaments)).ForEach(func(k, _ []byte) error {
		tm, err := t.Tournament(codec.KeyID(k))
		if err != nil {
			return err
		}
		if (guildID == "" || tm.GuildID == guildID) && (!liveOnly || tm.Live()) {
			out = append(out, tm)
		}
		return nil
	})
	slices.Reverse(out)
	return out, err
}

// TournamentGame reads the tournament board of a game.
func (t boltTx) TournamentGame(gameID uint64) (*storage.TournamentGame, error) {
	v := t.tx.Bucket([]byte(bucketTournamentGames)).Get(codec.IDKey(gameID))
	if v == nil {
		return nil, fmt.Errorf("tournament game %d: %w", gameID, storage.ErrNotFound)
	}
	return codec.DecodeTournamentGame(gameID, v)
}

// PutTournamentGame records the tournament board of a game.
func (t boltTx) PutTournamentGame(tg storage.TournamentGame) error {
	if tg.GameID == 0 || tg.TournamentID == 0 {
		return fmt.Errorf("tournament game: game %d of tournament %d: both ids are needed", tg.GameID, tg.TournamentID)
	}
	v, err := codec.EncodeJSON(tg)
	if err != nil {
		return fmt.Errorf("encode tournament game %d: %w", tg.GameID, err)
	}
	return t.tx.Bucket([]byte(bucketTournamentGames)).Put(codec.IDKey(tg.GameID), v)
}
