package serve

// The board as a Discord Activity end to end: `gambit serve` with the web and the
// client secret, the fake Discord's OAuth2 and Activity instances, and its Activity host
// (Discord's proxy and the client page that frames the Activity and answers the
// Embedded App SDK over postMessage), in headless Chromium.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/gorilla/websocket"

	"github.com/gambitchess/gambit/bot/discordfake"
)

// newActivityWorld is a web world with the Activity on, started, and its Activity host.
func newActivityWorld(t *testing.T) (*world, *running, *discordfake.ActivityHost) {
	w := newWebWorld(t)
	w.cfg.Discord.ClientSecret = w.f.ClientSecret
	r := w.start()
	u := r.bot.Web.ActivityURL()
	if u == "" {
		t.Fatal("the web server has no Activity with discord.client_secret set")
	}
	return w, r, w.f.ServeActivity(t, strings.TrimSuffix(u, "/"))
}

// activityDoc is the Activity's document inside the client page.
const activityDoc = `document.getElementById('activity').contentDocument`

// openActivity opens the client page of u in an instance, in a browser context of
// its own, and waits for the Activity to reach state (a value of the body's
// data-activity: playing, watching, list, error).
func openActivity(t testing.TB, host *discordfake.ActivityHost, u *discordgo.User, instance, state string, opts ...discordfake.ClientOption) *page {
	t.Helper()
	p := &page{t: t, ctx: newTab(t)}
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__gambitErrors=[];addEventListener('error',function(e){window.__gambitErrors.push(String(e.message))});addEventListener('unhandledrejection',function(e){window.__gambitErrors.push(String(e.reason))})`})
		return err
	}))
	p.do(chromedp.Navigate(host.ClientURL(u.ID, instance, opts...)))
	p.activityState(state)
	return p
}

// activityState waits for the Activity's body to say state.
func (p *page) activityState(state string) {
	p.t.Helper()
	p.waitActivity("the Activity "+state, fmt.Sprintf(`%s.body && %s.body.dataset.activity === %q`, activityDoc, activityDoc, state))
}

// waitActivity waits for a condition on the page, reporting the Activity's status
// and errors on failure.
func (p *page) waitActivity(what, cond string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`(function(){try{return !!(`+cond+`)}catch(e){return false}})()`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(hangGuard))); err != nil {
		status, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`(function(){const d=`+activityDoc+`;if(!d||!d.body)return 'no Activity document';
			const q=function(s){const e=d.querySelector(s);return e?e.textContent:''};
			return d.body.dataset.activity+' | '+q('[data-activity-status]')+' | '+q('[data-status]')+' | '+q('[data-error]')+' | '+JSON.stringify(window.discordLog)+' | '+JSON.stringify(window.__gambitErrors)})()`))
		p.t.Fatalf("waiting for %s: %v (Activity: %s)", what, err, status)
	}
}

// activityFEN waits until the Activity's board shows fen.
func (p *page) activityFEN(fen string) {
	p.t.Helper()
	p.waitActivity("the board at "+fen, fmt.Sprintf(`%s.querySelector('[data-board]').dataset.fen === %q`, activityDoc, fen))
}

// activityClick clicks the squares in turn with the mouse, in the Activity's frame.
func (p *page) activityClick(sqs ...string) {
	p.t.Helper()
	for _, sq := range sqs {
		xy := eval[[]float64](p, fmt.Sprintf(`(function(){const f=document.getElementById('activity').getBoundingClientRect();
			const r=%s.querySelector('[data-square="%s"]').getBoundingClientRect();return [f.x+r.x+r.width/2,f.y+r.y+r.height/2]})()`, activityDoc, sq))
		p.do(chromedp.MouseClickXY(xy[0], xy[1]))
	}
}

// activityType types a move in the Activity's move box and submits it.
func (p *page) activityType(move string) {
	p.t.Helper()
	eval[bool](p, fmt.Sprintf(`(function(){const d=%s;d.querySelector('input[name=move]').value=%q;d.querySelector('[data-move-form]').requestSubmit();return true})()`, activityDoc, move))
}

// TestActivityGamePlayedEndToEnd: Alice and Bob, each in their own browser, open the
// Activity in their game's thread: the SDK's handshake (ready, authorize, the code
// exchanged by the server, authenticate), then each plays their colour on the board
// until mate, every move posted in the thread; Carol opens the Activity in the
// channel, picks the game from its list, watches every move and cannot move.
func TestActivityGamePlayedEndToEnd(t *testing.T) {
	w, r, host := newActivityWorld(t)
	g := w.startGame("10+5")
	inThread := w.f.StartActivity(w.f.GuildID, g.thread, w.alice.ID, w.bob.ID)
	inChannel := w.f.StartActivity(w.f.GuildID, w.f.ChannelID, w.carol.ID)
	white := openActivity(t, host, w.alice, inThread, "playing")
	black := openActivity(t, host, w.bob, inThread, "playing")
	carol := openActivity(t, host, w.carol, inChannel, "list")
	for _, p := range []*page{white, black} {
		if got := eval[[]string](p, `window.discordLog`); !slices.Equal(got, []string{"HANDSHAKE", "AUTHORIZE", "AUTHENTICATE"}) {
			t.Fatalf("the Activity sent Discord's client %v, want the handshake, AUTHORIZE and AUTHENTICATE", got)
		}
	}
	if o := eval[string](black, activityDoc+`.querySelector('[data-board]').dataset.orientation`); o != "black" {
		t.Fatalf("Black's board has orientation %q", o)
	}
	carol.waitActivity("the game in the channel's list", activityDoc+`.querySelector('[data-open-game="1"]')`)
	eval[bool](carol, activityDoc+`.querySelector('[data-open-game="1"]').click() || true`)
	carol.activityState("watching")
	for _, p := range []*page{white, black, carol} {
		p.waitActivity("the socket", activityDoc+`.querySelector('.game').dataset.socket === 'open'`)
	}
	if n := eval[int](carol, activityDoc+`.querySelectorAll('input[name=move]').length`); n != 0 {
		t.Fatalf("the spectator's Activity has %d move inputs", n)
	}

	boards := len(w.messagesWith(g.thread, "board.png"))
	ply := 0
	played := func(san string) {
		t.Helper()
		ply++
		w.waitFor("the move "+san, func() bool { return r.bot.mustGame(t, 1).Ply() >= ply })
		gm := r.bot.mustGame(t, 1)
		if got := gm.SAN[ply-1]; got != san {
			t.Fatalf("ply %d is %s, want %s", ply, got, san)
		}
		for _, p := range []*page{white, black, carol} {
			p.activityFEN(gm.Position.FEN())
		}
		w.waitFor("the board of "+san+" in the thread", func() bool { return len(w.messagesWith(g.thread, "board.png")) >= boards+ply })
	}
	white.activityClick("e2", "e4")
	played("e4")
	// The spectator tries Black's answer: nothing moves.
	carol.activityClick("e7", "e5")
	black.activityType("e5")
	played("e5")
	white.activityType("Bc4")
	played("Bc4")
	black.activityClick("b8", "c6")
	played("Nc6")
	white.activityType("d1h5")
	played("Qh5")
	black.activityType("Nf6")
	played("Nf6")
	white.activityClick("h5", "f7")
	ply++
	w.waitFor("the mate", func() bool { return !r.bot.mustGame(t, 1).Live() })
	gm := r.bot.mustGame(t, 1)
	if gm.Outcome.Result.String() != "1-0" || gm.SAN[len(gm.SAN)-1] != "Qxf7#" || gm.Ply() != ply {
		t.Fatalf("the game ended %v after %v, want 1-0 by Qxf7#", gm.Outcome.Result, gm.SAN)
	}
	for _, p := range []*page{white, black, carol} {
		p.waitActivity("the result on the board", activityDoc+`.querySelector('[data-board]').dataset.result === '1-0'`)
	}
	w.waitFor("the result in the thread", func() bool { return len(w.messagesWith(g.thread, "gambit-game-1.pgn")) > 0 })
}

// activityPost posts JSON to one of the Activity's routes through the host, as the
// page does, and returns the status and the decoded answer.
func activityPost(t testing.TB, host *discordfake.ActivityHost, path string, body any, bearer string) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, host.URL()+"/.proxy/"+path, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	return activityDo(t, req)
}

func activityDo(t testing.TB, req *http.Request) (int, map[string]any) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return res.StatusCode, out
}

// activitySocket dials a game's socket through the host with a session, from origin.
func activitySocket(t testing.TB, host *discordfake.ActivityHost, game, session, origin string) int {
	return dialActivity(t, host.URL()+"/.proxy", game, session, origin)
}

// dialActivity dials a game's Activity socket under base (the host's /.proxy, or the
// web server's /activity).
func dialActivity(t testing.TB, base, game, session, origin string) int {
	t.Helper()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	ws, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/g/"+game+"/"+session+"/ws", h)
	if err == nil {
		ws.Close()
		return http.StatusSwitchingProtocols
	}
	if res == nil {
		t.Fatalf("dial the Activity's socket: %v", err)
	}
	return res.StatusCode
}

// TestActivityRefusesForgedCredentials: a code Discord never issued (handed by the
// client in the browser, or posted), a forged access token, a real token of someone
// who is not in the Activity, a session from another channel or forged, and a socket
// of a user who left the Activity are each refused with 401, 403 or 404, and nothing
// changes: no move, no post.
func TestActivityRefusesForgedCredentials(t *testing.T) {
	w, r, host := newActivityWorld(t)
	g := w.startGame("10+5")
	inst := w.f.StartActivity(w.f.GuildID, g.thread, w.alice.ID, w.bob.ID)
	boards := len(w.messagesWith(g.thread, "board.png"))

	p := openActivity(t, host, w.alice, inst, "error", discordfake.ForgeCode())
	if st := eval[string](p, activityDoc+`.body.dataset.activityStatus`); st != "401" {
		t.Errorf("the Activity with a forged code ended with status %q, want 401", st)
	}
	if log := eval[[]string](p, `window.discordLog`); slices.Contains(log, "AUTHENTICATE") {
		t.Errorf("the Activity authenticated after its code was refused: %v", log)
	}

	if st, out := activityPost(t, host, "api/token", map[string]string{"code": "forged"}, ""); st != http.StatusUnauthorized {
		t.Errorf("a forged code: %d %v, want 401", st, out)
	}
	if st, _ := activityPost(t, host, "api/token", map[string]any{"code": "x", "extra": 1}, ""); st != http.StatusBadRequest {
		t.Errorf("a body with an unknown field: %d, want 400", st)
	}
	if st, _ := activityPost(t, host, "api/token", map[string]string{"code": "a b"}, ""); st != http.StatusBadRequest {
		t.Errorf("a malformed code: %d, want 400", st)
	}
	if st, out := activityPost(t, host, "api/session", map[string]string{"access_token": "forged", "instance_id": inst}, ""); st != http.StatusUnauthorized {
		t.Errorf("a forged access token: %d %v, want 401", st, out)
	}
	token := func(u *discordgo.User) string {
		t.Helper()
		st, out := activityPost(t, host, "api/token", map[string]string{"code": w.f.MintCode(u.ID)}, "")
		if st != http.StatusOK {
			t.Fatalf("exchange %s's code: %d %v", u.Username, st, out)
		}
		return out["access_token"].(string)
	}
	if st, out := activityPost(t, host, "api/session", map[string]string{"access_token": token(w.carol), "instance_id": inst}, ""); st != http.StatusForbidden {
		t.Errorf("the token of a user not in the Activity: %d %v, want 403", st, out)
	}
	if st, out := activityPost(t, host, "api/session", map[string]string{"access_token": token(w.alice), "instance_id": "i-0-gc-1-2"}, ""); st != http.StatusForbidden {
		t.Errorf("an instance that does not exist: %d %v, want 403", st, out)
	}

	// Carol's session in another channel's Activity sees nothing of the thread's game.
	otherCh := w.f.StartActivity(w.f.GuildID, "1234567", w.carol.ID)
	st, out := activityPost(t, host, "api/session", map[string]string{"access_token": token(w.carol), "instance_id": otherCh}, "")
	if st != http.StatusOK {
		t.Fatalf("Carol's own session: %d %v", st, out)
	}
	carolSession := out["session"].(string)
	if gs := out["games"].([]any); len(gs) != 0 {
		t.Errorf("another channel lists %v", gs)
	}
	get := func(path, bearer string) int {
		req, _ := http.NewRequest(http.MethodGet, host.URL()+"/.proxy/"+path, nil)
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		st, _ := activityDo(t, req)
		return st
	}
	if st := get("api/games/1", carolSession); st != http.StatusNotFound {
		t.Errorf("another channel's session reads the game: %d, want 404", st)
	}
	if st := get("api/games/1", ""); st != http.StatusUnauthorized {
		t.Errorf("no session: %d, want 401", st)
	}
	if st := get("api/games/1", flipFirst(carolSession)); st != http.StatusUnauthorized {
		t.Errorf("a forged session: %d, want 401", st)
	}
	origin := discordfake.ActivityOrigin(w.f.AppID)
	if st := activitySocket(t, host, "1", carolSession, origin); st != http.StatusNotFound {
		t.Errorf("a socket of another channel's session: %d, want 404", st)
	}
	// Straight to the web server, past Discord's proxy, from a page of another site.
	direct := strings.TrimSuffix(r.bot.Web.ActivityURL(), "/")
	if st := dialActivity(t, direct, "1", carolSession, "https://evil.example"); st != http.StatusForbidden {
		t.Errorf("a socket from another origin: %d, want 403", st)
	}

	// Alice's session is good until she leaves the Activity.
	st, out = activityPost(t, host, "api/session", map[string]string{"access_token": token(w.alice), "instance_id": inst}, "")
	if st != http.StatusOK || out["game"] != float64(1) {
		t.Fatalf("Alice's session: %d %v, want the thread's game 1", st, out)
	}
	alice := out["session"].(string)
	if st := get("api/games/1", alice); st != http.StatusOK {
		t.Fatalf("Alice reads her game: %d", st)
	}
	if st := activitySocket(t, host, "1", flipFirst(alice), origin); st != http.StatusUnauthorized {
		t.Errorf("a socket with a forged session: %d, want 401", st)
	}
	w.f.LeaveActivity(inst, w.alice.ID)
	if st := activitySocket(t, host, "1", alice, origin); st != http.StatusForbidden {
		t.Errorf("a socket of a user who left the Activity: %d, want 403", st)
	}

	if gm := r.bot.mustGame(t, 1); gm.Ply() != 0 {
		t.Errorf("the game has %d plies after the refused requests", gm.Ply())
	}
	if n := len(w.messagesWith(g.thread, "board.png")); n != boards {
		t.Errorf("%d boards posted by the refused requests", n-boards)
	}

}
