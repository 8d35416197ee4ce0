package commands

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// scanCountingStore counts the reads that decode every live game of every server.
type scanCountingStore struct {
	storage.Store
	scans *atomic.Int64
}

func (s scanCountingStore) View(ctx context.Context, fn func(tx storage.Tx) error) error {
	return s.Store.View(ctx, func(tx storage.Tx) error { return fn(scanCountingTx{tx, s.scans}) })
}

type scanCountingTx struct {
	storage.Tx
	scans *atomic.Int64
}

func (t scanCountingTx) OpenGames() ([]*storage.Game, error) {
	t.scans.Add(1)
	return t.Tx.OpenGames()
}

// TestCompletionsReadOnlyTheUsersGames: an autocomplete request (sent at every
// keystroke) reads the user's own games through the index by user, never every live
// game: not for a spectator typing in a game's thread, not after a restart that forgot
// the threads.
func TestCompletionsReadOnlyTheUsersGames(t *testing.T) {
	ctx := context.Background()
	var scans atomic.Int64
	db := scanCountingStore{storagetest.Open(t), &scans}
	clk := timers.NewManualClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	gs, err := games.New(db, games.Options{Clock: clk, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gs.Close() })
	for i, where := range []string{"g1", "g2"} {
		res, err := gs.StartGame(ctx, games.StartRequest{GuildID: where, ChannelID: "c" + where, White: alice, Black: bob, Control: "-"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := gs.SetGameThread(ctx, res.Game.ID, []string{"t1", "t2"}[i]); err != nil {
			t.Fatal(err)
		}
	}
	d := &Deps{Games: gs, Now: clk.Now} // a fresh process: no thread known
	scans.Store(0)                      // the service's start-up read
	complete := func(a asker, c Autocompleter, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) []*discordgo.ApplicationCommandOptionChoice {
		t.Helper()
		r := a.request("", nil, opts...)
		r.Interaction.Type = discordgo.InteractionApplicationCommandAutocomplete
		r.Sub = sub
		for _, o := range opts {
			if o.Focused {
				r.Focused = o
			}
		}
		choices, err := c.Autocomplete(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		return choices
	}
	focused := func(o *discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
		o.Focused = true
		return o
	}
	spectator := asker{"a spectator in the thread", "u3", "g1", "t1", false}
	if got := complete(spectator, NewMove(d), "", focused(strOpt("move", "e"))); len(got) != 0 {
		t.Errorf("a spectator is offered moves: %v", got)
	}
	if got := complete(spectator, NewDraw(d), "claim", focused(strOpt("move", "e"))); len(got) != 0 {
		t.Errorf("a spectator is offered claims: %v", got)
	}
	complete(spectator, NewPGN(d), "", focused(intOpt("game", 0)))
	complete(spectator, NewAnalyze(d), "", focused(intOpt("game", 0)))
	white := asker{"White in the thread", alice.ID, "g1", "t1", true}
	if got := complete(white, NewMove(d), "", focused(strOpt("move", "e"))); len(got) != 2 {
		t.Errorf("White is offered %d moves starting with e, want e3 and e4", len(got))
	}
	if n := scans.Load(); n != 0 {
		t.Errorf("completions read every live game %d times", n)
	}
}
