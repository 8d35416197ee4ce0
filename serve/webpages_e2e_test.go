package serve

// The server's web pages end to end: `gambit serve` with web.address set, the fake
// Discord giving the links in the answers of /ladder, /rating, /tournament standings
// and /puzzle today, and a real headless Chromium (browser_test.go) on the pages.

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/chromedp"

	"github.com/gambitchess/gambit/bot/discordfake"
)

// webButton returns the URL of the link button labelled label, failing without one.
func webButton(t testing.TB, p discordfake.Payload, label string) string {
	t.Helper()
	for _, b := range linkButtons(p.Components) {
		if b.Label == label {
			return b.URL
		}
	}
	t.Fatalf("no %q link button in %q", label, p.Content)
	return ""
}

// serverPage is a tab on one of a server's pages.
type serverPage struct {
	t   testing.TB
	ctx context.Context
}

// openServerPage opens u in a browser context of its own and waits for the page's
// element ready.
func openServerPage(t testing.TB, u, ready string) *serverPage {
	t.Helper()
	p := &serverPage{t: t, ctx: newTab(t)}
	p.run(chromedp.Navigate(u))
	p.wait(ready)
	return p
}

func (p *serverPage) run(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// wait waits (within hangGuard, across navigations) for an element matching sel.
func (p *serverPage) wait(sel string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, hangGuard)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("waiting for %s on %s: %v", sel, p.js(`location.pathname`), err)
	}
}

func (p *serverPage) js(expr string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

func (p *serverPage) texts(sel string) string {
	p.t.Helper()
	return p.js(fmt.Sprintf(`Array.from(document.querySelectorAll(%q)).map(e => e.textContent.trim()).join("|")`, sel))
}

func (p *serverPage) click(sel string) {
	p.t.Helper()
	p.run(chromedp.Click(chromedp.CSS(sel)))
}

// clickSquare clicks a square of the board at its centre.
func (p *serverPage) clickSquare(sq string) {
	p.t.Helper()
	var xy []float64
	xy, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(function(){const r=document.querySelector('[data-square="%s"]').getBoundingClientRect();return [r.x+r.width/2,r.y+r.height/2]})()`, sq)))
	if err != nil {
		p.t.Fatalf("square %s: %v", sq, err)
	}
	p.run(chromedp.MouseClickXY(xy[0], xy[1]))
}

// checkUnfurl checks a page's Open Graph tags: its own address, a title, and an image
// that is the board PNG of the page's server (or game) and serves a PNG.
func checkUnfurl(t testing.TB, link string) {
	t.Helper()
	status, body, _ := webGet(t, link)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d", link, status)
	}
	meta := func(prop string) string {
		i := strings.Index(body, `<meta property="`+prop+`" content="`)
		if i < 0 {
			t.Fatalf("%s: no %s", link, prop)
		}
		rest := body[i+len(`<meta property="`+prop+`" content="`):]
		v, _, _ := strings.Cut(rest, `"`)
		return strings.ReplaceAll(v, "&amp;", "&")
	}
	if meta("og:title") == "" {
		t.Errorf("%s: empty og:title", link)
	}
	if u := meta("og:url"); u != link {
		t.Errorf("%s: og:url %q", link, u)
	}
	img := meta("og:image")
	if !strings.HasSuffix(img, "/board.png") {
		t.Errorf("%s: og:image %q is not a board PNG", link, img)
	}
	checkWeight(t, link, body)
	st, png, hd := webGet(t, img)
	if st != http.StatusOK || hd.Get("Content-Type") != "image/png" || !bytes.HasPrefix([]byte(png), []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("og:image %s: status %d, type %q: not a PNG", img, st, hd.Get("Content-Type"))
	}
}

// maxPageWeight is the most a page and everything it loads may weigh, gzipped.
const maxPageWeight = 150 << 10

// checkWeight adds up a page's HTML and every file it loads from /static/, gzipped, and
// fails past maxPageWeight; -v logs the weight (docs/web.md's figures).
func checkWeight(t testing.TB, link, body string) {
	t.Helper()
	gz := func(b string) int {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		_, _ = zw.Write([]byte(b))
		_ = zw.Close()
		return z.Len()
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	total := gz(body)
	seen := map[string]bool{}
	for rest := body; ; {
		i := strings.Index(rest, `"/static/`)
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		ref, _, _ := strings.Cut(rest, `"`)
		ref = strings.ReplaceAll(ref, "&amp;", "&")
		if seen[ref] {
			continue
		}
		seen[ref] = true
		status, b, _ := webGet(t, u.Scheme+"://"+u.Host+ref)
		if status != http.StatusOK {
			t.Fatalf("%s loads %s: status %d", link, ref, status)
		}
		total += gz(b)
	}
	if total > maxPageWeight {
		t.Errorf("%s weighs %d bytes gzipped with its files, want at most %d", u.Path, total, maxPageWeight)
	}
	t.Logf("page weight %s: %d bytes gzipped (HTML %d, %d files)", u.Path[strings.LastIndex(u.Path, "/"):], total, gz(body), len(seen))
}

// changedLinks are link with each of its server id and token changed, and a player or
// tournament id changed when the path has one after them.
func changedLinks(t testing.TB, link string) []string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(u.Path, "/") // "", "s", guild, token, ...
	if len(parts) < 5 || parts[1] != "s" {
		t.Fatalf("%s is not a server page's link", link)
	}
	var out []string
	with := func(i int, v string) {
		c := append([]string(nil), parts...)
		c[i] = v
		v2 := *u
		v2.Path = strings.Join(c, "/")
		out = append(out, v2.String())
	}
	with(2, parts[2]+"1")
	with(2, "123456789012345678")
	with(3, flipFirst(parts[3]))
	with(3, parts[3][:len(parts[3])-1])
	if len(parts) >= 6 {
		with(5, "9"+parts[5])
	}
	return out
}

func checkChangedLinks404(t testing.TB, link string) {
	t.Helper()
	for _, u := range changedLinks(t, link) {
		if status, body, _ := webGet(t, u); status != http.StatusNotFound || strings.Contains(body, "data-page") {
			t.Errorf("GET %s (a changed link): status %d, want 404 and nothing shown", u, status)
		}
	}
}

// TestWebLadderAndProfile: after two rated games, /ladder's button opens the blitz
// ladder with both players, sortable by its headers, with the leaders' chart; a name
// opens the profile (rating, record, recent games with their live boards), which is
// /rating's button too; changed links show nothing; both pages unfurl with a board.
func TestWebLadderAndProfile(t *testing.T) {
	w := newWebWorld(t)
	w.start()
	w.startRated("5+3").foolsMate() // bob wins
	w.startRated("5+3").foolsMate() // bob wins again
	d := w.ask(discordfake.Command("ladder"))
	link := webButton(t, d, "Ladder on the web")
	if !strings.Contains(link, "/ladder?cat=blitz") {
		t.Fatalf("ladder link %s", link)
	}
	p := openServerPage(t, link, "table[data-ladder]")
	if got := p.texts("table[data-ladder] tbody tr td:nth-child(2)"); got != "bob|alice" {
		t.Errorf("ladder by rank: %q, want bob|alice", got)
	}
	if n := p.js(`String(document.querySelectorAll('svg.chart polyline.chart-line').length)`); n != "2" {
		t.Errorf("the ladder's chart has %s lines, want 2", n)
	}
	// Sort by name (A to Z), then by rating twice (best first, then the other way).
	p.click(`a[data-sort=name]`)
	p.wait(`th[aria-sort=ascending] a[data-sort=name]`)
	if got := p.texts("table[data-ladder] tbody tr td:nth-child(2)"); got != "alice|bob" {
		t.Errorf("ladder by name: %q, want alice|bob", got)
	}
	p.click(`a[data-sort=rating]`)
	p.wait(`th[aria-sort=descending] a[data-sort=rating]`)
	if got := p.texts("table[data-ladder] tbody tr td:nth-child(2)"); got != "bob|alice" {
		t.Errorf("ladder by rating: %q", got)
	}
	p.click(`a[data-sort=rating]`)
	p.wait(`th[aria-sort=ascending] a[data-sort=rating]`)
	if got := p.texts("table[data-ladder] tbody tr td:nth-child(2)"); got != "alice|bob" {
		t.Errorf("ladder by rating, lowest first: %q", got)
	}
	// The profile, from the name's link.
	p.click(`tr[data-player=bob] a`)
	p.wait(`[data-page=profile]`)
	if got := p.texts("[data-entry=blitz] [data-rating]"); got == "" || got <= "1500" {
		t.Errorf("bob's blitz rating on his profile: %q, want above 1500", got)
	}
	if n := p.js(`String(document.querySelectorAll('table[data-recent] tbody tr').length)`); n != "2" {
		t.Errorf("bob's recent games: %s rows, want 2", n)
	}
	if got := p.texts("table[data-recent] .outcome"); !strings.HasPrefix(got, "won") {
		t.Errorf("bob's recent results: %q", got)
	}
	gameLink := p.js(`document.querySelector('table[data-recent] a').href`)
	if status, body, _ := webGet(t, gameLink); status != http.StatusOK || !strings.Contains(body, "data-board") {
		t.Errorf("a recent game's link %s: status %d", gameLink, status)
	}
	profile := p.js(`location.href`)
	d = w.ask(discordfake.Command("rating", discordfake.UserOpt("user", w.bob.ID)))
	if got := webButton(t, d, "Profile on the web"); got != profile {
		t.Errorf("/rating's link %s, the ladder's %s", got, profile)
	}
	for _, u := range []string{link, profile} {
		checkUnfurl(t, u)
		checkChangedLinks404(t, u)
	}
	// Bad input: a clear 400, nothing shown.
	for _, q := range []string{"?cat=bughouse", "?cat=blitz&sort=elo", "?cat=blitz&sort=rating&dir=up"} {
		base, _, _ := strings.Cut(link, "?")
		if status, body, _ := webGet(t, base+q); status != http.StatusBadRequest || strings.Contains(body, "data-ladder") {
			t.Errorf("GET ladder%s: status %d, want 400", q, status)
		}
	}
	// A player the server does not know is nobody's page.
	base, _, _ := strings.Cut(profile, "/player/")
	if status, _, _ := webGet(t, base+"/player/"+w.f.NewUser("stranger").ID); status != http.StatusNotFound {
		t.Errorf("a stranger's profile: status %d, want 404", status)
	}
}

// TestWebPuzzleSolvedOnTheBoard: /puzzle today's button signs the member in on the
// puzzle page; playing the line on the board (clicks) solves it through the service,
// keeping the daily streak and the puzzle rating, as /puzzle stats then says; the page
// unfurls with the puzzle's board; a forged sign-in is refused, a changed link 404s.
func TestWebPuzzleSolvedOnTheBoard(t *testing.T) {
	w := newWebWorld(t)
	r := w.start()
	d := w.puzzleAnswer(discordfake.Command("puzzle", discordfake.SubCommand("today")))
	if !d.Ephemeral() {
		t.Fatalf("/puzzle today answered publicly: %q", d.Content)
	}
	signIn := webButton(t, d, "Solve on the web")
	id := r.todaysPuzzle(t)
	_, l, err := r.bot.Puzzles.Puzzle(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	p := openServerPage(t, signIn, `[data-page=puzzle][data-step="1"] form[data-puzzle-form]`)
	if got := p.texts("[data-streak]"); got != "0" {
		t.Errorf("streak before: %q", got)
	}
	page := p.js(`location.href`)
	steps := l.Steps()
	for k := 0; k < steps; k++ {
		m := l.Moves[1+2*k]
		p.clickSquare(m.From().String())
		p.clickSquare(m.To().String())
		if k < steps-1 {
			p.wait(fmt.Sprintf(`[data-page=puzzle][data-step="%d"] .answer.right`, k+2))
		} else {
			p.wait(`.answer.solved`)
		}
	}
	if got := p.texts("[data-streak]"); got != "1" {
		t.Errorf("streak after the solve on the board: %q, want 1 (answer %q)", got, p.texts("[data-answer]"))
	}
	rating := p.texts("[data-puzzle-rating]")
	if rating <= "1500" || len(rating) != 4 {
		t.Errorf("puzzle rating after a first-try solve: %q, want above 1500", rating)
	}
	st, err := r.bot.Puzzles.Stats(context.Background(), w.f.GuildID, w.alice.ID)
	if err != nil || st.Streak != 1 || st.Solved != 1 || st.Rated != 1 || fmt.Sprint(roundTo(st.Rating)) != rating {
		t.Errorf("the service after the web solve: %+v, %v (page rating %s)", st, err, rating)
	}
	d = w.puzzleAnswer(discordfake.Command("puzzle", discordfake.SubCommand("stats")))
	if !strings.Contains(d.Content, "Daily streak: 1") {
		t.Errorf("/puzzle stats after the web solve: %q", d.Content)
	}
	// A visitor without a session practises on the board: judged, nothing kept.
	g := openServerPage(t, page, `[data-page=puzzle][data-step="1"] [data-guest]`)
	wrong := wrongMove(t, r, id)
	g.run(chromedp.SendKeys(`input[name=move]`, wrong+"\r"))
	g.wait(`[data-step="1"] .answer.wrong`)
	for k := 0; k < steps; k++ {
		m := l.Moves[1+2*k]
		g.clickSquare(m.From().String())
		g.clickSquare(m.To().String())
		if k < steps-1 {
			g.wait(fmt.Sprintf(`[data-page=puzzle][data-step="%d"] .answer.right`, k+2))
		}
	}
	g.wait(`.answer.solved`)
	if st2, err := r.bot.Puzzles.Stats(context.Background(), w.f.GuildID, w.alice.ID); err != nil || *st2 != *st {
		t.Errorf("a visitor's practice changed alice's record: %+v, was %+v", st2, st)
	}
	// The session cookie is HttpOnly; a visitor's malformed posts are refused.
	cookies, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.cookie`)) // HttpOnly: not readable
	if err != nil || strings.Contains(cookies, "gambit_session") {
		t.Errorf("the session cookie is readable by script: %q, %v", cookies, err)
	}
	for _, bad := range []url.Values{
		{"move": {"e4"}, "puzzle": {id}, "id": {"abcdefghijklmnop"}, "step": {"-1"}},
		{"move": {"e4"}, "puzzle": {id}, "id": {"abcdefghijklmnop"}, "step": {"99"}},
		{"move": {"e4"}, "puzzle": {"other"}, "id": {"abcdefghijklmnop"}, "step": {"0"}},
	} {
		resp, err := http.PostForm(page+"/move", bad)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest && resp.StatusCode != http.StatusConflict {
			t.Errorf("a visitor's post %v: status %d, want 400 or 409", bad, resp.StatusCode)
		}
	}
	forged := signIn[:len(signIn)-2] + "AA"
	if status, _, _ := webGet(t, forged); status != http.StatusForbidden {
		t.Errorf("a forged sign-in link: status %d, want 403", status)
	}
	checkUnfurl(t, page)
	checkChangedLinks404(t, page)
}

func roundTo(f float64) int { return int(f + 0.5) }

// TestWebTournamentPage: a finished round robin's page from /tournament standings'
// button: the standings with the tie-breaks, the crosstable, the pairings of each
// round with links to the games, and the TRF and PGN downloads.
func TestWebTournamentPage(t *testing.T) {
	w := newWebWorld(t)
	tw := &tourWorld{world: w, byID: map[string]*discordgo.User{}}
	tw.players = []*discordgo.User{w.alice, w.bob, w.carol, w.f.NewUser("player4")}
	for _, u := range tw.players {
		tw.byID[u.ID] = u
	}
	tw.r = w.start()
	id := tw.create(discordfake.StringOpt("format", "roundrobin"), discordfake.StringOpt("time", "3+2"), discordfake.StringOpt("name", "Winter RR"))
	if d := tw.ask(admin(subCommand("start"))); !strings.Contains(d.Content, "has started") {
		t.Fatalf("start answered %q", d.Content)
	}
	results := []string{"1-0", "0-1", "draw"}
	for round := 0; round < 3; round++ {
		for i, g := range tw.live(id, 2) {
			if round == 2 && i == 1 {
				break // the last game stays live
			}
			tw.play(g, results[(round+i)%3])
		}
	}
	d := tw.ask(subCommand("standings", discordfake.IntOpt("tournament", int64(id))))
	link := webButton(t, d, "Tournament on the web")
	p := openServerPage(t, link, "table[data-standings]")
	v := tw.view(id)
	tb := v.Standings()
	var names []string
	for _, row := range tb.Rows {
		names = append(names, row.Name)
	}
	if got := p.texts("table[data-standings] tbody td:nth-child(2)"); got != strings.Join(names, "|") {
		t.Errorf("standings %q, want %q", got, strings.Join(names, "|"))
	}
	if got := p.texts("table[data-standings] thead th"); !strings.Contains(got, tb.Columns[0]) {
		t.Errorf("standings headers %q lack the tie-break %s", got, tb.Columns[0])
	}
	if n := p.js(`String(document.querySelectorAll('table[data-crosstable] tbody tr').length)`); n != "4" {
		t.Errorf("crosstable rows: %s", n)
	}
	if got := p.texts("table[data-crosstable] tbody tr:first-child td"); strings.Count(got, "|") != 5 {
		t.Errorf("crosstable first row %q: want rank, name, 3 rounds, points", got)
	}
	if n := p.js(`String(document.querySelectorAll('ul[data-live] a').length)`); n != "1" {
		t.Errorf("live games listed: %s, want 1", n)
	}
	liveGame := p.js(`document.querySelector('ul[data-live] a').href`)
	if status, body, _ := webGet(t, liveGame); status != http.StatusOK || !strings.Contains(body, "data-board") {
		t.Errorf("the live game's link: %d", status)
	}
	// Pairings by round: round 1's tab.
	p.click(`a[data-round="1"]`)
	p.wait(`a[data-round="1"].current`)
	if n := p.js(`String(document.querySelectorAll('table[data-pairings] tbody tr').length)`); n != "2" {
		t.Errorf("round 1 pairings: %s rows", n)
	}
	base, _, _ := strings.Cut(link, "?")
	status, trf, hd := webGet(t, base+"/trf")
	if status != http.StatusOK || !strings.HasPrefix(hd.Get("Content-Disposition"), "attachment") || !strings.Contains(trf, "012 Winter RR") {
		t.Errorf("TRF download: %d %q", status, trf)
	}
	status, pgn, _ := webGet(t, base+"/pgn")
	if status != http.StatusOK || strings.Count(pgn, "[Event ") != 6 {
		t.Errorf("PGN download: status %d, %d games, want 6", status, strings.Count(pgn, "[Event "))
	}
	checkUnfurl(t, link)
	checkChangedLinks404(t, base)
	if status, _, _ := webGet(t, base+"?round=9"); status != http.StatusNotFound {
		t.Errorf("round 9: status %d, want 404", status)
	}
	if status, _, _ := webGet(t, base+"?round=x"); status != http.StatusBadRequest {
		t.Errorf("round x: status %d, want 400", status)
	}
}

// TestWebServerPagesOff: with the web view off (/settings web_view), every page of the
// server is refused and the answers carry no web button; on again, the links work.
func TestWebServerPagesOff(t *testing.T) {
	w := newWebWorld(t)
	w.start()
	d := w.ask(discordfake.Command("ladder"))
	ladderLink := webButton(t, d, "Ladder on the web")
	d = w.puzzleAnswer(discordfake.Command("puzzle", discordfake.SubCommand("today")))
	signIn := webButton(t, d, "Solve on the web")
	base, _, _ := strings.Cut(ladderLink, "/ladder")
	set := func(on bool) {
		t.Helper()
		res := w.send(asAdmin(discordfake.Command("settings", discordfake.SubCommand("web_view", discordfake.BoolOpt("enabled", on)))).In(w.f.GuildID, w.f.ChannelID))
		if !strings.Contains(res.Callback.Data.Content, "Saved") {
			t.Fatalf("/settings web_view: %q", res.Callback.Data.Content)
		}
	}
	set(false)
	for _, u := range []string{ladderLink, base + "/puzzle", base + "/board.png", base + "/player/" + w.alice.ID, base + "/t/1", base + "/t/1/trf", signIn} {
		if status, body, _ := webGet(t, u); status != http.StatusForbidden || strings.Contains(body, "data-page") {
			t.Errorf("GET %s with the web view off: status %d, want 403", u, status)
		}
	}
	if bs := linkButtons(w.ask(discordfake.Command("ladder")).Components); len(bs) != 0 {
		t.Errorf("/ladder with the web view off has link buttons: %+v", bs)
	}
	set(true)
	p := openServerPage(t, ladderLink, "[data-page=ladder]")
	if got := p.texts("[data-page=ladder] p"); !strings.Contains(got, "Nobody has played") {
		t.Errorf("the empty ladder says %q", got)
	}
}

// TestWebAnalysisPage: /analyze of a finished fool's mate carries a link to the game's
// analysis page: the evaluation graph, a line per move with the engine's better move
// where the move played lost ground, each side's summary; it unfurls with the board,
// and a changed token shows nothing.
func TestWebAnalysisPage(t *testing.T) {
	w := newWebWorld(t)
	w.cfg.Engine.AnalysisTime = 20 * time.Millisecond
	w.start()
	g := w.startRated("5+3")
	g.foolsMate()
	d := w.puzzleAnswer(discordfake.Command("analyze").In(w.f.GuildID, g.thread)) // it may be deferred
	link := webButton(t, d, "Analysis on the web")
	p := openServerPage(t, link, `[data-page=analysis][data-ready=true]`)
	if n := p.js(`String(document.querySelectorAll('table[data-analysis-moves] tbody tr').length)`); n != "4" {
		t.Errorf("analysis rows: %s, want 4", n)
	}
	if n := p.js(`String(document.querySelectorAll('[data-eval-graph] polyline').length)`); n != "1" {
		t.Errorf("evaluation graph lines: %s", n)
	}
	// 2. g4?? allows the mate: a blunder, with a better move named.
	if got := p.texts(`tr[data-ply="3"] td`); !strings.Contains(got, "blunder") {
		t.Errorf("2. g4 is %q, want a blunder", got)
	}
	if got := p.texts(`tr[data-ply="3"] [data-better]`); got == "" || got == "g4" {
		t.Errorf("the better move for 2. g4: %q", got)
	}
	if got := p.texts(`tr[data-side=white] td`); !strings.HasPrefix(got, "alice") {
		t.Errorf("white's summary %q", got)
	}
	checkUnfurl(t, link)
	u, _ := url.Parse(link)
	parts := strings.Split(u.Path, "/") // "", "g", id, token, "analysis"
	parts[3] = flipFirst(parts[3])
	u.Path = strings.Join(parts, "/")
	if status, body, _ := webGet(t, u.String()); status != http.StatusNotFound || strings.Contains(body, "data-page") {
		t.Errorf("a changed analysis link: status %d, want 404", status)
	}
	// Nobody may ask for an analysis without a session.
	resp, err := http.PostForm(link, url.Values{"csrf": {"x"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("an analysis asked for without a session: status %d, want 403", resp.StatusCode)
	}
}
