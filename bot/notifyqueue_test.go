// Tests of the notifier's per-channel queues: a slow channel delays only itself, a
// game's posts keep their order, the bounds hold, and Close drains.

package bot

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// holdingTransport is a postLog whose posts to one channel wait until released, as a
// post waits out a channel's rate limit.
type holdingTransport struct {
	*postLog
	hold    string
	held    chan string // told of each post that starts waiting
	release chan struct{}
}

func (h *holdingTransport) Post(ctx context.Context, channelID string, m *commands.Response) (string, error) {
	if channelID == h.hold {
		h.held <- m.Content
		select {
		case <-h.release:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return h.postLog.Post(ctx, channelID, m)
}

// startIn starts a game in a guild's channel.
func (rig *notifierRig) startIn(guild, channel, control string) *games.Game {
	rig.t.Helper()
	res, err := rig.svc.StartGame(context.Background(), games.StartRequest{GuildID: guild, ChannelID: channel,
		White: storage.Player{ID: "w" + guild, Name: "White"}, Black: storage.Player{ID: "b" + guild, Name: "Black"}, Control: control})
	if err != nil {
		rig.t.Fatal(err)
	}
	return res.Game
}

// waitPost waits until the log has a post to channel containing text; it fails the test
// after a minute (a deadlock, not a speed goal).
func waitPost(t *testing.T, p *postLog, channel, text string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		for _, s := range p.posts {
			if strings.HasPrefix(s, channel+": ") && strings.Contains(s, text) {
				p.mu.Unlock()
				return
			}
		}
		p.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no post to %s containing %q", channel, text)
}

// TestNotifierSlowChannelDelaysOnlyItself: while server A's game thread cannot be posted
// to, server B's boards are posted; A's posts follow in order once A's channel clears.
func TestNotifierSlowChannelDelaysOnlyItself(t *testing.T) {
	rig := newNotifierRig(t)
	hold := &holdingTransport{postLog: rig.posts, hold: "thread-of-a", held: make(chan string, 16), release: make(chan struct{})}
	rig.n.Connect(hold)

	ga := rig.startIn("A", "a", "10+0")
	<-hold.held // A's first board waits on A's channel
	rig.move(ga, "wA", "e4", false)

	gb := rig.startIn("B", "b", "10+0")
	waitPost(t, rig.posts, "thread-of-b", "<@wB>")
	rig.move(gb, "wB", "d4", false)
	waitPost(t, rig.posts, "thread-of-b", "**d4**")
	rig.move(gb, "bB", "d5", false)
	waitPost(t, rig.posts, "thread-of-b", "**d5**")

	close(hold.release)
	if err := rig.n.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var aPosts []string
	for _, p := range rig.posts.posts {
		if strings.HasPrefix(p, "thread-of-a: ") {
			aPosts = append(aPosts, p)
		}
	}
	if len(aPosts) != 2 || strings.Contains(aPosts[0], "**e4**") || !strings.Contains(aPosts[1], "**e4**") {
		t.Errorf("A's posts, in order: %q; want the first board, then the board after e4", aPosts)
	}
}

// TestNotifierThreadBeforeAnEarlySnapshot: an event whose game snapshot was taken before
// the notifier opened the game's thread (the engine may move at once) still goes to the
// thread.
func TestNotifierThreadBeforeAnEarlySnapshot(t *testing.T) {
	rig := newNotifierRig(t)
	g := rig.startIn("G", "c", "10+0")
	rig.flush()
	early := *g // as the service saw it before the thread was recorded
	early.ThreadID = ""
	rig.n.Notify(context.Background(), games.YourTurn{Game: &early, Player: g.Black, Color: chesscore.Black})
	posts, _ := rig.flush()
	if len(posts) != 1 || !strings.HasPrefix(posts[0], "thread-of-c: ") {
		t.Errorf("posted %q, want the board in the game's thread", posts)
	}
}

// TestPostQueuesBounds: a channel's full queue drops (and says so) without holding up
// others; the total bound makes the producer wait; close delivers what was queued.
func TestPostQueuesBounds(t *testing.T) {
	release := make(chan struct{})
	inSlow := make(chan struct{}, 100)
	var delivered sync.Map // key → count
	var dropped atomic.Int64
	q := newPostQueues(func(ctx context.Context, e games.Event) {
		c := e.(games.ChallengeExpired).Challenge
		if c.ChannelID == "slow" {
			inSlow <- struct{}{}
			<-release
		}
		n, _ := delivered.LoadOrStore(c.ChannelID, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
	}, func(string, games.Event) { dropped.Add(1) })
	q.maxKey, q.maxTotal = 4, 8
	ev := func(ch string) games.Event {
		return games.ChallengeExpired{Challenge: &storage.Challenge{ChannelID: ch}}
	}
	// The slow channel: one in delivery, four waiting, two dropped.
	q.push("slow", ev("slow"))
	<-inSlow
	for range 6 {
		q.push("slow", ev("slow"))
	}
	waitUntil(t, "the slow channel's drops", func() bool { return dropped.Load() == 2 })
	// Another channel still flows.
	q.push("fast", ev("fast"))
	waitUntil(t, "the fast channel's post", func() bool {
		n, ok := delivered.Load("fast")
		return ok && n.(*atomic.Int64).Load() == 1
	})
	// The total bound: 5 slow events count; three more fit, the next push waits.
	pushed := make(chan struct{})
	go func() {
		for i := range 4 {
			q.push(fmt.Sprintf("other-%d", i), ev("slow")) // these wait behind release too
		}
		close(pushed)
	}()
	select {
	case <-pushed:
		t.Fatal("a push went past the total bound")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	<-pushed
	if err := q.close(time.Minute); err != nil {
		t.Fatal(err)
	}
	n, _ := delivered.Load("slow")
	if got := n.(*atomic.Int64).Load(); got != 5+4 {
		t.Errorf("delivered %d slow-channel events, want 9 (5 kept + 4 others)", got)
	}
}

// waitUntil polls cond for up to a minute (a deadlock guard, not a speed goal).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
