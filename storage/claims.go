// claims.go: claims, short-lived rights to make one effect outside the store (a post),
// taken in a transaction so that of several processes only one makes it at a time.
//
// A claim is kept as a receipt (the same record on every backend, no schema of its own):
// its request id is "claim/" + the key + "/" + the claim's window (the instant divided
// by the lifetime), its Effect "claim " + the holder, its At when it was taken. A claim
// taken at At holds until At + ttl; only the windows of now and of the window before can
// hold a claim that has not expired, so a claim reads two receipts. Receipts are pruned
// after a day (service/games Options.ReceiptTTL), long after any claim expired.
//
// The rule for the effect: read the record that says whether it was made, and take the
// claim, in one transaction; make the effect within the claim's lifetime; then record
// it made. Two processes cannot both hold a claim (the transaction is serializable on
// PostgreSQL, and bbolt has one writer). A process that dies after taking a claim delays
// the effect by at most the lifetime: the claim expires and another takes it. What is
// left is the effect made but not recorded (a crash between the two): it is made again
// once the claim expires, never lost.

package storage

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// claimEffect prefixes the Effect of a claim's receipt; the holder follows.
const claimEffect = "claim "

// MaxClaimKeyLen bounds a claim's key so its receipt id stays within maxRequestIDLen.
const MaxClaimKeyLen = maxRequestIDLen - 40

// Claim is the outcome of TakeClaim.
type Claim struct {
	// Held is true when the caller holds the claim (it took it now or held it already).
	Held bool
	// Holder holds the claim (the caller when Held; another process when not; "" when
	// nobody does).
	Holder string
	// Until is when the claim expires: the caller must have made its effect by then;
	// another process may take it from then on.
	Until time.Time
}

// claimID is the receipt id of key's claim in window w.
func claimID(key string, w int64) string { return fmt.Sprintf("claim/%s/%d", key, w) }

// TakeClaim takes, in tx, the claim named key for holder at now for ttl, unless another
// holder's claim has not expired. A holder that holds the claim already renews it when
// a new window has begun (its Until moves on) and keeps it otherwise. Take the claim in
// the transaction that checks the effect is still to be made.
func TakeClaim(tx ReceiptsTx, key, holder string, now time.Time, ttl time.Duration) (Claim, error) {
	switch {
	case key == "" || len(key) > MaxClaimKeyLen:
		return Claim{}, fmt.Errorf("claim %q: want a key of 1 to %d bytes", key, MaxClaimKeyLen)
	case holder == "":
		return Claim{}, fmt.Errorf("claim %q: no holder", key)
	case ttl <= 0:
		return Claim{}, fmt.Errorf("claim %q: lifetime %v", key, ttl)
	}
	w := now.UnixNano() / int64(ttl)
	for _, win := range []int64{w, w - 1} {
		r, err := tx.Receipt(claimID(key, win))
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return Claim{}, fmt.Errorf("read claim %q: %w", key, err)
		}
		until := r.At.Add(ttl)
		if !until.After(now) {
			continue // expired
		}
		who := strings.TrimPrefix(r.Effect, claimEffect)
		if who != holder {
			return Claim{Holder: who, Until: until}, nil
		}
		if win == w {
			return Claim{Held: true, Holder: holder, Until: until}, nil
		}
		break // the holder's claim of the window before: renew it in this window
	}
	err := tx.PutReceipt(&Receipt{RequestID: claimID(key, w), At: now, Effect: claimEffect + holder})
	if errors.Is(err, ErrRepeatedRequest) {
		// Taken meanwhile (a backend without serializable reads would get here).
		return Claim{Until: now.Add(ttl)}, nil
	}
	if err != nil {
		return Claim{}, fmt.Errorf("take claim %q: %w", key, err)
	}
	return Claim{Held: true, Holder: holder, Until: now.Add(ttl)}, nil
}
