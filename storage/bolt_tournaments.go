// bolt_tournaments.go: tournaments and the tournament boards of games in the bbolt
// backend.
//
//	tournaments       8-byte tournament id → Tournament (JSON envelope: 'J' and the JSON)
//	tournament_games  8-byte game id → TournamentGame (JSON envelope)

package storage

import (
	"fmt"
	"slices"
)

// Tournament reads tournament id.
func (t boltTx) Tournament(id uint64) (*Tournament, error) {
	v := t.tx.Bucket([]byte(bucketTournaments)).Get(idKey(id))
	if v == nil {
		return nil, fmt.Errorf("tournament %d: %w", id, ErrNotFound)
	}
	tm := new(Tournament)
	if err := decodeJSON(v, tm); err != nil {
		return nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	tm.ID = id
	return tm, nil
}

// PutTournament writes a tournament, giving a new one (ID 0) the next id, and
// increments its Version.
func (t boltTx) PutTournament(tm *Tournament) error {
	if err := tm.validate(); err != nil {
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
	v, err := encodeJSON(tm)
	if err != nil {
		return fmt.Errorf("encode tournament %d: %w", tm.ID, err)
	}
	if err := b.Put(idKey(tm.ID), v); err != nil {
		return fmt.Errorf("write tournament %d: %w", tm.ID, err)
	}
	return nil
}

// Tournaments reads a guild's tournaments (every guild's for ""), newest first.
func (t boltTx) Tournaments(guildID string, liveOnly bool) ([]*Tournament, error) {
	var out []*Tournament
	err := t.tx.Bucket([]byte(bucketTournaments)).ForEach(func(k, _ []byte) error {
		tm, err := t.Tournament(keyID(k))
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
func (t boltTx) TournamentGame(gameID uint64) (*TournamentGame, error) {
	v := t.tx.Bucket([]byte(bucketTournamentGames)).Get(idKey(gameID))
	if v == nil {
		return nil, fmt.Errorf("tournament game %d: %w", gameID, ErrNotFound)
	}
	tg := new(TournamentGame)
	if err := decodeJSON(v, tg); err != nil {
		return nil, fmt.Errorf("tournament game %d: %w", gameID, err)
	}
	tg.GameID = gameID
	return tg, nil
}

// PutTournamentGame records the tournament board of a game.
func (t boltTx) PutTournamentGame(tg TournamentGame) error {
	if tg.GameID == 0 || tg.TournamentID == 0 {
		return fmt.Errorf("tournament game: game %d of tournament %d: both ids are needed", tg.GameID, tg.TournamentID)
	}
	v, err := encodeJSON(tg)
	if err != nil {
		return fmt.Errorf("encode tournament game %d: %w", tg.GameID, err)
	}
	return t.tx.Bucket([]byte(bucketTournamentGames)).Put(idKey(tg.GameID), v)
}
