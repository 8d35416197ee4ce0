// activitychallenge.go: starting a game inside the Activity (docs/activity.md). A
// participant challenges another participant of the same Activity instance with one of
// a few time controls; the other sees it in their page (the page asks the lobby, GET
// /activity/api/lobby, every few seconds) and accepts or declines. Who is in the
// instance is what Discord's activity-instance endpoint says at each request, never
// what the page says. The challenge and its acceptance are the service's own calls (the
// ones /challenge and its Accept button make), so the store decides between two
// accepts and the game then gets its thread and board posts from the notifier like any
// other; where the bot is not a member (a DM, a group DM, a server that never added it)
// it is a guest game, shown in the Activity.

package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/gambitchess/gambit/service/games"
)

// activityControls are the time controls a challenge in the Activity offers, in the
// notation /challenge takes.
var activityControls = []string{"3+2", "5+3", "10+5", "15+10", "30+0", "1d", "3d"}

// activityChallengeRoutes registers the routes of challenges in the Activity.
func (s *Server) activityChallengeRoutes() {
	m := s.mux
	m.HandleFunc("GET /activity/api/lobby", s.activityLobby)
	m.HandleFunc("POST /activity/api/challenges", s.activityChallenge)
	m.HandleFunc("GET /activity/api/challenges/{id}", s.activityChallengeStatus)
	m.HandleFunc("POST /activity/api/challenges/{id}/accept", func(w http.ResponseWriter, r *http.Request) { s.activityAnswer(w, r, true) })
	m.HandleFunc("POST /activity/api/challenges/{id}/decline", func(w http.ResponseWriter, r *http.Request) { s.activityAnswer(w, r, false) })
}

// activityPerson is a participant as the page shows them.
type activityPerson struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// activityChallengeItem is a challenge as the page shows it.
type activityChallengeItem struct {
	ID       uint64         `json:"id"`
	From     activityPerson `json:"from"`
	To       activityPerson `json:"to"`
	Control  string         `json:"control"`
	Incoming bool           `json:"incoming"`
}

// activityRequest checks what every challenge route needs: the request budget, the
// session, and Discord still listing the session's user in its instance. It answers
// the request (429, 401, 403, 502) when one fails.
func (s *Server) activityRequest(w http.ResponseWriter, r *http.Request) (activitySession, *activityInstance, bool) {
	if !s.limits.request(addrOf(r)) {
		apiError(w, http.StatusTooManyRequests, "Too many requests from your address; wait a minute.")
		return activitySession{}, nil, false
	}
	ses, ok := s.bearerSession(w, r)
	if !ok {
		return activitySession{}, nil, false
	}
	inst, err := s.instance(r.Context(), ses.Instance)
	if err == nil && !inst.has(ses.UserID) {
		err = errNoInstance
	}
	if errors.Is(err, errNoInstance) || errors.Is(err, errDiscordRefused) {
		apiError(w, http.StatusForbidden, "You are no longer in this Activity: open it again from the channel.")
		return activitySession{}, nil, false
	}
	if err != nil {
		s.discordFailure(w, err, "")
		return activitySession{}, nil, false
	}
	return ses, inst, true
}

// userName is how a participant is shown: the name their session was opened with, or
// the one Discord gives for their id (GET users/{id}, with the bot's token), or the id.
func (s *Server) userName(ctx context.Context, id string) string {
	if n, ok := s.activity.names.Load(id); ok {
		return n.(string)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.activity.api+"users/"+id, nil)
	if err != nil {
		return id
	}
	req.Header.Set("Authorization", "Bot "+s.opts.Activity.BotToken)
	var u discordUser
	if err := s.discordCall(req, "users/{id}", &u); err != nil || u.ID != id {
		s.log.Warn("web: activity: a participant's name", "user", id, "err", err)
		return id
	}
	s.activity.names.Store(id, u.name())
	return u.name()
}

// challengeHere reports whether a challenge was made where the session's Activity
// runs: in its channel, of its server; or a guest challenge (of no server) of its
// channel, in a DM or a server that never added the bot. The same places as sees.
func (a activitySession) challengeHere(guild, channel string, guest bool) bool {
	if guest {
		return guild == "" && channel == a.ChannelID
	}
	return guild != "" && guild == a.GuildID && channel == a.ChannelID
}

// ofSession reports whether a challenge was made where the session's Activity runs
// between its user and someone else: the only challenges a session may see.
func (a activitySession) ofSession(guild, channel string, guest bool, from, to string) bool {
	return a.challengeHere(guild, channel, guest) && to != "" && (from == a.UserID || to == a.UserID)
}

// botInGuild asks Discord whether the bot is a member of a server (GET guilds/{id}
// with the bot's token: a server that never added it answers 403).
func (s *Server) botInGuild(ctx context.Context, guild string) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.activity.api+"guilds/"+guild, nil)
	if err != nil {
		return false, fmt.Errorf("web: discord guilds/{id}: %w", err)
	}
	req.Header.Set("Authorization", "Bot "+s.opts.Activity.BotToken)
	var out struct {
		ID string `json:"id"`
	}
	err = s.discordCall(req, "guilds/{id}", &out)
	if errors.Is(err, errDiscordRefused) || errors.Is(err, errNoInstance) {
		return false, nil
	}
	return err == nil && out.ID == guild, err
}

// activityLobby serves GET /activity/api/lobby: the other participants of the
// instance (whom the user may challenge), the time controls, and the pending
// challenges of the channel the user made or received.
func (s *Server) activityLobby(w http.ResponseWriter, r *http.Request) {
	ses, inst, ok := s.activityRequest(w, r)
	if !ok {
		return
	}
	people := []activityPerson{}
	for _, u := range inst.Users {
		if u != ses.UserID && snowflake(u) {
			people = append(people, activityPerson{ID: u, Name: s.userName(r.Context(), u)})
		}
	}
	pending, err := s.opts.Games.PendingChallenges(r.Context())
	if err != nil {
		s.log.Error("web: activity: read the pending challenges", "err", err)
		apiError(w, http.StatusInternalServerError, "The challenges could not be read; try again in a moment.")
		return
	}
	list := []activityChallengeItem{}
	now := s.opts.Now()
	for _, c := range pending {
		if !c.Pending() || !now.Before(c.ExpiresAt) || !ses.ofSession(c.GuildID, c.ChannelID, c.Guest, c.From.ID, c.To.ID) {
			continue
		}
		list = append(list, activityChallengeItem{ID: c.ID, From: activityPerson{c.From.ID, c.From.Name},
			To: activityPerson{c.To.ID, c.To.Name}, Control: c.Control.String(), Incoming: c.To.ID == ses.UserID})
	}
	slices.SortFunc(list, func(a, b activityChallengeItem) int { return cmp.Compare(a.ID, b.ID) })
	writeAPI(w, http.StatusOK, map[string]any{"participants": people, "controls": activityControls, "challenges": list})
}

// activityChallenge serves POST /activity/api/challenges {"to", "control"}: a
// challenge to another participant of the instance.
func (s *Server) activityChallenge(w http.ResponseWriter, r *http.Request) {
	ses, inst, ok := s.activityRequest(w, r)
	if !ok {
		return
	}
	var in struct {
		To      string `json:"to"`
		Control string `json:"control"`
	}
	if err := decodeAPI(r, &in); err != nil {
		apiError(w, http.StatusBadRequest, err.Error())
		return
	}
	switch {
	case !snowflake(in.To):
		apiError(w, http.StatusBadRequest, "Say whom you challenge: a participant of this Activity.")
		return
	case !slices.Contains(activityControls, in.Control):
		apiError(w, http.StatusBadRequest, "Pick one of the time controls offered.")
		return
	case in.To == ses.UserID:
		apiError(w, http.StatusBadRequest, "You cannot challenge yourself: pick another participant.")
		return
	case !inst.has(in.To):
		apiError(w, http.StatusForbidden, "This person is not in this Activity: you can challenge only its participants.")
		return
	}
	// Where the bot is not a member (a DM, a group DM, a server that never added it) the
	// game is a guest game of the channel, as /challenge makes it there.
	guild := ses.GuildID
	if guild != "" {
		member, err := s.botInGuild(r.Context(), guild)
		if err != nil {
			s.discordFailure(w, err, "")
			return
		}
		if !member {
			guild = ""
		}
	}
	res, err := s.opts.Games.CreateChallenge(r.Context(), games.ChallengeRequest{
		GuildID: guild, ChannelID: ses.ChannelID, Guest: guild == "", Control: in.Control,
		From: games.NewPlayer(ses.UserID, s.userName(r.Context(), ses.UserID)),
		To:   games.NewPlayer(in.To, s.userName(r.Context(), in.To)),
	})
	if err != nil {
		s.challengeFailure(w, err)
		return
	}
	c := res.Challenge
	writeAPI(w, http.StatusCreated, map[string]any{"challenge": activityChallengeItem{ID: c.ID,
		From: activityPerson{c.From.ID, c.From.Name}, To: activityPerson{c.To.ID, c.To.Name}, Control: c.Control.String()}})
}

// challengeFailure answers a challenge the service refused, with what the page says.
func (s *Server) challengeFailure(w http.ResponseWriter, err error) {
	var role *games.RoleRequiredError
	switch {
	case errors.As(err, &role):
		apiError(w, http.StatusForbidden, "This server lets only members with a role challenge; use /challenge in the channel.")
	case errors.Is(err, games.ErrChallengeLimit):
		apiError(w, http.StatusTooManyRequests, "You have too many challenges waiting; wait for answers first.")
	case errors.Is(err, games.ErrSelfChallenge):
		apiError(w, http.StatusBadRequest, "You cannot challenge yourself: pick another participant.")
	case errors.Is(err, games.ErrNoSuchChallenge):
		apiError(w, http.StatusNotFound, "This challenge is not one of this Activity's.")
	case errors.Is(err, games.ErrNotYourChallenge), errors.Is(err, games.ErrCannotAcceptOwn):
		apiError(w, http.StatusForbidden, "This challenge is not yours to answer.")
	case errors.Is(err, games.ErrChallengeExpired):
		apiError(w, http.StatusGone, "This challenge has expired.")
	case errors.Is(err, games.ErrChallengeClosed):
		apiError(w, http.StatusConflict, "This challenge has already been answered.")
	case errors.Is(err, games.ErrBadRequest):
		apiError(w, http.StatusBadRequest, "The challenge could not be made: "+err.Error())
	default:
		s.log.Error("web: activity: a challenge", "err", err)
		apiError(w, http.StatusInternalServerError, "The challenge could not be handled; try again in a moment.")
	}
}

// sessionChallenge reads the challenge of a request's {id} for a session, or answers
// 404 for a number that is no challenge of the session's user in its channel.
func (s *Server) sessionChallenge(w http.ResponseWriter, r *http.Request, ses activitySession, answerer bool) (uint64, bool) {
	id, ok := parseID(r.PathValue("id"))
	if ok {
		c, err := s.opts.Games.Challenge(r.Context(), id)
		if err != nil && !errors.Is(err, games.ErrNoSuchChallenge) {
			s.log.Error("web: activity: read a challenge", "challenge", id, "err", err)
			apiError(w, http.StatusInternalServerError, "The challenge could not be read; try again in a moment.")
			return 0, false
		}
		// Anyone in the channel may ask to answer a direct challenge (the service says
		// whether they may); only the two players read its state. An open challenge
		// (of /challenge without an opponent) is answered on its post, not here.
		ok = err == nil && ses.challengeHere(c.GuildID, c.ChannelID, c.Guest) && c.To.ID != "" && (answerer || ses.ofSession(c.GuildID, c.ChannelID, c.Guest, c.From.ID, c.To.ID))
	}
	if !ok {
		apiError(w, http.StatusNotFound, "This challenge is not one of this Activity's.")
		return 0, false
	}
	return id, true
}

// activityChallengeStatus serves GET /activity/api/challenges/{id}: the state of a
// challenge the user made or received, and its game once accepted (the challenger's
// page switches to it).
func (s *Server) activityChallengeStatus(w http.ResponseWriter, r *http.Request) {
	ses, _, ok := s.activityRequest(w, r)
	if !ok {
		return
	}
	id, ok := s.sessionChallenge(w, r, ses, false)
	if !ok {
		return
	}
	c, err := s.opts.Games.Challenge(r.Context(), id)
	if err != nil {
		s.challengeFailure(w, err)
		return
	}
	status := string(c.Status)
	if c.Pending() && !s.opts.Now().Before(c.ExpiresAt) {
		status = "expired"
	}
	writeAPI(w, http.StatusOK, map[string]any{"id": c.ID, "status": status, "game": c.GameID})
}

// activityAnswer serves POST /activity/api/challenges/{id}/accept and …/decline: the
// user's answer to a challenge made to them in the channel. Of two accepts (two clicks,
// two processes) the store takes one: the other is a 409 and no second game.
func (s *Server) activityAnswer(w http.ResponseWriter, r *http.Request, accept bool) {
	ses, _, ok := s.activityRequest(w, r)
	if !ok {
		return
	}
	id, ok := s.sessionChallenge(w, r, ses, true)
	if !ok {
		return
	}
	a := games.ChallengeAction{ChallengeID: id, User: games.NewPlayer(ses.UserID, s.userName(r.Context(), ses.UserID))}
	var res *games.Result
	var err error
	if accept {
		res, err = s.opts.Games.AcceptChallenge(r.Context(), a)
	} else {
		res, err = s.opts.Games.DeclineChallenge(r.Context(), a)
	}
	if err != nil {
		s.challengeFailure(w, err)
		return
	}
	out := map[string]any{"id": id, "status": string(res.Challenge.Status)}
	if res.Game != nil {
		out["game"] = res.Game.ID
	}
	writeAPI(w, http.StatusOK, out)
}
