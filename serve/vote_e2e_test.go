package serve

// The end-to-end story of vote chess (/vote): a server's team of three plays the
// engine, each move chosen by their votes, through the real wiring and the fake
// Discord.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/service/votechess"
	"github.com/gambitchess/gambit/storage/backend"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// votePost waits for the vote post of game id's vote on ply in thread and returns it.
func (w *world) votePost(thread string, id uint64, ply int) discordfake.Message {
	w.t.Helper()
	pick := fmt.Sprintf("v1/vote/%d/%d/pick", id, ply)
	var post discordfake.Message
	w.waitFor(fmt.Sprintf("the vote post of ply %d", ply), func() bool {
		for _, m := range w.f.Messages(thread) {
			if m.HasCustomID(pick) {
				post = m
				return true
			}
		}
		return false
	})
	return post
}

// pickVote votes with the vote post's menu and returns the answer.
func (w *world) pickVote(u *discordgo.User, thread, customID, move string) *discordfake.InteractionResult {
	w.t.Helper()
	return w.send(discordfake.Select(customID, move).From(u).In(w.f.GuildID, thread))
}

// closeVoteNow moves the clock to the open vote's end and closes it, then waits for
// the close's post in the thread.
func (w *world) closeVoteNow(r *running, thread string, id uint64, san string) {
	w.t.Helper()
	v, err := r.bot.Votes.Get(context.Background(), id, w.f.GuildID)
	if err != nil {
		w.t.Fatal(err)
	}
	w.clock.Set(v.Vote.Round.Closes)
	if n := r.bot.Votes.FireDue(context.Background()); n == 0 {
		w.t.Fatal("no vote was due at its close")
	}
	want := "the team plays **" + san + "**"
	w.waitFor("the close of the vote: "+want, func() bool {
		for _, m := range w.f.Messages(thread) {
			if strings.Contains(m.Content, want) && m.Kind == discordfake.KindChannel {
				return true
			}
		}
		return false
	})
}

// TestStoryVoteChess: three members play three moves by vote, on bbolt and on
// PostgreSQL.
func TestStoryVoteChess(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) { voteStory(t, newWorld(t)) })
	t.Run("postgres", func(t *testing.T) {
		dsn := storagetest.PostgresDSN(t)
		w := newWorld(t)
		w.cfg.Storage.Driver, w.cfg.Storage.DSN = backend.DriverPostgres, dsn
		voteStory(t, w)
	})
}

func voteStory(t *testing.T, w *world) {
	w.cfg.Engine.ReplyDelay = 0
	r := w.start()
	dave := w.f.NewUser("dave")
	threadsBefore := len(w.f.Threads())

	// Alice starts a vote game: the team plays White against level 1, an hour a vote.
	res := w.send(discordfake.Command("vote", discordfake.SubCommand("start",
		discordfake.IntOpt("level", 1), discordfake.StringOpt("color", "white"), discordfake.StringOpt("window", "1h"))).From(w.alice))
	d := res.Callback.Data
	if d.Ephemeral() || !strings.Contains(d.Content, "Vote chess") || !strings.Contains(d.Content, "level 1, with White") {
		t.Fatalf("/vote start answered %q", d.Content)
	}
	join := customID(t, d.CustomIDs(), "join")
	var thread string
	w.waitFor("the game's thread", func() bool {
		th := w.f.Threads()
		if len(th) > threadsBefore {
			thread = th[len(th)-1].ID
			return true
		}
		return false
	})
	var id uint64
	w.waitFor("the vote game played in the thread", func() bool {
		vs, err := r.bot.Votes.InChannel(context.Background(), w.f.GuildID, thread)
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) == 1 {
			id = vs[0].Game.ID
		}
		return id != 0
	})
	post := w.votePost(thread, id, 0)
	if !strings.Contains(post.Content, "move 1 for White") || !strings.Contains(post.Content, "0 ballots from 1 member") {
		t.Errorf("first vote post: %q", post.Content)
	}
	// The thread's first board is posted by the notifier, beside the vote post: wait for it.
	w.waitFor("the first board in the thread", func() bool { return len(w.messagesWith(thread, "board.png")) > 0 })
	if boards := w.messagesWith(thread, "board.png"); len(boards) != 1 || len(boards[0].CustomIDs()) != 0 || !strings.Contains(boards[0].Content, "chooses this move by vote") {
		t.Errorf("the first board: %d boards, %q, controls %v (a vote game's board has none)", len(boards), boards[0].Content, boards[0].CustomIDs())
	}
	pick0 := fmt.Sprintf("v1/vote/%d/0/pick", id)

	// Bob joins with the button, Carol with the command; Dave stays out.
	res = w.send(discordfake.Button(join).From(w.bob))
	if d := res.Callback.Data; !d.Ephemeral() || !strings.Contains(d.Content, "You are in the team") {
		t.Fatalf("bob's join: %q", d.Content)
	}
	res = w.send(discordfake.Command("vote", discordfake.SubCommand("join")).From(w.carol).In(w.f.GuildID, thread))
	if d := res.Callback.Data; !d.Ephemeral() || !strings.Contains(d.Content, "3 members") {
		t.Fatalf("carol's join: %q", d.Content)
	}
	res = w.send(discordfake.Button(join).From(w.bob))
	if d := res.Callback.Data; !d.Ephemeral() || !strings.Contains(d.Content, "already in the team") {
		t.Errorf("bob's second join: %q", d.Content)
	}

	// Move 1. Alice and Bob use the menu, whose answer is the post with the tally (no
	// names); Carol types hers, then changes her mind; Dave may not vote.
	res = w.pickVote(w.alice, thread, pick0, "e2e4")
	if cb := res.Callback; cb.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(cb.Data.Content, "1 ballot from 3 members: **e4** 1") ||
		strings.Contains(cb.Data.Content, "alice") {
		t.Fatalf("alice's ballot answered type %d: %q", cb.Type, cb.Data.Content)
	}
	w.pickVote(w.bob, thread, pick0, "d2d4")
	res = w.send(discordfake.Command("vote", discordfake.SubCommand("move", discordfake.StringOpt("move", "d4"))).From(w.carol).In(w.f.GuildID, thread))
	if d := res.Callback.Data; !d.Ephemeral() || !strings.Contains(d.Content, "Your vote for **d4** is in") {
		t.Fatalf("carol's typed ballot: %q", d.Content)
	}
	res = w.send(discordfake.Command("vote", discordfake.SubCommand("move", discordfake.StringOpt("move", "e4"))).From(w.carol).In(w.f.GuildID, thread))
	if d := res.Callback.Data; !strings.Contains(d.Content, "Your vote for **e4** is in") {
		t.Fatalf("carol's changed ballot: %q", d.Content)
	}
	for _, c := range []struct {
		name string
		spec discordfake.InteractionSpec
		want string
	}{
		{"dave is not in the team", discordfake.Select(pick0, "e2e4").From(dave).In(w.f.GuildID, thread), "not in the team"},
		{"an illegal move", discordfake.Command("vote", discordfake.SubCommand("move", discordfake.StringOpt("move", "Ke2"))).From(w.alice).In(w.f.GuildID, thread), "not a legal move"},
		{"a forged game id", discordfake.Select(fmt.Sprintf("v1/vote/%d/0/pick", id+99), "e2e4").From(w.alice).In(w.f.GuildID, thread).OnMessage(post.ID + "1"), "no such vote game"},
		{"a forged ply", discordfake.Select(fmt.Sprintf("v1/vote/%d/7/pick", id), "e2e4").From(w.alice).In(w.f.GuildID, thread).OnMessage(post.ID + "1"), "That vote is closed"},
		{"a forged move", discordfake.Select(pick0, "e7e5").From(w.alice).In(w.f.GuildID, thread).OnMessage(post.ID + "1"), "not a legal move"},
	} {
		res := w.send(c.spec)
		if d := res.Callback.Data; !d.Ephemeral() || !strings.Contains(d.Content, c.want) {
			t.Errorf("%s: answered %q (ephemeral %v), want %q", c.name, d.Content, d.Ephemeral(), c.want)
		}
	}
	w.closeVoteNow(r, thread, id, "e4")

	// The engine replies; the next vote opens. The old menu is refused.
	post = w.votePost(thread, id, 2)
	if !strings.Contains(post.Content, "move 2 for White") {
		t.Errorf("second vote post: %q", post.Content)
	}
	res = w.pickVote(w.alice, thread, pick0, "e2e4")
	if d := res.Callback.Data; !d.Ephemeral() || !strings.Contains(d.Content, "That vote is closed") {
		t.Errorf("a ballot on the first vote's menu: %q", d.Content)
	}
	pick2 := fmt.Sprintf("v1/vote/%d/2/pick", id)
	w.pickVote(w.alice, thread, pick2, "b1c3")
	w.pickVote(w.bob, thread, pick2, "b1c3")
	w.pickVote(w.carol, thread, pick2, "g1f3")
	w.closeVoteNow(r, thread, id, "Nc3")

	// Move 3: a tie between Bob's and Carol's moves goes to the one voted for first.
	// With more legal moves than a menu holds, the menu offers the engine's candidates
	// and any move may be typed.
	post = w.votePost(thread, id, 4)
	if n := r.bot.mustGame(t, id).Position; n.CountLegalMoves() > 25 && !strings.Contains(post.Content, "/vote move") {
		t.Errorf("a vote among %d legal moves does not say how to type one: %q", n.CountLegalMoves(), post.Content)
	}
	pick4 := fmt.Sprintf("v1/vote/%d/4/pick", id)
	w.pickVote(w.bob, thread, pick4, "g1f3")
	w.clock.Advance(time.Minute)
	res = w.send(discordfake.Command("vote", discordfake.SubCommand("move", discordfake.StringOpt("move", "a3"))).From(w.carol).In(w.f.GuildID, thread))
	if d := res.Callback.Data; !strings.Contains(d.Content, "Your vote for **a3** is in") {
		t.Fatalf("carol's typed ballot on move 3: %q", d.Content)
	}
	w.closeVoteNow(r, thread, id, "Nf3")
	w.votePost(thread, id, 6)

	g := r.bot.mustGame(t, id)
	if g.Ply() != 6 || g.SAN[0] != "e4" || g.SAN[2] != "Nc3" || g.SAN[4] != "Nf3" || !g.Live() || !votechess.IsTeam(g.White.ID) {
		t.Fatalf("the game: %v (ply %d, live %v, white %+v)", g.SAN, g.Ply(), g.Live(), g.White)
	}
	// A board after every move of the game: the first, three of the team's, three of
	// the engine's.
	w.waitFor("seven boards in the thread", func() bool { return len(w.messagesWith(thread, "board.png")) >= 7 })
}
