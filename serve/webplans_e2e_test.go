package serve

// Conditional moves on the live board, end to end: the planner enters lines on the
// board in Chromium, the opponent plays a foreseen move on the web and the reply is
// played at once; the opponent's and a spectator's pages and sockets never get the
// plan. Hostile plan messages are refused and change nothing.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/chromedp"
	"github.com/gorilla/websocket"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// socketLog records every message a socket receives, from the moment it is made.
type socketLog struct {
	mu   sync.Mutex
	msgs []string
}

// record reads ws until it closes, keeping each message.
func record(ws *websocket.Conn) *socketLog {
	l := &socketLog{}
	_ = ws.SetReadDeadline(time.Time{})
	go func() {
		for {
			_, b, err := ws.ReadMessage()
			if err != nil {
				return
			}
			l.mu.Lock()
			l.msgs = append(l.msgs, string(b))
			l.mu.Unlock()
		}
	}()
	return l
}

func (l *socketLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.msgs...)
}

// noPlanIn fails the test if a message shows a plan other than an empty one, a draft,
// or any of the plan's moves (quoted as SAN: a state's UCI moves differ).
func noPlanIn(t *testing.T, who string, msgs []string, sans ...string) {
	t.Helper()
	for _, m := range msgs {
		var v struct {
			T     string     `json:"t"`
			Lines [][]string `json:"lines"`
		}
		if err := json.Unmarshal([]byte(m), &v); err != nil {
			t.Errorf("%s got a message that is not JSON: %q", who, m)
			continue
		}
		if v.T == "draft" || (v.T == "plan" && len(v.Lines) > 0) {
			t.Errorf("%s got a plan: %s", who, m)
		}
		for _, san := range sans {
			if strings.Contains(m, `"`+san+`"`) {
				t.Errorf("%s got a message naming the plan's move %s: %s", who, san, m)
			}
		}
	}
}

// noPlanOnPage fails the test if a page's text names any of the plan's moves, or
// lists a line of a plan.
func noPlanOnPage(t *testing.T, who string, p *page, sans ...string) {
	t.Helper()
	text := eval[string](p, `document.body.innerText`)
	for _, san := range sans {
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(san) + `\b`).MatchString(text) {
			t.Errorf("%s shows the plan's move %s: %q", who, san, text)
		}
	}
	if n := eval[int](p, `document.querySelectorAll('[data-plan-lines] li').length`); n != 0 {
		t.Errorf("%s lists %d lines of a plan", who, n)
	}
}

// planStep drags a move on a page in plan mode and waits until the draft ends with it.
func (p *page) planStep(from, to, san string) {
	p.t.Helper()
	before := eval[string](p, `document.querySelector('[data-plan-draft-moves]').dataset.moves || ''`)
	want := strings.TrimSpace(before + " " + san)
	p.drag(from, to)
	p.waitJS("the draft "+want, fmt.Sprintf(`document.querySelector('[data-plan-draft-moves]').dataset.moves === %q`, want))
}

// planLines returns the lines a page lists in its plan.
func planLines(p *page) []string {
	return eval[[]string](p, `Array.from(document.querySelectorAll('[data-plan-lines] li .plan-line')).map(function(e){return e.textContent})`)
}

// TestWebPlanOnTheBoard: in a correspondence game Black, on the web, switches the
// board to plan mode while White thinks, plays two lines on the board (a third he
// removes), each move checked as it is entered; White plays the foreseen move on her
// page and the reply is on every page at once; the rest of the line stays, for Black
// alone. White's page and socket, and a spectator's, never get the plan, nor does the
// PGN; Black sees the same plan with /conditional list on Discord.
func TestWebPlanOnTheBoard(t *testing.T) {
	w := newWebWorld(t)
	r := w.start()
	origin := r.bot.Web.BaseURL()
	g := w.startGame("2d")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	link := liveBoardURL(t, g.lastBoard().Payload)

	aliceWS := g.socketOf(w.alice, origin)
	aliceLog := record(aliceWS.ws)
	spec, _ := dialGame(t, link, origin)
	if err := spec.WriteJSON(map[string]any{"t": "hello", "ply": 0}); err != nil {
		t.Fatal(err)
	}
	specLog := record(spec)
	white, black, watcher := g.signedIn(w.alice), g.signedIn(w.bob), openPage(t, link)
	if n := eval[int](watcher, `document.querySelectorAll('[data-plan]').length`); n != 0 {
		t.Fatalf("a spectator's page has %d plan sections", n)
	}
	black.waitJS("Black's plan section", `!document.querySelector('[data-plan]').hidden && !document.querySelector('button[data-action=plan]').hidden`)
	white.waitJS("White's plan section", `!document.querySelector('[data-plan]').hidden`)
	if on := eval[bool](white, `document.querySelector('button[data-action=plan]').disabled`); !on {
		t.Error("White may switch to plan mode on her own move")
	}

	black.do(chromedp.Click(chromedp.CSS("button[data-action=plan]")))
	black.waitJS("plan mode", `document.querySelector('[data-board]').dataset.mode === 'plan'`)
	// A move the position does not allow is not even sent: the knight stays.
	black.drag("g1", "g3")
	black.planStep("g1", "f3", "Nf3")
	black.planStep("b8", "c6", "Nc6")
	black.planStep("f1", "b5", "Bb5")
	black.planStep("a7", "a6", "a6")
	black.waitFEN("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4")
	black.do(chromedp.Click(chromedp.CSS("button[data-action=plan-save]")))
	black.waitJS("the first line saved", `document.querySelectorAll('[data-plan-lines] li').length === 1`)
	// Still in plan mode, from the game's position again: a second line, and a third.
	black.waitFEN("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	black.planStep("b1", "c3", "Nc3")
	black.planStep("g8", "f6", "Nf6")
	black.do(chromedp.Click(chromedp.CSS("button[data-action=plan-save]")))
	black.waitJS("the second line saved", `document.querySelectorAll('[data-plan-lines] li').length === 2`)
	black.planStep("d2", "d4", "d4")
	black.planStep("e5", "d4", "exd4")
	black.do(chromedp.Click(chromedp.CSS("button[data-action=plan-save]")))
	black.waitJS("the third line saved", `document.querySelectorAll('[data-plan-lines] li').length === 3`)
	black.do(chromedp.Click(chromedp.CSS(`[data-plan-line="2"] button[data-action=plan-remove]`)))
	black.waitJS("the third line removed", `document.querySelectorAll('[data-plan-lines] li').length === 2`)
	if got := strings.Join(planLines(black), " | "); got != "if Nf3 then Nc6, if Bb5 then a6 | if Nc3 then Nf6" {
		t.Fatalf("Black's plan on the page: %q", got)
	}
	list := w.send(discordfake.Command("conditional", discordfake.SubCommand("list")).From(w.bob).In(w.f.GuildID, g.thread))
	if d := list.Callback.Data; !d.Ephemeral() || !strings.Contains(d.Content, "if **Nf3** then **Nc6**, if **Bb5** then **a6**") || !strings.Contains(d.Content, "if **Nc3** then **Nf6**") {
		t.Fatalf("bob's /conditional list after the web: %q", d.Content)
	}
	// Black leaves a line half entered: White's move drops it, not the saved lines.
	black.planStep("d2", "d4", "d4")
	if gm := r.bot.mustGame(t, 1); gm.Ply() != 2 {
		t.Fatalf("planning moved the game: %v", gm.SAN)
	}
	noPlanOnPage(t, "White's page", white, "Bb5", "Nc3", "Nf6", "a6")

	white.drag("g1", "f3")
	w.waitFor("White's move", func() bool { return r.bot.mustGame(t, 1).Ply() >= 3 })
	gm := r.bot.mustGame(t, 1)
	if gm.Ply() != 4 || gm.SAN[2] != "Nf3" || gm.SAN[3] != "Nc6" {
		t.Fatalf("after White's foreseen move the game is %v, want the reply Nc6 with it", gm.SAN)
	}
	for _, p := range []*page{white, black, watcher} {
		p.waitFEN(gm.Position.FEN())
	}
	black.waitJS("the rest of the line", `document.querySelectorAll('[data-plan-lines] li').length === 1`)
	if got := strings.Join(planLines(black), " | "); got != "if Bb5 then a6" {
		t.Errorf("Black's plan after the reply: %q", got)
	}
	if m := eval[string](black, `document.querySelector('[data-board]').dataset.mode || ''`); m != "" {
		t.Errorf("Black's board is still in mode %q after White's move", m)
	}
	w.waitFor("the reply's board in the thread", func() bool {
		return strings.Contains(g.latestBoard().Content, "conditional reply **Nc6**")
	})

	// Nobody but Black ever got the plan: White's and the spectator's pages and sockets.
	for what, p := range map[string]*page{"White's page": white, "the spectator's page": watcher} {
		noPlanOnPage(t, what, p, "Bb5", "Nc3", "Nf6", "a6")
	}
	w.waitFor("the reply on the raw sockets", func() bool {
		return strings.Contains(strings.Join(aliceLog.all(), ""), `"Nc6"`) && strings.Contains(strings.Join(specLog.all(), ""), `"Nc6"`)
	})
	noPlanIn(t, "White's socket", aliceLog.all(), "Bb5", "Nc3", "Nf6", "a6")
	noPlanIn(t, "the spectator's socket", specLog.all(), "Bb5", "Nc3", "Nf6", "a6")
	if _, pgn, _ := webGet(t, link+"/pgn"); strings.Contains(pgn, "Bb5") || !strings.Contains(pgn, "Nc6") {
		t.Errorf("the PGN: %q", pgn)
	}
	if n := eval[int](black, `window.__gambitErrors.length`); n != 0 {
		t.Errorf("Black's page script failed: %v", eval[[]string](black, `window.__gambitErrors`))
	}
}

// startGameAgainst is startGame with another opponent for alice.
func (w *world) startGameAgainst(opp *discordgo.User, control string) *game {
	w.t.Helper()
	threadsBefore := len(w.f.Threads())
	res := w.send(discordfake.Command("challenge",
		discordfake.UserOpt("opponent", opp.ID), discordfake.StringOpt("time", control), discordfake.StringOpt("color", "white")))
	accept := customID(w.t, res.Callback.Data.CustomIDs(), "accept")
	w.send(discordfake.Button(accept).From(opp))
	var thread string
	w.waitFor("the game's thread", func() bool {
		th := w.f.Threads()
		if len(th) > threadsBefore {
			thread = th[len(th)-1].ID
			return len(w.messagesWith(thread, "board.png")) > 0
		}
		return false
	})
	return &game{w: w, thread: thread, white: w.alice, black: opp}
}

// plan sends a plan message on a player's socket and returns the answer: "ok", the
// draft's moves ("draft: Nf3 Nc6"), or the error.
func (p *playerSocket) plan(typ string, ply int, line string) string {
	p.t.Helper()
	p.n++
	m := map[string]any{"t": typ, "id": fmt.Sprintf("plan-%08d", p.n), "ply": ply}
	if line != "" {
		m["line"] = line
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
		// A message the decoder refuses is answered without its id.
		if r["id"] != m["id"] && !(r["t"] == "error" && r["id"] == nil) {
			continue
		}
		switch r["t"] {
		case "ok":
			return "ok"
		case "draft":
			var sans []string
			for _, s := range r["san"].([]any) {
				sans = append(sans, fmt.Sprint(s))
			}
			return "draft: " + strings.Join(sans, " ")
		}
		return fmt.Sprint(r["error"])
	}
}

// TestWebPlanMessagesAreGuarded: plan messages from a spectator, from a signed-in
// user who does not play the game, on one's own move, at a ply that has passed, with
// an illegal move, a draw in the line, a line too long or a malformed message are
// refused with the reason, and change nothing; the server's settings and the game's
// control are the Discord command's.
func TestWebPlanMessagesAreGuarded(t *testing.T) {
	w := newWebWorld(t)
	r := w.start()
	origin := r.bot.Web.BaseURL()
	g := w.startGame("2d")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	bob, alice := g.socketOf(w.bob, origin), g.socketOf(w.alice, origin)
	version := r.bot.mustGame(t, 1).Version

	if got := bob.plan("plan-check", 1, "e5 Nf3"); !strings.Contains(got, "it is your move") {
		t.Errorf("a plan on one's own move: %q", got)
	}
	// Alice plans while Black thinks.
	for _, c := range []struct {
		typ  string
		ply  int
		line string
		want string
	}{
		{"plan-check", 1, "e7e5", "draft: e5"},
		{"plan-check", 1, "e5 g1f3 b8c6", "draft: e5 Nf3 Nc6"},
		{"plan-check", 1, "e5 Ke2 Ke6", "move 3 of the line (Ke6, your opponent's move) is not legal there"},
		{"plan-check", 0, "e5", "moved on"},
		{"plan-add", 1, "e5", "add your reply"},
		{"plan-add", 1, "e5 Nf3 draw", "cannot offer or claim a draw"},
		{"plan-add", 1, "e5 Nf3 " + strings.Repeat("a", 400), "malformed message"},
		{"plan-add", 1, "e5 hello", `"hello" is not a move`},
		{"plan-remove", 1, "e5", "no conditional moves"},
		{"plan-clear", 1, "", "no conditional moves"},
	} {
		if got := alice.plan(c.typ, c.ply, c.line); !strings.Contains(got, c.want) {
			t.Errorf("%s %q at ply %d: %q, want %q", c.typ, c.line, c.ply, got, c.want)
		}
	}
	// Malformed messages, each answered with an error.
	for _, bad := range []string{
		`{"t":"plan-add","ply":1,"line":"e5 Nf3"}`,                               // no id
		`{"t":"plan-add","id":"abcdefgh01","ply":1,"line":"e5 Nf3","move":"e4"}`, // a move too
		`{"t":"plan-clear","id":"abcdefgh02","ply":1,"line":"e5"}`,               // clear takes no line
		`{"t":"plan-add","id":"abcdefgh03","ply":1,"line":"e5\u0000Nf3"}`,        // a control character
		`{"t":"move","id":"abcdefgh04","ply":1,"move":"e5","line":"e5 Nf3"}`,     // a line on a move
		`{"t":"plan-add","id":"abcdefgh05","ply":1,"line":""}`,                   // an empty line
		`{"t":"plan-list","id":"abcdefgh06","ply":1}`,                            // no such type
	} {
		if err := alice.ws.WriteMessage(websocket.TextMessage, []byte(bad)); err != nil {
			t.Fatal(err)
		}
		if m := readUntil(t, alice.ws, "error"); m["error"] == "" {
			t.Errorf("%s: an error without a text", bad)
		}
	}
	if v := r.bot.mustGame(t, 1).Version; v != version {
		t.Fatalf("refused plan messages changed the game (version %d, was %d)", v, version)
	}

	// A spectator and carol, signed in but playing another game, are refused.
	spec, _ := dialGame(t, liveBoardURL(t, g.lastBoard().Payload), origin)
	if err := spec.WriteJSON(map[string]any{"t": "plan-add", "id": "spectator-plan", "ply": 1, "line": "e5 Nf3"}); err != nil {
		t.Fatal(err)
	}
	if m := readUntil(t, spec, "error"); !strings.Contains(fmt.Sprint(m["error"]), "you are watching") {
		t.Errorf("a spectator's plan: %v", m)
	}
	// carol signs in through her own game with alice, and opens game 1's socket.
	other := w.startGameAgainst(w.carol, "2d")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(other.signInURL(w.carol))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cws, _ := dialGame(t, liveBoardURL(t, g.lastBoard().Payload), origin, resp.Cookies()...)
	carol := &playerSocket{t: t, ws: cws}
	if got := carol.plan("plan-add", 1, "e5 Nf3"); !strings.Contains(got, "not playing in this game") {
		t.Errorf("carol's plan in a game she does not play: %q", got)
	}

	// A line saved, then the server turns conditional moves off: refused as on Discord.
	if got := alice.plan("plan-add", 1, "e5 Nf3"); got != "ok" {
		t.Fatalf("alice's line: %q", got)
	}
	if got := alice.plan("plan-add", 1, "e5 Nc3"); !strings.Contains(got, "another reply") {
		t.Errorf("a second reply to e5: %q", got)
	}
	res := w.send(asAdmin(discordfake.Command("settings", discordfake.SubCommand("conditional_moves", discordfake.StringOpt("value", "off")))).In(w.f.GuildID, w.f.ChannelID))
	if res.Callback.Data.Content == "" {
		t.Fatal("/settings conditional_moves off: no answer")
	}
	if got := alice.plan("plan-check", 1, "d5"); !strings.Contains(got, "turned them off") {
		t.Errorf("a draft with conditional moves off: %q", got)
	}
	if got := alice.plan("plan-clear", 1, ""); got != "ok" {
		t.Errorf("clearing a plan: %q", got)
	}

	// A blitz game allows none, whatever the server says.
	w.send(asAdmin(discordfake.Command("settings", discordfake.SubCommand("conditional_moves", discordfake.StringOpt("value", "correspondence")))).In(w.f.GuildID, w.f.ChannelID))
	blitz := w.startGameAgainst(w.carol, "5+3")
	blitz.played(blitz.move(w.alice, "e4"), "e4", w.carol)
	aliceBlitz := blitz.socketOf(w.alice, origin)
	if got := aliceBlitz.plan("plan-check", 1, "e5"); !strings.Contains(got, "correspondence games") {
		t.Errorf("a draft in a blitz game: %q", got)
	}
	if gm := r.bot.mustGame(t, 1); gm.Ply() != 1 {
		t.Errorf("the plan messages moved game 1: %v", gm.SAN)
	}
}

// TestWebPlanTwoClicksOneLine: the same line saved from two tabs of the planner at
// once is added once; the other tab is told the plan already has it.
func TestWebPlanTwoClicksOneLine(t *testing.T) {
	w := newWebWorld(t)
	r := w.start()
	origin := r.bot.Web.BaseURL()
	g := w.startGame("2d")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	tabs := []*playerSocket{g.socketOf(w.alice, origin), g.socketOf(w.alice, origin)}
	answers := make([]string, len(tabs))
	var wg sync.WaitGroup
	for i, tab := range tabs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tab.n = 100 * (i + 1) // distinct request ids
			answers[i] = tab.plan("plan-add", 1, "e5 Nf3 Nc6 Bb5")
		}()
	}
	wg.Wait()
	oks := 0
	for _, a := range answers {
		if a == "ok" {
			oks++
		} else if !strings.Contains(a, "already has that line") {
			t.Errorf("the other tab was told %q", a)
		}
	}
	if oks != 1 {
		t.Fatalf("answers %q: want exactly one ok", answers)
	}
	list := w.send(discordfake.Command("conditional", discordfake.SubCommand("list")).From(w.alice).In(w.f.GuildID, g.thread))
	if d := list.Callback.Data.Content; strings.Count(d, "if **e5** then **Nf3**") != 1 {
		t.Fatalf("alice's plan after two saves: %q", d)
	}
}

// TestWebPlanTwoProcessesOnPostgres: two processes share a PostgreSQL store. Black
// saves a line over a socket of the first; White's foreseen move reaches the second
// through Discord; the reply is played with it, and the first process's sockets get
// the new state, Black's alone the rest of his plan, White's none of it.
func TestWebPlanTwoProcessesOnPostgres(t *testing.T) {
	overHTTP(t) // the interactions go to the process whose endpoint is set last
	dsn := storagetest.PostgresDSN(t)
	w := newWebWorld(t)
	w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, dsn
	cfg1, cfg2 := w.cfg, w.cfg
	cfg1.Instance, cfg2.Instance = "plans-1", "plans-2"
	deps := Deps{DeferAfter: 2500 * time.Millisecond}
	r1 := w.startWith(cfg1, deps)
	r2 := w.startWith(cfg2, deps) // the interactions now reach this one
	g := w.startGame("2d")
	g.played(g.move(w.alice, "e4"), "e4", w.bob)
	g.played(g.move(w.bob, "e5"), "e5", w.alice)
	// The sockets are opened on the first process (the links of the second work there:
	// the processes share the secret).
	to1 := func(u string) string { return strings.Replace(u, r2.bot.Web.BaseURL(), r1.bot.Web.BaseURL(), 1) }
	link1 := to1(liveBoardURL(t, g.lastBoard().Payload))
	socketOn1 := func(u *discordgo.User) *playerSocket {
		t.Helper()
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Get(to1(g.signInURL(u)))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		ws, status := dialGame(t, link1, r1.bot.Web.BaseURL(), resp.Cookies()...)
		if ws == nil {
			t.Fatalf("%s's socket on the first process: status %d", u.Username, status)
		}
		if err := ws.WriteJSON(map[string]any{"t": "hello", "ply": 0}); err != nil {
			t.Fatal(err)
		}
		readUntil(t, ws, "welcome")
		return &playerSocket{t: t, ws: ws}
	}
	bob, alice := socketOn1(w.bob), socketOn1(w.alice)
	aliceLog := record(alice.ws)
	if got := bob.plan("plan-add", 2, "Nf3 Nc6 Bb5 a6"); got != "ok" {
		t.Fatalf("bob's line: %q", got)
	}
	bobLog := record(bob.ws)
	res := g.move(w.alice, "Nf3")
	if d := res.Callback.Data; !strings.Contains(d.Content, "conditional move") {
		t.Fatalf("the foreseen move answered %q", d.Content)
	}
	w.waitFor("the reply and the rest of the plan on the first process", func() bool {
		all := strings.Join(bobLog.all(), "\n")
		return strings.Contains(all, `"Nc6"`) && strings.Contains(all, `"lines":[["Bb5","a6"]]`)
	})
	w.waitFor("the reply on White's socket", func() bool { return strings.Contains(strings.Join(aliceLog.all(), ""), `"Nc6"`) })
	noPlanIn(t, "White's socket", aliceLog.all(), "Bb5", "a6")
}
