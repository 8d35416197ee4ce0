package web

// The challenges of the Activity against a real games service on a bbolt file and the
// fake Discord (its token endpoint, users and Activity instances), over HTTP.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage/bolt"
)

// activityWorld is a web server with the Activity on, its games service and the fake
// Discord it asks.
type activityWorld struct {
	t   *testing.T
	f   *discordfake.Fake
	svc *games.Service
	url string
}

func newActivityTestWorld(t *testing.T) *activityWorld {
	f := discordfake.New(t)
	db, err := bolt.Open(filepath.Join(t.TempDir(), "gambit.db"), &bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := games.New(db, games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Games: svc, BaseURL: "http://127.0.0.1", Secret: []byte(strings.Repeat("s", 32)),
		Limits:   Limits{RequestsPerAddr: 1 << 20},
		Activity: &ActivityOptions{ClientID: f.AppID, ClientSecret: f.ClientSecret, BotToken: f.Token, APIURL: f.RESTURL()}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		hs.Close()
		_ = svc.Close()
		_ = db.Close()
	})
	return &activityWorld{t: t, f: f, svc: svc, url: hs.URL + "/activity/"}
}

// do sends a request to an Activity route and decodes the answer.
func (w *activityWorld) do(method, path, bearer string, body any) (int, map[string]any) {
	w.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = strings.NewReader(string(b))
	}
	req, _ := http.NewRequest(method, w.url+path, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(res.Body)
	_ = json.Unmarshal(raw, &out)
	return res.StatusCode, out
}

// session opens userID's session in an instance, as the page does after the
// handshake.
func (w *activityWorld) session(userID, instance string) string {
	w.t.Helper()
	st, out := w.do(http.MethodPost, "api/token", "", map[string]string{"code": w.f.MintCode(userID)})
	if st != http.StatusOK {
		w.t.Fatalf("token: %d %v", st, out)
	}
	st, out = w.do(http.MethodPost, "api/session", "", map[string]string{"access_token": out["access_token"].(string), "instance_id": instance})
	if st != http.StatusOK {
		w.t.Fatalf("session: %d %v", st, out)
	}
	return out["session"].(string)
}

// challenge makes a challenge and returns its id as the paths write it.
func (w *activityWorld) challenge(bearer, to, control string) string {
	w.t.Helper()
	st, out := w.do(http.MethodPost, "api/challenges", bearer, map[string]string{"to": to, "control": control})
	if st != http.StatusCreated {
		w.t.Fatalf("challenge %s (%s): %d %v", to, control, st, out)
	}
	return strconv.FormatFloat(out["challenge"].(map[string]any)["id"].(float64), 'f', -1, 64)
}

// tamper changes a token's last character (its signature's).
func tamper(tok string) string {
	last := byte('A')
	if tok[len(tok)-1] == 'A' {
		last = 'B'
	}
	return tok[:len(tok)-1] + string(last)
}

func TestActivityChallengeRequests(t *testing.T) {
	w := newActivityTestWorld(t)
	bob, carol := w.f.NewUser("bob"), w.f.NewUser("carol")
	inst := w.f.StartActivity(w.f.GuildID, w.f.ChannelID, w.f.User.ID, bob.ID, carol.ID)
	alice, bobS, carolS := w.session(w.f.User.ID, inst), w.session(bob.ID, inst), w.session(carol.ID, inst)

	st, lobby := w.do(http.MethodGet, "api/lobby", alice, nil)
	if st != http.StatusOK {
		t.Fatalf("the lobby: %d %v", st, lobby)
	}
	people := lobby["participants"].([]any)
	if len(people) != 2 || people[0].(map[string]any)["id"] != bob.ID || people[0].(map[string]any)["name"] != bob.Username {
		t.Fatalf("Alice's lobby lists %v, want Bob (by his Discord name) and Carol", people)
	}

	for _, c := range []struct {
		name   string
		body   any
		bearer string
		want   int
	}{
		{"no session", map[string]string{"to": bob.ID, "control": "5+3"}, "", http.StatusUnauthorized},
		{"a forged session", map[string]string{"to": bob.ID, "control": "5+3"}, tamper(alice), http.StatusUnauthorized},
		{"oneself", map[string]string{"to": w.f.User.ID, "control": "5+3"}, alice, http.StatusBadRequest},
		{"a non-participant", map[string]string{"to": "42", "control": "5+3"}, alice, http.StatusForbidden},
		{"an unknown control", map[string]string{"to": bob.ID, "control": "2+1"}, alice, http.StatusBadRequest},
		{"not JSON", "to=bob", alice, http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			if st, out := w.do(http.MethodPost, "api/challenges", c.bearer, c.body); st != c.want {
				t.Fatalf("%d %v, want %d", st, out, c.want)
			}
		})
	}
	if cs, _ := w.svc.PendingChallenges(context.Background()); len(cs) != 0 {
		t.Fatalf("%d challenges made by refused requests", len(cs))
	}

	id := w.challenge(alice, bob.ID, "5+3")
	for _, c := range []struct {
		name, bearer string
		want         int
	}{
		{"a third participant", carolS, http.StatusForbidden},
		{"the challenger", alice, http.StatusForbidden},
	} {
		if st, out := w.do(http.MethodPost, "api/challenges/"+id+"/accept", c.bearer, map[string]any{}); st != c.want {
			t.Errorf("an accept by %s: %d %v, want %d", c.name, st, out, c.want)
		}
	}
	var wg sync.WaitGroup
	got := make([]int, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = w.do(http.MethodPost, "api/challenges/"+id+"/accept", bobS, map[string]any{})
		}()
	}
	wg.Wait()
	ok, conflict := 0, 0
	for _, st := range got {
		switch st {
		case http.StatusOK:
			ok++
		case http.StatusConflict:
			conflict++
		}
	}
	if ok != 1 || conflict != 3 {
		t.Fatalf("four accepts at once answered %v, want one 200 and three 409", got)
	}
	g, err := w.svc.Game(context.Background(), 1)
	if err != nil || g.ChallengeID == 0 || g.GuildID != w.f.GuildID || g.ChannelID != w.f.ChannelID || g.Guest {
		t.Fatalf("the game: %+v, %v; want the challenge's game in the instance's channel", g, err)
	}
	if _, err := w.svc.Game(context.Background(), 2); err == nil {
		t.Fatal("the accepts made a second game")
	}
}

// TestActivityChallengeInDM: in a DM or group DM the game is a guest game of the
// channel (no server), as /challenge makes there.
func TestActivityChallengeInDM(t *testing.T) {
	w := newActivityTestWorld(t)
	bob := w.f.NewUser("bob")
	inst := w.f.StartActivity("", "5550001", w.f.User.ID, bob.ID)
	alice, bobS := w.session(w.f.User.ID, inst), w.session(bob.ID, inst)
	id := w.challenge(alice, bob.ID, "1d")
	if st, out := w.do(http.MethodGet, "api/lobby", bobS, nil); st != http.StatusOK || len(out["challenges"].([]any)) != 1 {
		t.Fatalf("Bob's lobby: %d %v, want Alice's challenge", st, out)
	}
	st, out := w.do(http.MethodPost, "api/challenges/"+id+"/accept", bobS, map[string]any{})
	if st != http.StatusOK || out["game"] != float64(1) {
		t.Fatalf("Bob accepts: %d %v", st, out)
	}
	g, err := w.svc.Game(context.Background(), 1)
	if err != nil || !g.Guest || g.GuildID != "" || g.ChannelID != "5550001" {
		t.Fatalf("the DM's game: %+v, %v; want a guest game of the DM", g, err)
	}
	if st, out := w.do(http.MethodGet, "api/games/1", alice, nil); st != http.StatusOK {
		t.Fatalf("Alice opens the DM's game: %d %v", st, out)
	}
}

// TestActivityChallengeInGuildWithoutBot: in a server that never added the bot the
// game is a guest game of the channel too, and the Activity shows it.
func TestActivityChallengeInGuildWithoutBot(t *testing.T) {
	w := newActivityTestWorld(t)
	bob := w.f.NewUser("bob")
	guild, channel := w.f.AddGuildWithoutBot("no bot here")
	inst := w.f.StartActivity(guild, channel, w.f.User.ID, bob.ID)
	alice, bobS := w.session(w.f.User.ID, inst), w.session(bob.ID, inst)
	id := w.challenge(alice, bob.ID, "10+5")
	if st, out := w.do(http.MethodGet, "api/lobby", bobS, nil); st != http.StatusOK || len(out["challenges"].([]any)) != 1 {
		t.Fatalf("Bob's lobby: %d %v, want Alice's challenge", st, out)
	}
	if st, out := w.do(http.MethodPost, "api/challenges/"+id+"/accept", bobS, map[string]any{}); st != http.StatusOK {
		t.Fatalf("Bob accepts: %d %v", st, out)
	}
	g, err := w.svc.Game(context.Background(), 1)
	if err != nil || !g.Guest || g.GuildID != "" || g.ChannelID != channel {
		t.Fatalf("the game: %+v, %v; want a guest game of the channel", g, err)
	}
	if st, out := w.do(http.MethodGet, "api/games/1", bobS, nil); st != http.StatusOK {
		t.Fatalf("Bob opens the game: %d %v", st, out)
	}
}

func TestActivitySessionOfChallenge(t *testing.T) {
	a := activitySession{UserID: "1", GuildID: "2", ChannelID: "3"}
	dm := activitySession{UserID: "1", ChannelID: "3"}
	for _, c := range []struct {
		ses                      activitySession
		guild, channel, from, to string
		guest, want              bool
	}{
		{a, "2", "3", "1", "4", false, true}, {a, "2", "3", "4", "1", false, true},
		{a, "2", "3", "4", "5", false, false}, // between two others
		{a, "2", "3", "1", "", false, false},  // an open challenge
		{a, "2", "9", "1", "4", false, false}, {a, "8", "3", "1", "4", false, false},
		{a, "2", "3", "1", "4", true, false}, // a guest challenge belongs to no server
		{a, "", "3", "1", "4", true, true},   // a guest challenge in a server without the bot
		{a, "", "3", "1", "4", false, false},
		{dm, "", "3", "1", "4", true, true}, {dm, "", "3", "1", "4", false, false}, {dm, "", "9", "1", "4", true, false},
	} {
		if got := c.ses.ofSession(c.guild, c.channel, c.guest, c.from, c.to); got != c.want {
			t.Errorf("%+v ofSession(%q, %q, guest %v, %q, %q) = %v, want %v", c.ses, c.guild, c.channel, c.guest, c.from, c.to, got, c.want)
		}
	}
}
