package pg

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage/pg/pgtest"
)

// TestNotifyReachesEveryListener: a notification on a channel reaches the listeners of
// two stores on the same database, in order, and no listener of another channel;
// Listen ends with its context.
func TestNotifyReachesEveryListener(t *testing.T) {
	dsn := pgtest.DSN(t)
	a, b := openPG(t, dsn), openPG(t, dsn)
	defer a.Close()
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan string, 16)
	done := make(chan error, 3)
	for _, l := range []struct {
		name    string
		db      *DB
		channel string
	}{{"a", a, "web_test"}, {"b", b, "web_test"}, {"b", b, "web_other"}} {
		go func() {
			done <- l.db.Listen(ctx, l.channel, func(p string) { got <- l.name + " " + l.channel + ":" + p })
		}()
	}
	// A listener may start after the first notification: send until both hear one.
	heard := map[string]int{}
	deadline := time.After(time.Minute)
	for heard["a web_test:1"] == 0 || heard["b web_test:1"] == 0 {
		if err := a.Notify(ctx, "web_test", "1"); err != nil {
			t.Fatal(err)
		}
		select {
		case p := <-got:
			heard[p]++
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatalf("the listeners heard %v", heard)
		}
	}
	if heard["b web_other:1"] != 0 {
		t.Fatal("a listener of another channel heard the notification")
	}
	if err := a.Notify(ctx, "web_test", strings.Repeat("x", MaxNotifyPayload+1)); err == nil {
		t.Fatal("an oversized payload was sent")
	}
	cancel()
	for range 3 {
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("Listen ended with %v, want its context's error", err)
		}
	}
}
