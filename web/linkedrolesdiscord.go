// linkedrolesdiscord.go: Discord's side of Linked Roles over plain HTTP
// (linkedroles.Discord): the authorization-code exchange with the verification page's
// redirect, the refresh of a grant, the user of a token, and the PUT of a user's role
// connection. Their errors name the call and Discord's status, never a code, a token
// or the secret.

package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gambitchess/gambit/service/linkedroles"
)

// LinkedRolesDiscord calls Discord for the Linked Roles service.
type LinkedRolesDiscord struct {
	// ClientID and ClientSecret are the application's id and OAuth2 client secret.
	ClientID, ClientSecret string
	// RedirectURL is the verification page's callback, as registered in the
	// Developer Portal (BaseURL + LinkedRolesPath + "callback").
	RedirectURL string
	// APIURL is Discord's API base, ending in "/" (default DefaultDiscordAPI).
	APIURL string
	// Client makes the calls (default: one with a 10 s timeout).
	Client *http.Client
}

var _ linkedroles.Discord = (*LinkedRolesDiscord)(nil)

func (d *LinkedRolesDiscord) api() string {
	if d.APIURL == "" {
		return DefaultDiscordAPI
	}
	return strings.TrimRight(d.APIURL, "/") + "/"
}

func (d *LinkedRolesDiscord) do(req *http.Request, what string, out any) error {
	c := d.Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	status, body, err := discordSend(c, req, what)
	if err != nil {
		return err
	}
	switch {
	case status == http.StatusUnauthorized || (status >= 400 && status < 500 && strings.Contains(string(body), "invalid_grant")):
		return fmt.Errorf("web: discord %s: status %d: %w", what, status, linkedroles.ErrRefused)
	case status/100 != 2:
		return fmt.Errorf("web: discord %s: status %d", what, status)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("web: discord %s: decode the answer: %w", what, err)
	}
	return nil
}

// token posts a grant request to the token endpoint.
func (d *LinkedRolesDiscord) token(ctx context.Context, form url.Values, what string) (linkedroles.Grant, error) {
	form.Set("client_id", d.ClientID)
	form.Set("client_secret", d.ClientSecret)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.api()+"oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return linkedroles.Grant{}, fmt.Errorf("web: discord %s: %w", what, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var out struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
		TokenType    string `json:"token_type"`
		ExpiresIn    int64  `json:"expires_in"`
		Scope        string `json:"scope"`
	}
	if err := d.do(req, what, &out); err != nil {
		return linkedroles.Grant{}, err
	}
	if out.AccessToken == "" || out.RefreshToken == "" || !strings.EqualFold(out.TokenType, "Bearer") || out.ExpiresIn <= 0 {
		return linkedroles.Grant{}, fmt.Errorf("web: discord %s: no bearer grant in the answer", what)
	}
	return linkedroles.Grant{AccessToken: out.AccessToken, RefreshToken: out.RefreshToken,
		ExpiresIn: time.Duration(out.ExpiresIn) * time.Second, Scopes: strings.Fields(out.Scope)}, nil
}

// Exchange implements linkedroles.Discord.
func (d *LinkedRolesDiscord) Exchange(ctx context.Context, code string) (linkedroles.Grant, error) {
	return d.token(ctx, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {d.RedirectURL}}, "token exchange")
}

// Refresh implements linkedroles.Discord.
func (d *LinkedRolesDiscord) Refresh(ctx context.Context, refreshToken string) (linkedroles.Grant, error) {
	return d.token(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshToken}}, "token refresh")
}

// User implements linkedroles.Discord.
func (d *LinkedRolesDiscord) User(ctx context.Context, accessToken string) (string, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.api()+"users/@me", nil)
	if err != nil {
		return "", "", fmt.Errorf("web: discord users/@me: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+accessToken)
	var u discordUser
	if err := d.do(req, "users/@me", &u); err != nil {
		return "", "", err
	}
	if !snowflake(u.ID) {
		return "", "", errors.New("web: discord users/@me: no user id in the answer")
	}
	return u.ID, u.name(), nil
}

// PushConnection implements linkedroles.Discord.
func (d *LinkedRolesDiscord) PushConnection(ctx context.Context, accessToken string, c linkedroles.Connection) error {
	body, err := json.Marshal(map[string]any{"platform_name": c.PlatformName, "platform_username": c.PlatformUsername, "metadata": c.Metadata})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, d.api()+"users/@me/applications/"+url.PathEscape(d.ClientID)+"/role-connection", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("web: discord role connection: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+accessToken)
	req.Header.Set("Content-Type", "application/json")
	return d.do(req, "role connection", nil)
}
