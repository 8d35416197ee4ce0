// attempts.go: the members' puzzle attempts in the bbolt backend.
//
//	puzzle_attempts  len(guild)·guild · len(user)·user · puzzle id → PuzzleAttempt (JSON)

package bolt

import (
	"fmt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

func attemptPrefix(guildID, userID string) []byte {
	k := guildPrefix(guildID)
	k = append(k, byte(len(userID)))
	return append(k, userID...)
}

func attemptKey(guildID, userID, puzzleID string) []byte {
	return append(attemptPrefix(guildID, userID), puzzleID...)
}

// PuzzleAttempt reads a member's attempt at a puzzle.
func (t boltTx) PuzzleAttempt(guildID, userID, puzzleID string) (storage.PuzzleAttempt, error) {
	a := storage.PuzzleAttempt{GuildID: guildID, UserID: userID, PuzzleID: puzzleID}
	if err := storage.CheckMember("puzzle attempt", guildID, userID); err != nil {
		return a, err
	}
	if !storage.ValidPuzzleID(puzzleID) {
		return a, fmt.Errorf("puzzle attempt: puzzle id %q: %w", puzzleID, storage.ErrNotFound)
	}
	v := t.tx.Bucket([]byte(bucketPuzzleAttempts)).Get(attemptKey(guildID, userID, puzzleID))
	if v == nil {
		return a, fmt.Errorf("attempt of %s at puzzle %s in guild %s: %w", userID, puzzleID, guildID, storage.ErrNotFound)
	}
	if err := codec.DecodeJSON(v, &a); err != nil {
		return a, fmt.Errorf("attempt of %s at puzzle %s in guild %s: %w", userID, puzzleID, guildID, err)
	}
	a.GuildID, a.UserID, a.PuzzleID = guildID, userID, puzzleID
	return a, nil
}

// PutPuzzleAttempt writes a member's attempt at a puzzle.
func (t boltTx) PutPuzzleAttempt(a storage.PuzzleAttempt) error {
	if err := a.Validate(); err != nil {
		return err
	}
	v, err := codec.EncodeJSON(a)
	if err != nil {
		return fmt.Errorf("encode attempt of %s at puzzle %s: %w", a.UserID, a.PuzzleID, err)
	}
	return t.tx.Bucket([]byte(bucketPuzzleAttempts)).Put(attemptKey(a.GuildID, a.UserID, a.PuzzleID), v)
}
