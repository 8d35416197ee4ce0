package serve

// Starting a game inside the Activity, end to end: two participants of one Activity
// instance, each in their own browser, one challenges, the other accepts in their
// page, the game gets its thread on the fake Discord and both pages play it; and the
// hostile requests (a challenge to oneself, to someone not in the Activity, with a
// control not offered, with a forged session; an accept by a third participant, by the
// challenger, from another channel; two accepts at once) each refused with their
// status and nothing changed.

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// activityClickData clicks, in the Activity's frame, the button whose data attribute
// sel names, once it is there.
func (p *page) activityClickData(what, sel string) {
	p.t.Helper()
	p.waitActivity(what, fmt.Sprintf(`%s.querySelector(%q)`, activityDoc, sel))
	eval[bool](p, fmt.Sprintf(`%s.querySelector(%q).click() || true`, activityDoc, sel))
}

// TestActivityChallengeEndToEnd: Alice and Bob open the Activity in the channel, where
// no game is played: each sees the other in the lobby. Alice challenges Bob (5+3), Bob
// sees the challenge in his page and accepts; the game is created by the service as
// /challenge and its Accept button create it, so it gets its thread with its first
// board, both pages switch to it, and a move played in the page is posted there.
func TestActivityChallengeEndToEnd(t *testing.T) {
	w, r, host := newActivityWorld(t)
	inst := w.f.StartActivity(w.f.GuildID, w.f.ChannelID, w.alice.ID, w.bob.ID)
	threads := len(w.f.Threads())
	alice := openActivity(t, host, w.alice, inst, "list")
	bob := openActivity(t, host, w.bob, inst, "list")
	bob.waitActivity("Alice in Bob's lobby", fmt.Sprintf(`%s.querySelector('[data-challenge-to=%q]')`, activityDoc, w.alice.ID))

	alice.waitActivity("Bob in Alice's lobby", fmt.Sprintf(`%s.querySelector('[data-challenge-to=%q]')`, activityDoc, w.bob.ID))
	if got := eval[string](alice, `(function(){const s=`+activityDoc+`.querySelector('[data-control]');s.value='5+3';return s.value})()`); got != "5+3" {
		t.Fatalf("the time control 5+3 is not offered: the select says %q", got)
	}
	alice.activityClickData("Bob in Alice's lobby", fmt.Sprintf(`[data-challenge-to=%q]`, w.bob.ID))
	alice.waitActivity("Alice's challenge waiting", activityDoc+`.querySelector('[data-challenge]')`)
	bob.activityClickData("the challenge in Bob's page", `[data-accept]`)
	bob.activityState("playing")
	alice.activityState("playing")

	gm := r.bot.mustGame(t, 1)
	if gm.Control.String() != "5+3" || gm.ChallengeID == 0 {
		t.Fatalf("the game has control %s and challenge %d, want 5+3 from a challenge", gm.Control, gm.ChallengeID)
	}
	if ids := []string{gm.White.ID, gm.Black.ID}; !(ids[0] == w.alice.ID && ids[1] == w.bob.ID || ids[0] == w.bob.ID && ids[1] == w.alice.ID) {
		t.Fatalf("the game's players are %v, want Alice and Bob", ids)
	}
	var thread string
	w.waitFor("the game's thread with its first board", func() bool {
		th := w.f.Threads()
		if len(th) <= threads {
			return false
		}
		thread = th[len(th)-1].ID
		return len(w.messagesWith(thread, "board.png")) > 0
	})
	if g := r.bot.mustGame(t, 1); g.ThreadID != thread {
		t.Fatalf("the game's thread is %q, the new thread %q", g.ThreadID, thread)
	}
	white, black := alice, bob
	if gm.White.ID == w.bob.ID {
		white, black = bob, alice
	}
	if o := eval[string](black, activityDoc+`.querySelector('[data-board]').dataset.orientation`); o != "black" {
		t.Fatalf("Black's board has orientation %q", o)
	}
	for _, p := range []*page{white, black} {
		p.waitActivity("the socket", activityDoc+`.querySelector('.game').dataset.socket === 'open'`)
	}
	boards := len(w.messagesWith(thread, "board.png"))
	white.activityType("e4")
	w.waitFor("the move e4", func() bool { return r.bot.mustGame(t, 1).Ply() == 1 })
	fen := r.bot.mustGame(t, 1).Position.FEN()
	for _, p := range []*page{white, black} {
		p.activityFEN(fen)
	}
	w.waitFor("the board of e4 in the thread", func() bool { return len(w.messagesWith(thread, "board.png")) > boards })
}

// TestActivityChallengeRefusesHostileRequests: each request a page should not make is
// refused with its status, and no challenge or game comes of it; of two accepts at
// once exactly one starts the game.
func TestActivityChallengeRefusesHostileRequests(t *testing.T) {
	w, r, host := newActivityWorld(t)
	inst := w.f.StartActivity(w.f.GuildID, w.f.ChannelID, w.alice.ID, w.bob.ID, w.carol.ID)
	session := func(u *discordgo.User, instance string) string {
		t.Helper()
		st, out := activityPost(t, host, "api/token", map[string]string{"code": w.f.MintCode(u.ID)}, "")
		if st != http.StatusOK {
			t.Fatalf("exchange %s's code: %d %v", u.Username, st, out)
		}
		st, out = activityPost(t, host, "api/session", map[string]string{"access_token": out["access_token"].(string), "instance_id": instance}, "")
		if st != http.StatusOK {
			t.Fatalf("%s's session: %d %v", u.Username, st, out)
		}
		return out["session"].(string)
	}
	alice, bob, carol := session(w.alice, inst), session(w.bob, inst), session(w.carol, inst)
	elsewhere := session(w.carol, w.f.StartActivity(w.f.GuildID, "7654321", w.carol.ID))
	get := func(path, bearer string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodGet, host.URL()+"/.proxy/"+path, nil)
		req.Header.Set("Authorization", "Bearer "+bearer)
		return activityDo(t, req)
	}
	pending := func(bearer string) int {
		st, out := get("api/lobby", bearer)
		if st != http.StatusOK {
			t.Fatalf("the lobby: %d %v", st, out)
		}
		return len(out["challenges"].([]any))
	}

	for _, c := range []struct {
		name   string
		body   any
		bearer string
		want   int
	}{
		{"no session", map[string]string{"to": w.bob.ID, "control": "5+3"}, "", http.StatusUnauthorized},
		{"a forged session", map[string]string{"to": w.bob.ID, "control": "5+3"}, flipFirst(alice), http.StatusUnauthorized},
		{"oneself", map[string]string{"to": w.alice.ID, "control": "5+3"}, alice, http.StatusBadRequest},
		{"someone not in the Activity", map[string]string{"to": "123456789012345678", "control": "5+3"}, alice, http.StatusForbidden},
		{"someone of another Activity", map[string]string{"to": w.carol.ID, "control": "5+3"}, session(w.alice, w.f.StartActivity(w.f.GuildID, w.f.ChannelID, w.alice.ID)), http.StatusForbidden},
		{"a control not offered", map[string]string{"to": w.bob.ID, "control": "7+7"}, alice, http.StatusBadRequest},
		{"no control", map[string]string{"to": w.bob.ID}, alice, http.StatusBadRequest},
		{"a user that is no id", map[string]string{"to": "<@1>", "control": "5+3"}, alice, http.StatusBadRequest},
		{"an unknown field", map[string]any{"to": w.bob.ID, "control": "5+3", "rated": true}, alice, http.StatusBadRequest},
	} {
		if st, out := activityPost(t, host, "api/challenges", c.body, c.bearer); st != c.want {
			t.Errorf("a challenge with %s: %d %v, want %d", c.name, st, out, c.want)
		}
	}
	if n := pending(alice); n != 0 {
		t.Fatalf("%d challenges after the refused ones", n)
	}

	st, out := activityPost(t, host, "api/challenges", map[string]string{"to": w.bob.ID, "control": "10+5"}, alice)
	if st != http.StatusCreated {
		t.Fatalf("Alice challenges Bob: %d %v", st, out)
	}
	id := strconv.FormatFloat(out["challenge"].(map[string]any)["id"].(float64), 'f', -1, 64)
	if pending(bob) != 1 || pending(carol) != 0 {
		t.Fatalf("Bob sees %d challenges, Carol %d: want 1 and 0", pending(bob), pending(carol))
	}
	for _, c := range []struct {
		name, path, bearer string
		want               int
	}{
		{"a third participant accepts", "accept", carol, http.StatusForbidden},
		{"a third participant declines", "decline", carol, http.StatusForbidden},
		{"the challenger accepts", "accept", alice, http.StatusForbidden},
		{"another channel's session accepts", "accept", elsewhere, http.StatusNotFound},
		{"a forged session accepts", "accept", flipFirst(bob), http.StatusUnauthorized},
	} {
		if st, out := activityPost(t, host, "api/challenges/"+id+"/"+c.path, map[string]any{}, c.bearer); st != c.want {
			t.Errorf("%s: %d %v, want %d", c.name, st, out, c.want)
		}
	}
	if st, _ := get("api/challenges/"+id, carol); st != http.StatusNotFound {
		t.Errorf("a third participant reads the challenge: %d, want 404", st)
	}
	if st, _ := activityPost(t, host, "api/challenges/999/accept", map[string]any{}, bob); st != http.StatusNotFound {
		t.Errorf("accepting a challenge that does not exist: %d, want 404", st)
	}
	if _, err := r.bot.Games.Game(t.Context(), 1); err == nil {
		t.Fatal("a game exists after the refused answers")
	}

	// Bob clicks Accept twice at once: one game, one 409.
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _ = activityPost(t, host, "api/challenges/"+id+"/accept", map[string]any{}, bob)
		}()
	}
	wg.Wait()
	if !(statuses[0] == http.StatusOK && statuses[1] == http.StatusConflict || statuses[0] == http.StatusConflict && statuses[1] == http.StatusOK) {
		t.Fatalf("two accepts at once answered %v, want one 200 and one 409", statuses)
	}
	if _, err := r.bot.Games.Game(t.Context(), 2); err == nil {
		t.Fatal("two accepts made two games")
	}
	if st, out := get("api/challenges/"+id, alice); st != http.StatusOK || out["status"] != "accepted" || out["game"] != float64(1) {
		t.Fatalf("Alice's challenge: %d %v, want accepted with game 1", st, out)
	}

	// A declined challenge cannot be accepted afterwards.
	_, out = activityPost(t, host, "api/challenges", map[string]string{"to": w.carol.ID, "control": "3d"}, bob)
	id = strconv.FormatFloat(out["challenge"].(map[string]any)["id"].(float64), 'f', -1, 64)
	if st, out := activityPost(t, host, "api/challenges/"+id+"/decline", map[string]any{}, carol); st != http.StatusOK || out["status"] != "declined" {
		t.Fatalf("Carol declines: %d %v", st, out)
	}
	if st, _ := activityPost(t, host, "api/challenges/"+id+"/accept", map[string]any{}, carol); st != http.StatusConflict {
		t.Errorf("accepting a declined challenge: %d, want 409", st)
	}
	// Someone who left the Activity can no longer challenge or answer.
	w.f.LeaveActivity(inst, w.carol.ID)
	if st, _ := activityPost(t, host, "api/challenges", map[string]string{"to": w.alice.ID, "control": "5+3"}, carol); st != http.StatusForbidden {
		t.Errorf("a challenge by someone who left: %d, want 403", st)
	}
	if st, _ := activityPost(t, host, "api/challenges", map[string]string{"to": w.carol.ID, "control": "5+3"}, bob); st != http.StatusForbidden {
		t.Errorf("a challenge to someone who left: %d, want 403", st)
	}
	if _, err := r.bot.Games.Game(t.Context(), 2); err == nil {
		t.Fatal("a second game exists")
	}
}
