// records.go: the records both backends keep as JSON under their id (challenges,
// tournaments, tournament boards, games against the engine, guild settings, conditional plans,
// vote games, vacations, linked accounts), encoded and
// decoded the same way whichever database holds them.

package codec

import (
	"fmt"

	"github.com/gambitchess/gambit/chesscore"
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

// DecodePlan decodes the JSON record of side c's plan in game gameID; the key gives
// both.
func DecodePlan(gameID uint64, c chesscore.Color, b []byte) (*storage.Plan, error) {
	p := new(storage.Plan)
	if err := DecodeJSON(b, p); err != nil {
		return nil, fmt.Errorf("plan of game %d: %w", gameID, err)
	}
	p.GameID, p.Color = gameID, c
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", storage.ErrCorrupt, err)
	}
	return p, nil
}

// EncodeGuildSettings checks a guild's settings (a guild id, Validate) and encodes them
// for writing.
func EncodeGuildSettings(s storage.GuildSettings) ([]byte, error) {
	if s.GuildID == "" {
		return nil, fmt.Errorf("guild settings: no guild id")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	v, err := EncodeJSON(s)
	if err != nil {
		return nil, fmt.Errorf("encode settings of guild %s: %w", s.GuildID, err)
	}
	return v, nil
}

// DecodeGuildSettings decodes the stored settings of guild guildID over the defaults
// (fields added later keep theirs); the guild id is the key's.
func DecodeGuildSettings(guildID string, b []byte) (storage.GuildSettings, error) {
	s := storage.DefaultGuildSettings(guildID)
	if err := DecodeJSON(b, &s); err != nil {
		return storage.GuildSettings{}, fmt.Errorf("settings of guild %s: %w", guildID, err)
	}
	s.GuildID = guildID
	return s, nil
}

// DecodeVoteGame decodes the JSON record of the vote game gameID; the game id is the
// key's.
func DecodeVoteGame(gameID uint64, b []byte) (*storage.VoteGame, error) {
	v := new(storage.VoteGame)
	if err := DecodeJSON(b, v); err != nil {
		return nil, fmt.Errorf("vote game %d: %w", gameID, err)
	}
	v.GameID = gameID
	if err := v.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", storage.ErrCorrupt, err)
	}
	return v, nil
}

// DecodeVacation decodes the JSON vacation record of user in guild; the guild and the
// user are the key's.
func DecodeVacation(guildID, userID string, b []byte) (*storage.Vacation, error) {
	v := new(storage.Vacation)
	if err := DecodeJSON(b, v); err != nil {
		return nil, fmt.Errorf("vacation of %s in guild %s: %w", userID, guildID, err)
	}
	v.GuildID, v.UserID = guildID, userID
	if err := v.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", storage.ErrCorrupt, err)
	}
	return v, nil
}

// DecodeLinkedAccount decodes the JSON linked account of a user; the user is the key's.
func DecodeLinkedAccount(userID string, b []byte) (*storage.LinkedAccount, error) {
	a := new(storage.LinkedAccount)
	if err := DecodeJSON(b, a); err != nil {
		return nil, fmt.Errorf("linked account of %s: %w", userID, err)
	}
	a.UserID = userID
	if err := a.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", storage.ErrCorrupt, err)
	}
	return a, nil
}
