// reservations.go: reservations, short-lived rights to make one effect outside the
// store (a post) once across processes, taken in a transaction so that of several
// processes only one makes it at a time.
//
// A reservation is kept as a receipt (the same record on every backend, no schema of its
// own): its request id is "claim/" + the key + "/" + the reservation's window (the
// instant divided by the lifetime), its Effect "claim " + the holder, its At when it was
// taken (the stored words stay as the stores already written hold them). A reservation
// taken at At holds until At + ttl; only the windows of now and of the window before can
// hold one that has not expired, so a reservation reads two receipts. Receipts are
// pruned after a day (service/games Options.ReceiptTTL), long after any reservation
// expired.
//
// The rule for the effect: read the record that says whether it was made, and reserve
// it, in one transaction; make the effect within the reservation's lifetime; then record
// it made. Two processes cannot both hold a reservation (the transaction is serializable
// on PostgreSQL, and bbolt has one writer). A process that dies after reserving delays
// the effect by at most the lifetime: the reservation expires and another takes it. What
// is left is the effect made but not recorded (a crash between the two): it is made
// again once the reservation expires, never lost.

package storage

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// reservationEffect prefixes the Effect of a reservation's receipt; the holder follows.
const reservationEffect = "claim "

// MaxReservationKeyLen bounds a reservation's key so its receipt id stays within
// maxRequestIDLen.
const MaxReservationKeyLen = maxRequestIDLen - 40

// Reservation is the outcome of ReserveEffect: who may make the effect, until when.
type Reservation struct {
	// Held is true when the caller holds the reservation (it took it now or held it
	// already).
	Held bool
	// Holder holds the reservation (the caller when Held; another process when not; ""
	// when nobody does).
	Holder string
	// Until is when the reservation expires: the caller must have made its effect by
	// then; another process may take it from then on.
	Until time.Time
}

// reservationID is the receipt id of key's reservation in window w.
func reservationID(key string, w int64) string { return fmt.Sprintf("claim/%s/%d", key, w) }

// ReserveEffect takes, in tx, the reservation of the effect named key for holder at now
// for ttl, unless another holder's reservation has not expired. A holder that holds it
// already renews it when a new window has begun (its Until moves on) and keeps it
// otherwise. Reserve the effect in the transaction that checks it is still to be made.
func ReserveEffect(tx ReceiptsTx, key, holder string, now time.Time, ttl time.Duration) (Reservation, error) {
	switch {
	case key == "" || len(key) > MaxReservationKeyLen:
		return Reservation{}, fmt.Errorf("reservation %q: want a key of 1 to %d bytes", key, MaxReservationKeyLen)
	case holder == "":
		return Reservation{}, fmt.Errorf("reservation %q: no holder", key)
	case ttl <= 0:
		return Reservation{}, fmt.Errorf("reservation %q: lifetime %v", key, ttl)
	}
	w := now.UnixNano() / int64(ttl)
	for _, win := range []int64{w, w - 1} {
		r, err := tx.Receipt(reservationID(key, win))
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return Reservation{}, fmt.Errorf("read reservation %q: %w", key, err)
		}
		until := r.At.Add(ttl)
		if !until.After(now) {
			continue // expired
		}
		who := strings.TrimPrefix(r.Effect, reservationEffect)
		if who != holder {
			return Reservation{Holder: who, Until: until}, nil
		}
		if win == w {
			return Reservation{Held: true, Holder: holder, Until: until}, nil
		}
		break // the holder's reservation of the window before: renew it in this window
	}
	err := tx.PutReceipt(&Receipt{RequestID: reservationID(key, w), At: now, Effect: reservationEffect + holder})
	if errors.Is(err, ErrRepeatedRequest) {
		// Taken meanwhile (a backend without serializable reads would get here).
		return Reservation{Until: now.Add(ttl)}, nil
	}
	if err != nil {
		return Reservation{}, fmt.Errorf("reserve %q: %w", key, err)
	}
	return Reservation{Held: true, Holder: holder, Until: now.Add(ttl)}, nil
}
