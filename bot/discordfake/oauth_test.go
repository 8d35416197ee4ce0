package discordfake

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// postForm posts a form to the fake's API and decodes the JSON answer.
func postForm(t *testing.T, f *Fake, path string, form url.Values) (int, map[string]any) {
	t.Helper()
	res, err := http.Post(f.RESTURL()+path, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return res.StatusCode, body
}

func getJSON(t *testing.T, f *Fake, path, auth string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.RESTURL()+path, nil)
	req.Header.Set("Authorization", auth)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return res.StatusCode, body
}

func TestOAuthTokenExchange(t *testing.T) {
	f := New(t)
	good := func() url.Values {
		return url.Values{"client_id": {f.AppID}, "client_secret": {f.ClientSecret}, "grant_type": {"authorization_code"}, "code": {f.MintCode(f.User.ID)}}
	}
	with := func(k, v string) url.Values { u := good(); u.Set(k, v); return u }
	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		err    string
	}{
		{"a good code", good(), 200, ""},
		{"a wrong secret", with("client_secret", "nope"), 401, "invalid_client"},
		{"another client", with("client_id", "1"), 401, "invalid_client"},
		{"a forged code", with("code", "forged"), 400, "invalid_grant"},
		{"another grant", with("grant_type", "client_credentials"), 400, "unsupported_grant_type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := postForm(t, f, "oauth2/token", tc.form)
			if status != tc.status || (tc.err != "" && body["error"] != tc.err) {
				t.Fatalf("status %d body %v, want %d %q", status, body, tc.status, tc.err)
			}
			if tc.err == "" && (body["token_type"] != "Bearer" || body["access_token"] == "" || body["scope"] != "identify") {
				t.Fatalf("token answer %v", body)
			}
		})
	}
}

func TestOAuthCodeOnceAndBearerMe(t *testing.T) {
	f := New(t)
	form := url.Values{"client_id": {f.AppID}, "client_secret": {f.ClientSecret}, "grant_type": {"authorization_code"}, "code": {f.MintCode(f.User.ID)}}
	status, body := postForm(t, f, "oauth2/token", form)
	if status != 200 {
		t.Fatalf("exchange: %d %v", status, body)
	}
	if again, b := postForm(t, f, "oauth2/token", form); again != 400 || b["error"] != "invalid_grant" {
		t.Fatalf("a code spent twice: %d %v", again, b)
	}
	tok := body["access_token"].(string)
	if st, me := getJSON(t, f, "users/@me", "Bearer "+tok); st != 200 || me["id"] != f.User.ID {
		t.Fatalf("users/@me with the token: %d %v", st, me)
	}
	if st, _ := getJSON(t, f, "users/@me", "Bearer forged"); st != 401 {
		t.Fatalf("users/@me with a forged token: %d, want 401", st)
	}
	// A token without the identify scope does not read the user.
	form.Set("code", f.MintCode(f.User.ID, "guilds"))
	_, body = postForm(t, f, "oauth2/token", form)
	if st, _ := getJSON(t, f, "users/@me", "Bearer "+body["access_token"].(string)); st != 401 {
		t.Fatalf("users/@me without identify: %d, want 401", st)
	}
	// The bot's own token still reads the bot.
	if st, me := getJSON(t, f, "users/@me", "Bot "+f.Token); st != 200 || me["id"] != f.Bot.ID {
		t.Fatalf("users/@me as the bot: %d %v", st, me)
	}
}

func TestActivityInstance(t *testing.T) {
	f := New(t)
	bob := f.NewUser("bob")
	id := f.StartActivity(f.GuildID, f.ChannelID, f.User.ID)
	f.JoinActivity(id, bob.ID)
	st, inst := getJSON(t, f, "applications/"+f.AppID+"/activity-instances/"+id, "Bot "+f.Token)
	if st != 200 || inst["instance_id"] != id {
		t.Fatalf("instance: %d %v", st, inst)
	}
	loc := inst["location"].(map[string]any)
	if loc["channel_id"] != f.ChannelID || loc["guild_id"] != f.GuildID || loc["kind"] != "gc" {
		t.Fatalf("location %v", loc)
	}
	if users := inst["users"].([]any); len(users) != 2 || users[0] != f.User.ID || users[1] != bob.ID {
		t.Fatalf("users %v", users)
	}
	if st, _ := getJSON(t, f, "applications/"+f.AppID+"/activity-instances/"+id, "Bearer x"); st != 401 {
		t.Fatalf("without the bot's token: %d, want 401", st)
	}
	f.LeaveActivity(id, f.User.ID)
	f.LeaveActivity(id, bob.ID)
	if st, _ := getJSON(t, f, "applications/"+f.AppID+"/activity-instances/"+id, "Bot "+f.Token); st != 404 {
		t.Fatalf("an ended instance: %d, want 404", st)
	}
}
