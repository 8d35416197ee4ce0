package commands

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// engineDeps is a Deps with a game service and an engine (whose workers do not run:
// the handlers only start games and analyse).
func engineDeps(t *testing.T) *Deps {
	t.Helper()
	db, clk, gs, quiet := testServices(t)
	eng, err := engineplay.New(t.Context(), db, engineplay.Options{Clock: clk, Logger: quiet, AnalysisNodes: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Bind(context.Background(), gs, "900"); err != nil {
		t.Fatal(err)
	}
	return &Deps{Games: gs, Engine: eng, Now: clk.Now}
}

func engineRequest(name, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *Request {
	return &Request{
		Interaction: &discordgo.Interaction{ID: "i-" + name + time.Now().String(), Type: discordgo.InteractionApplicationCommand},
		GuildID:     "g1", ChannelID: "c1", User: &discordgo.User{ID: "u1", Username: "alice"},
		Name: name, Sub: sub, Options: opts, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
}

func engIntOpt(name string, v int) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: float64(v)}
}

func engStrOpt(name, v string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: v}
}

func TestPlayBot(t *testing.T) {
	d := engineDeps(t)
	c := NewPlay(d)
	resp, err := c.Handle(context.Background(), engineRequest("play", "bot", engIntOpt("level", 4), engStrOpt("time", "3+2"), engStrOpt("color", "black")))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Ephemeral || !strings.Contains(resp.Content, "plays the engine at level 4, with Black · 3+2 · unrated") || len(resp.Mentions) != 0 {
		t.Errorf("/play bot: %+v", resp)
	}
	list, _ := d.Games.GamesByUser(context.Background(), "u1", storage.Query{})
	if len(list) != 1 || list[0].White.ID != "900" || list[0].Rated || list[0].ChannelID != "c1" {
		t.Fatalf("games of alice: %+v", list)
	}
	// Without a time, the guild's default control: the game service's 10+5, as the guild
	// chose none and no other default is configured.
	resp, err = c.Handle(context.Background(), engineRequest("play", "bot"))
	if err != nil || !strings.Contains(resp.Content, "level 3") || !strings.Contains(resp.Content, "· 10+5 ·") {
		t.Errorf("/play bot without options: %v %+v", err, resp)
	}
	// Two live games against the engine are the most (engine.max_games_per_user).
	if _, err := c.Handle(context.Background(), engineRequest("play", "bot")); err == nil ||
		UserMessage(err) != "You already have 2 games against the engine: finish or resign one first (list with /games)." {
		t.Errorf("a third game against the engine: %v", err)
	}
}

func TestPlayBotRefusals(t *testing.T) {
	d := engineDeps(t)
	for _, c := range []struct {
		name string
		deps *Deps
		req  *Request
		want string
	}{
		{"level too high", d, engineRequest("play", "bot", engIntOpt("level", 9)), "There is no level 9: choose a level from 1 (beginner) to 8 (full strength)."},
		{"level too low", d, engineRequest("play", "bot", engIntOpt("level", 0)), "There is no level 0"},
		{"unknown time", d, engineRequest("play", "bot", engStrOpt("time", "fast")), `I do not know the time control "fast"`},
		{"no engine", &Deps{}, engineRequest("play", "bot"), "not available"},
		{"in a DM", d, func() *Request { r := engineRequest("play", "bot"); r.GuildID = ""; return r }(), "server channel"},
		{"draining", &Deps{Engine: d.Engine, Games: d.Games, Draining: func() bool { return true }}, engineRequest("play", "bot"), "restarting"},
	} {
		_, err := NewPlay(c.deps).Handle(context.Background(), c.req)
		if err == nil || !strings.Contains(UserMessage(err), c.want) {
			t.Errorf("%s: %v, want a message containing %q", c.name, err, c.want)
		}
	}
}

func TestAnalyzeCommand(t *testing.T) {
	d := engineDeps(t)
	ctx := context.Background()
	alice, bob := storage.Player{ID: "u1", Name: "alice"}, storage.Player{ID: "u2", Name: "bo_b"}
	res, err := d.Games.StartGame(ctx, games.StartRequest{GuildID: "g1", ChannelID: "c1", White: alice, Black: bob, Control: "-"})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Game.ID
	c := NewAnalyze(d)
	if _, err := c.Handle(ctx, engineRequest("analyze", "", engIntOpt("game", int(id)))); err == nil || !strings.Contains(UserMessage(err), "still being played") {
		t.Errorf("analysis of a live game: %v", err)
	}
	for i, san := range []string{"f3", "e5", "g4", "Qh4#"} {
		p := alice
		if i%2 == 1 {
			p = bob
		}
		if _, err := d.Games.Move(ctx, games.MoveRequest{Action: games.Action{GameID: id, UserID: p.ID}, Move: san}); err != nil {
			t.Fatal(err)
		}
	}
	// Without a game number: the user's last finished game.
	resp, err := c.Handle(ctx, engineRequest("analyze", ""))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Analysis of game 1", "bo\\_b (Black)", "📖 A00 Barnes Opening\\: Fool's Mate\n", "White (alice): accuracy **",
		"Black (bo\\_b): accuracy **100.0%** · 0 inaccuracies, 0 mistakes, 0 blunders", "**Critical moments**", "**g4??** blunder", "#-1", "better **", "1 blunder"} {
		if !strings.Contains(resp.Content, want) {
			t.Errorf("/analyze content lacks %q:\n%s", want, resp.Content)
		}
	}
	if len(resp.Files) != 4 {
		t.Fatalf("%d files", len(resp.Files))
	}
	for i, name := range []string{"review.png", "evaluation.png"} {
		if f := resp.Files[i]; f.Name != name || !strings.HasPrefix(string(f.Data[1:4]), "PNG") {
			t.Errorf("file %d is %q, want the picture %s", i, f.Name, name)
		}
	}
	pgn := string(resp.Files[3].Data)
	pg, err := chesscore.ParsePGN(pgn, dead.Decider{})
	if err != nil {
		t.Fatalf("the annotated PGN does not read back: %v\n%s", err, pgn)
	}
	if g4 := pg.Moves[2]; len(g4.NAGs) != 1 || g4.NAGs[0] != 4 || !strings.Contains(g4.Comment, "[%eval #-1] Blunder. Better was") {
		t.Errorf("g4 in the annotated PGN: %+v\n%s", g4, pgn)
	}
	if pg.Tags["ECO"] != "A00" || pg.Tags["Opening"] != "Barnes Opening: Fool's Mate" {
		t.Errorf("the annotated PGN's opening tags: %q %q", pg.Tags["ECO"], pg.Tags["Opening"])
	}
	if !strings.Contains(pgn, `[Annotator "Gambit engine"]`) || !strings.Contains(pgn, "0-1") {
		t.Errorf("annotated PGN:\n%s", pgn)
	}
	table := string(resp.Files[2].Data)
	if !strings.Contains(table, "2.       g4??") || !strings.Contains(table, "blunder") || !strings.Contains(table, "Opening: A00 Barnes Opening: Fool's Mate") ||
		!strings.Contains(table, "Black: accuracy 100.0%") || strings.Count(table, "\n") < 8 {
		t.Errorf("table:\n%s", table)
	}
	if _, err := c.Handle(ctx, engineRequest("analyze", "", engIntOpt("game", 77))); err == nil || !strings.Contains(UserMessage(err), "There is no game 77") {
		t.Errorf("analysis of no game: %v", err)
	}
	other := engineRequest("analyze", "")
	other.User = &discordgo.User{ID: "u3", Username: "carol"}
	if _, err := c.Handle(ctx, other); err == nil || !strings.Contains(UserMessage(err), "no finished game") {
		t.Errorf("analysis for a user without games: %v", err)
	}
	if _, err := NewAnalyze(&Deps{}).Handle(ctx, engineRequest("analyze", "")); err == nil || !strings.Contains(UserMessage(err), "not available") {
		t.Errorf("analysis without an engine: %v", err)
	}
	// Autocomplete offers the finished game.
	choices, err := c.Autocomplete(ctx, engineRequest("analyze", ""))
	if err != nil || len(choices) != 1 || !strings.HasPrefix(choices[0].Name, "Game 1 · alice vs bo_b") {
		t.Errorf("autocomplete: %v %+v", err, choices)
	}
}

func TestEvalText(t *testing.T) {
	for _, c := range []struct {
		s    engine.Score
		want string
	}{
		{35, "+0.35"}, {-120, "-1.20"}, {0, "+0.00"},
		{engine.MateScore - 1, "#1"}, {engine.MateScore - 5, "#3"}, {-(engine.MateScore - 1), "#-1"},
		{-(engine.MateScore - 4), "#-2"}, {-engine.MateScore, "#0"},
	} {
		if got := evalText(c.s); got != c.want {
			t.Errorf("evalText(%d) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestMoveLabel(t *testing.T) {
	std := chesscore.StartPosition()
	blackFirst, err := chesscore.ParseFEN("4k3/8/8/8/8/8/8/4K3 b - - 0 20")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		start chesscore.Position
		ply   int
		want  string
	}{
		{std, 0, "1."}, {std, 1, "1…"}, {std, 2, "2."}, {std, 9, "5…"},
		{blackFirst, 0, "20…"}, {blackFirst, 1, "21."}, {blackFirst, 2, "21…"},
	} {
		if got := moveLabel(c.start, c.ply); got != c.want {
			t.Errorf("moveLabel(%s, %d) = %q, want %q", c.start.FEN(), c.ply, got, c.want)
		}
	}
}

// TestPlayLevelChoices checks /play bot's level option: one choice per level, each
// with the calibrated rating.
func TestPlayLevelChoices(t *testing.T) {
	def := NewPlay(&Deps{}).Definition()
	var level *discordgo.ApplicationCommandOption
	for _, o := range def.Options[0].Options {
		if o.Name == "level" {
			level = o
		}
	}
	if level == nil || len(level.Choices) != engine.MaxLevel {
		t.Fatalf("level option %+v: want %d choices", level, engine.MaxLevel)
	}
	for i, c := range level.Choices {
		l, _ := engine.LevelByNumber(i + 1)
		if c.Value != i+1 || !strings.Contains(c.Name, fmt.Sprintf("about %d Elo", l.Rating)) || len(c.Name) > 100 {
			t.Errorf("choice %d: %q = %v", i+1, c.Name, c.Value)
		}
	}
	if !strings.Contains(level.Choices[engine.MaxLevel-1].Name, "full strength") {
		t.Errorf("level 8 is %q", level.Choices[engine.MaxLevel-1].Name)
	}
}
