// commit.go: writing: a Change is everything one request changes, committed in one
// transaction, grouped with concurrent commits.

package storage

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Change is what one request writes, committed atomically by Commit: a game, a
// challenge, user names, the request's receipt, and a hook for writes of other services
// in the same transaction.
type Change struct {
	// Game is written if set. A game with ID 0 is new: Commit gives it the next id
	// (written into Game.ID, into Challenge.GameID when Challenge is set and into
	// Receipt.GameID) and indexes it by user, channel and guild.
	Game *Game
	// Challenge is written if set; ID 0 makes a new one (its id goes to Challenge.ID and
	// Receipt.ChallengeID).
	Challenge *Challenge
	// Users are upserted by name: a new user gets the default preferences; a known one
	// keeps its preferences and takes the new name.
	Users []User
	// Receipt, if set, is stored under Receipt.RequestID.
	Receipt *Receipt
	// After, if set, runs last in the same transaction, with the records above already
	// written: the ladder updates ratings here, atomically with a result. An error
	// aborts the whole change. After may run more than once (a group commit that is
	// retried runs it again in a new transaction); only the run whose transaction
	// commits counts, so it must not act outside the transaction.
	After func(w *Writer) error
}

// Commit writes the change in one transaction, durably (fsync) unless the store was
// opened with NoSync. Concurrent commits share a transaction and its fsync (group
// commit); a change that fails is retried alone, so one failure does not fail the
// others.
func (db *DB) Commit(c *Change) error {
	newGame := c.Game != nil && c.Game.ID == 0
	newChallenge := c.Challenge != nil && c.Challenge.ID == 0
	if err := c.validate(); err != nil {
		return err
	}
	return db.update(func(tx *bolt.Tx) error {
		return applyChange(tx, c, newGame, newChallenge)
	})
}

// SaveMove commits a game record after a move (or any change to it), with the receipt of
// the request that made it (nil for none): Commit with just those two.
func (db *DB) SaveMove(g *Game, receipt *Receipt) error {
	return db.Commit(&Change{Game: g, Receipt: receipt})
}

// CommitAll writes many changes in a single transaction (not grouped with others), for
// bulk work: start-up adjustments, imports.
func (db *DB) CommitAll(cs []*Change) error {
	if db.readOnly {
		return ErrReadOnly
	}
	type flags struct{ game, challenge bool }
	news := make([]flags, len(cs))
	for i, c := range cs {
		news[i] = flags{c.Game != nil && c.Game.ID == 0, c.Challenge != nil && c.Challenge.ID == 0}
		if err := c.validate(); err != nil {
			return err
		}
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		for i, c := range cs {
			if err := applyChange(tx, c, news[i].game, news[i].challenge); err != nil {
				return err
			}
		}
		return nil
	})
}

func (c *Change) validate() error {
	if c.Game != nil {
		if err := c.Game.validate(); err != nil {
			return fmt.Errorf("commit game %d: %w", c.Game.ID, err)
		}
	}
	if c.Challenge != nil {
		ch := c.Challenge
		if len(ch.From.ID) > MaxIDLen || len(ch.To.ID) > MaxIDLen || len(ch.GuildID) > MaxIDLen || len(ch.ChannelID) > MaxIDLen {
			return fmt.Errorf("commit challenge %d: an id is longer than %d bytes", ch.ID, MaxIDLen)
		}
	}
	for _, u := range c.Users {
		if u.ID == "" || len(u.ID) > MaxIDLen {
			return fmt.Errorf("commit user %q: want an id of 1 to %d bytes", u.ID, MaxIDLen)
		}
	}
	if c.Receipt != nil && (c.Receipt.RequestID == "" || len(c.Receipt.RequestID) > 200) {
		return fmt.Errorf("commit receipt: request id %q: want 1 to 200 bytes", c.Receipt.RequestID)
	}
	return nil
}

// applyChange writes c in tx. newGame and newChallenge were decided before the first
// run, since a rerun sees the ids the previous run assigned.
func applyChange(tx *bolt.Tx, c *Change, newGame, newChallenge bool) error {
	if c.Challenge != nil {
		b := tx.Bucket([]byte(bucketChallenges))
		if newChallenge {
			id, err := b.NextSequence()
			if err != nil {
				return fmt.Errorf("new challenge id: %w", err)
			}
			c.Challenge.ID = id
			if c.Receipt != nil {
				c.Receipt.ChallengeID = id
			}
		}
	}
	if c.Game != nil {
		g := c.Game
		b := tx.Bucket([]byte(bucketGames))
		if newGame {
			id, err := b.NextSequence()
			if err != nil {
				return fmt.Errorf("new game id: %w", err)
			}
			g.ID = id
			if c.Challenge != nil {
				c.Challenge.GameID = id
			}
			if c.Receipt != nil {
				c.Receipt.GameID = id
			}
		}
		if err := b.Put(idKey(g.ID), encodeGame(g)); err != nil {
			return fmt.Errorf("write game %d: %w", g.ID, err)
		}
		if err := indexGame(tx, g, newGame); err != nil {
			return fmt.Errorf("index game %d: %w", g.ID, err)
		}
	}
	if c.Challenge != nil {
		if err := putChallenge(tx, c.Challenge); err != nil {
			return err
		}
	}
	for _, u := range c.Users {
		if err := upsertUserName(tx, u); err != nil {
			return err
		}
	}
	if c.Receipt != nil {
		if err := putReceipt(tx, c.Receipt); err != nil {
			return err
		}
	}
	if c.After != nil {
		if err := c.After(&Writer{tx: tx}); err != nil {
			return fmt.Errorf("commit hook: %w", err)
		}
	}
	return nil
}

// Writer gives a Change's After hook typed access to the transaction the change is
// committed in. It is valid only during the hook.
type Writer struct{ tx *bolt.Tx }

// Game reads a game as the transaction sees it (with the change's own writes).
func (w *Writer) Game(id uint64) (*Game, error) { return getGame(w.tx, id) }

// PutGame rewrites an existing game record (indexes follow its live state).
func (w *Writer) PutGame(g *Game) error {
	if g.ID == 0 {
		return fmt.Errorf("put game: no id (create games with Change.Game)")
	}
	if err := g.validate(); err != nil {
		return fmt.Errorf("put game %d: %w", g.ID, err)
	}
	if err := w.tx.Bucket([]byte(bucketGames)).Put(idKey(g.ID), encodeGame(g)); err != nil {
		return err
	}
	return indexGame(w.tx, g, false)
}

// User reads a user (ErrNotFound for one never seen).
func (w *Writer) User(id string) (User, error) { return getUser(w.tx, id) }

// PutUser writes a user record.
func (w *Writer) PutUser(u User) error { return putUser(w.tx, u) }

// GuildSettings reads a guild's settings (the defaults for a guild without any).
func (w *Writer) GuildSettings(guildID string) (GuildSettings, error) {
	return getGuildSettings(w.tx, guildID)
}
