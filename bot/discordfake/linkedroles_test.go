package discordfake

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordnet"
)

// bearerSession is a discordgo session with a user's access token.
func bearerSession(t *testing.T, f *Fake, token string) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bearer " + token)
	if err != nil {
		t.Fatal(err)
	}
	if err := discordnet.Configure(s, f.RESTURL(), f.GatewayURL()); err != nil {
		t.Fatal(err)
	}
	return s
}

// exchange trades a code (or, with grant "refresh_token", a refresh token) for tokens.
func exchange(t *testing.T, f *Fake, grant, value string) (status int, access, refresh string) {
	t.Helper()
	form := url.Values{"client_id": {f.AppID}, "client_secret": {f.ClientSecret}, "grant_type": {grant}}
	if grant == "refresh_token" {
		form.Set("refresh_token", value)
	} else {
		form.Set("code", value)
	}
	st, body := postForm(t, f, "oauth2/token", form)
	a, _ := body["access_token"].(string)
	r, _ := body["refresh_token"].(string)
	return st, a, r
}

func TestLinkedRoles(t *testing.T) {
	f := New(t)
	bot := restOnly(t, f)
	rec := func(key string) *discordgo.ApplicationRoleConnectionMetadata {
		return &discordgo.ApplicationRoleConnectionMetadata{Type: discordgo.ApplicationRoleConnectionMetadataIntegerGreaterThanOrEqual,
			Key: key, Name: "Rating " + key, Description: "The " + key + " rating"}
	}
	for name, recs := range map[string][]*discordgo.ApplicationRoleConnectionMetadata{
		"six records":   {rec("a"), rec("b"), rec("c"), rec("d"), rec("e"), rec("f")},
		"capital key":   {rec("Blitz")},
		"long key":      {rec(strings.Repeat("k", 51))},
		"duplicate key": {rec("blitz"), rec("blitz")},
		"no name":       {{Type: 2, Key: "x", Description: "d"}},
		"bad type":      {{Type: 9, Key: "x", Name: "n", Description: "d"}},
	} {
		if _, err := bot.ApplicationRoleConnectionMetadataUpdate(f.AppID, recs); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if n := len(f.RoleMetadata()); n != 0 {
		t.Fatalf("refused records registered: %d", n)
	}
	games := rec("games")
	if _, err := bot.ApplicationRoleConnectionMetadataUpdate(f.AppID, []*discordgo.ApplicationRoleConnectionMetadata{rec("blitz"), games}); err != nil {
		t.Fatal(err)
	}
	role := f.AddLinkedRole(f.GuildID, RoleRequirement{Key: "blitz", Value: 1800})

	// A user's token without role_connections.write cannot push; with it, it can.
	_, plain, _ := exchange(t, f, "authorization_code", f.MintCode(f.User.ID, "identify"))
	if _, err := bearerSession(t, f, plain).UserApplicationRoleConnectionUpdate(f.AppID, &discordgo.ApplicationRoleConnection{}); err == nil {
		t.Error("a push without role_connections.write accepted")
	}
	st, access, refresh := exchange(t, f, "authorization_code", f.MintCode(f.User.ID, "identify", "role_connections.write"))
	if st != http.StatusOK || access == "" || refresh == "" {
		t.Fatalf("exchange: %d", st)
	}
	user := bearerSession(t, f, access)
	push := func(s *discordgo.Session, md map[string]string) error {
		_, err := s.UserApplicationRoleConnectionUpdate(f.AppID, &discordgo.ApplicationRoleConnection{PlatformName: "Gambit", PlatformUsername: "alice", Metadata: md})
		return err
	}
	for name, md := range map[string]map[string]string{
		"unknown key": {"bullet": "1500"},
		"not integer": {"blitz": "high"},
	} {
		if err := push(user, md); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := push(user, map[string]string{"blitz": "1750", "games": "12"}); err != nil {
		t.Fatal(err)
	}
	if f.HasLinkedRole(f.GuildID, role, f.User.ID) {
		t.Error("1750 qualifies for blitz ≥ 1800")
	}
	if c, err := user.UserApplicationRoleConnection(f.AppID); err != nil || c.Metadata["games"] != "12" {
		t.Errorf("read back: %+v, %v", c, err)
	}

	// The token expires: it is refused, the refresh token gives a new one (once).
	f.ExpireTokens(f.User.ID)
	if err := push(user, map[string]string{"blitz": "1810"}); err == nil {
		t.Error("an expired token accepted")
	}
	st, access2, _ := exchange(t, f, "refresh_token", refresh)
	if st != http.StatusOK || access2 == "" {
		t.Fatalf("refresh: %d", st)
	}
	if st, _, _ := exchange(t, f, "refresh_token", refresh); st != http.StatusBadRequest {
		t.Errorf("a spent refresh token: %d", st)
	}
	if err := push(bearerSession(t, f, access2), map[string]string{"blitz": "1810", "games": "13"}); err != nil {
		t.Fatal(err)
	}
	if !f.HasLinkedRole(f.GuildID, role, f.User.ID) {
		t.Error("1810 does not qualify for blitz ≥ 1800")
	}
	if f.HasLinkedRole(f.GuildID, role, "someone-else") || f.HasLinkedRole(f.GuildID, "no-role", f.User.ID) {
		t.Error("qualified without a connection or for a role that is not linked")
	}
}
