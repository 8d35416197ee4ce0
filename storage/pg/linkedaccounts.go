// linkedaccounts.go: the users' Linked Roles connections in the PostgreSQL backend
// (table linked_accounts: user id, the JSON envelope of LinkedAccount).

package pg

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// LinkedAccount reads the connection of a user.
func (t *pgTx) LinkedAccount(userID string) (*storage.LinkedAccount, error) {
	if userID == "" || len(userID) > storage.MaxIDLen {
		return nil, fmt.Errorf("linked account: user id of 1 to %d bytes", storage.MaxIDLen)
	}
	b, err := t.value(`SELECT record FROM linked_accounts WHERE user_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("linked account of %s: %w", userID, err)
	}
	if b == nil {
		return &storage.LinkedAccount{UserID: userID}, fmt.Errorf("linked account of %s: %w", userID, storage.ErrNotFound)
	}
	return codec.DecodeLinkedAccount(userID, b)
}

// PutLinkedAccount writes a connection from its stored version. The read (FOR UPDATE)
// and the write are one serializable transaction, so of two writers from one version
// one commits and the other finds the new version.
func (t *pgTx) PutLinkedAccount(a *storage.LinkedAccount) error {
	if err := a.Validate(); err != nil {
		return err
	}
	var stored *storage.LinkedAccount
	if b, err := t.value(`SELECT record FROM linked_accounts WHERE user_id = $1 FOR UPDATE`, a.UserID); err != nil {
		return fmt.Errorf("put linked account of %s: %w", a.UserID, err)
	} else if b != nil {
		if stored, err = codec.DecodeLinkedAccount(a.UserID, b); err != nil {
			return err
		}
	}
	w, err := storage.NextLinkedAccountVersion(stored, a)
	if err != nil {
		return err
	}
	b, err := codec.EncodeJSON(w)
	if err == nil {
		_, err = t.exec(`INSERT INTO linked_accounts (user_id, record) VALUES ($1, $2)
			ON CONFLICT (user_id) DO UPDATE SET record = EXCLUDED.record`, w.UserID, b)
	}
	if err != nil {
		return fmt.Errorf("write linked account of %s: %w", a.UserID, err)
	}
	return nil
}

// DeleteLinkedAccount removes a user's connection.
func (t *pgTx) DeleteLinkedAccount(userID string) error {
	if _, err := t.exec(`DELETE FROM linked_accounts WHERE user_id = $1`, userID); err != nil {
		return fmt.Errorf("delete linked account of %s: %w", userID, err)
	}
	return nil
}

// EachLinkedAccount calls fn with every connection in key order.
func (t *pgTx) EachLinkedAccount(fn func(*storage.LinkedAccount) error) error {
	return t.rows(`SELECT user_id, record FROM linked_accounts ORDER BY user_id`, func(r pgx.Rows) error {
		var user string
		var b []byte
		if err := r.Scan(&user, &b); err != nil {
			return err
		}
		a, err := codec.DecodeLinkedAccount(user, b)
		if err != nil {
			return err
		}
		return fn(a)
	})
}
