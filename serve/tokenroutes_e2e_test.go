// The interaction's own routes (the callback, the original response, followups) are
// authorized by the interaction token in their path: the bot sends its bot token only
// where Discord needs it.

package serve

import (
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot/discordfake"
)

// TestInteractionTokenRoutesCarryNoBotToken: a game played with every handler
// deferred (callbacks, edits of the original response, followups) sends no
// Authorization header to the interaction's routes, and the bot token to the others.
func TestInteractionTokenRoutesCarryNoBotToken(t *testing.T) {
	w := newWorld(t)
	w.startWith(w.cfg, Deps{DeferAfter: time.Nanosecond})
	res := w.send(discordfake.Command("challenge",
		discordfake.UserOpt("opponent", w.bob.ID), discordfake.StringOpt("time", "10+0"), discordfake.StringOpt("color", "white")))
	var challenge discordfake.Message
	w.waitFor("the challenge with its buttons, an edit of the deferred answer", func() bool {
		m, ok := w.f.Original(res.ID)
		challenge = m
		return ok && len(m.CustomIDs()) > 0
	})
	w.send(discordfake.Button(customID(t, challenge.CustomIDs(), "accept")).From(w.bob).OnMessage(challenge.ID))
	w.waitFor("the challenge accepted", func() bool {
		m, ok := w.f.Message(challenge.ID)
		return ok && strings.Contains(m.Content, "accepted")
	})
	tokenRoutes, botRoutes := map[string]int{}, 0
	for _, q := range w.f.Requests() {
		switch {
		case q.TokenRoute && q.Authorization:
			t.Errorf("%s %s/… carried an Authorization header", q.Method, routePrefix(q.Path)) // the token left out
		case q.TokenRoute:
			kind := "callback"
			if strings.HasPrefix(q.Path, "webhooks/") {
				kind = "webhook " + q.Method
			}
			tokenRoutes[kind]++
		case !q.Authorization && q.Path != "gateway":
			t.Errorf("%s %s carried no bot token", q.Method, q.Path)
		default:
			botRoutes++
		}
	}
	if tokenRoutes["callback"] == 0 || tokenRoutes["webhook PATCH"] == 0 || botRoutes == 0 {
		t.Errorf("token routes %v and %d bot routes: the game made none of some kind", tokenRoutes, botRoutes)
	}
}

// routePrefix is a route's first two segments (interactions/{id}, webhooks/{app}),
// which come before an interaction's token.
func routePrefix(path string) string {
	parts := strings.SplitN(path, "/", 3)
	return strings.Join(parts[:min(len(parts), 2)], "/")
}
