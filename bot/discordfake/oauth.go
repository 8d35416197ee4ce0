// oauth.go: what an Activity needs of Discord: the OAuth2 authorization-code exchange
// and the refresh of a token (POST oauth2/token, form-encoded, the application's client
// id and secret; a refresh token is good once), the user
// of a bearer token (GET users/@me), and the Activity instances (GET
// applications/{app}/activity-instances/{instance_id}, with the bot's token), as
// Discord's API describes them. Tests play the Discord client's part: MintCode is what
// the client does when a user authorizes the application, StartActivity and
// JoinActivity what it does when users launch and join an Activity.

package discordfake

import (
	"net/http"
	"slices"
	"strings"
	"time"
)

// OAuth2 lifetimes, as Discord gives them: an authorization code is good for ten
// minutes and once; an access token for a week.
const (
	codeTTL        = 10 * time.Minute
	accessTokenTTL = 7 * 24 * time.Hour
)

// oauthState holds the codes, tokens and Activity instances; Fake.mu guards it.
type oauthState struct {
	codes     map[string]oauthGrant // authorization code -> grant
	tokens    map[string]oauthGrant // access token -> grant
	refresh   map[string]oauthGrant // refresh token -> grant (good once)
	instances map[string]*activityInstance
}

// oauthGrant is what a code or a token stands for.
type oauthGrant struct {
	user    string
	scopes  []string
	expires time.Time
}

// activityInstance is one running Activity: where, and who is in it.
type activityInstance struct {
	id, launchID   string
	channel, guild string
	users          []string
}

func (o *oauthState) init() {
	o.codes = map[string]oauthGrant{}
	o.tokens = map[string]oauthGrant{}
	o.refresh = map[string]oauthGrant{}
	o.instances = map[string]*activityInstance{}
}

// MintCode returns a fresh authorization code for userID and the scopes (identify
// when none is given): what Discord's client hands an Activity whose user authorized
// it (the SDK's AUTHORIZE command). The code is good once, for ten minutes.
func (f *Fake) MintCode(userID string, scopes ...string) string {
	if len(scopes) == 0 {
		scopes = []string{"identify"}
	}
	code := randomHex(15)
	f.mu.Lock()
	f.oauth.codes[code] = oauthGrant{user: userID, scopes: slices.Clone(scopes), expires: time.Now().Add(codeTTL)}
	f.notifyLocked()
	f.mu.Unlock()
	return code
}

// TokenUser returns the user an access token was issued to, as Discord's client
// learns it when an Activity authenticates with the token (AUTHENTICATE); false for a
// token Discord never issued or one that has expired.
func (f *Fake) TokenUser(accessToken string) (userID string, scopes []string, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, ok := f.oauth.tokens[accessToken]
	if !ok || !time.Now().Before(g.expires) {
		return "", nil, false
	}
	return g.user, slices.Clone(g.scopes), true
}

// ExpireTokens ends every access token of a user now, as a week's passing would: a
// client must use its refresh token.
func (f *Fake) ExpireTokens(userID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for tok, g := range f.oauth.tokens {
		if g.user == userID {
			delete(f.oauth.tokens, tok)
		}
	}
}

// StartActivity starts an instance of the application's Activity in a channel (a
// guild's channel or thread; guildID empty for a DM) with the users in it, and returns
// its instance id, as Discord passes it to the Activity (the instance_id query
// parameter).
func (f *Fake) StartActivity(guildID, channelID string, users ...string) string {
	inst := &activityInstance{id: "i-" + f.ids.next() + "-gc-" + guildID + "-" + channelID, launchID: f.ids.next(),
		channel: channelID, guild: guildID, users: slices.Clone(users)}
	if guildID == "" {
		inst.id = "i-" + f.ids.next() + "-pc-" + channelID
	}
	f.mu.Lock()
	f.oauth.instances[inst.id] = inst
	f.notifyLocked()
	f.mu.Unlock()
	return inst.id
}

// JoinActivity adds a user to a running instance; LeaveActivity takes one out (the
// last to leave ends the instance, as on Discord).
func (f *Fake) JoinActivity(instanceID, userID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if inst, ok := f.oauth.instances[instanceID]; ok && !slices.Contains(inst.users, userID) {
		inst.users = append(inst.users, userID)
		f.notifyLocked()
	}
}

// LeaveActivity takes a user out of an instance; see JoinActivity.
func (f *Fake) LeaveActivity(instanceID, userID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	inst, ok := f.oauth.instances[instanceID]
	if !ok {
		return
	}
	inst.users = slices.DeleteFunc(inst.users, func(u string) bool { return u == userID })
	if len(inst.users) == 0 {
		delete(f.oauth.instances, instanceID)
	}
	f.notifyLocked()
}

// oauthError is the body of an OAuth2 error (RFC 6749 5.2), which Discord's token
// endpoint answers with instead of its usual JSON error.
type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

// postToken serves POST oauth2/token: the authorization-code grant. The client
// authenticates with client_id and client_secret in the form (or HTTP Basic); the code
// is spent whether or not the exchange succeeds past the client check.
func (f *Fake) postToken(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		writeJSON(w, http.StatusBadRequest, oauthError{Error: "invalid_request", Description: "the body must be application/x-www-form-urlencoded"})
		return
	}
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, oauthError{Error: "invalid_request", Description: "the form could not be read"})
		return
	}
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != f.AppID || secret != f.ClientSecret {
		if sw, ok := w.(*statusWriter); ok {
			sw.errText = "invalid_client"
		}
		writeJSON(w, http.StatusUnauthorized, oauthError{Error: "invalid_client"})
		return
	}
	var g oauthGrant
	var ok bool
	f.mu.Lock()
	switch gt := r.PostForm.Get("grant_type"); gt {
	case "authorization_code":
		code := r.PostForm.Get("code")
		g, ok = f.oauth.codes[code]
		delete(f.oauth.codes, code)
		ok = ok && time.Now().Before(g.expires)
	case "refresh_token": // a refresh token is spent by its use; the grant's scopes stay
		rt := r.PostForm.Get("refresh_token")
		g, ok = f.oauth.refresh[rt]
		delete(f.oauth.refresh, rt)
	default:
		f.mu.Unlock()
		writeJSON(w, http.StatusBadRequest, oauthError{Error: "unsupported_grant_type", Description: "Unsupported grant type: " + gt})
		return
	}
	var tok, refresh string
	if ok {
		tok, refresh = randomHex(15), randomHex(15)
		g.expires = time.Now().Add(accessTokenTTL)
		f.oauth.tokens[tok] = g
		f.oauth.refresh[refresh] = g
		f.notifyLocked()
	}
	f.mu.Unlock()
	if tok == "" {
		if sw, ok := w.(*statusWriter); ok {
			sw.errText = "invalid_grant"
		}
		writeJSON(w, http.StatusBadRequest, oauthError{Error: "invalid_grant", Description: `Invalid "code" in request.`})
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": tok, "token_type": "Bearer", "expires_in": int(accessTokenTTL / time.Second),
		"refresh_token": refresh, "scope": strings.Join(g.scopes, " "),
	})
}

// getBearerMe serves GET users/@me with a Bearer token: the token's user, which
// needs the identify scope.
func (f *Fake) getBearerMe(w http.ResponseWriter, r *http.Request) {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	user, scopes, ok := f.TokenUser(tok)
	if !ok || !slices.Contains(scopes, "identify") {
		fail(w, http.StatusUnauthorized, codeGeneral, "401: Unauthorized")
		return
	}
	f.mu.Lock()
	u := copyUser(f.users[user])
	f.mu.Unlock()
	if u == nil {
		fail(w, http.StatusUnauthorized, codeGeneral, "401: Unauthorized")
		return
	}
	writeJSON(w, http.StatusOK, u)
}

// getActivityInstance serves GET applications/{app}/activity-instances/{instance_id}
// (the bot's token): the instance's location and the users connected to it.
func (f *Fake) getActivityInstance(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("app") != f.AppID {
		fail(w, http.StatusForbidden, codeMissingAccess, "Missing Access")
		return
	}
	f.mu.Lock()
	inst, ok := f.oauth.instances[r.PathValue("instance")]
	var body map[string]any
	if ok {
		kind := "gc"
		loc := map[string]any{"id": "gc-" + inst.guild + "-" + inst.channel, "kind": kind, "channel_id": inst.channel}
		if inst.guild == "" {
			loc["id"], loc["kind"] = "pc-"+inst.channel, "pc"
		} else {
			loc["guild_id"] = inst.guild
		}
		body = map[string]any{"application_id": f.AppID, "instance_id": inst.id, "launch_id": inst.launchID,
			"location": loc, "users": slices.Clone(inst.users)}
	}
	f.mu.Unlock()
	if !ok {
		fail(w, http.StatusNotFound, codeUnknownApplication, "Unknown Application")
		return
	}
	writeJSON(w, http.StatusOK, body)
}
