// linkedaccounts.go: the users' Linked Roles connections in the bbolt backend.
//
// Layout: user → JSON envelope of LinkedAccount.

package bolt

import (
	"errors"
	"fmt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// LinkedAccount reads the connection of a user.
func (t boltTx) LinkedAccount(userID string) (*storage.LinkedAccount, error) {
	if userID == "" || len(userID) > storage.MaxIDLen {
		return nil, fmt.Errorf("linked account: user id of 1 to %d bytes", storage.MaxIDLen)
	}
	v := t.tx.Bucket([]byte(bucketLinkedAccounts)).Get([]byte(userID))
	if v == nil {
		return &storage.LinkedAccount{UserID: userID}, fmt.Errorf("linked account of %s: %w", userID, storage.ErrNotFound)
	}
	return codec.DecodeLinkedAccount(userID, v)
}

// PutLinkedAccount writes a connection from its stored version.
func (t boltTx) PutLinkedAccount(a *storage.LinkedAccount) error {
	if err := a.Validate(); err != nil {
		return err
	}
	stored, err := t.LinkedAccount(a.UserID)
	if errors.Is(err, storage.ErrNotFound) {
		stored, err = nil, nil
	}
	if err != nil {
		return err
	}
	w, err := storage.NextLinkedAccountVersion(stored, a)
	if err != nil {
		return err
	}
	b, err := codec.EncodeJSON(w)
	if err == nil {
		err = t.tx.Bucket([]byte(bucketLinkedAccounts)).Put([]byte(w.UserID), b)
	}
	if err != nil {
		return fmt.Errorf("write linked account of %s: %w", a.UserID, err)
	}
	return nil
}

// DeleteLinkedAccount removes a user's connection.
func (t boltTx) DeleteLinkedAccount(userID string) error {
	if err := t.tx.Bucket([]byte(bucketLinkedAccounts)).Delete([]byte(userID)); err != nil {
		return fmt.Errorf("delete linked account of %s: %w", userID, err)
	}
	return nil
}

// EachLinkedAccount calls fn with every connection in key order.
func (t boltTx) EachLinkedAccount(fn func(*storage.LinkedAccount) error) error {
	return t.records(bucketLinkedAccounts, func(k, v []byte) error {
		a, err := codec.DecodeLinkedAccount(string(k), v)
		if err != nil {
			return err
		}
		return fn(a)
	})
}
