package bot

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

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
