// linkedaccounts.go: the users' Linked Roles connections (schema version 12, bucket and
// table linked_accounts), by user.
//
// A record holds the user's OAuth2 grant to the application (scope
// role_connections.write), sealed by the service that made it: the store keeps the
// sealed bytes and never sees a token in clear, so neither a backup nor a dump holds
// one. It also holds when the access token expires (so it is refreshed first) and the
// metadata last pushed (so an unchanged rating is not pushed again). The record is
// written only from its stored version (Version, else ErrConflict): of two processes
// claiming the refresh of one grant (Refreshing; a refresh token is good once), exactly
// one refreshes.

package storage

import (
	"fmt"
	"maps"
	"time"
)

// Limits of a linked account.
const (
	// MaxSealedTokens bounds the sealed grant.
	MaxSealedTokens = 4096
	// MaxLinkedMetadata bounds the metadata pushed (Discord takes at most 5 records).
	MaxLinkedMetadata = 5
)

// LinkedAccount is a user's Linked Roles connection.
type LinkedAccount struct {
	// UserID is the record's key.
	UserID string `json:"-"`
	// Version counts the record's writes: a write must carry the stored version.
	Version uint64 `json:"version"`
	// Tokens is the OAuth2 grant (access and refresh tokens), sealed by the service.
	Tokens []byte `json:"tokens"`
	// Expires is when the access token expires.
	Expires time.Time `json:"expires,omitzero"`
	// Linked is when the user first linked their account.
	Linked time.Time `json:"linked,omitzero"`
	// Pushed is the metadata last pushed to Discord (key → value).
	Pushed map[string]string `json:"pushed,omitempty"`
	// Refreshing is when a process claimed the refresh of the grant (zero: none under
	// way): a refresh token is good once, so one process refreshes at a time.
	Refreshing time.Time `json:"refreshing,omitzero"`
}

// Validate checks what a store may keep.
func (a *LinkedAccount) Validate() error {
	switch {
	case a.UserID == "" || len(a.UserID) > MaxIDLen:
		return fmt.Errorf("linked account: user id of 1 to %d bytes", MaxIDLen)
	case len(a.Tokens) == 0 || len(a.Tokens) > MaxSealedTokens:
		return fmt.Errorf("linked account of %s: sealed tokens of %d bytes (1 to %d)", a.UserID, len(a.Tokens), MaxSealedTokens)
	case len(a.Pushed) > MaxLinkedMetadata:
		return fmt.Errorf("linked account of %s: %d metadata values (at most %d)", a.UserID, len(a.Pushed), MaxLinkedMetadata)
	}
	for k, v := range a.Pushed {
		if k == "" || len(k) > 50 || len(v) > 100 {
			return fmt.Errorf("linked account of %s: metadata %q of %d bytes (keys of 1 to 50, values of at most 100)", a.UserID, k, len(v))
		}
	}
	return nil
}

// Clone returns a copy: the services change copies, never what they read.
func (a *LinkedAccount) Clone() *LinkedAccount {
	c := *a
	c.Tokens = append([]byte(nil), a.Tokens...)
	c.Pushed = maps.Clone(a.Pushed)
	return &c
}

// NextLinkedAccountVersion is the rule of PutLinkedAccount over the stored record (nil
// when there is none), as NextVacationVersion is for vacations: the record to write, a
// copy of a at the version it is stored at, or ErrConflict when a was not read at the
// stored version.
func NextLinkedAccountVersion(stored, a *LinkedAccount) (*LinkedAccount, error) {
	w := a.Clone()
	switch {
	case stored == nil && w.Version == 0:
		w.Version = 1
	case stored == nil:
	case stored.Version != a.Version:
		return nil, fmt.Errorf("linked account of %s: version %d, stored %d: %w", a.UserID, a.Version, stored.Version, ErrConflict)
	default:
		w.Version++
	}
	return w, nil
}
