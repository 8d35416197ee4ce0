// others.go: challenges, guild settings, users, request receipts and heartbeats.

package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

func putChallenge(tx *bolt.Tx, c *Challenge) error {
	v, err := encodeJSON(c)
	if err != nil {
		return fmt.Errorf("encode challenge %d: %w", c.ID, err)
	}
	key := idKey(c.ID)
	if err := tx.Bucket([]byte(bucketChallenges)).Put(key, v); err != nil {
		return fmt.Errorf("write challenge %d: %w", c.ID, err)
	}
	pending := tx.Bucket([]byte(bucketPendingChallenges))
	if c.Status == ChallengePending {
		return pending.Put(key, present)
	}
	return pending.Delete(key)
}

func getChallenge(tx *bolt.Tx, id uint64) (*Challenge, error) {
	v := tx.Bucket([]byte(bucketChallenges)).Get(idKey(id))
	if v == nil {
		return nil, fmt.Errorf("challenge %d: %w", id, ErrNotFound)
	}
	c := new(Challenge)
	if err := decodeJSON(v, c); err != nil {
		return nil, fmt.Errorf("challenge %d: %w", id, err)
	}
	c.ID = id
	return c, nil
}

// Challenge returns the stored challenge id (ErrNotFound if there is none).
func (db *DB) Challenge(id uint64) (*Challenge, error) {
	var c *Challenge
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		c, err = getChallenge(tx, id)
		return err
	})
	return c, err
}

// PendingChallenges returns the challenges waiting for an answer, in id order.
func (db *DB) PendingChallenges() ([]*Challenge, error) {
	var out []*Challenge
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketPendingChallenges)).ForEach(func(k, _ []byte) error {
			c, err := getChallenge(tx, keyID(k))
			if err != nil {
				return err
			}
			out = append(out, c)
			return nil
		})
	})
	return out, err
}

func getGuildSettings(tx *bolt.Tx, guildID string) (GuildSettings, error) {
	v := tx.Bucket([]byte(bucketGuilds)).Get([]byte(guildID))
	if v == nil {
		return DefaultGuildSettings(guildID), nil
	}
	s := DefaultGuildSettings(guildID) // fields added later keep their defaults
	if err := decodeJSON(v, &s); err != nil {
		return GuildSettings{}, fmt.Errorf("settings of guild %s: %w", guildID, err)
	}
	s.GuildID = guildID
	return s, nil
}

// GuildSettings returns a guild's settings: DefaultGuildSettings for a guild that never
// saved any.
func (db *DB) GuildSettings(guildID string) (GuildSettings, error) {
	var s GuildSettings
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		s, err = getGuildSettings(tx, guildID)
		return err
	})
	return s, err
}

// SetGuildSettings validates and stores a guild's settings.
func (db *DB) SetGuildSettings(s GuildSettings) error {
	if s.GuildID == "" {
		return fmt.Errorf("guild settings: no guild id")
	}
	if err := s.Validate(); err != nil {
		return err
	}
	v, err := encodeJSON(s)
	if err != nil {
		return fmt.Errorf("encode settings of guild %s: %w", s.GuildID, err)
	}
	return db.update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketGuilds)).Put([]byte(s.GuildID), v)
	})
}

func getUser(tx *bolt.Tx, id string) (User, error) {
	v := tx.Bucket([]byte(bucketUsers)).Get([]byte(id))
	if v == nil {
		return User{}, fmt.Errorf("user %s: %w", id, ErrNotFound)
	}
	u := User{Prefs: DefaultUserPrefs()}
	if err := decodeJSON(v, &u); err != nil {
		return User{}, fmt.Errorf("user %s: %w", id, err)
	}
	u.ID = id
	return u, nil
}

func putUser(tx *bolt.Tx, u User) error {
	if u.ID == "" || len(u.ID) > MaxIDLen {
		return fmt.Errorf("write user %q: want an id of 1 to %d bytes", u.ID, MaxIDLen)
	}
	v, err := encodeJSON(u)
	if err != nil {
		return fmt.Errorf("encode user %s: %w", u.ID, err)
	}
	return tx.Bucket([]byte(bucketUsers)).Put([]byte(u.ID), v)
}

// upsertUserName records u's name, keeping the preferences of a known user.
func upsertUserName(tx *bolt.Tx, u User) error {
	old, err := getUser(tx, u.ID)
	switch {
	case err == nil:
		if old.Name == u.Name {
			return nil
		}
		old.Name, old.Updated = u.Name, u.Updated
		return putUser(tx, old)
	case isNotFound(err):
		return putUser(tx, User{ID: u.ID, Name: u.Name, Prefs: DefaultUserPrefs(), Updated: u.Updated})
	}
	return err
}

// User returns what the store knows of a user (ErrNotFound for one never seen).
func (db *DB) User(id string) (User, error) {
	var u User
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		u, err = getUser(tx, id)
		return err
	})
	return u, err
}

// UserPrefs returns a user's notification preferences (DefaultUserPrefs for a user
// never seen).
func (db *DB) UserPrefs(id string) (UserPrefs, error) {
	u, err := db.User(id)
	if isNotFound(err) {
		return DefaultUserPrefs(), nil
	}
	return u.Prefs, err
}

// SetUserPrefs stores a user's notification preferences (creating the user if needed).
func (db *DB) SetUserPrefs(id string, p UserPrefs, now time.Time) error {
	if p.ReminderBefore < 0 {
		return fmt.Errorf("user %s: reminder before %v is negative", id, p.ReminderBefore)
	}
	return db.update(func(tx *bolt.Tx) error {
		u, err := getUser(tx, id)
		if isNotFound(err) {
			u, err = User{ID: id}, nil
		}
		if err != nil {
			return err
		}
		u.Prefs, u.Updated = p, now
		return putUser(tx, u)
	})
}

// receiptTimeKey is the key of a receipt in the by-time index.
func receiptTimeKey(at time.Time, requestID string) []byte {
	var ns uint64
	if !at.IsZero() && at.UnixNano() > 0 {
		ns = uint64(at.UnixNano())
	}
	return append(binary.BigEndian.AppendUint64(nil, ns), requestID...)
}

func putReceipt(tx *bolt.Tx, r *Receipt) error {
	v, err := encodeJSON(r)
	if err != nil {
		return fmt.Errorf("encode receipt %q: %w", r.RequestID, err)
	}
	if err := tx.Bucket([]byte(bucketRequests)).Put([]byte(r.RequestID), v); err != nil {
		return fmt.Errorf("write receipt %q: %w", r.RequestID, err)
	}
	return tx.Bucket([]byte(bucketRequestsByTime)).Put(receiptTimeKey(r.At, r.RequestID), present)
}

// Receipt returns the receipt of a request (ErrNotFound if the request was never seen,
// or its receipt expired).
func (db *DB) Receipt(requestID string) (*Receipt, error) {
	var r *Receipt
	err := db.bolt.View(func(tx *bolt.Tx) error {
		v := tx.Bucket([]byte(bucketRequests)).Get([]byte(requestID))
		if v == nil {
			return fmt.Errorf("receipt %q: %w", requestID, ErrNotFound)
		}
		r = &Receipt{}
		if err := decodeJSON(v, r); err != nil {
			return fmt.Errorf("receipt %q: %w", requestID, err)
		}
		r.RequestID = requestID
		return nil
	})
	return r, err
}

// PruneReceipts deletes the receipts stored before the instant and returns how many.
func (db *DB) PruneReceipts(before time.Time) (int, error) {
	n := 0
	limit := receiptTimeKey(before, "")
	err := db.update(func(tx *bolt.Tx) error {
		n = 0
		idx := tx.Bucket([]byte(bucketRequestsByTime))
		reqs := tx.Bucket([]byte(bucketRequests))
		// Collect first: deleting under a moving cursor can skip keys.
		var stale [][]byte
		c := idx.Cursor()
		for k, _ := c.First(); k != nil && bytes.Compare(k[:8], limit[:8]) < 0; k, _ = c.Next() {
			stale = append(stale, bytes.Clone(k))
		}
		for _, k := range stale {
			id := k[8:]
			if err := idx.Delete(k); err != nil {
				return err
			}
			// A request id reused later has a newer receipt: keep that one.
			var r Receipt
			if v := reqs.Get(id); v != nil && decodeJSON(v, &r) == nil && !r.At.Before(before) {
				continue
			}
			if err := reqs.Delete(id); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// Heartbeat records that the named instance of the service was alive at t (the
// downtime policy charges clocks up to the last heartbeat only).
func (db *DB) Heartbeat(instance string, t time.Time) error {
	return db.update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketMeta)).Put([]byte(metaHeartbeat+instance), binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano())))
	})
}

// LastHeartbeat returns the instant of the named instance's last heartbeat (zero if it
// never beat).
func (db *DB) LastHeartbeat(instance string) (time.Time, error) {
	var t time.Time
	err := db.bolt.View(func(tx *bolt.Tx) error {
		v := tx.Bucket([]byte(bucketMeta)).Get([]byte(metaHeartbeat + instance))
		if v == nil {
			return nil
		}
		if len(v) != 8 {
			return fmt.Errorf("%w: heartbeat of %s is %d bytes", ErrCorrupt, instance, len(v))
		}
		t = time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC()
		return nil
	})
	return t, err
}

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
