package commands

// rules_test.go: what the players read about the rules of the game: takebacks only
// where moves are not final (FIDE 4.7), draw offers with one's move (9.1.2.1), a
// resignation before both sides moved, and the server's takeback setting.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
)

// rulesWorld is game 1 between alice (White) and bob (Black) in g1/c1 (no thread).
type rulesWorld struct {
	t   *testing.T
	d   *Deps
	clk *timers.ManualClock
	seq int
}

func newRulesWorld(t *testing.T, rated bool, moves ...string) *rulesWorld {
	t.Helper()
	_, clk, gs, _ := testServices(t)
	w := &rulesWorld{t: t, d: &Deps{Games: gs, Now: clk.Now, Outbox: &placedOutbox{}, Ledger: NewPostLedger(clk.Now)}, clk: clk}
	ctx := context.Background()
	if _, err := gs.StartGame(ctx, games.StartRequest{GuildID: "g1", ChannelID: "c1", White: alice, Black: bob, Control: "10+0", Rated: rated}); err != nil {
		t.Fatal(err)
	}
	for i, san := range moves {
		if _, err := gs.Move(ctx, games.MoveRequest{Action: games.Action{GameID: 1, UserID: []string{alice.ID, bob.ID}[i%2]}, Move: san}); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// ask sends a command (or, with id set, a component) as user in c1.
func (w *rulesWorld) ask(h Handler, user, name, sub string, id *CustomID, opts ...*discordgo.ApplicationCommandInteractionDataOption) (*Response, error) {
	w.seq++
	r := &Request{
		Interaction: &discordgo.Interaction{ID: fmt.Sprint("rules-", w.seq), Type: discordgo.InteractionApplicationCommand, Member: &discordgo.Member{}},
		GuildID:     "g1", ChannelID: "c1", User: &discordgo.User{ID: user, Username: user},
		Name: name, Sub: sub, Options: opts, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Permissions: discordgo.PermissionManageGuild,
	}
	if id != nil {
		r.Interaction.Type = discordgo.InteractionMessageComponent
		r.ID, r.Name = *id, id.Route()
	}
	return h(context.Background(), r)
}

func TestTakebackCommandSaysMovesAreFinal(t *testing.T) {
	w := newRulesWorld(t, true, "e4", "e5", "Nf3")
	tb := NewTakeback(w.d)
	_, err := w.ask(tb.Handle, alice.ID, "takeback", "", nil)
	want := "No takebacks here: in a rated game a completed move is final (FIDE 4.7); this server allows takebacks in casual games only."
	if err == nil || UserMessage(err) != want {
		t.Fatalf("/takeback in a rated game: %v\nwant %q", err, want)
	}
	// The server allows them: asked and granted.
	if _, err := w.ask(NewSettings(w.d).Handle, "admin", "settings", "takebacks", nil, boolOpt("rated", true)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ask(tb.Handle, alice.ID, "takeback", "", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ask(tb.Handle, bob.ID, "takeback", "", nil); err != nil {
		t.Fatal(err)
	}
	if g := mustGame(t, w.d, 1); g.Ply() != 2 {
		t.Errorf("ply %d after the takeback", g.Ply())
	}
}

func boolOpt(name string, v bool) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionBoolean, Value: v}
}

func TestSettingsTakebacks(t *testing.T) {
	w := newRulesWorld(t, false)
	s := NewSettings(w.d)
	resp, err := w.ask(s.Handle, "admin", "settings", "show", nil)
	if err != nil || !strings.Contains(resp.Content, "Takebacks: in casual games only") || !strings.Contains(resp.Content, "Arbiters: Manage Server (/arbiter role adds a role)") {
		t.Fatalf("show: %+v, %v", resp, err)
	}
	resp, err = w.ask(s.Handle, "admin", "settings", "takebacks", nil, boolOpt("rated", true))
	if err != nil || !strings.Contains(resp.Content, "Takebacks: in casual and rated games") {
		t.Fatalf("takebacks rated:true: %+v, %v", resp, err)
	}
	if gs, _ := w.d.Games.Settings().FreshGuild(context.Background(), "g1"); !gs.RatedTakebacks {
		t.Error("not saved")
	}
}

func TestDrawOfferCommandGoesWithTheMove(t *testing.T) {
	w := newRulesWorld(t, false, "e4", "e5")
	draw := NewDraw(w.d)
	// White to move: the offer waits for the move, privately.
	resp, err := w.ask(draw.Handle, alice.ID, "draw", "offer", nil)
	if err != nil || !resp.Ephemeral || !strings.Contains(resp.Content, "goes with your next move") || len(resp.Mentions) != 0 {
		t.Fatalf("offer on one's own turn: %+v, %v", resp, err)
	}
	if w.d.Ledger.Consume(GamePost(1, 2, EventDraw)) {
		t.Error("an offer waiting for its move reserved a draw-offer post")
	}
	if _, err := w.d.Games.Move(context.Background(), games.MoveRequest{Action: games.Action{GameID: 1, UserID: alice.ID}, Move: "Nf3"}); err != nil {
		t.Fatal(err)
	}
	if g := mustGame(t, w.d, 1); !g.DrawOffer.Pending {
		t.Fatal("the offer did not come with the move")
	}
	if _, err := w.ask(draw.Handle, bob.ID, "draw", "decline", nil); err != nil {
		t.Fatal(err)
	}
	// Black moves, thinks it over for a minute while White thinks, and offers: refused.
	if _, err := w.d.Games.Move(context.Background(), games.MoveRequest{Action: games.Action{GameID: 1, UserID: bob.ID}, Move: "Nc6"}); err != nil {
		t.Fatal(err)
	}
	w.clk.Advance(time.Minute)
	_, err = w.ask(draw.Handle, bob.ID, "draw", "offer", nil)
	if err == nil || !strings.Contains(UserMessage(err), "Your opponent is thinking: a draw is offered with your own move (FIDE 9.1.2.1)") {
		t.Errorf("offer in the opponent's time: %v", err)
	}
	// The board's Offer draw button says the same.
	id := NewCustomID("game", 1, 4, actionDrawOffer)
	_, err = w.ask(draw.Components()["game/"+actionDrawOffer], bob.ID, "", "", &id)
	if err == nil || !strings.Contains(UserMessage(err), "Your opponent is thinking") {
		t.Errorf("the button in the opponent's time: %v", err)
	}
}

func TestResignBeforeBothMovedAborts(t *testing.T) {
	w := newRulesWorld(t, true, "e4")
	r := NewResign(w.d)
	resp, err := w.ask(r.Handle, bob.ID, "resign", "", nil)
	if err != nil || !strings.Contains(resp.Content, "Until both sides have moved, resigning calls the game off: no result, no rating change") {
		t.Fatalf("/resign at ply 1: %+v, %v", resp, err)
	}
	id := NewCustomID("game", 1, 1, actionResignConfirm)
	resp, err = w.ask(r.Components()["game/"+actionResignConfirm], bob.ID, "", "", &id)
	if err != nil || !strings.Contains(resp.Content, "Black resigned before both sides had moved: the game is aborted, with no result and no rating change.") ||
		!strings.Contains(resp.Content, "aborted · no result") {
		t.Fatalf("confirmed: %+v, %v", resp, err)
	}
}
