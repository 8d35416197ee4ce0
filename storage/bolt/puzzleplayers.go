// puzzleplayers.go: the members' puzzle records in the bbolt backend.
//
//	puzzle_users  len(guild)·guild · user → PuzzlePlayer (JSON envelope)

package bolt

import (
	"bytes"
	"fmt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

func playerKey(guildID, userID string) []byte { return append(guildPrefix(guildID), userID...) }

func decodePuzzlePlayer(k, v []byte) (storage.PuzzlePlayer, error) {
	var p storage.PuzzlePlayer
	if len(k) < 2 || int(k[0])+2 > len(k) {
		return p, fmt.Errorf("%w: puzzle player key %x", storage.ErrCorrupt, k)
	}
	p.GuildID, p.UserID = string(k[1:1+int(k[0])]), string(k[1+int(k[0]):])
	if err := codec.DecodeJSON(v, &p); err != nil {
		return p, fmt.Errorf("puzzle player %s in guild %s: %w", p.UserID, p.GuildID, err)
	}
	return p, nil
}

// PuzzlePlayer reads a member's puzzle record.
func (t boltTx) PuzzlePlayer(guildID, userID string) (storage.PuzzlePlayer, error) {
	if err := storage.CheckMember("puzzle player", guildID, userID); err != nil {
		return storage.PuzzlePlayer{}, err
	}
	k := playerKey(guildID, userID)
	v := t.tx.Bucket([]byte(bucketPuzzleUsers)).Get(k)
	if v == nil {
		return storage.PuzzlePlayer{GuildID: guildID, UserID: userID}, fmt.Errorf("puzzle player %s in guild %s: %w", userID, guildID, storage.ErrNotFound)
	}
	return decodePuzzlePlayer(k, v)
}

// PutPuzzlePlayer writes a member's puzzle record.
func (t boltTx) PutPuzzlePlayer(p storage.PuzzlePlayer) error {
	if err := p.Validate(); err != nil {
		return err
	}
	v, err := codec.EncodeJSON(p)
	if err != nil {
		return fmt.Errorf("encode puzzle player %s in guild %s: %w", p.UserID, p.GuildID, err)
	}
	return t.tx.Bucket([]byte(bucketPuzzleUsers)).Put(playerKey(p.GuildID, p.UserID), v)
}

// PuzzlePlayers reads the puzzle records of a guild's members, in user id order.
func (t boltTx) PuzzlePlayers(guildID string) ([]storage.PuzzlePlayer, error) {
	if err := storage.CheckGuild("puzzle players", guildID); err != nil {
		return nil, err
	}
	var out []storage.PuzzlePlayer
	prefix := guildPrefix(guildID)
	c := t.tx.Bucket([]byte(bucketPuzzleUsers)).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		p, err := decodePuzzlePlayer(k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}
