// activitydiscord.go: the three calls the Activity makes to Discord's API, over plain
// HTTP (package web talks to no Discord library): the authorization-code exchange
// with the application's client secret, the user of an access token, and the Activity
// instance a page says it runs in. Their errors name the call and Discord's status,
// never a code, a token or the secret.

package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Errors of the Discord calls the handlers turn into statuses.
var (
	// errDiscordRefused: Discord refused the code or the token (a 4xx other than 404
	// and 429): the client's word was not good.
	errDiscordRefused = errors.New("discord refused the credential")
	// errNoInstance: Discord knows no such running Activity instance (404).
	errNoInstance = errors.New("no such activity instance")
)

// maxDiscordBody bounds what is read of an answer of Discord's.
const maxDiscordBody = 64 << 10

// discordUser is what the Activity uses of Discord's user object.
type discordUser struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
}

// name is how the page shows the user.
func (u discordUser) name() string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// activityInstance is Discord's Activity instance: where it runs and who is in it.
type activityInstance struct {
	ApplicationID string `json:"application_id"`
	InstanceID    string `json:"instance_id"`
	Location      struct {
		Kind      string `json:"kind"`
		ChannelID string `json:"channel_id"`
		GuildID   string `json:"guild_id"`
	} `json:"location"`
	Users []string `json:"users"`
}

// has reports whether user is connected to the instance.
func (a *activityInstance) has(user string) bool {
	for _, u := range a.Users {
		if u == user {
			return true
		}
	}
	return false
}

// discordCall sends req and decodes a 2xx answer into out; what names the call in
// errors.
func (s *Server) discordCall(req *http.Request, what string, out any) error {
	status, body, err := discordSend(s.activity.client, req, what)
	if err != nil {
		return err
	}
	switch {
	case status == http.StatusNotFound:
		return fmt.Errorf("web: discord %s: %w", what, errNoInstance)
	case status >= 400 && status < 500 && status != http.StatusTooManyRequests:
		return fmt.Errorf("web: discord %s: status %d: %w", what, status, errDiscordRefused)
	case status/100 != 2:
		return fmt.Errorf("web: discord %s: status %d", what, status)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("web: discord %s: decode the answer: %w", what, err)
	}
	return nil
}

// discordSend sends req to Discord's API and returns the answer's status and body (at
// most maxDiscordBody); what names the call in errors. The callers read the status.
func discordSend(c *http.Client, req *http.Request, what string) (int, []byte, error) {
	res, err := c.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("web: discord %s: %w", what, errors.Unwrap(err)) // url.Error would repeat the URL
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxDiscordBody))
	if err != nil {
		return 0, nil, fmt.Errorf("web: discord %s: read the answer: %w", what, err)
	}
	return res.StatusCode, body, nil
}

// exchangeCode trades an authorization code for an access token at Discord's token
// endpoint, authenticated with the client id and secret.
func (s *Server) exchangeCode(ctx context.Context, code string) (string, error) {
	a := s.opts.Activity
	form := url.Values{"client_id": {a.ClientID}, "client_secret": {a.ClientSecret},
		"grant_type": {"authorization_code"}, "code": {code}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.activity.api+"oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", fmt.Errorf("web: discord token exchange: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var out struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	if err := s.discordCall(req, "token exchange", &out); err != nil {
		return "", err
	}
	if out.AccessToken == "" || !strings.EqualFold(out.TokenType, "Bearer") {
		return "", errors.New("web: discord token exchange: no bearer token in the answer")
	}
	return out.AccessToken, nil
}

// tokenUser asks Discord whose access token this is (GET users/@me).
func (s *Server) tokenUser(ctx context.Context, token string) (discordUser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.activity.api+"users/@me", nil)
	if err != nil {
		return discordUser{}, fmt.Errorf("web: discord users/@me: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	var u discordUser
	if err := s.discordCall(req, "users/@me", &u); err != nil {
		if errors.Is(err, errNoInstance) {
			err = fmt.Errorf("web: discord users/@me: %w", errDiscordRefused)
		}
		return discordUser{}, err
	}
	if !snowflake(u.ID) {
		return discordUser{}, errors.New("web: discord users/@me: no user id in the answer")
	}
	return u, nil
}

// instance asks Discord for a running Activity instance of the application, with the
// bot's token.
func (s *Server) instance(ctx context.Context, id string) (*activityInstance, error) {
	a := s.opts.Activity
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		s.activity.api+"applications/"+a.ClientID+"/activity-instances/"+url.PathEscape(id), nil)
	if err != nil {
		return nil, fmt.Errorf("web: discord activity instance: %w", err)
	}
	req.Header.Set("Authorization", "Bot "+a.BotToken)
	var inst activityInstance
	if err := s.discordCall(req, "activity instance", &inst); err != nil {
		return nil, err
	}
	if inst.InstanceID != id || inst.ApplicationID != a.ClientID || !snowflake(inst.Location.ChannelID) ||
		(inst.Location.GuildID != "" && !snowflake(inst.Location.GuildID)) {
		return nil, errors.New("web: discord activity instance: the answer is not the instance asked for")
	}
	return &inst, nil
}
