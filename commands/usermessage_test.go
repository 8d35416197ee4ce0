package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/gambitchess/gambit/storage"
)

// TestUserMessageOfStoreFaults: a fault of the store reaches the user as what it means
// for their command, wrapped however deep.
func TestUserMessageOfStoreFaults(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"deadline", fmt.Errorf("read game 1: %w", context.DeadlineExceeded), MsgStoreNotAnswering},
		{"unavailable", fmt.Errorf("postgres gambit: %w", storage.ErrUnavailable), MsgStoreNotAnswering},
		{"disk full", fmt.Errorf("write: %w: %w", storage.ErrDiskFull, syscall.ENOSPC), MsgDiskFull},
		{"unknown outcome", fmt.Errorf("commit: %w", storage.ErrOutcomeUnknown), "may or may not have gone through"},
		{"user error wins", fmt.Errorf("%w", Errorf("Not your turn.")), "Not your turn."},
		{"other", errors.New("boom"), "Something went wrong"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := UserMessage(c.err); !strings.Contains(got, c.want) {
				t.Errorf("UserMessage(%v) = %q, want it to say %q", c.err, got, c.want)
			}
		})
	}
}
