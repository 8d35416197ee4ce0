// records.go: the records both backends keep as JSON under their id (challenges,
// tournaments, tournament boards, games against the engine), decoded the same way
// whichever database held them.

package codec

import (
	"fmt"

	"github.com/gambitchess/gambit/storage"
)

// DecodeChallenge decodes the JSON record of challenge id. The id is the key's (the
// bbolt key, the PostgreSQL column), whatever the record says.
func DecodeChallenge(id uint64, b []byte) (*storage.Challenge, error) {
	c := new(storage.Challenge)
	if err := DecodeJSON(b, c); err != nil {
		return nil, fmt.Errorf("challenge %d: %w", id, err)
	}
	c.ID = id
	return c, nil
}

// DecodeTournament decodes the JSON record of tournament id; the id is the key's.
func DecodeTournament(id uint64, b []byte) (*storage.Tournament, error) {
	tm := new(storage.Tournament)
	if err := DecodeJSON(b, tm); err != nil {
		return nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	tm.ID = id
	return tm, nil
}

// DecodeTournamentGame decodes the JSON record of the tournament board of game gameID;
// the game id is the key's.
func DecodeTournamentGame(gameID uint64, b []byte) (*storage.TournamentGame, error) {
	tg := new(storage.TournamentGame)
	if err := DecodeJSON(b, tg); err != nil {
		return nil, fmt.Errorf("tournament game %d: %w", gameID, err)
	}
	tg.GameID = gameID
	return tg, nil
}

// DecodeEngineGame decodes the JSON record of the game against the engine gameID; the
// game id is the key's.
func DecodeEngineGame(gameID uint64, b []byte) (*storage.EngineGame, error) {
	e := new(storage.EngineGame)
	if err := DecodeJSON(b, e); err != nil {
		return nil, fmt.Errorf("engine game %d: %w", gameID, err)
	}
	e.GameID = gameID
	return e, nil
}
