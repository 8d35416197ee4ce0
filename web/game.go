// game.go: a game's page (the live board), reachable only through the game's link
// (/g/<number>/<token>), and what hangs off it: the board PNG a pasted link unfurls
// with, the PGN and GIF downloads, and the typed-move form that works without script.

package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/games"
)

// GameURL returns the link of game id's page: the number and its token.
func (s *Server) GameURL(id uint64) string { return s.opts.BaseURL + s.gamePath(id) }

func (s *Server) gamePath(id uint64) string {
	return "/g/" + strconv.FormatUint(id, 10) + "/" + s.keys.GameToken(id)
}

// parseID reads a game number as links write it: decimal, no sign, no leading zero.
func parseID(s string) (uint64, bool) {
	id, err := strconv.ParseUint(s, 10, 64)
	return id, err == nil && id > 0 && strconv.FormatUint(id, 10) == s
}

// gameOf returns the game a request's link names, or answers the request: 404 for a
// link that is not a game's (whatever is wrong in it), 403 when the game's server has
// turned the web view off, 429 past the address's limit. page chooses a page or a
// plain-text answer.
func (s *Server) gameOf(w http.ResponseWriter, r *http.Request, page bool) (*games.Game, bool) {
	fail := func(status int, title, text string) {
		if page {
			s.errorPage(w, status, title, text)
		} else {
			http.Error(w, text, status)
		}
	}
	if !s.limits.request(addrOf(r)) {
		fail(http.StatusTooManyRequests, "Slow down", "Too many requests from your address; wait a minute.")
		return nil, false
	}
	id, ok := parseID(r.PathValue("id"))
	if !ok || !s.keys.validGameToken(id, r.PathValue("token")) {
		fail(http.StatusNotFound, "Not found", "There is nothing at this address. Check the link you were given.")
		return nil, false
	}
	g, err := s.opts.Games.Game(r.Context(), id)
	if err == nil && s.opts.LocalOnly != games.LocalScope(&g.Game) {
		err = games.ErrNoSuchGame // gambit play's games on the bot's site, or the reverse
	}
	if errors.Is(err, games.ErrNoSuchGame) {
		fail(http.StatusNotFound, "Not found", "There is nothing at this address. Check the link you were given.")
		return nil, false
	}
	if err != nil {
		s.log.Error("web: read a game", "game", id, "err", err)
		fail(http.StatusInternalServerError, "Something went wrong", "The game could not be read; try again in a moment.")
		return nil, false
	}
	if off, err := s.webViewOff(r.Context(), g.GuildID); err != nil || off {
		if err != nil {
			s.log.Error("web: read a server's settings", "err", err)
		}
		fail(http.StatusForbidden, "The web view is off", "This server has turned the web view of its games off (/settings web_view on Discord).")
		return nil, false
	}
	return g, true
}

// webViewOff reports whether a server has turned its games' pages off.
func (s *Server) webViewOff(ctx context.Context, guildID string) (bool, error) {
	if guildID == "" {
		return false, nil
	}
	gs, err := s.opts.Settings.Guild(ctx, guildID)
	if err != nil {
		return false, err
	}
	return gs.WebViewOff, nil
}

// player is a player as the page shows them.
type player struct {
	Name   string
	Color  string
	Rating int    // 0: not rated in the game's category
	Clock  string // the time left as the page first shows it ("" without a clock)
}

// moveItem is one entry of the move list: its ply (1 = White's first move), the move
// number before White's moves, and the SAN.
type moveItem struct {
	Ply int
	Num string
	SAN string
}

// gamePage is the data of templates/game.html.
type gamePage struct {
	ID        uint64
	Path      string // the game's link path
	Board     boardView
	Top, Bot  player
	State     string // the initial state as JSON (the page script's start)
	You       string // the viewer's colour, "" for a spectator
	Signed    bool   // a session is signed in
	CSRF      string
	Local     bool
	Control   string
	Pieces    any
	PGNName   string
	MoveError string // the answer to a typed move posted without script
	Moves     []moveItem
	Ply       int
	FormID    string // the request id of the form without script
	Live      bool
	// Correspondence: the game's control is correspondence, where a player may plan
	// conditional moves (plans.go); the plan itself comes on the socket, to its author.
	Correspondence bool
}

// gamePageHandler serves GET /g/{id}/{token}.
func (s *Server) gamePageHandler(w http.ResponseWriter, r *http.Request) {
	g, ok := s.gameOf(w, r, true)
	if !ok {
		return
	}
	s.renderGame(w, r, g, http.StatusOK, "")
}

func (s *Server) renderGame(w http.ResponseWriter, r *http.Request, g *games.Game, status int, moveErr string) {
	user, cookie := s.sessionUser(r)
	p, theme, err := s.gameView(r.Context(), g, user, moveErr)
	if err != nil {
		s.log.Error("web: encode a state", "err", err)
		http.Error(w, "Something went wrong on our side.", http.StatusInternalServerError)
		return
	}
	if cookie != "" {
		p.CSRF = s.keys.csrfToken(cookie)
	}
	title := fmt.Sprintf("Game %d · %s vs %s", g.ID, g.White.Name, g.Black.Name)
	desc := "Live on Gambit"
	if g.Outcome.Over() {
		desc = outcomeText(g)
	} else if len(g.SAN) > 0 {
		desc = fmt.Sprintf("Live on Gambit · %s to move after %s", colorName(g.Turn()), g.SAN[len(g.SAN)-1])
	}
	s.render(w, status, "game", Page{
		Title: title, Description: desc, URL: s.GameURL(g.ID), Image: s.GameURL(g.ID) + "/board.png",
		BoardTheme: theme, Script: true, Data: p,
	})
}

// gameView is the data of game g's page as user ("" for a spectator) sees it, and the
// board theme of the game's server; Signed is set when user is.
func (s *Server) gameView(ctx context.Context, g *games.Game, user, moveErr string) (gamePage, string, error) {
	you := ""
	if col, ok := g.ColorOf(user); ok && user != "" {
		you = colorName(col)
	}
	bottom := chesscore.White
	if you == "black" {
		bottom = chesscore.Black
	}
	last := chesscore.NullMove
	if m, ok := g.LastMove(); ok {
		last = m
	}
	pos := g.Position
	now := s.opts.Now()
	st := fullState(g, now, 0)
	s.markAway(ctx, g, &st)
	stateJSON, err := json.Marshal(st)
	if err != nil {
		return gamePage{}, "", err
	}
	theme := render.DefaultTheme
	if g.GuildID != "" {
		if gs, err := s.opts.Settings.Guild(ctx, g.GuildID); err == nil && gs.BoardTheme != "" {
			if _, err := render.Theme(gs.BoardTheme); err == nil {
				theme = gs.BoardTheme
			}
		}
	}
	white := player{Name: g.White.Name, Color: "white", Rating: s.rating(ctx, g, g.White.ID)}
	black := player{Name: g.Black.Name, Color: "black", Rating: s.rating(ctx, g, g.Black.ID)}
	if st.Clock != nil {
		white.Clock, black.Clock = clockText(st.Clock.White, st.Clock.Days), clockText(st.Clock.Black, st.Clock.Days)
	}
	top, bot := black, white
	if bottom == chesscore.Black {
		top, bot = white, black
	}
	p := gamePage{
		ID: g.ID, Path: s.gamePath(g.ID), Board: newBoardView(&pos, last, bottom, g.Outcome.Result),
		Top: top, Bot: bot, State: string(stateJSON), You: you, Signed: user != "", Local: s.opts.LocalOnly,
		Control: g.Control.String(), Pieces: pieceSymbols, PGNName: fmt.Sprintf("gambit-game-%d.pgn", g.ID),
		MoveError: moveErr, Moves: moveItems(g), Ply: g.Ply(), FormID: newFormID(), Live: g.Live(),
		Correspondence: g.Control.Kind() == clock.KindCorrespondence && !s.opts.LocalOnly,
	}
	return p, theme, nil
}

// moveItems is g's move list.
func moveItems(g *games.Game) []moveItem {
	out := make([]moveItem, len(g.SAN))
	startBlack := g.StartFEN != "" && strings.Contains(g.StartFEN, " b ")
	for i, san := range g.SAN {
		it := moveItem{Ply: i + 1, SAN: san}
		switch {
		case !startBlack && i%2 == 0:
			it.Num = strconv.Itoa(i/2+1) + "."
		case startBlack && i == 0:
			it.Num = "1…"
		case startBlack && i%2 == 1:
			it.Num = strconv.Itoa((i+1)/2+1) + "."
		}
		out[i] = it
	}
	return out
}

// newFormID returns a fresh request id for a form.
func newFormID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return b64.EncodeToString(b[:])
}

// rating returns a player's ladder rating in the game's category, 0 when unknown.
func (s *Server) rating(ctx context.Context, g *games.Game, userID string) int {
	if s.opts.Ladder == nil || g.GuildID == "" || !g.Rated {
		return 0
	}
	prof, err := s.opts.Ladder.Profile(ctx, g.GuildID, userID)
	if err != nil {
		return 0
	}
	cat := g.Control.Category()
	for _, e := range prof.Entries {
		if e.Category == cat {
			return int(e.Rating + 0.5)
		}
	}
	return 0
}

// clockText writes a time left as the page does: m:ss, h:mm:ss, or days and hours.
func clockText(ms int64, days bool) string {
	if ms < 0 {
		ms = 0
	}
	sec := ms / 1000
	if days && sec >= 86400 {
		return fmt.Sprintf("%dd %dh", sec/86400, sec%86400/3600)
	}
	if sec >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", sec/3600, sec%3600/60, sec%60)
	}
	return fmt.Sprintf("%d:%02d", sec/60, sec%60)
}

// boardPNG serves GET /g/{id}/{token}/board.png: the position as the Discord posts draw
// it, for the link's unfurl.
func (s *Server) boardPNG(w http.ResponseWriter, r *http.Request) {
	g, ok := s.gameOf(w, r, false)
	if !ok {
		return
	}
	pos := g.Position
	opt := render.BoardOptions{Coordinates: true, Size: 400}
	if m, ok := g.LastMove(); ok {
		opt.LastMove = m
	}
	if g.GuildID != "" {
		if gs, err := s.opts.Settings.Guild(r.Context(), g.GuildID); err == nil {
			if _, err := render.Theme(gs.BoardTheme); err == nil {
				opt.Theme = gs.BoardTheme
			}
		}
	}
	var buf bytes.Buffer
	if err := render.PNG(&buf, &pos, opt); err != nil {
		s.log.Error("web: draw a board", "game", g.ID, "err", err)
		http.Error(w, "The board could not be drawn.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(buf.Bytes())
}

// pgn serves GET /g/{id}/{token}/pgn: the game in PGN, as a download.
func (s *Server) pgn(w http.ResponseWriter, r *http.Request) {
	g, ok := s.gameOf(w, r, false)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="gambit-game-%d.pgn"`, g.ID))
	_, _ = w.Write([]byte(g.PGN()))
}

// gif serves GET /g/{id}/{token}/gif: the game as an animated GIF, as a download.
func (s *Server) gif(w http.ResponseWriter, r *http.Request) {
	g, ok := s.gameOf(w, r, false)
	if !ok {
		return
	}
	var buf bytes.Buffer
	if err := render.GameGIF(&buf, render.GameFrames(g.Chess()), render.GIFOptions{}); err != nil {
		s.log.Error("web: draw a game's GIF", "game", g.ID, "err", err)
		http.Error(w, "The animation could not be drawn.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/gif")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="gambit-game-%d.gif"`, g.ID))
	_, _ = w.Write(buf.Bytes())
}

// postMove serves POST /g/{id}/{token}/move: the typed-move form without script. The
// form carries the session's CSRF token and the ply the page showed.
func (s *Server) postMove(w http.ResponseWriter, r *http.Request) {
	g, ok := s.gameOf(w, r, true)
	if !ok {
		return
	}
	user, cookie := s.sessionUser(r)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, http.StatusBadRequest, "Bad request", "The form could not be read.")
		return
	}
	if !s.opts.LocalOnly && (user == "" || !s.keys.validCSRF(cookie, r.PostForm.Get("csrf"))) {
		s.errorPage(w, http.StatusForbidden, "Forbidden", "This form is not from your own page of the game: reload the page and try again.")
		return
	}
	if s.opts.LocalOnly && !s.sameOrigin(r) {
		s.errorPage(w, http.StatusForbidden, "Forbidden", "This form is not from the game's own page.")
		return
	}
	ply, err := strconv.Atoi(r.PostForm.Get("ply"))
	id := r.PostForm.Get("id")
	if err != nil || ply < 0 || ply > maxPly || !validID(id) {
		s.errorPage(w, http.StatusBadRequest, "Bad request", "The form is missing the ply or its id: reload the page.")
		return
	}
	m := clientMsg{T: "move", ID: id, Ply: ply, Move: r.PostForm.Get("move")}
	if m.Move == "" || len(m.Move) > maxMoveLen || !printable(m.Move) {
		s.renderGame(w, r, g, http.StatusBadRequest, "Type a move in SAN or UCI, such as e4, Nf3 or e7e8q.")
		return
	}
	c := &conn{s: s, game: g.ID, user: user, local: s.opts.LocalOnly}
	if _, err := s.act(r.Context(), c, m); err != nil {
		s.renderGame(w, r, g, http.StatusUnprocessableEntity, err.Error())
		return
	}
	http.Redirect(w, r, s.gamePath(g.ID), http.StatusSeeOther)
}
