// seal.go: the grant as the store keeps it: sealed with AES-256-GCM.

package linkedroles

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
)

// sealer seals and opens grants.
type sealer struct{ aead cipher.AEAD }

// newSealer derives the key from secret (the application's client secret).
func newSealer(secret []byte) (*sealer, error) {
	if len(secret) < 16 {
		return nil, errors.New("linked roles: a sealing secret of at least 16 bytes is needed")
	}
	key := sha256.Sum256(append([]byte("gambit linked roles grant\x00"), secret...))
	block, err := aes.NewCipher(key[:])
	if err != nil {
		return nil, fmt.Errorf("linked roles: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("linked roles: %w", err)
	}
	return &sealer{aead: aead}, nil
}

// sealedGrant is the sealed part of a grant: its tokens.
type sealedGrant struct {
	Access  string `json:"a"`
	Refresh string `json:"r"`
}

// seal returns the sealed tokens of g for user (the user is bound in, so a record
// moved to another user does not open).
func (s *sealer) seal(user string, g Grant) ([]byte, error) {
	plain, err := json.Marshal(sealedGrant{Access: g.AccessToken, Refresh: g.RefreshToken})
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("linked roles: nonce: %w", err)
	}
	return s.aead.Seal(nonce, nonce, plain, []byte(user)), nil
}

// errUnsealable is the error of sealed bytes that do not open (another secret).
var errUnsealable = errors.New("the stored grant does not open with this secret")

// open returns the tokens sealed for user.
func (s *sealer) open(user string, b []byte) (sealedGrant, error) {
	var g sealedGrant
	n := s.aead.NonceSize()
	if len(b) < n {
		return g, errUnsealable
	}
	plain, err := s.aead.Open(nil, b[:n], b[n:], []byte(user))
	if err != nil {
		return g, errUnsealable
	}
	if err := json.Unmarshal(plain, &g); err != nil {
		return g, errUnsealable
	}
	return g, nil
}
