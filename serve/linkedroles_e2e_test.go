package serve

// Linked Roles: the bot registers its role-connection metadata when it starts; a player
// links their account on the verification page (Discord's OAuth2, the state bound to
// the browser's cookie); a server's role gated on "blitz rating at least 1501" is
// theirs once a rated game lifts their rating (the fake computes who qualifies, as
// Discord does), and an expired token is refreshed for the next push.

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/service/linkedroles"
)

func TestStoryLinkedRolesMetadataRegistered(t *testing.T) {
	w := newWorld(t)
	w.start()
	want := bot.RoleMetadata()
	w.waitFor("the role-connection metadata", func() bool { return len(w.f.RoleMetadata()) == len(want) })
	for i, m := range w.f.RoleMetadata() {
		if m.Key != want[i].Key || m.Type != want[i].Type {
			t.Errorf("record %d: %+v, want %+v", i, m, want[i])
		}
	}
}

// oauthBrowser is an HTTP client with cookies that stops at redirects (Discord's pages are
// Discord's: the test plays them).
func oauthBrowser(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// get fetches u and returns the status, the Location and the body.
func get(t *testing.T, c *http.Client, u string) (int, string, string) {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return res.StatusCode, res.Header.Get("Location"), b.String()
}

func TestStoryLinkedRoleAfterARatingChange(t *testing.T) {
	w := newWebWorld(t)
	w.cfg.Discord.ClientSecret = w.f.ClientSecret
	r := w.start()
	role := w.f.AddLinkedRole(w.f.GuildID, discordfake.RoleRequirement{Key: linkedroles.KeyBlitz, Value: 1501})
	page := r.bot.Web.BaseURL() + "/linked-roles/"

	// Bob opens the verification page: off to Discord's authorization, with the scopes
	// and a state of this browser.
	bob := oauthBrowser(t)
	st, loc, _ := get(t, bob, page)
	auth, err := url.Parse(loc)
	if err != nil || st != http.StatusFound || auth.Host != "discord.com" {
		t.Fatalf("the page answered %d, to %q", st, loc)
	}
	q := auth.Query()
	if q.Get("client_id") != w.f.AppID || q.Get("redirect_uri") != page+"callback" || q.Get("response_type") != "code" ||
		!strings.Contains(q.Get("scope"), "role_connections.write") || !strings.Contains(q.Get("scope"), "identify") || len(q.Get("state")) != 32 {
		t.Fatalf("authorization URL %s", loc)
	}
	callback := func(c *http.Client, state, code string) (int, string) {
		st, _, body := get(t, c, page+"callback?"+url.Values{"state": {state}, "code": {code}}.Encode())
		return st, body
	}
	// Another browser with the state, or this one with a forged state, links nothing.
	if st, body := callback(oauthBrowser(t), q.Get("state"), w.f.MintCode(w.bob.ID, "identify", linkedroles.Scope)); st != http.StatusBadRequest || !strings.Contains(body, "Start again") {
		t.Errorf("a callback from another browser: %d %q", st, body)
	}
	if _, ok := w.f.RoleConnection(w.bob.ID); ok {
		t.Fatal("linked from another browser")
	}
	// Discord says yes: linked, the first push made (no rated game yet: no blitz rating).
	st, body := callback(bob, q.Get("state"), w.f.MintCode(w.bob.ID, "identify", linkedroles.Scope))
	if st != http.StatusOK || !strings.Contains(body, "Linked") {
		t.Fatalf("the callback answered %d %q", st, body)
	}
	conn, ok := w.f.RoleConnection(w.bob.ID)
	if !ok || conn.Metadata[linkedroles.KeyGames] != "0" || conn.PlatformName != "Gambit" {
		t.Fatalf("after the link: %+v, %v", conn, ok)
	}
	if w.f.HasLinkedRole(w.f.GuildID, role, w.bob.ID) {
		t.Fatal("bob qualifies before any rated game")
	}
	// The state is spent: the same callback again links nothing more.
	if st, _ := callback(bob, q.Get("state"), w.f.MintCode(w.bob.ID, "identify", linkedroles.Scope)); st != http.StatusBadRequest {
		t.Errorf("a second callback with a spent state: %d", st)
	}

	// A rated blitz game that bob wins: his rating rises and is pushed; the role is his.
	w.startRated("3+2").foolsMate()
	w.waitFor("bob's linked role", func() bool { return w.f.HasLinkedRole(w.f.GuildID, role, w.bob.ID) })
	if w.f.HasLinkedRole(w.f.GuildID, role, w.alice.ID) {
		t.Error("alice, who never linked, qualifies")
	}
	conn, _ = w.f.RoleConnection(w.bob.ID)
	first, _ := strconv.Atoi(conn.Metadata[linkedroles.KeyBlitz])

	// A week later the token has expired: the next push refreshes it first.
	w.f.ExpireTokens(w.bob.ID)
	w.startRated("3+2").foolsMate()
	w.waitFor("bob's rating pushed with a refreshed token", func() bool {
		c, _ := w.f.RoleConnection(w.bob.ID)
		n, _ := strconv.Atoi(c.Metadata[linkedroles.KeyBlitz])
		return n > first && c.Metadata[linkedroles.KeyGames] == "2"
	})
}

// TestLinkedRolesVerificationPageInABrowser: the verification page in Chromium. Bob,
// signed in to (the fake) Discord, opens the page, lands on Discord's authorization
// page asking for the scopes, cancels (nothing linked), opens it again and authorizes:
// back on Gambit's page, linked, his values pushed.
func TestLinkedRolesVerificationPageInABrowser(t *testing.T) {
	w := newWebWorld(t)
	w.cfg.Discord.ClientSecret = w.f.ClientSecret
	r := w.startWith(w.cfg, Deps{AuthorizeURL: w.f.AuthorizeURL()})
	verify := r.bot.Web.BaseURL() + "/linked-roles/"
	p := &page{t: t, ctx: newTab(t)}
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(p.ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		run("wait for "+sel, chromedp.WaitVisible(chromedp.CSS(sel)))
		return eval[string](p, fmt.Sprintf(`document.querySelector(%q).textContent`, sel))
	}

	// landed waits until the browser is back on Gambit's callback page and it says want
	// (a click navigates: the old page's body may still be there when the click returns).
	landed := func(what, want string) {
		t.Helper()
		cond := fmt.Sprintf(`location.pathname.endsWith('/linked-roles/callback') && document.readyState === 'complete' && document.body !== null && document.body.textContent.includes(%q)`, want)
		// Asked again and again rather than polled in the page: a poll dies with the
		// document the navigation replaces.
		for deadline := time.Now().Add(hangGuard); ; {
			if ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](cond)); err == nil && ok {
				return
			}
			if time.Now().After(deadline) {
				body, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`location.href + ' | ' + (document.body ? document.body.textContent : '')`))
				t.Fatalf("%s: want a page saying %q, have %q", what, want, body)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	run("sign in to Discord", chromedp.Navigate(w.f.SignInURL(w.bob.ID)))
	run("open the verification page", chromedp.Navigate(verify), chromedp.WaitVisible(chromedp.CSS("[data-authorize]")))
	if u := text("[data-user]"); u != w.bob.ID {
		t.Errorf("Discord's page is signed in as %q", u)
	}
	if scopes := text("ul"); !strings.Contains(scopes, "role_connections.write") || !strings.Contains(scopes, "identify") {
		t.Errorf("Discord's page asks for %q", scopes)
	}
	run("cancel", chromedp.Click(chromedp.CSS("[data-cancel]")))
	landed("after cancelling", "nothing was linked")
	if _, ok := w.f.RoleConnection(w.bob.ID); ok {
		t.Fatal("linked after a cancel")
	}
	run("open the page again", chromedp.Navigate(verify), chromedp.WaitVisible(chromedp.CSS("[data-authorize]")))
	run("authorize", chromedp.Click(chromedp.CSS("[data-authorize]")))
	w.waitFor("bob's role connection", func() bool { _, ok := w.f.RoleConnection(w.bob.ID); return ok })
	landed("Gambit's page after the consent", "Linked")
	if conn, _ := w.f.RoleConnection(w.bob.ID); conn.PlatformName != "Gambit" || conn.Metadata[linkedroles.KeyGames] != "0" {
		t.Errorf("the role connection pushed: %+v", conn)
	}
}
