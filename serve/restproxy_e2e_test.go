// End-to-end test of the bot behind a shared rate-limit proxy (discord.rest_url), the
// fake playing the proxy: its 429s, and Discord's that it passes on, are waited out and
// retried, never fatal and never dropped.
package serve

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot/discordfake"
)

// statuses returns the status of each request to a route, in order; route is matched
// as discordfake.Failure matches it.
func statuses(w *world, method, route string) []int {
	want := strings.Split(route, "/")
	var out []int
	for _, q := range w.f.Requests() {
		segs := strings.Split(q.Path, "/")
		if q.Method != method || len(segs) != len(want) {
			continue
		}
		match := true
		for i, s := range want {
			match = match && (s == "*" || s == segs[i])
		}
		if match {
			out = append(out, q.Status)
		}
	}
	return out
}

// TestRateLimitProxy429s: a bot receiving interactions over HTTP, as one of several
// processes behind a proxy that holds the one rate limit of the bot. Discord's global
// 429 (X-RateLimit-Global, scope global), a shared-scope 429, and the proxy's own 429
// (generated-by-proxy, retry-after in whole seconds, headers in lower case) all reach
// the bot; it waits each out and sends again, and every post arrives.
func TestRateLimitProxy429s(t *testing.T) {
	w, r := httpWorld(t, Deps{DeferAfter: time.Nanosecond}) // answers follow as edits, through the proxy
	const (
		posts   = "channels/*/messages"
		threads = "channels/*/messages/*/threads"
		edits   = "webhooks/*/*/messages/@original"
	)
	w.f.Fail(discordfake.Failure{Route: "POST " + posts, Count: 2, Global: true, RetryAfter: 100 * time.Millisecond})
	w.f.Fail(discordfake.Failure{Route: "POST " + posts, Count: 1, Scope: "shared", RetryAfter: 100 * time.Millisecond})
	w.f.Fail(discordfake.Failure{Route: "POST " + threads, Count: 1, FromProxy: true})
	w.f.Fail(discordfake.Failure{Route: "PATCH " + edits, Count: 1, FromProxy: true})

	// The challenge is accepted: the thread (a proxy 429 first) and its first board (two
	// global 429s, then a shared one) are posted all the same.
	res := w.send(discordfake.Command("challenge",
		discordfake.UserOpt("opponent", w.bob.ID), discordfake.StringOpt("time", "10+0"), discordfake.StringOpt("color", "white")))
	var challenge discordfake.Message
	w.waitFor("the challenge with its buttons", func() bool {
		m, ok := w.f.Original(res.ID)
		challenge = m
		return ok && len(m.CustomIDs()) > 0
	})
	w.send(discordfake.Button(customID(t, challenge.CustomIDs(), "accept")).From(w.bob).OnMessage(challenge.ID))
	var thread string
	w.waitFor("the game's thread and its board", func() bool {
		if th := w.f.Threads(); len(th) > 0 {
			thread = th[len(th)-1].ID
			return len(w.messagesWith(thread, "board.png")) > 0
		}
		return false
	})
	g := &game{w: w, thread: thread, white: w.alice, black: w.bob}
	if d := w.answer(g.move(w.alice, "e4")); !strings.Contains(d.Content, "**e4**") {
		t.Errorf("e4 answered %q", d.Content)
	}
	if ply := r.bot.mustGame(t, 1).Ply(); ply != 1 {
		t.Errorf("game at ply %d, want 1", ply)
	}

	// Each rate-limited route was retried until it went through.
	for _, c := range []struct {
		method, route string
		limited       int
	}{
		{"POST", threads, 1},
		{"POST", posts, 3},
	} {
		got := statuses(w, c.method, c.route)
		if len(got) <= c.limited || slices.ContainsFunc(got[:c.limited], func(s int) bool { return s != 429 }) || got[c.limited] >= 300 {
			t.Errorf("%s %s: statuses %v, want %d 429s then a success", c.method, c.route, got, c.limited)
		}
	}
	// An answer deferred (nearly all are, after 1ns) is edited in through the proxy too.
	t.Logf("PATCH %s: %v", edits, statuses(w, "PATCH", edits))
	if got := statuses(w, "PATCH", edits); len(got) > 0 && (got[0] != 429 || !slices.Contains(got[1:], 200)) {
		t.Errorf("PATCH %s: statuses %v, want a 429 then a 200", edits, got)
	}
	for _, q := range w.f.Requests() {
		if q.Status >= 300 && q.Status != 429 {
			t.Errorf("a request failed: %+v", q)
		}
	}
}
