package commands

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// The people of the visibility tests: alice and bob play game 1 in guild g1 (channel
// c1, thread t1); carol is a member of g1 and of g2; dave of g2 only.
var (
	alice = storage.Player{ID: "u1", Name: "alice"}
	bob   = storage.Player{ID: "u2", Name: "bob"}
)

// asker is who asks, and from where.
type asker struct {
	name             string
	user             string
	guild, channel   string
	wantsGameVisible bool
}

var (
	outsiderInOtherGuild = asker{"a member of another server", "u4", "g2", "c2", false}
	outsiderInDM         = asker{"a stranger in a direct message", "u4", "", "dm4", false}
	memberInDM           = asker{"a member of the game's server in a direct message", "u3", "", "dm3", false}
	memberInGuild        = asker{"a member of the game's server", "u3", "g1", "c1", true}
	playerInOtherGuild   = asker{"a player in another server", "u2", "g2", "c2", true}
	playerInDM           = asker{"a player in a direct message", "u1", "", "dm1", true}
)

var askers = []asker{outsiderInOtherGuild, outsiderInDM, memberInDM, memberInGuild, playerInOtherGuild, playerInDM}

// request is a slash command (or, with id set, a component) from a.
func (a asker) request(name string, id *CustomID, opts ...*discordgo.ApplicationCommandInteractionDataOption) *Request {
	r := &Request{
		Interaction: &discordgo.Interaction{ID: fmt.Sprintf("i-%s-%s-%s", name, a.user, a.channel), Type: discordgo.InteractionApplicationCommand},
		GuildID:     a.guild, ChannelID: a.channel, User: &discordgo.User{ID: a.user, Username: a.user},
		Name: name, Options: opts, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if id != nil {
		r.Interaction.Type = discordgo.InteractionMessageComponent
		r.ID, r.Name = *id, id.Route()
	}
	return r
}

// visibilityDeps is a Deps with an engine and, when played, game 1 (alice White, bob
// Black) in g1, its thread t1, after 1. e4 e5 2. Bc4 (so Black is to move). Without
// it, game 1 does not exist: the world the hidden game must look like.
func visibilityDeps(t *testing.T, played bool) *Deps {
	t.Helper()
	d := engineDeps(t)
	if !played {
		return d
	}
	ctx := context.Background()
	res, err := d.Games.StartGame(ctx, games.StartRequest{GuildID: "g1", ChannelID: "c1", White: alice, Black: bob, Control: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Game.ID != 1 {
		t.Fatalf("the first game is %d", res.Game.ID)
	}
	if _, err := d.Games.SetGameThread(ctx, 1, "t1"); err != nil {
		t.Fatal(err)
	}
	for i, san := range []string{"e4", "e5", "Bc4"} {
		p := []storage.Player{alice, bob}[i%2]
		if _, err := d.Games.Move(ctx, games.MoveRequest{Action: games.Action{GameID: 1, UserID: p.ID}, Move: san}); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// handlers returns every slash command and component handler of d, by name and route.
func handlers(d *Deps) map[string]Handler {
	out := map[string]Handler{}
	for _, c := range All(d) {
		out[c.Definition().Name] = c.Handle
		if cp, ok := c.(Componenter); ok {
			for route, h := range cp.Components() {
				out[route] = h
			}
		}
	}
	return out
}

// lookup is one way to ask for game 1.
type lookup struct {
	name string
	// route is the command's name or the component's route.
	route string
	id    *CustomID
	opts  []*discordgo.ApplicationCommandInteractionDataOption
	// values are a select menu's choice.
	values []string
}

func gameLookups() []lookup {
	game1 := []*discordgo.ApplicationCommandInteractionDataOption{intOpt("game", 1)}
	id := func(action string, args ...string) *CustomID {
		c := NewCustomID("game", 1, 3, action, args...)
		return &c
	}
	return []lookup{
		{name: "/pgn game:1", route: "pgn", opts: game1},
		{name: "/fen game:1", route: "fen", opts: game1},
		{name: "/board game:1", route: "board", opts: game1},
		{name: "/analyze game:1", route: "analyze", opts: game1},
		{name: "/resign game:1", route: "resign", opts: game1},
		{name: "/move Nf6 game:1", route: "move", opts: append([]*discordgo.ApplicationCommandInteractionDataOption{strOpt("move", "Nf6")}, game1...)},
		{name: "My board button", route: "game/" + actionBoard, id: id(actionBoard)},
		{name: "Resign button", route: "game/" + actionResign, id: id(actionResign)},
		{name: "Offer draw button", route: "game/" + actionDrawOffer, id: id(actionDrawOffer)},
		{name: "Abort button", route: "game/" + actionAbort, id: id(actionAbort)},
		{name: "piece menu", route: "game/" + actionPick, id: id(actionPick), values: []string{"g8"}},
		{name: "destination menu", route: "game/" + actionTo, id: id(actionTo, "g8"), values: []string{"f6"}},
	}
}

// TestHiddenGameAnswersAsMissing: asked by someone who may not see it (not in its
// server, not a player), every lookup of a game by number, typed or from a button,
// gets exactly the answer given when no such game exists; asked by someone who may,
// it is not refused as missing.
func TestHiddenGameAnswersAsMissing(t *testing.T) {
	ctx := context.Background()
	played, none := visibilityDeps(t, true), visibilityDeps(t, false)
	withGame, withoutGame := handlers(played), handlers(none)
	for _, l := range gameLookups() {
		for _, a := range askers {
			t.Run(l.name+" by "+a.name, func(t *testing.T) {
				ask := func(hs map[string]Handler) (*Response, error) {
					r := a.request(l.route, l.id, l.opts...)
					r.Values = l.values
					h, ok := hs[l.route]
					if !ok {
						t.Fatalf("no handler %q", l.route)
					}
					return h(ctx, r)
				}
				got, err := ask(withGame)
				_, missingErr := ask(withoutGame)
				if missingErr == nil || !strings.Contains(UserMessage(missingErr), "no such game") && !strings.Contains(UserMessage(missingErr), "no game 1") {
					t.Fatalf("without game 1 the answer is %v", missingErr)
				}
				if a.wantsGameVisible {
					if err != nil && UserMessage(err) == UserMessage(missingErr) {
						t.Errorf("game 1 is hidden from %s: %q", a.name, UserMessage(err))
					}
					return
				}
				if err == nil {
					t.Fatalf("game 1 was shown to %s: %q", a.name, got.Content)
				}
				if UserMessage(err) != UserMessage(missingErr) {
					t.Errorf("hidden game: %q\nmissing game: %q", UserMessage(err), UserMessage(missingErr))
				}
			})
		}
	}
}

// TestGamesListsOnlyVisibleGames: /games where:channel in a channel lists the games
// of that channel the asker may see, and /games lists the asker's own.
func TestGamesListsOnlyVisibleGames(t *testing.T) {
	ctx := context.Background()
	d := visibilityDeps(t, true)
	c := NewGames(d)
	for _, tc := range []struct {
		a    asker
		opts []*discordgo.ApplicationCommandInteractionDataOption
		want bool
	}{
		{memberInGuild, []*discordgo.ApplicationCommandInteractionDataOption{strOpt("where", "channel")}, true},
		{playerInDM, nil, true},
		{outsiderInOtherGuild, []*discordgo.ApplicationCommandInteractionDataOption{strOpt("where", "channel")}, false},
		{outsiderInOtherGuild, nil, false},
	} {
		resp, err := c.Handle(ctx, tc.a.request("games", nil, tc.opts...))
		if err != nil {
			t.Fatalf("%s: %v", tc.a.name, err)
		}
		if got := strings.Contains(resp.Content, "**1**"); got != tc.want {
			t.Errorf("/games %v by %s lists game 1: %v, want %v\n%s", tc.opts, tc.a.name, got, tc.want, resp.Content)
		}
	}
}

// TestExportedPGNNamesNoServer: the PGN of /pgn and of the game-over message names no
// server.
func TestExportedPGNNamesNoServer(t *testing.T) {
	ctx := context.Background()
	d := visibilityDeps(t, true)
	resp, err := NewPGN(d).Handle(ctx, playerInDM.request("pgn", nil, intOpt("game", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Games.Resign(ctx, games.Action{GameID: 1, UserID: bob.ID}); err != nil {
		t.Fatal(err)
	}
	g, err := d.Games.Game(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	over, err := d.GameOverMessage(ctx, g, "")
	if err != nil {
		t.Fatal(err)
	}
	for name, files := range map[string][]File{"/pgn": resp.Files, "game over": over.Files} {
		var pgn string
		for _, f := range files {
			if strings.HasSuffix(f.Name, ".pgn") {
				pgn = string(f.Data)
			}
		}
		if pgn == "" {
			t.Fatalf("%s: no PGN file", name)
		}
		if strings.Contains(pgn, "g1") || !strings.Contains(pgn, `[Site "Gambit on Discord"]`) || !strings.Contains(pgn, `[GameId "1"]`) || !strings.Contains(pgn, "1. e4 e5 2. Bc4") {
			t.Errorf("%s PGN:\n%s", name, pgn)
		}
	}
}

// TestChallengeButtonsAnswerInTheirServer: a crafted custom ID naming an open
// challenge of another server is answered as a challenge that does not exist, and the
// challenge stays open.
func TestChallengeButtonsAnswerInTheirServer(t *testing.T) {
	ctx := context.Background()
	d := visibilityDeps(t, false)
	res, err := d.Games.CreateChallenge(ctx, games.ChallengeRequest{RequestID: "c", GuildID: "g1", ChannelID: "c1", From: alice, Control: "5+3"})
	if err != nil {
		t.Fatal(err)
	}
	hs := handlers(d)
	for _, action := range []string{"accept", "decline", "cancel"} {
		missing := NewCustomID("challenge", res.Challenge.ID+100, 0, action)
		_, missingErr := hs["challenge/"+action](ctx, outsiderInOtherGuild.request("", &missing))
		id := NewCustomID("challenge", res.Challenge.ID, 0, action)
		for _, a := range []asker{outsiderInOtherGuild, outsiderInDM} {
			_, err := hs["challenge/"+action](ctx, a.request("", &id))
			if err == nil || missingErr == nil || UserMessage(err) != UserMessage(missingErr) {
				t.Errorf("%s by %s: %v, for a missing challenge %v", action, a.name, err, missingErr)
			}
		}
	}
	c, err := d.Games.Challenge(ctx, res.Challenge.ID)
	if err != nil || c.Status != storage.ChallengePending {
		t.Fatalf("the challenge is %v (%v)", c.Status, err)
	}
	id := NewCustomID("challenge", res.Challenge.ID, 0, "accept")
	resp, err := hs["challenge/accept"](ctx, memberInGuild.request("", &id))
	if err != nil || !strings.Contains(resp.Content, "accepted") {
		t.Fatalf("a member of the challenge's server cannot accept: %v", err)
	}
}
