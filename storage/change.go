// change.go: a Change is everything one request writes, applied through the Tx of one
// transaction, whatever the backend.

package storage

import "fmt"

// Change is what one request writes, committed atomically by Store.Commit: a game, a
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
	After func(tx Tx) error
}

// Validate checks the change before any transaction, so a bad record fails its own
// commit and nobody else's.
func (c *Change) Validate() error {
	if c.Game != nil {
		if err := c.Game.Validate(); err != nil {
			return fmt.Errorf("commit game %d: %w", c.Game.ID, err)
		}
	}
	if c.Challenge != nil {
		if err := c.Challenge.Validate(); err != nil {
			return fmt.Errorf("commit %w", err)
		}
	}
	for _, u := range c.Users {
		if err := u.Validate(); err != nil {
			return fmt.Errorf("commit %w", err)
		}
	}
	if c.Receipt != nil {
		if err := c.Receipt.Validate(); err != nil {
			return fmt.Errorf("commit %w", err)
		}
	}
	return nil
}

// NewRecords says which records of a change are new, and the game's version: decided
// before the first run, since a rerun sees the ids and the version the previous run
// assigned.
//
// A backend commits a Change in these steps: Validate before any transaction, News
// before the first run, Apply in each run (a retried group runs it again in a fresh
// transaction), and Undo when the commit fails.
type NewRecords struct {
	game, challenge bool
	gameVersion     uint64
}

func (c *Change) News() NewRecords {
	n := NewRecords{game: c.Game != nil && c.Game.ID == 0, challenge: c.Challenge != nil && c.Challenge.ID == 0}
	if c.Game != nil {
		n.gameVersion = c.Game.Version
	}
	return n
}

// CommitAllIn commits cs in the one transaction run opens, in the steps above: all of
// them validated before it, all applied in it, all undone if it fails. It is the part of
// a backend's CommitAll (Store.CommitAll) that does not depend on the database.
func CommitAllIn(cs []*Change, run func(fn func(Tx) error) error) error {
	news := make([]NewRecords, len(cs))
	for i, c := range cs {
		news[i] = c.News()
		if err := c.Validate(); err != nil {
			return err
		}
	}
	err := run(func(tx Tx) error {
		for i, c := range cs {
			if err := c.Apply(tx, news[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		for i, c := range cs {
			c.Undo(news[i])
		}
	}
	return err
}

// Undo puts back what a failed commit of c assigned: the new records' ids and the
// game's version, so the change can be committed again.
func (c *Change) Undo(news NewRecords) {
	if news.game {
		c.Game.ID = 0
	}
	if news.challenge {
		c.Challenge.ID = 0
	}
	if c.Game != nil {
		c.Game.Version = news.gameVersion
	}
}

// Apply writes c through tx. A rerun (of a retried group) assigns the new records' ids
// and the game's version again, in its fresh transaction.
func (c *Change) Apply(tx Tx, news NewRecords) error {
	if news.game {
		c.Game.ID = 0
	}
	if c.Game != nil {
		c.Game.Version = news.gameVersion
	}
	if news.challenge {
		c.Challenge.ID = 0
	}
	if c.Game != nil {
		if err := tx.PutGame(c.Game); err != nil {
			return err
		}
		if news.game {
			if c.Challenge != nil {
				c.Challenge.GameID = c.Game.ID
			}
			if c.Receipt != nil {
				c.Receipt.GameID = c.Game.ID
			}
		}
	}
	if c.Challenge != nil {
		if err := tx.PutChallenge(c.Challenge); err != nil {
			return err
		}
		if news.challenge && c.Receipt != nil {
			c.Receipt.ChallengeID = c.Challenge.ID
		}
	}
	for _, u := range c.Users {
		if err := upsertUserName(tx, u); err != nil {
			return err
		}
	}
	if c.Receipt != nil {
		if err := tx.PutReceipt(c.Receipt); err != nil {
			return err
		}
	}
	if c.After != nil {
		if err := c.After(tx); err != nil {
			return fmt.Errorf("commit hook: %w", err)
		}
	}
	return nil
}

// upsertUserName records u's name, keeping the preferences of a known user.
func upsertUserName(tx UsersTx, u User) error {
	old, err := tx.User(u.ID)
	switch {
	case err == nil:
		if old.Name == u.Name {
			return nil
		}
		old.Name, old.Updated = u.Name, u.Updated
		return tx.PutUser(old)
	case isNotFound(err):
		return tx.PutUser(User{ID: u.ID, Name: u.Name, Prefs: DefaultUserPrefs(), Updated: u.Updated})
	}
	return err
}
