// records.go: challenges, guild settings, users, request receipts and heartbeats in
// the PostgreSQL backend.

package pg

import (
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// PutChallenge writes a challenge, giving a new one (ID 0) the next id.
func (t *pgTx) PutChallenge(c *storage.Challenge) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("write %w", err)
	}
	pending := c.Status == storage.ChallengePending
	if c.ID == 0 {
		var id int64
		// The record holds its id (JSON): insert, then write the record with it.
		if _, err := t.scanOne(`INSERT INTO challenges (pending, record) VALUES ($1, '') RETURNING id`, []any{pending}, &id); err != nil {
			return fmt.Errorf("new challenge: %w", err)
		}
		c.ID = uint64(id)
	}
	v, err := codec.EncodeJSON(c)
	if err != nil {
		return fmt.Errorf("encode challenge %d: %w", c.ID, err)
	}
	n, err := t.exec(`UPDATE challenges SET pending = $2, record = $3 WHERE id = $1`, int64(c.ID), pending, v)
	if err == nil && n == 0 {
		err = t.insertWithID("challenges", `INSERT INTO challenges (id, pending, record) VALUES ($1, $2, $3)`, int64(c.ID), pending, v)
	}
	if err != nil {
		return fmt.Errorf("write challenge %d: %w", c.ID, err)
	}
	return nil
}

// Challenge reads challenge id.
func (t *pgTx) Challenge(id uint64) (*storage.Challenge, error) {
	v, err := t.value(`SELECT record FROM challenges WHERE id = $1`, int64(id))
	if err != nil {
		return nil, fmt.Errorf("challenge %d: %w", id, err)
	}
	if v == nil {
		return nil, fmt.Errorf("challenge %d: %w", id, storage.ErrNotFound)
	}
	return codec.DecodeChallenge(id, v)
}

// PendingChallenges reads the challenges waiting for an answer, in id order.
func (t *pgTx) PendingChallenges() ([]*storage.Challenge, error) {
	var out []*storage.Challenge
	err := eachIDRecord(t, `SELECT id, record FROM challenges WHERE pending ORDER BY id`, nil, codec.DecodeChallenge, func(c *storage.Challenge) error {
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("pending challenges: %w", err)
	}
	return out, nil
}

// GuildSettings reads a guild's settings (the defaults for a guild without any).
func (t *pgTx) GuildSettings(guildID string) (storage.GuildSettings, error) {
	v, err := t.value(`SELECT record FROM guilds WHERE guild_id = $1`, guildID)
	if err != nil {
		return storage.GuildSettings{}, fmt.Errorf("settings of guild %s: %w", guildID, err)
	}
	if v == nil {
		return storage.DefaultGuildSettings(guildID), nil
	}
	return codec.DecodeGuildSettings(guildID, v)
}

// PutGuildSettings validates and writes a guild's settings.
func (t *pgTx) PutGuildSettings(s storage.GuildSettings) error {
	v, err := codec.EncodeGuildSettings(s)
	if err != nil {
		return err
	}
	if _, err := t.exec(`INSERT INTO guilds (guild_id, record) VALUES ($1, $2)
		ON CONFLICT (guild_id) DO UPDATE SET record = excluded.record`, s.GuildID, v); err != nil {
		return fmt.Errorf("write settings of guild %s: %w", s.GuildID, err)
	}
	return nil
}

// Guilds reads the settings of every guild that saved some, in guild id order.
func (t *pgTx) Guilds() ([]storage.GuildSettings, error) {
	var out []storage.GuildSettings
	err := t.Each(`SELECT guild_id, record FROM guilds ORDER BY guild_id`, nil, func(r pgx.Rows) error {
		var id string
		var v []byte
		if err := r.Scan(&id, &v); err != nil {
			return err
		}
		s, err := codec.DecodeGuildSettings(id, v)
		if err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("guild settings: %w", err)
	}
	return out, nil
}

// User reads a user.
func (t *pgTx) User(id string) (storage.User, error) {
	v, err := t.value(`SELECT record FROM users WHERE user_id = $1`, id)
	if err != nil {
		return storage.User{}, fmt.Errorf("user %s: %w", id, err)
	}
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
func (t *pgTx) PutUser(u storage.User) error {
	if err := u.Validate(); err != nil {
		return fmt.Errorf("write %w", err)
	}
	v, err := codec.EncodeJSON(u)
	if err != nil {
		return fmt.Errorf("encode user %s: %w", u.ID, err)
	}
	if _, err := t.exec(`INSERT INTO users (user_id, record) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET record = excluded.record`, u.ID, v); err != nil {
		return fmt.Errorf("write user %s: %w", u.ID, err)
	}
	return nil
}

// DigestUsers returns the users whose daily digest is on.
func (t *pgTx) DigestUsers() ([]storage.User, error) {
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

// receiptNanos is the instant a receipt is kept under, as in the bbolt index: unix
// nanoseconds, 0 for the zero time and instants before 1970.
func receiptNanos(at time.Time) int64 {
	if at.IsZero() || at.UnixNano() <= 0 {
		return 0
	}
	return at.UnixNano()
}

// PutReceipt writes a receipt, refusing a request id that has one
// (ErrRepeatedRequest). A receipt a concurrent transaction wrote but has not committed
// makes this one wait; then it fails to serialize, and its retry sees the receipt.
func (t *pgTx) PutReceipt(r *storage.Receipt) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("write %w", err)
	}
	v, err := codec.EncodeJSON(r)
	if err != nil {
		return fmt.Errorf("encode receipt %q: %w", r.RequestID, err)
	}
	n, err := t.exec(`INSERT INTO receipts (request_id, at, record) VALUES ($1, $2, $3) ON CONFLICT (request_id) DO NOTHING`,
		r.RequestID, receiptNanos(r.At), v)
	if err != nil {
		return fmt.Errorf("write receipt %q: %w", r.RequestID, err)
	}
	if n == 0 {
		return fmt.Errorf("receipt %q: %w", r.RequestID, storage.ErrRepeatedRequest)
	}
	return nil
}

// Receipt reads the receipt of a request.
func (t *pgTx) Receipt(requestID string) (*storage.Receipt, error) {
	v, err := t.value(`SELECT record FROM receipts WHERE request_id = $1`, requestID)
	if err != nil {
		return nil, fmt.Errorf("receipt %q: %w", requestID, err)
	}
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
func (t *pgTx) PruneReceipts(before time.Time) (int, error) {
	n, err := t.exec(`DELETE FROM receipts WHERE at < $1`, receiptNanos(before))
	if err != nil {
		return 0, fmt.Errorf("prune receipts: %w", err)
	}
	return int(n), nil
}

// PutHeartbeat records that the named instance was alive at t.
func (t *pgTx) PutHeartbeat(instance string, at time.Time) error {
	if _, err := t.exec(`INSERT INTO heartbeats (instance, at) VALUES ($1, $2)
		ON CONFLICT (instance) DO UPDATE SET at = excluded.at`, instance, at.UnixNano()); err != nil {
		return fmt.Errorf("heartbeat of %s: %w", instance, err)
	}
	return nil
}

// Heartbeat reads the instant of the named instance's last heartbeat (zero if none).
func (t *pgTx) Heartbeat(instance string) (time.Time, error) {
	var ns int64
	ok, err := t.scanOne(`SELECT at FROM heartbeats WHERE instance = $1`, []any{instance}, &ns)
	if err != nil {
		return time.Time{}, fmt.Errorf("heartbeat of %s: %w", instance, err)
	}
	if !ok {
		return time.Time{}, nil
	}
	return time.Unix(0, ns).UTC(), nil
}
