package serve

// The live board end to end: `gambit serve` with web.address set, the fake Discord,
// and for the pages a real headless Chromium (browser_test.go).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/gorilla/websocket"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// newWebWorld is a world whose bot serves the web pages on a loopback port.
func newWebWorld(t *testing.T) *world {
	w := newWorld(t)
	w.cfg.Web.Address = "127.0.0.1:0"
	return w
}

// linkButtons returns the link buttons of a message's components.
func linkButtons(comps []discordgo.MessageComponent) []discordgo.Button {
	var out []discordgo.Button
	for _, c := range comps {
		switch v := c.(type) {
		case discordgo.ActionsRow:
			out = append(out, linkButtons(v.Components)...)
		case *discordgo.ActionsRow:
			out = append(out, linkButtons(v.Components)...)
		case discordgo.Button:
			if v.Style == discordgo.LinkButton {
				out = append(out, v)
			}
		case *discordgo.Button:
			if v.Style == discordgo.LinkButton {
				out = append(out, *v)
			}
		}
	}
	return out
}

// liveBoardURL returns the url of the "Live board" button of a message, failing the
// test without one.
func liveBoardURL(t testing.TB, p discordfake.Payload) string {
	t.Helper()
	for _, b := range linkButtons(p.Components) {
		if strings.Contains(b.Label, "Live board") {
			return b.URL
		}
	}
	t.Fatalf("no Live board button in %q (custom ids %v)", p.Content, p.CustomIDs())
	return ""
}

// lastBoard returns the latest board post of the game's thread.
func (g *game) lastBoard() discordfake.Message {
	g.w.t.Helper()
	ms := g.w.messagesWith(g.thread, "board.png")
	if len(ms) == 0 {
		g.w.t.Fatal("no board in the thread")
	}
	return ms[len(ms)-1]
}

// playOnWeb clicks "Play on the web" under the latest board as u and returns the answer.
func (g *game) playOnWeb(u *discordgo.User) *discordfake.InteractionResult {
	g.w.t.Helper()
	b := g.lastBoard()
	id := customID(g.w.t, b.CustomIDs(), "web")
	return g.w.send(discordfake.Button(id).From(u).In(g.w.f.GuildID, g.thread).OnMessage(b.ID))
}

// signInURL is u's personal link from "Play on the web".
func (g *game) signInURL(u *discordgo.User) string {
	g.w.t.Helper()
	res := g.playOnWeb(u)
	if !res.Callback.Data.Ephemeral() {
		g.w.t.Fatalf("Play on the web answered publicly: %q", res.Callback.Data.Content)
	}
	bs := linkButtons(res.Callback.Data.Components)
	if len(bs) != 1 {
		g.w.t.Fatalf("Play on the web for a player: %d link buttons, want 1: %q", len(bs), res.Callback.Data.Content)
	}
	return bs[0].URL
}

func webGet(t testing.TB, u string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read %s: %v", u, err)
	}
	return resp.StatusCode, string(b), resp.Header
}

// TestWebLinksOnEveryBoard: the first board and every later one carry "Live board" (a
// link into web.public_url naming the game, with its token) and "Play on the web",
// which gives a player a personal link and anyone else none; a changed number or token
// shows nothing of the game.
func TestWebLinksOnEveryBoard(t *testing.T) {
	w := newWebWorld(t)
	r := w.start()
	base := r.bot.Web.BaseURL()
	g := w.startGame("10+5")
	first := g.lastBoard()
	link := liveBoardURL(t, first.Payload)
	if !strings.HasPrefix(link, base+"/") || !strings.Contains(link, "/1/") {
		t.Fatalf("Live board url %q: want it under %s, naming game 1", link, base)
	}
	if !strings.Contains(strings.Join(first.CustomIDs(), " "), "/web") {
		t.Fatalf("no Play on the web button on the first board: %v", first.CustomIDs())
	}
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	// The answer to /move is the board post of that move: it carries the buttons too.
	if got := liveBoardURL(t, g.lastBoard().Payload); got != link {
		t.Fatalf("the second board links %q, the first %q", got, link)
	}

	status, body, hdr := webGet(t, link)
	if status != http.StatusOK || !strings.Contains(body, "data-board") || !strings.Contains(body, `data-fen="rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"`) {
		t.Fatalf("the game's page: status %d, body without the board after 1. e4:\n%.2000s", status, body)
	}
	if !strings.Contains(body, `<meta property="og:image" content="`+link+`/board.png">`) {
		t.Error("the page has no Open Graph image of its board")
	}
	if status, png, hdr := webGet(t, link+"/board.png"); status != http.StatusOK || hdr.Get("Content-Type") != "image/png" || !strings.HasPrefix(png, "\x89PNG") {
		t.Errorf("the board's PNG: status %d, type %q", status, hdr.Get("Content-Type"))
	}
	if status, pgn, _ := webGet(t, link+"/pgn"); status != http.StatusOK || !strings.Contains(pgn, "1. e4") {
		t.Errorf("the PGN download: status %d: %q", status, pgn)
	}
	csp := hdr.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || hdr.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("security headers: CSP %q, nosniff %q", csp, hdr.Get("X-Content-Type-Options"))
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, "https://") {
		t.Fatal("the page has an inline script or names another host")
	}
	u, _ := url.Parse(link)
	parts := strings.Split(strings.Trim(u.Path, "/"), "/") // g, 1, token
	for _, bad := range []string{
		base + "/g/2/" + parts[2], base + "/g/01/" + parts[2], base + "/g/1/" + flipFirst(parts[2]),
		base + "/g/1/" + strings.ToUpper(parts[2]), base + "/g/1/", base + "/g/1/" + parts[2] + "x",
	} {
		if status, body, _ := webGet(t, bad); status != http.StatusNotFound || strings.Contains(body, "data-board") {
			t.Errorf("GET %s: status %d, want 404 and no board", bad, status)
		}
	}

	// A player gets a personal link; carol, who does not play, only the live board.
	personal := g.signInURL(w.bob)
	if !strings.HasPrefix(personal, base+"/") || personal == link {
		t.Fatalf("bob's link %q: want a personal link under %s", personal, base)
	}
	res := g.playOnWeb(w.carol)
	if !res.Callback.Data.Ephemeral() {
		t.Fatal("Play on the web answered carol publicly")
	}
	for _, b := range linkButtons(res.Callback.Data.Components) {
		if b.URL != link {
			t.Fatalf("carol got a link other than the live board: %q", b.URL)
		}
	}
	// The personal link signs bob in: the redirect sets an HttpOnly cookie.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(personal)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != u.Path {
		t.Fatalf("sign-in: status %d to %q, want 303 to %s", resp.StatusCode, resp.Header.Get("Location"), u.Path)
	}
	if c := resp.Cookies(); len(c) != 1 || !c[0].HttpOnly || c[0].SameSite != http.SameSiteLaxMode {
		t.Fatalf("sign-in cookies %+v: want one HttpOnly SameSite=Lax session", resp.Cookies())
	}
	if status, _, _ := webGet(t, strings.Replace(personal, "/signin/", "/signin/x", 1)); status != http.StatusForbidden {
		t.Fatalf("a changed sign-in link: status %d, want 403", status)
	}
}

// flipFirst changes the first character of a token.
func flipFirst(tok string) string {
	c := byte('A')
	if tok[0] == 'A' {
		c = 'B'
	}
	return string(c) + tok[1:]
}

// A page of a test: a tab in a browser context of its own.
type page struct {
	t   testing.TB
	ctx context.Context
}

func openPage(t testing.TB, u string) *page {
	t.Helper()
	p := &page{t: t, ctx: newTab(t)}
	// The page's script errors, kept for the failure messages.
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__gambitErrors=[];addEventListener('error',function(e){window.__gambitErrors.push(String(e.message))});addEventListener('unhandledrejection',function(e){window.__gambitErrors.push(String(e.reason))})`})
		return err
	}))
	p.do(chromedp.Navigate(u), chromedp.WaitVisible(chromedp.CSS("[data-board]")))
	p.waitSocket()
	return p
}

// waitSocket waits until the page's socket is open and has brought the game's state.
func (p *page) waitSocket() {
	p.t.Helper()
	p.waitJS("the page's socket", `document.querySelector('.game').dataset.socket === 'open'`)
}

func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// eval returns the value of a JavaScript expression on the page.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitJS waits until a JavaScript condition holds on the page, within hangGuard.
func (p *page) waitJS(what, cond string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(hangGuard))); err != nil {
		status, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`(document.querySelector('[data-status]')||{}).textContent + ' | ' + (document.querySelector('[data-error]')||{}).textContent + ' | ' + JSON.stringify(window.__gambitErrors||[]) + ' | ' + document.querySelector('[data-board]').dataset.fen + ' | plies ' + document.querySelectorAll('[data-ply]').length + ' | socket ' + document.querySelector('.game').dataset.socket`))
		p.t.Fatalf("waiting for %s: %v (page status: %s)", what, err, status)
	}
}

// waitFEN waits until the board shows fen.
func (p *page) waitFEN(fen string) {
	p.t.Helper()
	p.waitJS("the board at "+fen, fmt.Sprintf(`document.querySelector('[data-board]').dataset.fen === %q`, fen))
}

// center returns the viewport coordinates of a square's centre.
func (p *page) center(sq string) (float64, float64) {
	p.t.Helper()
	xy := eval[[]float64](p, fmt.Sprintf(`(function(){const r=document.querySelector('[data-square="%s"]').getBoundingClientRect();return [r.x+r.width/2,r.y+r.height/2]})()`, sq))
	return xy[0], xy[1]
}

// drag drags the piece of from to to with the mouse (pointer events).
func (p *page) drag(from, to string) {
	p.t.Helper()
	x1, y1 := p.center(from)
	x2, y2 := p.center(to)
	left := chromedp.ButtonLeft
	p.do(chromedp.MouseEvent(chromedp.MousePressed, x1, y1, left, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, (x1+x2)/2, (y1+y2)/2, left),
		chromedp.MouseEvent(chromedp.MouseMoved, x2, y2, left),
		chromedp.MouseEvent(chromedp.MouseReleased, x2, y2, left, chromedp.ClickCount(1)))
}

// clickSquares clicks the squares in turn.
func (p *page) clickSquares(sqs ...string) {
	p.t.Helper()
	for _, sq := range sqs {
		x, y := p.center(sq)
		p.do(chromedp.MouseClickXY(x, y))
	}
}

// typeMove types a move in the move box and presses Enter.
func (p *page) typeMove(text string) {
	p.t.Helper()
	p.do(chromedp.Focus(chromedp.CSS("input[name=move]")), chromedp.KeyEvent(text+"\r"))
}

// TestWebSpectatorSeesDiscordMove: a spectator's page shows a move made on Discord
// within 2 s of the bot's answer, and the spectator cannot move.
func TestWebSpectatorSeesDiscordMove(t *testing.T) {
	w := newWebWorld(t)
	r := w.start()
	g := w.startGame("10+5")
	p := openPage(t, liveBoardURL(t, g.lastBoard().Payload))
	// Record when the board changes, by the page's own clock (the machine's).
	eval[bool](p, `(function(){const b=document.querySelector('[data-board]');new MutationObserver(function(){if(!window.__changedAt)window.__changedAt=Date.now()}).observe(b,{attributes:true,attributeFilter:['data-fen']});return true})()`)
	res := g.move(w.alice, "e4")
	answered := time.Now()
	g.played(res, "e4", w.bob)
	p.waitFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	changed := time.UnixMilli(int64(eval[float64](p, `window.__changedAt`)))
	if lag := changed.Sub(answered); lag > 2*time.Second {
		t.Errorf("the page showed the move %v after the bot's answer, want at most 2s", lag)
	}
	if n := eval[int](p, `document.querySelectorAll('[data-ply]').length`); n != 1 {
		t.Errorf("%d moves listed, want 1", n)
	}
	if txt := eval[string](p, `document.querySelector('[data-ply="1"]').textContent`); !strings.Contains(txt, "e4") {
		t.Errorf("move 1 reads %q", txt)
	}

	// Stepping back through the moves shows the earlier position; End returns to live.
	p.do(chromedp.Click(chromedp.CSS(`button[data-action=first]`)))
	p.waitFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	p.do(chromedp.Click(chromedp.CSS(`[data-ply="1"]`)))
	p.waitFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")

	// The spectator drags a black piece: nothing moves, nothing is posted.
	boards := len(w.messagesWith(g.thread, "board.png"))
	p.drag("e7", "e5")
	p.clickSquares("e7", "e5")
	if n := eval[int](p, `document.querySelectorAll('input[name=move]').length`); n != 0 {
		t.Errorf("a spectator's page has %d move inputs", n)
	}
	// Black's own move on Discord is the next one: the spectator's did not happen.
	g.played(g.move(w.bob, "c5"), "c5", w.alice)
	p.waitFEN(r.bot.mustGame(t, 1).Position.FEN())
	if got := r.bot.mustGame(t, 1).SAN; len(got) != 2 || got[1] != "c5" {
		t.Fatalf("the game's moves %v, want e4 c5", got)
	}
	if n := len(w.messagesWith(g.thread, "board.png")); n != boards+1 {
		t.Fatalf("%d boards posted after the spectator's drag and Black's move, want 1", n-boards)
	}
}

// signedIn opens u's board through their personal link from "Play on the web".
func (g *game) signedIn(u *discordgo.User) *page {
	g.w.t.Helper()
	return openPage(g.w.t, g.signInURL(u))
}

// TestWebTwoPlayersPlayAWholeGame: White and Black, each signed in on their own
// browser, play a game on the web by dragging, clicking, typing SAN and UCI, the
// keyboard alone, the promotion picker (an under-promotion) and a premove, with
// castling and en passant, until Black resigns; the thread gets every board and the
// result, and both pages follow every move.
func TestWebTwoPlayersPlayAWholeGame(t *testing.T) {
	w := newWebWorld(t)
	r := w.start()
	g := w.startGame("10+5")
	white, black := g.signedIn(w.alice), g.signedIn(w.bob)
	if o := eval[string](black, `document.querySelector('[data-board]').dataset.orientation`); o != "black" {
		t.Fatalf("Black's page has orientation %q", o)
	}
	if o := eval[string](white, `document.querySelector('[data-board]').dataset.orientation`); o != "white" {
		t.Fatalf("White's page has orientation %q", o)
	}
	boards := len(w.messagesWith(g.thread, "board.png"))
	ply := 0
	// played waits for the moves to be the game's next plies, shown on both pages.
	played := func(sans ...string) {
		t.Helper()
		ply += len(sans)
		w.waitFor(fmt.Sprint("moves ", sans), func() bool { return r.bot.mustGame(t, 1).Ply() >= ply })
		gm := r.bot.mustGame(t, 1)
		if got := gm.SAN[ply-len(sans) : ply]; !slices.Equal(got, sans) {
			t.Fatalf("plies %d to %d are %v, want %v", ply-len(sans)+1, ply, got, sans)
		}
		white.waitFEN(gm.Position.FEN())
		black.waitFEN(gm.Position.FEN())
		w.waitFor(fmt.Sprint("the boards of ", sans, " in the thread"), func() bool { return len(w.messagesWith(g.thread, "board.png")) >= boards+ply })
	}
	keys := func(p *page, ks ...string) {
		t.Helper()
		p.do(chromedp.Focus(chromedp.CSS("[data-board]")))
		for _, k := range ks {
			p.do(chromedp.KeyEvent(k))
		}
	}

	white.drag("e2", "e4")
	played("e4")
	black.clickSquares("a7", "a6")
	played("a6")
	white.typeMove("e5")
	played("e5")
	white.waitJS("the move box cleared", `document.querySelector('input[name=move]').value === ''`)
	black.typeMove("d7d5")
	played("d5")
	white.drag("e5", "d6") // en passant
	played("exd6")
	// Black by the keyboard alone: the cursor starts on e7 (Black's view), moves to g8,
	// picks the knight up, moves to f6 and puts it down.
	keys(black, kb.ArrowLeft, kb.ArrowLeft, kb.ArrowDown, kb.Enter, kb.ArrowRight, kb.ArrowUp, kb.ArrowUp, kb.Enter)
	played("Nf6")
	white.clickSquares("d6", "c7")
	played("dxc7")
	black.drag("d8", "d7")
	played("Qd7")
	white.drag("c7", "b8")
	white.waitJS("the promotion picker", `!document.querySelector('[data-promote-picker]').hidden && !!document.querySelector('[data-promote=n]').offsetParent`)
	white.do(chromedp.Click(chromedp.CSS("[data-promote=n]")))
	played("cxb8=N")
	black.typeMove("Rxb8")
	played("Rxb8")
	white.typeMove("g1f3")
	played("Nf3")
	black.clickSquares("e7", "e6")
	played("e6")
	white.drag("f1", "e2")
	played("Be2")
	// White premoves castling while Black thinks; Black's move sets it off.
	white.drag("e1", "g1")
	white.waitJS("the premove shown", `!document.querySelector('[data-premove]').hidden`)
	black.typeMove("Be7")
	played("Be7", "O-O") // the premove may be on the pages before Black's move is checked
	black.clickSquares("e8", "g8")
	played("O-O")

	black.do(chromedp.Click(chromedp.CSS("button[data-action=resign]")))
	w.waitFor("the result", func() bool { return !r.bot.mustGame(t, 1).Live() })
	for _, p := range []*page{white, black} {
		p.waitJS("the result on the page", `document.querySelector('[data-board]').dataset.result === '1-0'`)
	}
	w.waitFor("the result in the thread", func() bool {
		for _, m := range w.messagesWith(g.thread, "gambit-game-1.pgn") {
			return strings.Contains(m.Content, "1-0") || strings.Contains(m.Content, "White wins")
		}
		return false
	})
	if n := len(w.messagesWith(g.thread, "board.png")); n != boards+ply+1 {
		t.Errorf("%d boards in the thread after %d web moves and the resignation, want %d", n, ply, boards+ply+1)
	}
	if n := eval[int](white, `document.querySelectorAll('[data-ply]').length`); n != ply {
		t.Errorf("White's move list has %d moves, want %d", n, ply)
	}
}

// TestWebViewOff: a server admin turns the web view off with /settings: every page of
// the server's games is refused, and the boards carry no web buttons; on again, the
// same link works.
func TestWebViewOff(t *testing.T) {
	w := newWebWorld(t)
	w.start()
	g := w.startGame("10+5")
	link := liveBoardURL(t, g.lastBoard().Payload)
	set := func(on bool) {
		t.Helper()
		res := w.send(asAdmin(discordfake.Command("settings", discordfake.SubCommand("web_view", discordfake.BoolOpt("enabled", on)))).In(w.f.GuildID, w.f.ChannelID))
		if want := fmt.Sprintf("live boards on the web: %s", map[bool]string{true: "yes", false: "no"}[on]); !strings.Contains(res.Callback.Data.Content, want) {
			t.Fatalf("/settings web_view enabled:%t answered %q", on, res.Callback.Data.Content)
		}
	}
	set(false)
	for _, u := range []string{link, link + "/ws", link + "/pgn", link + "/board.png"} {
		if status, body, _ := webGet(t, u); status != http.StatusForbidden || strings.Contains(body, "data-board") {
			t.Errorf("GET %s with the web view off: status %d, want 403", u, status)
		}
	}
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	if bs := linkButtons(g.lastBoard().Components); len(bs) != 0 || strings.Contains(strings.Join(g.lastBoard().CustomIDs(), " "), "/web") {
		t.Fatalf("a board with the web view off has web buttons: %v %v", bs, g.lastBoard().CustomIDs())
	}
	set(true)
	if status, body, _ := webGet(t, link); status != http.StatusOK || !strings.Contains(body, "data-board") {
		t.Fatalf("the page with the web view on again: status %d", status)
	}
}

// dialGame opens a game's socket as a page would, with origin and the cookies given.
func dialGame(t testing.TB, link, origin string, cookies ...*http.Cookie) (*websocket.Conn, int) {
	t.Helper()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	for _, c := range cookies {
		h.Add("Cookie", c.String())
	}
	ws, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(link, "http")+"/ws", h)
	if err != nil {
		if resp == nil {
			t.Fatalf("dial %s: %v", link, err)
		}
		return nil, resp.StatusCode
	}
	t.Cleanup(func() { ws.Close() })
	return ws, http.StatusSwitchingProtocols
}

// readUntil reads socket messages until one of type typ, within hangGuard.
func readUntil(t testing.TB, ws *websocket.Conn, typ string) map[string]any {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(hangGuard))
	for {
		var m map[string]any
		if err := ws.ReadJSON(&m); err != nil {
			t.Fatalf("read the socket waiting for %q: %v", typ, err)
		}
		if m["t"] == typ {
			return m
		}
	}
}

// TestWebSocketIsGuarded: a socket from another origin (or none) is refused; a
// spectator's socket may watch but every action it sends is refused and changes
// nothing; a malformed or oversized message is answered with an error, or closes the
// socket, and changes nothing; a player's own socket plays.
func TestWebSocketIsGuarded(t *testing.T) {
	w := newWebWorld(t)
	r := w.start()
	origin := r.bot.Web.BaseURL()
	g := w.startGame("10+5")
	link := liveBoardURL(t, g.lastBoard().Payload)
	for _, o := range []string{"", "http://evil.example", origin + ".evil.example", strings.Replace(origin, "127.0.0.1", "localhost", 1)} {
		if _, status := dialGame(t, link, o); status != http.StatusForbidden {
			t.Errorf("socket from origin %q: status %d, want 403", o, status)
		}
	}
	spec, _ := dialGame(t, link, origin)
	if err := spec.WriteJSON(map[string]any{"t": "hello", "ply": 0}); err != nil {
		t.Fatal(err)
	}
	if st := readUntil(t, spec, "state"); st["fen"] != nil || st["ply"] != float64(0) {
		t.Fatalf("first state %v", st)
	}
	for _, bad := range []string{
		`{"t":"move","id":"abcdefgh12","ply":0,"move":"e4"}`,                  // a spectator's move
		`{"t":"action","id":"abcdefgh13","ply":0,"action":"resign"}`,          // a spectator's resignation
		`{"t":"move","id":"x","ply":0,"move":"e4"}`,                           // a bad id
		`{"t":"action","id":"abcdefgh14","ply":0,"action":"delete-the-game"}`, // no such action
		`{"t":"move","id":"abcdefgh15","ply":0,"move":"e4","admin":true}`,     // an unknown field
		`not json`,
	} {
		if err := spec.WriteMessage(websocket.TextMessage, []byte(bad)); err != nil {
			t.Fatal(err)
		}
		if m := readUntil(t, spec, "error"); m["error"] == "" {
			t.Errorf("%s: an error without a text", bad)
		}
	}
	if got := r.bot.mustGame(t, 1); got.Ply() != 0 || !got.Live() {
		t.Fatalf("after the spectator's messages the game is at ply %d, live %t", got.Ply(), got.Live())
	}
	// A message over the size limit closes the socket: the server may close it while
	// the message is still being written (the write then fails with a reset), or after.
	if err := spec.WriteMessage(websocket.TextMessage, []byte(`{"t":"ping","x":"`+strings.Repeat("a", 4096)+`"}`)); err != nil && !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, syscall.EPIPE) {
		t.Fatal(err)
	}
	_ = spec.SetReadDeadline(time.Now().Add(hangGuard))
	for {
		if _, _, err := spec.ReadMessage(); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal("the socket stayed open after a message over the size limit")
			}
			break
		}
	}

	// Alice's session (from her personal link) plays over her own socket.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(g.signInURL(w.alice))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ws, _ := dialGame(t, link, origin, resp.Cookies()...)
	if err := ws.WriteJSON(map[string]any{"t": "hello", "ply": 0}); err != nil {
		t.Fatal(err)
	}
	if m := readUntil(t, ws, "welcome"); m["you"] != "white" {
		t.Fatalf("alice's socket is for %v, want white", m["you"])
	}
	if err := ws.WriteJSON(map[string]any{"t": "move", "id": "alice-move-1", "ply": 0, "move": "e4"}); err != nil {
		t.Fatal(err)
	}
	if m := readUntil(t, ws, "ok"); m["san"] != "e4" {
		t.Fatalf("alice's move answered %v", m)
	}
	// The same request again is answered without a second move; a move at a ply that
	// has passed is refused.
	if err := ws.WriteJSON(map[string]any{"t": "move", "id": "alice-move-1", "ply": 0, "move": "e4"}); err != nil {
		t.Fatal(err)
	}
	readUntil(t, ws, "ok")
	if err := ws.WriteJSON(map[string]any{"t": "move", "id": "alice-move-2", "ply": 0, "move": "d4"}); err != nil {
		t.Fatal(err)
	}
	if m := readUntil(t, ws, "error"); !strings.Contains(fmt.Sprint(m["error"]), "moved on") && !strings.Contains(fmt.Sprint(m["error"]), "not your turn") {
		t.Fatalf("a stale move answered %v", m)
	}
	if got := r.bot.mustGame(t, 1).SAN; !slices.Equal(got, []string{"e4"}) {
		t.Fatalf("moves %v, want e4 alone", got)
	}
}

// TestWebFlagFalls: White's flag falls; the page shows the result and the thread
// gets it within 2 s of each other.
func TestWebFlagFalls(t *testing.T) {
	w := newWebWorld(t)
	r := w.start()
	g := w.startGame("1+0")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	p := openPage(t, liveBoardURL(t, g.lastBoard().Payload))
	p.waitJS("White's clock running", `document.querySelector('[data-clock=white]').classList.contains('running')`)
	eval[bool](p, `(function(){const b=document.querySelector('[data-board]');new MutationObserver(function(){if(!window.__resultAt&&b.dataset.result!=='*')window.__resultAt=Date.now()}).observe(b,{attributes:true,attributeFilter:['data-result']});return true})()`)
	w.clock.Advance(61 * time.Second)
	if n := r.bot.Games.FireDue(); n == 0 {
		t.Fatal("no timer was due after White's minute")
	}
	var posted time.Time
	w.waitFor("the flag's post", func() bool {
		for _, m := range w.messagesWith(g.thread, "gambit-game-1.pgn") {
			if strings.Contains(m.Content, "flag fell") {
				posted = m.Created
				return true
			}
		}
		return false
	})
	p.waitJS("the result on the page", `document.querySelector('[data-board]').dataset.result === '0-1'`)
	shown := time.UnixMilli(int64(eval[float64](p, `window.__resultAt`)))
	if d := shown.Sub(posted); d > 2*time.Second || d < -2*time.Second {
		t.Errorf("the page showed the result %v from the thread's post, want within 2s", d)
	}
	if c := eval[bool](p, `document.querySelector('[data-clock=white]').classList.contains('running')`); c {
		t.Error("White's clock still runs on the page after the flag fell")
	}
}

// TestWebReconnectCatchesUp: the server restarts under an open page; the page
// reconnects by itself and shows the move made meanwhile.
func TestWebReconnectCatchesUp(t *testing.T) {
	w := newWebWorld(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a fixed port, so the page's link works across the restart
	if err != nil {
		t.Fatal(err)
	}
	w.cfg.Web.Address = ln.Addr().String()
	ln.Close()
	r := w.start()
	g := w.startGame("10+5")
	p := openPage(t, liveBoardURL(t, g.lastBoard().Payload))
	r.stop()
	p.waitJS("the socket dropped", `document.querySelector('.game').dataset.socket === 'closed'`)
	r = w.start()
	g.played(g.move(w.alice, "d4"), "d4", w.bob)
	p.waitFEN(r.bot.mustGame(t, 1).Position.FEN())
	p.waitSocket()
	if txt := eval[string](p, `document.querySelector('[data-ply="1"]').textContent`); !strings.Contains(txt, "d4") {
		t.Fatalf("after the reconnection move 1 reads %q", txt)
	}
}

// TestWebTwoProcessesOnPostgres: two gambit serve processes share a PostgreSQL store;
// a page on the first shows a move the second made through Discord within 2 s of its
// answer (PostgreSQL's LISTEN and NOTIFY carry it), and a player's move on that page
// reaches a page on the second.
func TestWebTwoProcessesOnPostgres(t *testing.T) {
	overHTTP(t) // the interactions go to the process whose endpoint is set last
	dsn := storagetest.PostgresDSN(t)
	w := newWebWorld(t)
	w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, dsn
	cfg1, cfg2 := w.cfg, w.cfg
	cfg1.Instance, cfg2.Instance = "web-1", "web-2"
	// Under the race detector, two processes and a browser, a move may take longer than
	// the default 1.5 s before the answer is deferred; Discord allows 3 s.
	deps := Deps{DeferAfter: 2500 * time.Millisecond}
	r1 := w.startWith(cfg1, deps)
	r2 := w.startWith(cfg2, deps) // the interactions now reach this one
	g := w.startGame("10+5")
	id := r2.bot.mustGame(t, 1).ID
	on1 := openPage(t, r1.bot.Web.GameURL(id))
	on2 := openPage(t, r2.bot.Web.GameURL(id))
	eval[bool](on1, `(function(){const b=document.querySelector('[data-board]');new MutationObserver(function(){if(!window.__changedAt)window.__changedAt=Date.now()}).observe(b,{attributes:true,attributeFilter:['data-fen']});return true})()`)
	res := g.move(w.alice, "e4")
	answered := time.Now()
	g.played(res, "e4", w.bob)
	on1.waitFEN(r2.bot.mustGame(t, id).Position.FEN())
	if lag := time.UnixMilli(int64(eval[float64](on1, `window.__changedAt`))).Sub(answered); lag > 2*time.Second {
		t.Errorf("the first process's page showed the second's move %v after the answer, want at most 2s", lag)
	}
	// Bob signs in on the first process (the link from the second works there too:
	// the processes share the secret) and plays; the second's page shows it.
	u := g.signInURL(w.bob)
	u1 := strings.Replace(u, r2.bot.Web.BaseURL(), r1.bot.Web.BaseURL(), 1)
	bob := openPage(t, u1)
	bob.drag("e7", "e5")
	w.waitFor("bob's move", func() bool { return r2.bot.mustGame(t, id).Ply() == 2 })
	on2.waitFEN(r2.bot.mustGame(t, id).Position.FEN())
}

// playerSocket is a player's socket, signed in through their personal link.
type playerSocket struct {
	t  testing.TB
	ws *websocket.Conn
	n  int
}

func (g *game) socketOf(u *discordgo.User, origin string) *playerSocket {
	g.w.t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(g.signInURL(u))
	if err != nil {
		g.w.t.Fatal(err)
	}
	resp.Body.Close()
	ws, status := dialGame(g.w.t, liveBoardURL(g.w.t, g.lastBoard().Payload), origin, resp.Cookies()...)
	if ws == nil {
		g.w.t.Fatalf("%s's socket: status %d", u.Username, status)
	}
	if err := ws.WriteJSON(map[string]any{"t": "hello", "ply": 0}); err != nil {
		g.w.t.Fatal(err)
	}
	readUntil(g.w.t, ws, "welcome")
	return &playerSocket{t: g.w.t, ws: ws}
}

// do sends a move ("move:e4") or an action and returns the answer: "ok" or the error.
func (p *playerSocket) do(ply int, what string, move string) string {
	p.t.Helper()
	p.n++
	m := map[string]any{"t": "action", "id": fmt.Sprintf("req-%08d", p.n), "ply": ply, "action": what}
	if what == "move" {
		m = map[string]any{"t": "move", "id": fmt.Sprintf("req-%08d", p.n), "ply": ply, "move": move}
	} else if move != "" {
		m["move"] = move
	}
	if err := p.ws.WriteJSON(m); err != nil {
		p.t.Fatal(err)
	}
	_ = p.ws.SetReadDeadline(time.Now().Add(hangGuard))
	for {
		var r map[string]any
		if err := p.ws.ReadJSON(&r); err != nil {
			p.t.Fatal(err)
		}
		if r["id"] == m["id"] {
			if r["t"] == "ok" {
				return "ok"
			}
			return fmt.Sprint(r["error"])
		}
	}
}

// TestWebActionsAreTheServicesOwn: draw offers, takebacks and a draw claim with the
// intended move (FIDE 9.2.1) from the web, each answered by the game service as on
// Discord, and posted in the thread.
func TestWebActionsAreTheServicesOwn(t *testing.T) {
	w := newWebWorld(t)
	r := w.start()
	origin := r.bot.Web.BaseURL()
	g := w.startGame("10+5")
	alice, bob := g.socketOf(w.alice, origin), g.socketOf(w.bob, origin)
	must := func(got string) {
		t.Helper()
		if got != "ok" {
			t.Fatalf("refused: %s", got)
		}
	}
	must(alice.do(0, "move", "e4"))
	if got := alice.do(1, "move", "e5"); !strings.Contains(got, "not your turn") {
		t.Fatalf("White's second move in a row answered %q", got)
	}
	must(bob.do(1, "move", "e5"))
	must(bob.do(2, "offer-draw", "")) // right after his move
	w.waitFor("the draw offer on the game", func() bool { return r.bot.mustGame(t, 1).DrawOffer.Pending })
	if got := bob.do(2, "accept-draw", ""); got == "ok" {
		t.Fatal("Black accepted his own draw offer")
	}
	must(alice.do(2, "decline-draw", ""))
	gm := r.bot.mustGame(t, 1)
	if gm.DrawOffer.Pending || !gm.Live() {
		t.Fatalf("after the decline: offer %v, live %t", gm.DrawOffer, gm.Live())
	}
	// A takeback: asked by White after her move, granted by Black.
	must(alice.do(2, "move", "Nf3"))
	if got := alice.do(3, "takeback", ""); got == "ok" {
		must(bob.do(3, "accept-takeback", ""))
		w.waitFor("the takeback", func() bool { return r.bot.mustGame(t, 1).Ply() == 2 })
		must(alice.do(2, "move", "Nf3"))
	} else if !gm.Rated {
		t.Fatalf("a takeback in a casual game refused: %s", got)
	}
	// Knights out and back twice; Black claims the third repetition with his move.
	ply := 3
	for _, m := range []struct {
		p   *playerSocket
		san string
	}{{bob, "Nf6"}, {alice, "Ng1"}, {bob, "Ng8"}, {alice, "Nf3"}, {bob, "Nf6"}, {alice, "Ng1"}} {
		must(m.p.do(ply, "move", m.san))
		ply++
	}
	if got := bob.do(ply, "claim-draw", ""); got == "ok" {
		t.Fatal("a claim on a position that has not yet occurred three times was accepted")
	}
	must(bob.do(ply, "claim-draw", "Ng8"))
	w.waitFor("the drawn game", func() bool { return !r.bot.mustGame(t, 1).Live() })
	if o := r.bot.mustGame(t, 1).Outcome; o.Result.String() != "1/2-1/2" || o.Termination.String() != "threefold repetition" {
		t.Fatalf("outcome %v", o)
	}
	w.waitFor("the result in the thread", func() bool { return len(w.messagesWith(g.thread, "gambit-game-1.pgn")) == 1 })
}

// TestWebTokensNeverLogged: at the debug level, with every request logged, neither the
// game's link token, the sign-in token nor the session cookie reaches the log, though
// the requests do (by their route).
func TestWebTokensNeverLogged(t *testing.T) {
	w := newWebWorld(t)
	logs := &logBuffer{}
	w.startWith(w.cfg, Deps{Logger: logs.logger()})
	g := w.startGame("10+5")
	link := liveBoardURL(t, g.lastBoard().Payload)
	signin := g.signInURL(w.alice)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(signin)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(resp.Cookies()) != 1 {
		t.Fatal("no session cookie")
	}
	session := resp.Cookies()[0].Value
	req, _ := http.NewRequest("GET", link, nil)
	req.AddCookie(resp.Cookies()[0])
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	webGet(t, link+"x") // a 404 is logged too
	w.waitFor("the requests in the log", func() bool { return strings.Contains(logs.String(), "GET /g/{id}/{token}") })
	u, _ := url.Parse(link)
	for what, secret := range map[string]string{
		"link token": u.Path[strings.LastIndex(u.Path, "/")+1:], "sign-in token": signin[strings.LastIndex(signin, "/")+1:], "session": session,
	} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the %s is in the logs", what)
		}
	}
}

// TestWebMoveFormWithoutScript: the typed-move form works without the page script for
// a signed-in player with the session's CSRF token; without the token, or without a
// session, it is refused and nothing moves.
func TestWebMoveFormWithoutScript(t *testing.T) {
	w := newWebWorld(t)
	r := w.start()
	g := w.startGame("10+5")
	link := liveBoardURL(t, g.lastBoard().Payload)
	jar := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := jar.Get(g.signInURL(w.alice))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cookie := resp.Cookies()[0]
	page := func() string {
		req, _ := http.NewRequest("GET", link, nil)
		req.AddCookie(cookie)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page())
	if csrf == nil {
		t.Fatal("the signed-in page has no CSRF token")
	}
	post := func(withCookie bool, form url.Values) int {
		req, _ := http.NewRequest("POST", link+"/move", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if withCookie {
			req.AddCookie(cookie)
		}
		resp, err := jar.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	form := url.Values{"ply": {"0"}, "id": {"form-move-0001"}, "move": {"e4"}}
	if s := post(false, form); s != http.StatusForbidden {
		t.Errorf("a move form without a session: status %d, want 403", s)
	}
	if s := post(true, form); s != http.StatusForbidden {
		t.Errorf("a move form without the CSRF token: status %d, want 403", s)
	}
	form.Set("csrf", csrf[1]+"x")
	if s := post(true, form); s != http.StatusForbidden {
		t.Errorf("a move form with a wrong CSRF token: status %d, want 403", s)
	}
	if n := r.bot.mustGame(t, 1).Ply(); n != 0 {
		t.Fatalf("refused forms moved: ply %d", n)
	}
	form.Set("csrf", csrf[1])
	if s := post(true, form); s != http.StatusSeeOther {
		t.Fatalf("the player's form: status %d, want 303 back to the page", s)
	}
	form.Set("id", "form-move-0002")
	form.Set("move", "Ke2")
	if s := post(true, form); s != http.StatusUnprocessableEntity {
		t.Errorf("a second move out of turn: status %d, want 422", s)
	}
	if got := r.bot.mustGame(t, 1).SAN; !slices.Equal(got, []string{"e4"}) {
		t.Fatalf("moves %v, want e4", got)
	}
	w.waitFor("the board of the form's move", func() bool { return strings.Contains(g.lastBoard().Content, "**e4**") })
}
