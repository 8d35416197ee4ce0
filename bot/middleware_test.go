package bot

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/internal/syncbuf"
)

// refusingResponder is a Responder whose Defer fails, after closing deferring so the
// handler under test knows the middleware is deferring.
type refusingResponder struct {
	deferring chan struct{}
	once      sync.Once
}

func (d *refusingResponder) Defer(context.Context, bool) error {
	d.once.Do(func() { close(d.deferring) })
	return errors.New("the test refuses the deferral")
}

func (d *refusingResponder) Deferred() bool { return false }

// TestDeferIfSlowLeavesTheRequestToTheHandler: once started, the handler owns the
// request. A slow handler that narrows r.Log (as /analyze does) while the middleware
// defers and logs the deferral's failure is no data race (the race detector checks
// it; one round does not always show a race, a hundred do), and the warning goes to
// the logger the request came with.
func TestDeferIfSlowLeavesTheRequestToTheHandler(t *testing.T) {
	for range 100 {
		deferWhileTheHandlerNarrowsItsLog(t)
	}
}

func deferWhileTheHandlerNarrowsItsLog(t *testing.T) {
	t.Helper()
	var logs syncbuf.Buffer
	resp := &refusingResponder{deferring: make(chan struct{})}
	r := &commands.Request{Name: "analyze", Log: slog.New(slog.NewTextHandler(&logs, nil)), Responder: resp}
	handler := func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
		<-resp.deferring
		r.Log = r.Log.With("game", 7)
		r.Log.Info("analysed")
		return commands.Reply("done"), nil
	}
	got, err := DeferIfSlow(0, 0)(handler)(context.Background(), r)
	if err != nil || got == nil || got.Content != "done" {
		t.Fatalf("DeferIfSlow = %+v, %v; want the handler's answer", got, err)
	}
	out := logs.String()
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.Contains(line, "defer slow interaction") && strings.Contains(line, "game=") {
			t.Errorf("the deferral's warning went to the handler's narrowed logger: %s", line)
		}
	}
	if !strings.Contains(out, "defer slow interaction") || !strings.Contains(out, "game=7") {
		t.Errorf("log = %q, want the deferral's warning and the handler's line", out)
	}
}

// TestDeferIfSlowBoundsTheWholeHandling: the handler's work has one deadline, its
// operation budget from receipt (never past the interaction token's life), not the
// callback's three seconds and not none: a handler that waits on its context (as a
// store call on a stalled database does) is ended by the budget, and its error is the
// answer.
func TestDeferIfSlowBoundsTheWholeHandling(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		name     string
		received time.Time
		deadline time.Time // the first answer's
		budget   time.Duration
		want     time.Time // the handler's deadline
	}{
		{"budget", now, now.Add(3 * time.Second), 200 * time.Millisecond, now.Add(200 * time.Millisecond)},
		{"token life", now, now.Add(-14*time.Minute - 25*time.Second), time.Minute,
			now.Add(-14*time.Minute - 25*time.Second).Add(-commands.InteractionDeadline + tokenLife - tokenMargin - budgetGrace)},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := &refusingResponder{deferring: make(chan struct{})}
			r := &commands.Request{Name: "move", Log: slog.New(slog.DiscardHandler), Responder: resp,
				Received: c.received, Deadline: c.deadline}
			var got time.Time
			handler := func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
				got, _ = ctx.Deadline()
				<-ctx.Done()
				return nil, ctx.Err()
			}
			_, err := DeferIfSlow(time.Millisecond, c.budget)(handler)(context.Background(), r)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("DeferIfSlow = %v, want the handler's deadline error", err)
			}
			if !got.Equal(c.want) {
				t.Errorf("the handler's deadline is %v after receipt, want %v", got.Sub(c.received), c.want.Sub(c.received))
			}
		})
	}
}
