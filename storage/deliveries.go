// deliveries.go: the interactions delivered to any process of the bot, the duplicate
// check they share: a signed interaction replayed to another process within its
// validity finds its delivery recorded and is not answered a second time.
//
// A delivery is kept as a receipt (no schema of its own): its request id is
// "delivered/" + the interaction's id, its Effect "delivered", its At when it arrived.
// Receipts are pruned after a day (service/games Options.ReceiptTTL), long after an
// interaction's signature stops being accepted (5 minutes).

package storage

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// maxInteractionIDLen bounds an interaction id: a snowflake has at most 20 digits.
const maxInteractionIDLen = 20

// ClaimDelivery records in st that the interaction id was delivered at now, and
// reports whether this is its first delivery to any process sharing st. An id that is
// not a snowflake (1 to 20 digits) is refused and nothing is recorded.
func ClaimDelivery(ctx context.Context, st Store, interactionID string, now time.Time) (first bool, err error) {
	if !snowflake(interactionID) {
		return false, fmt.Errorf("claim the delivery of interaction %q: not a snowflake", interactionID)
	}
	err = st.Update(ctx, func(tx Tx) error {
		return tx.PutReceipt(&Receipt{RequestID: "delivered/" + interactionID, At: now, Effect: "delivered"})
	})
	if errors.Is(err, ErrRepeatedRequest) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("claim the delivery of interaction %s: %w", interactionID, err)
	}
	return true, nil
}

// snowflake reports whether id is 1 to 20 decimal digits.
func snowflake(id string) bool {
	if id == "" || len(id) > maxInteractionIDLen {
		return false
	}
	for _, c := range []byte(id) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
