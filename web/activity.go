// activity.go: the board as a Discord Activity (docs/activity.md). Discord loads the
// Activity's page, /activity/, in an iframe on the application's own host, through its
// proxy (the URL mapping "/" to this server's /activity); the page's script (bundled
// from web/activity with the Embedded App SDK) does the SDK's handshake, has the user
// authorize the application (scope identify), sends the code to POST
// /activity/api/token, which trades it for an access token with the client secret,
// authenticates the SDK with that token, and posts the token and the instance id to
// POST /activity/api/session. That handler trusts neither: it asks Discord whose token
// it is (users/@me) and which channel the instance runs in and who is in it (the
// activity-instance endpoint), and answers with a session bound to that user, channel
// and instance, carried in the Authorization header (no cookie: the page is a third
// party's iframe) and in the socket's path. The page then shows the channel's game (the
// game of the thread it was launched from) or its live games to pick from, each the
// live board's own game view and socket: players play, everyone else watches.

package web

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gambitchess/gambit/service/games"
)

// ActivityOptions turn the Activity on (Options.Activity).
type ActivityOptions struct {
	// ClientID is the application's id (discord.application_id); ClientSecret its
	// OAuth2 client secret (discord.client_secret); BotToken the bot's token, which
	// the activity-instance endpoint asks for.
	ClientID, ClientSecret, BotToken string
	// APIURL is Discord's API base, ending in "/" (default
	// https://discord.com/api/v10/; discord.rest_url points it at the fake).
	APIURL string
	// Origin is the origin the Activity's page runs on, the only one its socket
	// accepts (default https://<ClientID>.discordsays.com, Discord's proxy).
	Origin string
	// Client makes the calls to Discord (default: one with a 10 s timeout).
	Client *http.Client
}

// DefaultDiscordAPI is Discord's API base.
const DefaultDiscordAPI = "https://discord.com/api/v10/"

// ActivityPath is the route of the Activity's page: the target of the Activity's
// root URL mapping is BaseURL + ActivityPath (without its trailing slash).
const ActivityPath = "/activity/"

// activityTTL is how long an Activity session works: a sitting; the page does the
// handshake again when it is opened again.
const activityTTL = 12 * time.Hour

// activityCSP is the page's Content-Security-Policy: the live board's, framed only by
// Discord's clients (and the page's own origin, Discord's proxy, where the client
// nests frames).
const activityCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; " +
	"frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com"

// activityState is what New derives from ActivityOptions.
type activityState struct {
	api    string
	origin string
	client *http.Client
	key    []byte // signs the Activity's sessions
	page   *template.Template
	// names are the participants' names by user id, as their sessions or Discord gave
	// them (only shown: no decision rests on them).
	names sync.Map
}

// setupActivity checks the options and prepares the Activity (nil options: none).
func (s *Server) setupActivity() error {
	a := s.opts.Activity
	if a == nil {
		return nil
	}
	if !snowflake(a.ClientID) || a.ClientSecret == "" || a.BotToken == "" {
		return errors.New("web: the Activity needs the application id, its client secret and the bot token")
	}
	st := &activityState{api: a.APIURL, origin: a.Origin, client: a.Client}
	if st.api == "" {
		st.api = DefaultDiscordAPI
	}
	if !strings.HasSuffix(st.api, "/") {
		st.api += "/"
	}
	if st.origin == "" {
		st.origin = "https://" + a.ClientID + ".discordsays.com"
	}
	if st.client == nil {
		st.client = &http.Client{Timeout: 10 * time.Second}
	}
	m := hmac.New(sha256.New, s.opts.Secret)
	m.Write([]byte("gambit web key: activity session"))
	st.key = m.Sum(nil)
	t, err := template.New("page.html").Funcs(template.FuncMap{"asset": s.relativeAsset}).ParseFS(templateFS, "templates/activity/page.html")
	if err != nil {
		return fmt.Errorf("web: parse the Activity's page: %w", err)
	}
	st.page = t
	s.activity = st
	return nil
}

// relativeAsset is a static file's address relative to the Activity's page, so that
// it resolves under Discord's proxy (/static/…) and under /activity/ alike.
func (s *Server) relativeAsset(name string) string {
	return strings.TrimPrefix(s.assets.URL(name), "/")
}

// activityRoutes registers the Activity's routes (none without ActivityOptions).
func (s *Server) activityRoutes() {
	if s.activity == nil {
		return
	}
	m := s.mux
	m.HandleFunc("GET /activity/{$}", s.activityPage)
	m.HandleFunc("GET /activity/static/{name}", s.assets.serve)
	m.HandleFunc("POST /activity/api/token", s.activityToken)
	m.HandleFunc("POST /activity/api/session", s.activitySession)
	m.HandleFunc("GET /activity/api/games/{id}", s.activityGame)
	m.HandleFunc("GET /activity/g/{id}/{session}/ws", s.activitySocket)
	s.activityChallengeRoutes()
}

// ActivityURL returns the address of the Activity's page on this server, the target
// of the root URL mapping in the Developer Portal ("" without the Activity).
func (s *Server) ActivityURL() string {
	if s.activity == nil {
		return ""
	}
	return s.opts.BaseURL + ActivityPath
}

// activityPage serves GET /activity/: the shell the script fills.
func (s *Server) activityPage(w http.ResponseWriter, r *http.Request) {
	if !s.limits.request(addrOf(r)) {
		http.Error(w, "Too many requests from your address; wait a minute.", http.StatusTooManyRequests)
		return
	}
	var buf strings.Builder
	data := struct{ ClientID string }{s.opts.Activity.ClientID}
	if err := s.activity.page.Execute(&buf, data); err != nil {
		s.log.Error("web: render the Activity's page", "err", err)
		http.Error(w, "Something went wrong on our side.", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", activityCSP)
	h.Del("X-Frame-Options") // framed by Discord: frame-ancestors says by whom
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte(buf.String()))
}

// apiError answers an Activity API request with status and a message for the page.
func apiError(w http.ResponseWriter, status int, msg string) {
	writeAPI(w, status, map[string]string{"error": msg})
}

func writeAPI(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"the answer could not be written"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// decodeAPI reads a request's JSON body into v: one object of known fields.
func decodeAPI(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return errors.New("send JSON (Content-Type: application/json)")
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errors.New("the body is not the JSON object expected")
	}
	if dec.More() {
		return errors.New("the body holds more than one JSON object")
	}
	return nil
}

// credential reports whether s looks like an OAuth2 code or token: 1 to 200 letters,
// digits, '-', '_' or '.'. Anything else never reaches Discord.
func credential(s string) bool {
	if len(s) == 0 || len(s) > 200 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// instanceID reports whether s looks like an Activity instance id: 1 to 128 letters,
// digits, '-' or '_'.
func instanceID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// discordFailure answers a failed call to Discord: 401 when Discord refused the
// client's credential, 502 when Discord could not be asked.
func (s *Server) discordFailure(w http.ResponseWriter, err error, refused string) {
	if errors.Is(err, errDiscordRefused) {
		apiError(w, http.StatusUnauthorized, refused)
		return
	}
	s.log.Warn("web: activity: a call to Discord failed", "err", err)
	apiError(w, http.StatusBadGateway, "Discord could not be reached; try again in a moment.")
}

// activityToken serves POST /activity/api/token {"code"}: the access token Discord
// gives for the code (the page authenticates the SDK with it).
func (s *Server) activityToken(w http.ResponseWriter, r *http.Request) {
	if !s.limits.request(addrOf(r)) {
		apiError(w, http.StatusTooManyRequests, "Too many requests from your address; wait a minute.")
		return
	}
	var in struct {
		Code string `json:"code"`
	}
	if err := decodeAPI(r, &in); err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	if !credential(in.Code) {
		apiError(w, http.StatusBadRequest, "the code is missing or malformed")
		return
	}
	tok, err := s.exchangeCode(r.Context(), in.Code)
	if err != nil {
		s.discordFailure(w, err, "Discord refused this authorization code: close the Activity and open it again.")
		return
	}
	writeAPI(w, http.StatusOK, map[string]string{"access_token": tok})
}

// activityGameItem is one game of the channel as the page lists it.
type activityGameItem struct {
	ID    uint64 `json:"id"`
	White string `json:"white"`
	Black string `json:"black"`
	Moves int    `json:"moves"`
}

// activitySession serves POST /activity/api/session {"access_token", "instance_id"}:
// the user Discord says the token is, in the instance Discord says they are in, gets a
// session for that instance's channel, and the channel's games.
func (s *Server) activitySession(w http.ResponseWriter, r *http.Request) {
	if !s.limits.request(addrOf(r)) {
		apiError(w, http.StatusTooManyRequests, "Too many requests from your address; wait a minute.")
		return
	}
	var in struct {
		AccessToken string `json:"access_token"`
		InstanceID  string `json:"instance_id"`
	}
	if err := decodeAPI(r, &in); err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	if !credential(in.AccessToken) || !instanceID(in.InstanceID) {
		apiError(w, http.StatusBadRequest, "the access token or the instance id is missing or malformed")
		return
	}
	u, err := s.tokenUser(r.Context(), in.AccessToken)
	if err != nil {
		s.discordFailure(w, err, "Discord does not know this access token: close the Activity and open it again.")
		return
	}
	inst, err := s.instance(r.Context(), in.InstanceID)
	if errors.Is(err, errNoInstance) || errors.Is(err, errDiscordRefused) {
		apiError(w, http.StatusForbidden, "This Activity is not running any more: open it again from the channel.")
		return
	}
	if err != nil {
		s.discordFailure(w, err, "")
		return
	}
	if !inst.has(u.ID) {
		apiError(w, http.StatusForbidden, "You are not in this Activity: join it from the channel.")
		return
	}
	s.activity.names.Store(u.ID, u.name())
	ses := activitySession{UserID: u.ID, GuildID: inst.Location.GuildID, ChannelID: inst.Location.ChannelID,
		Instance: inst.InstanceID, Expires: s.opts.Now().Add(activityTTL)}
	list, thread, err := s.channelGames(r.Context(), ses)
	if err != nil {
		s.log.Error("web: activity: list a channel's games", "err", err)
		apiError(w, http.StatusInternalServerError, "The channel's games could not be read; try again in a moment.")
		return
	}
	writeAPI(w, http.StatusOK, map[string]any{
		"session": s.activitySessionToken(ses), "user": map[string]string{"id": u.ID, "name": u.name()},
		"game": thread, "games": list,
	})
}

// channelGames returns the live games of the session's channel, newest first, and
// the game whose thread the channel is (0 when it is none).
func (s *Server) channelGames(ctx context.Context, ses activitySession) ([]activityGameItem, uint64, error) {
	// The channel's guest games (played there through a user install, in a DM or a
	// server that never added the bot), and in a server its games.
	recs, err := s.opts.Games.OpenGamesInChannel(ctx, ses.ChannelID)
	if err == nil && ses.GuildID != "" {
		inGuild, gerr := s.opts.Games.OpenGamesInGuild(ctx, ses.GuildID)
		recs, err = append(recs, inGuild...), gerr
	}
	if err != nil {
		return nil, 0, err
	}
	list := []activityGameItem{}
	var thread uint64
	seen := map[uint64]bool{}
	for _, g := range recs {
		if seen[g.ID] || !ses.sees(g.GuildID, g.ChannelID, g.ThreadID, g.Guest) {
			continue
		}
		seen[g.ID] = true
		if g.ThreadID == ses.ChannelID {
			thread = g.ID
		}
		list = append(list, activityGameItem{ID: g.ID, White: g.White.Name, Black: g.Black.Name, Moves: len(g.Moves)})
	}
	return list, thread, nil
}

// sees reports whether a game belongs to the session's channel: on its server, played
// in the channel or in a thread that is the channel; or a guest game (played where the
// bot is not a member, of no server) played in the channel. Any other game of no
// server (gambit play's) belongs to no Activity.
func (a activitySession) sees(guild, channel, thread string, guest bool) bool {
	if guest {
		return guild == "" && channel != "" && channel == a.ChannelID
	}
	return guild != "" && guild == a.GuildID && (channel == a.ChannelID || thread == a.ChannelID)
}

// bearerSession returns the Activity session of a request's Authorization header, or
// answers 401.
func (s *Server) bearerSession(w http.ResponseWriter, r *http.Request) (activitySession, bool) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if ok {
		if ses, err := s.parseActivitySession(tok, s.opts.Now()); err == nil {
			return ses, true
		}
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="gambit activity"`)
	apiError(w, http.StatusUnauthorized, "This Activity's session is not valid: close the Activity and open it again.")
	return activitySession{}, false
}

// sessionGame reads the game of a request's {id} for a session, or answers: 404 for
// a number that is no game of the session's channel (whatever the reason, so a page
// learns nothing of other channels), 403 when the server turned the web view off.
func (s *Server) sessionGame(w http.ResponseWriter, r *http.Request, ses activitySession) (*games.Game, bool) {
	id, ok := parseID(r.PathValue("id"))
	var g *games.Game
	var err error
	if ok {
		g, err = s.opts.Games.Game(r.Context(), id)
	}
	if !ok || errors.Is(err, games.ErrNoSuchGame) || err == nil && (games.LocalScope(&g.Game) || !ses.sees(g.GuildID, g.ChannelID, g.ThreadID, g.Guest)) {
		apiError(w, http.StatusNotFound, "This game is not one of this channel's.")
		return nil, false
	}
	if err != nil {
		s.log.Error("web: activity: read a game", "game", id, "err", err)
		apiError(w, http.StatusInternalServerError, "The game could not be read; try again in a moment.")
		return nil, false
	}
	if off, err := s.webViewOff(r.Context(), g.GuildID); err != nil || off {
		apiError(w, http.StatusForbidden, "This server has turned the web view of its games off (/settings web_view).")
		return nil, false
	}
	return g, true
}

// activityGame serves GET /activity/api/games/{id}: the game's view for the session's
// user (the live board's own markup) and its board theme.
func (s *Server) activityGame(w http.ResponseWriter, r *http.Request) {
	if !s.limits.request(addrOf(r)) {
		apiError(w, http.StatusTooManyRequests, "Too many requests from your address; wait a minute.")
		return
	}
	ses, ok := s.bearerSession(w, r)
	if !ok {
		return
	}
	g, ok := s.sessionGame(w, r, ses)
	if !ok {
		return
	}
	p, theme, err := s.gameView(r.Context(), g, ses.UserID, "")
	if err != nil {
		s.log.Error("web: activity: a game's view", "err", err)
		apiError(w, http.StatusInternalServerError, "The game could not be shown.")
		return
	}
	p.Signed = false // no cookie session to sign out of
	var buf strings.Builder
	if err := s.pages.set["game"].ExecuteTemplate(&buf, "content", Page{Data: p}); err != nil {
		s.log.Error("web: activity: render a game", "err", err)
		apiError(w, http.StatusInternalServerError, "The game could not be shown.")
		return
	}
	writeAPI(w, http.StatusOK, map[string]any{
		"id": g.ID, "html": buf.String(), "theme": theme, "you": p.You,
		"socket": "g/" + strconv.FormatUint(g.ID, 10) + "/" + r.Header.Get("Authorization")[len("Bearer "):],
	})
}

// activitySocket serves GET /activity/g/{id}/{session}/ws: the game's socket for the
// session's user, from the Activity's origin only, while Discord still has the user in
// the instance.
func (s *Server) activitySocket(w http.ResponseWriter, r *http.Request) {
	if !s.limits.request(addrOf(r)) {
		http.Error(w, "Too many requests from your address; wait a minute.", http.StatusTooManyRequests)
		return
	}
	if r.Header.Get("Origin") != s.activity.origin {
		http.Error(w, "This socket is for the Activity's own page.", http.StatusForbidden)
		return
	}
	ses, err := s.parseActivitySession(r.PathValue("session"), s.opts.Now())
	if err != nil {
		http.Error(w, "This Activity's session is not valid: open the Activity again.", http.StatusUnauthorized)
		return
	}
	inst, err := s.instance(r.Context(), ses.Instance)
	if err == nil && !inst.has(ses.UserID) {
		err = errNoInstance
	}
	if errors.Is(err, errNoInstance) || errors.Is(err, errDiscordRefused) {
		http.Error(w, "You are no longer in this Activity.", http.StatusForbidden)
		return
	}
	if err != nil {
		s.log.Warn("web: activity: a call to Discord failed", "err", err)
		http.Error(w, "Discord could not be reached; try again in a moment.", http.StatusBadGateway)
		return
	}
	g, ok := s.sessionGame(w, r, ses)
	if !ok {
		return
	}
	up := s.upgrader()
	up.CheckOrigin = func(r *http.Request) bool { return r.Header.Get("Origin") == s.activity.origin }
	s.serveSocket(w, r, g, ses.UserID, up)
}
