package bot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// postLog is a notifier transport that records what it is asked to post.
type postLog struct {
	mu    sync.Mutex
	posts []string // "channel: content"
	dms   []string // "user: content"
	files []string
}

func (p *postLog) Post(_ context.Context, channelID string, m *commands.Response) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.posts = append(p.posts, channelID+": "+m.Content)
	for _, f := range m.Files {
		p.files = append(p.files, f.Name)
	}
	return "m" + channelID, nil
}

func (p *postLog) StartThread(_ context.Context, channelID, messageID, name string) (string, error) {
	return "thread-of-" + channelID, nil
}

func (p *postLog) DM(_ context.Context, userID string, m *commands.Response) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dms = append(p.dms, userID+": "+m.Content)
	return nil
}

func (p *postLog) take() (posts, dms []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	posts, dms = p.posts, p.dms
	p.posts, p.dms, p.files = nil, nil, nil
	return posts, dms
}

// notifierRig is a game service whose events go to a Notifier posting to a postLog.
type notifierRig struct {
	t     *testing.T
	svc   *games.Service
	d     *commands.Deps
	n     *Notifier
	posts *postLog
	clock *timers.ManualClock
}

func newNotifierRig(t *testing.T) *notifierRig {
	t.Helper()
	db := storagetest.Open(t)
	rig := &notifierRig{t: t, posts: &postLog{}, clock: timers.NewManualClock(epoch)}
	rig.d = &commands.Deps{Ledger: commands.NewPostLedger(nil), Now: rig.clock.Now}
	n := NewNotifier(rig.d, testLogger(t), nil)
	n.Connect(rig.posts)
	rig.n = n
	t.Cleanup(func() { n.Close(10 * time.Second) }) // after the service's close (cleanups run last first)
	svc, err := games.New(db, games.Options{Clock: rig.clock, Notifier: n})
	if err != nil {
		t.Fatal(err)
	}
	rig.svc = svc
	t.Cleanup(func() { rig.svc.Close() })
	rig.d.Games = rig.svc
	return rig
}

func (rig *notifierRig) flush() ([]string, []string) {
	rig.t.Helper()
	if err := rig.svc.Flush(context.Background()); err != nil {
		rig.t.Fatal(err)
	}
	if err := rig.n.Flush(context.Background()); err != nil {
		rig.t.Fatal(err)
	}
	return rig.posts.take()
}

func (rig *notifierRig) start(control string) *games.Game {
	rig.t.Helper()
	res, err := rig.svc.StartGame(context.Background(), games.StartRequest{GuildID: "g", ChannelID: "c",
		White: storage.Player{ID: "w", Name: "White player"}, Black: storage.Player{ID: "b", Name: "Black player"}, Control: control})
	if err != nil {
		rig.t.Fatal(err)
	}
	return res.Game
}

func (rig *notifierRig) move(g *games.Game, user, san string, offer bool) {
	rig.t.Helper()
	if _, err := rig.svc.Move(context.Background(), games.MoveRequest{Action: games.Action{GameID: g.ID, UserID: user}, Move: san, OfferDraw: offer}); err != nil {
		rig.t.Fatalf("%s: %v", san, err)
	}
}

func TestNotifierPostsWhatNoAnswerShowed(t *testing.T) {
	rig := newNotifierRig(t)
	g := rig.start("10+0")
	posts, _ := rig.flush()
	// GameStarted that no answer stood for: the notifier opens the thread and posts the board.
	if len(posts) != 1 || !strings.HasPrefix(posts[0], "thread-of-c: ") || !strings.Contains(posts[0], "<@w>") {
		t.Fatalf("start posted %q", posts)
	}
	// A move whose answer was given in the thread: reserved, not posted again.
	rig.d.Ledger.Reserve(commands.GamePost(g.ID, 1, commands.EventTurn))
	rig.move(g, "w", "e4", false)
	if posts, _ := rig.flush(); len(posts) != 0 {
		t.Errorf("a reserved turn was posted: %q", posts)
	}
	// A move made elsewhere: the board goes to the thread.
	rig.move(g, "b", "e5", false)
	posts, _ = rig.flush()
	if len(posts) != 1 || !strings.Contains(posts[0], "**e5**") {
		t.Errorf("an unreserved move was not posted: %q", posts)
	}
	// A draw offered with the move shows in that board; no second post.
	rig.move(g, "w", "Nf3", true)
	posts, _ = rig.flush()
	if len(posts) != 1 || !strings.Contains(posts[0], "offers a draw") {
		t.Errorf("move with a draw offer posted %q", posts)
	}
	// Declined: a note.
	if _, err := rig.svc.DeclineDraw(context.Background(), games.Action{GameID: g.ID, UserID: "b"}); err != nil {
		t.Fatal(err)
	}
	posts, _ = rig.flush()
	if len(posts) != 1 || !strings.Contains(posts[0], "declined the draw") {
		t.Errorf("decline posted %q", posts)
	}
	// An offer after one's move (not with it): its own message.
	rig.move(g, "b", "Nc6", false)
	rig.move(g, "w", "Bc4", false)
	rig.flush()
	if _, err := rig.svc.OfferDraw(context.Background(), games.Action{GameID: g.ID, UserID: "w"}); err != nil {
		t.Fatal(err)
	}
	posts, _ = rig.flush()
	if len(posts) != 1 || !strings.Contains(posts[0], "offers a draw") || !strings.Contains(posts[0], "<@b>") {
		t.Errorf("standalone offer posted %q", posts)
	}
}

func TestNotifierFlagFallAndReminders(t *testing.T) {
	rig := newNotifierRig(t)
	g := rig.start("1+0")
	rig.flush()
	rig.move(g, "w", "e4", false)
	rig.move(g, "b", "e5", false)
	rig.flush()
	rig.clock.Advance(2 * time.Minute)
	rig.svc.FireDue()
	posts, _ := rig.flush()
	if len(posts) != 1 || !strings.Contains(posts[0], "White's flag fell") || !strings.Contains(posts[0], "0-1") {
		t.Errorf("flag fall posted %q", posts)
	}

	// Correspondence: a reminder before the deadline, and a DM for who asked for one.
	if err := rig.svc.SetUserPrefs(context.Background(), "w", storage.UserPrefs{Reminders: true, DMOnTurn: true, ReminderBefore: 2 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	c := rig.start("1d")
	rig.flush()
	rig.clock.Advance(23 * time.Hour)
	rig.svc.FireDue()
	posts, dms := rig.flush()
	if len(posts) != 1 || !strings.Contains(posts[0], "⏰ <@w>") {
		t.Errorf("reminder posted %q", posts)
	}
	if len(dms) != 1 || !strings.HasPrefix(dms[0], "w: Your move in game") {
		t.Errorf("reminder DMs %q", dms)
	}
	_ = c
}
