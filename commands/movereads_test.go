package commands

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/settings"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// countingStore is a real store that counts the reads of settings and preferences
// made in its read transactions (View, which storage.Read uses), and can claim to be
// shared with other processes, as a PostgreSQL store is.
type countingStore struct {
	storage.Store
	shared   bool
	views    atomic.Int64 // read transactions
	settings atomic.Int64 // guild settings read in them
	users    atomic.Int64 // user records (preferences) read in them
}

func (s *countingStore) View(ctx context.Context, fn func(tx storage.Tx) error) error {
	s.views.Add(1)
	return s.Store.View(ctx, func(tx storage.Tx) error { return fn(countingTx{tx, s}) })
}

func (s *countingStore) Shared() bool { return s.shared || s.Store.Shared() }

// countingTx counts the reads of a countingStore's read transaction.
type countingTx struct {
	storage.Tx
	s *countingStore
}

func (tx countingTx) GuildSettings(guildID string) (storage.GuildSettings, error) {
	tx.s.settings.Add(1)
	return tx.Tx.GuildSettings(guildID)
}

func (tx countingTx) User(id string) (storage.User, error) {
	tx.s.users.Add(1)
	return tx.Tx.User(id)
}

// readCounts are the reads counted since reset.
type readCounts struct{ views, settings, users int64 }

func (s *countingStore) reset() readCounts {
	return readCounts{s.views.Swap(0), s.settings.Swap(0), s.users.Swap(0)}
}

// moveWorld is game 1 between alice (White) and bob (Black) in g1, thread t1, on a
// counting bbolt store, where pings on the player's turn are on (so a move's answer
// needs the mover's opponent's preferences).
type moveWorld struct {
	t   *testing.T
	db  *countingStore
	clk *timers.ManualClock
	d   *Deps
	seq int
}

func newMoveWorld(t *testing.T, shared bool) *moveWorld {
	t.Helper()
	db := &countingStore{Store: storagetest.Open(t), shared: shared}
	clk := timers.NewManualClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	gs, err := games.New(db, games.Options{Clock: clk, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gs.Close() })
	ctx := context.Background()
	if _, err := gs.StartGame(ctx, games.StartRequest{GuildID: "g1", ChannelID: "c1", White: alice, Black: bob, Control: "-"}); err != nil {
		t.Fatal(err)
	}
	if _, err := gs.SetGameThread(ctx, 1, "t1"); err != nil {
		t.Fatal(err)
	}
	return &moveWorld{t: t, db: db, clk: clk, d: &Deps{Games: gs, Now: clk.Now, Outbox: &placedOutbox{}, Ledger: NewPostLedger(clk.Now)}}
}

// move answers /move san from the player to move, in the game's thread, and returns
// the reads the answer made.
func (w *moveWorld) move(san string) readCounts {
	w.t.Helper()
	w.lastAnswer(san)
	return w.db.reset()
}

// lastAnswer answers /move san from the player to move, in the game's thread, and
// returns the answer; the reads it made are counted from zero.
func (w *moveWorld) lastAnswer(san string) *Response {
	w.t.Helper()
	w.seq++
	user := []storage.Player{alice, bob}[(w.seq+1)%2]
	r := &Request{
		Interaction: &discordgo.Interaction{ID: fmt.Sprint("move-", w.seq), Type: discordgo.InteractionApplicationCommand},
		GuildID:     "g1", ChannelID: "t1", User: &discordgo.User{ID: user.ID, Username: user.Name},
		Name: "move", Options: []*discordgo.ApplicationCommandInteractionDataOption{strOpt("move", san)},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	w.db.reset()
	resp, err := NewMove(w.d).Handle(context.Background(), r)
	if err != nil {
		w.t.Fatalf("/move %s by %s: %v", san, user.Name, err)
	}
	if resp.Ephemeral || !strings.Contains(resp.Content, san) || len(resp.Files) == 0 {
		w.t.Fatalf("/move %s by %s answered %+v, want the public board", san, user.Name, resp)
	}
	return resp
}

// TestMoveAnswerReadsNoSettings: once the server's settings and the players'
// preferences have been read, the answer to a move reads neither from the store: it
// takes them from the settings owner's memory.
func TestMoveAnswerReadsNoSettings(t *testing.T) {
	w := newMoveWorld(t, false)
	first := w.move("e4") // reads the guild's settings and bob's preferences once
	w.move("e5")          // and alice's
	for _, san := range []string{"Nf3", "Nc6", "Bb5", "a6"} {
		got := w.move(san)
		t.Logf("/move %s: %d read transactions, %d guild settings, %d users read (the first move: %+v)", san, got.views, got.settings, got.users, first)
		if got.settings != 0 || got.users != 0 {
			t.Errorf("/move %s read the guild's settings %d times and user records %d times, want 0 and 0", san, got.settings, got.users)
		}
	}
}

// TestMoveAnswerOnASharedStore: on a store other processes share, a move's answer
// reads the settings and preferences again once they are settings.DefaultTTL old, and
// not before; a change made through /settings shows in the next answer at once.
func TestMoveAnswerOnASharedStore(t *testing.T) {
	w := newMoveWorld(t, true)
	w.move("e4")
	w.move("e5")
	if got := w.move("Nf3"); got.settings != 0 || got.users != 0 {
		t.Errorf("within the TTL, /move read the settings %d times and users %d times, want none", got.settings, got.users)
	}
	w.clk.Advance(settings.DefaultTTL)
	if got := w.move("Nc6"); got.settings != 1 || got.users != 1 {
		t.Errorf("after the TTL, /move read the settings %d times and users %d times, want once each", got.settings, got.users)
	}
	if resp := w.lastAnswer("Bb5"); !strings.Contains(resp.Content, "<@"+bob.ID+">") {
		t.Errorf("with pings on the player's turn, the answer does not mention bob: %q", resp.Content)
	}
	if got := w.db.reset(); got.settings != 0 {
		t.Errorf("just after reading them again, /move read the settings %d times", got.settings)
	}
	admin := &Request{
		Interaction: &discordgo.Interaction{ID: "settings-pings", Type: discordgo.InteractionApplicationCommand},
		GuildID:     "g1", ChannelID: "c1", User: &discordgo.User{ID: "u9", Username: "admin"}, Permissions: discordgo.PermissionManageGuild,
		Name: "settings", Sub: "pings", Options: []*discordgo.ApplicationCommandInteractionDataOption{boolOpt("on_turn", false)},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if _, err := NewSettings(w.d).Handle(context.Background(), admin); err != nil {
		t.Fatal(err)
	}
	if resp := w.lastAnswer("a6"); strings.Contains(resp.Content, "<@") || len(resp.Mentions) != 0 {
		t.Errorf("after /settings pings on_turn:false, the answer still mentions the player to move: %q", resp.Content)
	}
}
