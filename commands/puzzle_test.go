package commands

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/puzzles"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// puzzleDeps is a Deps with a store holding one mate in one with two mating moves
// (Rd8# and Ra8#) and a two-move line.
func puzzleDeps(t *testing.T) (*Deps, *timers.ManualClock) {
	t.Helper()
	db := storagetest.Open(t)
	clk := timers.NewManualClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	_, err := storage.Write(t.Context(), db, func(tx storage.Tx) (int, error) {
		return tx.AddPuzzles([]*storage.Puzzle{
			{ID: "mate1", FEN: "6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1", Moves: []string{"g8h8", "d1d8"}, Rating: 900, RD: 80, Source: "test",
				White: "1", Black: "2", Played: clk.Now().Add(-9 * 24 * time.Hour)},
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	gs, err := games.New(db, games.Options{Clock: clk, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gs.Close() })
	ps, err := puzzles.New(db, puzzles.Options{Clock: clk, Logger: quiet, NoStarter: true, Mine: puzzles.MineOptions{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ps.Close() })
	return &Deps{Games: gs, Puzzles: ps, Now: clk.Now}, clk
}

func puzzleRequest(sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *Request {
	return &Request{
		Interaction: &discordgo.Interaction{ID: "i-" + sub + time.Now().String(), Type: discordgo.InteractionApplicationCommand},
		GuildID:     "g1", ChannelID: "c1", User: &discordgo.User{ID: "u1", Username: "alice", GlobalName: "Alice"},
		Name: "puzzle", Sub: sub, Options: opts, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
}

func TestPuzzleCommandFlow(t *testing.T) {
	d, _ := puzzleDeps(t)
	c := NewPuzzle(d)
	ctx := context.Background()
	resp, err := c.Handle(ctx, puzzleRequest("today"))
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Ephemeral || !strings.Contains(resp.Content, "Puzzle of the day") || !strings.Contains(resp.Content, "**White to move**") ||
		!strings.Contains(resp.Content, "From <@1> vs <@2>, last week.") || len(resp.Files) != 1 || len(resp.Mentions) != 0 {
		t.Errorf("/puzzle today: %+v", resp)
	}
	// Autocomplete lists the legal moves that fit.
	r := puzzleRequest("solve", &discordgo.ApplicationCommandInteractionDataOption{Name: "move", Value: "R", Focused: true})
	r.Focused = r.Options[0]
	choices, err := c.Autocomplete(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ch := range choices {
		names = append(names, ch.Name)
	}
	if !strings.Contains(strings.Join(names, " "), "Rd8#") || !strings.Contains(strings.Join(names, " "), "Ra8#") {
		t.Errorf("autocomplete R: %v", names)
	}
	// Any mate solves a mate in one.
	resp, err = c.Handle(ctx, puzzleRequest("solve", &discordgo.ApplicationCommandInteractionDataOption{Name: "move", Value: "Ra8#"}))
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Ephemeral || !strings.Contains(resp.Content, "solved!") || !strings.Contains(resp.Content, "Daily streak: 1") ||
		!strings.Contains(resp.Content, "Puzzle rating: rating 1500 → ") {
		t.Errorf("/puzzle solve Ra8#: %q", resp.Content)
	}
	// An illegal move is refused, privately, and changes nothing.
	_, err = c.Handle(ctx, puzzleRequest("solve", &discordgo.ApplicationCommandInteractionDataOption{Name: "move", Value: "Qh5"}))
	if msg := UserMessage(err); !strings.Contains(msg, "cannot be played here") {
		t.Errorf("illegal move: %v (%q)", err, msg)
	}
	resp, err = c.Handle(ctx, puzzleRequest("stats"))
	if err != nil || !strings.Contains(resp.Content, "Solved at the first try: 1 of 1") || !strings.Contains(resp.Content, "Daily streak: 1 (best 1)") {
		t.Errorf("/puzzle stats: %v %+v", err, resp)
	}
	resp, err = c.Handle(ctx, puzzleRequest("leaderboard"))
	if err != nil || resp.Ephemeral || !strings.Contains(resp.Content, "1. Alice — **") {
		t.Errorf("/puzzle leaderboard: %v %+v", err, resp)
	}
	resp, err = c.Handle(ctx, puzzleRequest("hint"))
	if err != nil || !strings.Contains(resp.Content, "Move the piece on **d1**") {
		t.Errorf("/puzzle hint: %v %+v", err, resp)
	}
	r = puzzleRequest("today")
	r.GuildID = ""
	if _, err := c.Handle(ctx, r); !strings.Contains(UserMessage(err), "server") {
		t.Errorf("/puzzle in a DM: %v", err)
	}
	if _, err := NewPuzzle(&Deps{}).Handle(ctx, puzzleRequest("today")); !strings.Contains(UserMessage(err), "not available") {
		t.Errorf("/puzzle without the service: %v", err)
	}
}

func TestApplyPuzzleSettings(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	opt := func(name string, v any) *discordgo.ApplicationCommandInteractionDataOption {
		return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Value: v}
	}
	gs := storage.DefaultGuildSettings("g1")
	r := &Request{Options: []*discordgo.ApplicationCommandInteractionDataOption{opt("channel", "c9"), opt("time", "7:05"),
		opt("timezone", "Europe/Paris"), opt("min_rating", float64(1000)), opt("max_rating", float64(1800))}}
	if err := applyPuzzleSettings(r, &gs, now); err != nil {
		t.Fatal(err)
	}
	want := storage.PuzzleSettings{Channel: "c9", Time: "07:05", Zone: "Europe/Paris", MinRating: 1000, MaxRating: 1800, Since: now}
	if gs.Puzzle != want {
		t.Errorf("settings %+v, want %+v", gs.Puzzle, want)
	}
	// A change of ratings only keeps Since; a new time moves it.
	later := now.Add(time.Hour)
	if err := applyPuzzleSettings(&Request{Options: []*discordgo.ApplicationCommandInteractionDataOption{opt("max_rating", float64(2000))}}, &gs, later); err != nil || !gs.Puzzle.Since.Equal(now) {
		t.Errorf("ratings only: %v, since %v", err, gs.Puzzle.Since)
	}
	line := describePuzzleSettings(gs.Puzzle, now)
	if !strings.Contains(line, "in <#c9> at 07:05 Europe/Paris, rated 1000 to 2000 (next <t:") {
		t.Errorf("describe: %q", line)
	}
	if err := applyPuzzleSettings(&Request{Options: []*discordgo.ApplicationCommandInteractionDataOption{opt("off", true)}}, &gs, later); err != nil || gs.Puzzle.Channel != "" || !gs.Puzzle.Since.Equal(later) {
		t.Errorf("off: %v %+v", err, gs.Puzzle)
	}
	for _, bad := range []*discordgo.ApplicationCommandInteractionDataOption{opt("time", "25:00"), opt("timezone", "Mars/Base"), opt("min_rating", float64(3000))} {
		g := gs
		if err := applyPuzzleSettings(&Request{Options: []*discordgo.ApplicationCommandInteractionDataOption{bad}}, &g, now); err == nil || UserMessage(err) == "" {
			t.Errorf("%s=%v accepted", bad.Name, bad.Value)
		}
	}
}

func TestDailyMessage(t *testing.T) {
	p := &puzzle.Puzzle{ID: "mate1", FEN: "6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1", Moves: []string{"g8h8", "d1d8"}, Rating: 900,
		White: "1", Black: "2", Played: time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC)}
	l, err := p.Validate()
	if err != nil {
		t.Fatal(err)
	}
	var solvers []storage.DailySolver
	for i, n := range []string{"al*ce", "@everyone", "carol"} {
		solvers = append(solvers, storage.DailySolver{UserID: string(rune('a' + i)), Name: n, Clean: i != 1})
	}
	post := &puzzles.DailyPost{
		Day: &storage.Daily{GuildID: "g1", Date: "2026-03-01", PuzzleID: "mate1"}, Puzzle: p, Line: l,
		Previous: &puzzles.Recap{Day: &storage.Daily{Date: "2026-02-28", Solvers: solvers}, Puzzle: p, Line: l},
		Now:      time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC),
	}
	m, err := DailyMessage(post, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Sunday 1 March 2026", "**White to move**", "`mate1`, rated 900", "From <@1> vs <@2>, yesterday.",
		"Yesterday's solution** (`mate1`): ||2. Rd8#||", `Solved by al\*ce, @` + "\u200b" + `everyone and carol (2 at the first try).`} {
		if !strings.Contains(m.Content, want) {
			t.Errorf("post lacks %q:\n%s", want, m.Content)
		}
	}
	if m.Ephemeral || len(m.Mentions) != 0 || len(m.Files) != 1 {
		t.Errorf("post %+v", m)
	}
	if s := describeSolvers(nil); s != "Nobody solved it." {
		t.Errorf("no solvers: %q", s)
	}
	many := make([]storage.DailySolver, 20)
	for i := range many {
		many[i] = storage.DailySolver{Name: "x"}
	}
	if s := describeSolvers(many); !strings.Contains(s, "and 5 more (0 at the first try)") {
		t.Errorf("20 solvers: %q", s)
	}
}

func TestRatingNote(t *testing.T) {
	if got := ratingNote("Puzzle rating", 1500, 1531.6); got != "Puzzle rating: rating 1500 → 1532 (+32)." {
		t.Errorf("%q", got)
	}
	if got := ratingNote("Miss", 1500.2, 1420); got != "Miss: rating 1500 → 1420 (−80)." {
		t.Errorf("%q", got)
	}
}

func TestPuzzleOrigin(t *testing.T) {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		white, black string
		played       time.Time
		want         string
	}{
		{"1", "2", now.Add(-time.Hour), "From <@1> vs <@2>, today."},
		{"1", "2", now.Add(-30 * time.Hour), "From <@1> vs <@2>, yesterday."},
		{"1", "2", now.AddDate(0, 0, -3), "From <@1> vs <@2>, this week."},
		{"1", "2", now.AddDate(0, 0, -9), "From <@1> vs <@2>, last week."},
		{"1", "2", now.AddDate(0, 0, -22), "From <@1> vs <@2>, 3 weeks ago."},
		{"1", "2", now.AddDate(0, 0, -40), "From <@1> vs <@2>, last month."},
		{"1", "2", time.Date(2025, 3, 5, 0, 0, 0, 0, time.UTC), "From <@1> vs <@2>, in March 2025."},
		{"1", "2", now.Add(time.Hour), "From <@1> vs <@2>, today."},
		{"1", "2", time.Time{}, "From <@1> vs <@2>."},
		{"", "", now, ""},
		{"1", "", now, ""},
	}
	for _, c := range cases {
		p := &puzzle.Puzzle{White: c.white, Black: c.black, Played: c.played}
		if got := puzzleOrigin(p, now); got != c.want {
			t.Errorf("%q vs %q played %v: %q, want %q", c.white, c.black, c.played, got, c.want)
		}
	}
}
