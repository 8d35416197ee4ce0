// records.go: challenges, guild settings, users, request receipts and heartbeats
// in the bbolt backend.

package bolt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// PutChallenge writes a challenge, giving a new one (ID 0) the next id, and keeps the
// index of pending challenges in step.
func (t boltTx) PutChallenge(c *storage.Challenge) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("write %w", err)
	}
	b := t.tx.Bucket([]byte(bucketChallenges))
	if c.ID == 0 {
		id, err := b.NextSequence()
		if err != nil {
			return fmt.Errorf("new challenge id: %w", err)
		}
		c.ID = id
	} else if err := keepSequence(b, c.ID); err != nil {
		return fmt.Errorf("write challenge %d: %w", c.ID, err)
	}
	v, err := codec.EncodeJSON(c)
	if err != nil {
		return fmt.Errorf("encode challenge %d: %w", c.ID, err)
	}
	key := codec.IDKey(c.ID)
	if err := b.Put(key, v); err != nil {
		return fmt.Errorf("write challenge %d: %w", c.ID, err)
	}
	pending := t.tx.Bucket([]byte(bucketPendingChallenges))
	if c.Status == storage.ChallengePending {
		return pending.Put(key, present)
	}
	return pending.Delete(key)
}

// Challenge reads challenge id.
func (t boltTx) Challenge(id uint64) (*storage.Challenge, error) {
	v := t.tx.Bucket([]byte(bucketChallenges)).Get(codec.IDKey(id))
	if v == nil {
		return nil, fmt.Errorf("challenge %d: %w", id, storage.ErrNotFound)
	}
	return codec.DecodeChallenge(id, v)
}

// PendingChallenges reads the challenges waiting for an answer, in id order.
func (t boltTx) PendingChallenges() ([]*storage.Challenge, error) {
	var out []*storage.Challenge
	err := t.tx.Bucket([]byte(bucketPendingChallenges)).ForEach(func(k, _ []byte) error {
		c, err := t.Challenge(codec.KeyID(k))
		if err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// GuildSettings reads a guild's settings (the defaults for a guild without any).
func (t boltTx) GuildSettings(guildID string) (storage.GuildSettings, error) {
	v := t.tx.Bucket([]byte(bucketGuilds)).Get([]byte(guildID))
	if v == nil {
		return storage.DefaultGuildSettings(guildID), nil
	}
	return codec.DecodeGuildSettings(guildID, v)
}

// PutGuildSettings validates and writes a guild's settings.
func (t boltTx) PutGuildSettings(s storage.GuildSettings) error {
	v, err := codec.EncodeGuildSettings(s)
	if err != nil {
		return err
	}
	return t.tx.Bucket([]byte(bucketGuilds)).Put([]byte(s.GuildID), v)
}

// Guilds reads the settings of every guild that saved some, in guild id order.
func (t boltTx) Guilds() ([]storage.GuildSettings, error) {
	var out []storage.GuildSettings
	err := t.tx.Bucket([]byte(bucketGuilds)).ForEach(func(k, _ []byte) error {
		s, err := t.GuildSettings(string(k))
		if err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

// User reads a user.
func (t boltTx) User(id string) (storage.User, error) {
	v := t.tx.Bucket([]byte(bucketUsers)).Get([]byte(id))
	if v == nil {
		return storage.User{}, fmt.Errorf("user %s: %w", id, storage.ErrNotFound)
	}
	u := storage.User{Prefs: storage.DefaultUserPrefs()}
	if err := codec.DecodeJSON(v, &u); err != nil {
		return storage.User{}, fmt.Errorf("user %s: %w", id, err)
	}
	u.ID = id
	return u, nil
}

// PutUser writes a user.
func (t boltTx) PutUser(u storage.User) error {
	if err := u.Validate(); err != nil {
		return fmt.Errorf("write %w", err)
	}
	v, err := codec.EncodeJSON(u)
	if err != nil {
		return fmt.Errorf("encode user %s: %w", u.ID, err)
	}
	return t.tx.Bucket([]byte(bucketUsers)).Put([]byte(u.ID), v)
}

// DigestUsers returns the users whose daily digest is on.
func (t boltTx) DigestUsers() ([]storage.User, error) {
	var out []storage.User
	err := t.EachUser(func(u storage.User) error {
		if u.Prefs.Digest {
			out = append(out, u)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("users with a digest: %w", err)
	}
	return out, nil
}

// receiptTimeKey is the key of a receipt in the by-time index.
func receiptTimeKey(at time.Time, requestID string) []byte {
	var ns uint64
	if !at.IsZero() && at.UnixNano() > 0 {
		ns = uint64(at.UnixNano())
	}
	return append(binary.BigEndian.AppendUint64(nil, ns), requestID...)
}

// PutReceipt writes a receipt and its entry in the by-time index, refusing a request
// id that has one (ErrRepeatedRequest).
func (t boltTx) PutReceipt(r *storage.Receipt) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("write %w", err)
	}
	reqs := t.tx.Bucket([]byte(bucketRequests))
	if reqs.Get([]byte(r.RequestID)) != nil {
		return fmt.Errorf("receipt %q: %w", r.RequestID, storage.ErrRepeatedRequest)
	}
	v, err := codec.EncodeJSON(r)
	if err != nil {
		return fmt.Errorf("encode receipt %q: %w", r.RequestID, err)
	}
	if err := reqs.Put([]byte(r.RequestID), v); err != nil {
		return fmt.Errorf("write receipt %q: %w", r.RequestID, err)
	}
	return t.tx.Bucket([]byte(bucketRequestsByTime)).Put(receiptTimeKey(r.At, r.RequestID), present)
}

// Receipt reads the receipt of a request.
func (t boltTx) Receipt(requestID string) (*storage.Receipt, error) {
	v := t.tx.Bucket([]byte(bucketRequests)).Get([]byte(requestID))
	if v == nil {
		return nil, fmt.Errorf("receipt %q: %w", requestID, storage.ErrNotFound)
	}
	r := &storage.Receipt{}
	if err := codec.DecodeJSON(v, r); err != nil {
		return nil, fmt.Errorf("receipt %q: %w", requestID, err)
	}
	r.RequestID = requestID
	return r, nil
}

// PruneReceipts deletes the receipts stored before the instant and returns how many.
func (t boltTx) PruneReceipts(before time.Time) (int, error) {
	n := 0
	limit := receiptTimeKey(before, "")
	idx := t.tx.Bucket([]byte(bucketRequestsByTime))
	reqs := t.tx.Bucket([]byte(bucketRequests))
	// Collect first: deleting under a moving cursor can skip keys.
	var stale [][]byte
	c := idx.Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k[:8], limit[:8]) < 0; k, _ = c.Next() {
		stale = append(stale, bytes.Clone(k))
	}
	for _, k := range stale {
		id := k[8:]
		if err := idx.Delete(k); err != nil {
			return n, err
		}
		// A request id reused later has a newer receipt: keep that one.
		var r storage.Receipt
		if v := reqs.Get(id); v != nil && codec.DecodeJSON(v, &r) == nil && !r.At.Before(before) {
			continue
		}
		if err := reqs.Delete(id); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// PutHeartbeat records that the named instance was alive at t.
func (t boltTx) PutHeartbeat(instance string, at time.Time) error {
	return t.tx.Bucket([]byte(bucketMeta)).Put([]byte(metaHeartbeat+instance), binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano())))
}

// Heartbeat reads the instant of the named instance's last heartbeat (zero if none).
func (t boltTx) Heartbeat(instance string) (time.Time, error) {
	v := t.tx.Bucket([]byte(bucketMeta)).Get([]byte(metaHeartbeat + instance))
	if v == nil {
		return time.Time{}, nil
	}
	if len(v) != 8 {
		return time.Time{}, fmt.Errorf("%w: heartbeat of %s is %d bytes", storage.ErrCorrupt, instance, len(v))
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC(), nil
}
