// BenchmarkNotifierIsolation: the latency of one server's boards while another server's
// game thread is held at its rate limit by the fake Discord.

package bot

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// postTimes is a transport that reports when each post to a channel is done.
type postTimes struct {
	transport
	done chan string // channel of each post that succeeded
}

func (p *postTimes) Post(ctx context.Context, channelID string, m *commands.Response) (string, error) {
	id, err := p.transport.Post(ctx, channelID, m)
	if err == nil {
		select {
		case p.done <- channelID:
		default:
		}
	}
	return id, err
}

// isolationRig is the notifier over the REST client, posting to the fake Discord, with
// a game service whose events it hears.
type isolationRig struct {
	f     *discordfake.Fake
	svc   *games.Service
	n     *Notifier
	posts *postTimes
}

func newIsolationRig(b *testing.B) *isolationRig {
	b.Helper()
	f := discordfake.New(b, discordfake.WithGuilds(2))
	s, err := newSession(DiscordOptions{Token: f.Token, RESTURL: f.RESTURL(), GatewayURL: f.GatewayURL()})
	if err != nil {
		b.Fatal(err)
	}
	clk := timers.NewManualClock(epoch)
	d := &commands.Deps{Ledger: commands.NewPostLedger(clk.Now), Now: clk.Now}
	rig := &isolationRig{f: f, n: NewNotifier(d, slog.New(slog.DiscardHandler), nil)}
	rig.posts = &postTimes{transport: &poster{rest: NewREST(s, nil)}, done: make(chan string, 1024)}
	rig.n.Connect(rig.posts)
	rig.svc, err = games.New(storagetest.Open(b), games.Options{Clock: clk, Notifier: rig.n})
	if err != nil {
		b.Fatal(err)
	}
	d.Games = rig.svc
	b.Cleanup(func() {
		rig.svc.Close()
		rig.n.Close(time.Second) // posts still waiting on the held channel are cut off
	})
	return rig
}

// game starts a game in a channel and returns it with its thread, once its first
// board is posted.
func (rig *isolationRig) game(b *testing.B, guild, channel, who string) (*games.Game, string) {
	b.Helper()
	ctx := context.Background()
	res, err := rig.svc.StartGame(ctx, games.StartRequest{GuildID: guild, ChannelID: channel,
		White: storage.Player{ID: "1" + who, Name: "W" + who}, Black: storage.Player{ID: "2" + who, Name: "B" + who}, Control: "10+0"})
	if err != nil {
		b.Fatal(err)
	}
	if err := rig.svc.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	var thread string
	for thread == "" {
		g, err := rig.svc.Game(ctx, res.Game.ID)
		if err != nil {
			b.Fatal(err)
		}
		thread = g.ThreadID
		if thread == "" {
			time.Sleep(time.Millisecond)
		}
	}
	for ch := range rig.posts.done {
		if ch == thread {
			break
		}
	}
	return res.Game, thread
}

// knightDance is a cycle of moves that returns to the start every 8 plies; a game
// plays at most danceLength of them, before a fivefold repetition would end it.
var knightDance = []string{"Nf3", "Nf6", "Nc3", "Nc6", "Nb1", "Nb8", "Ng1", "Ng8"}

const danceLength = 16

// BenchmarkNotifierIsolation measures how long server B's board takes to be posted
// after a move (from the move's commit to Discord's answer to the post), with server
// A's game thread quiet (quiet) or held at its rate limit by the fake while A's players
// keep moving (A-rate-limited: every post there is answered 429 with retry_after 1 s,
// so each waits out its 15 s bound). With one queue for all channels, B's boards would
// wait behind A's; with a queue per channel they keep their usual latency.
func BenchmarkNotifierIsolation(b *testing.B) {
	for _, held := range []bool{false, true} {
		name := "quiet"
		if held {
			name = "A-rate-limited"
		}
		b.Run(name, func(b *testing.B) {
			rig := newIsolationRig(b)
			guilds := rig.f.Guilds()
			chB, err := rig.f.AddChannel(guilds[1], "chess")
			if err != nil {
				b.Fatal(err)
			}
			ga, threadA := rig.game(b, guilds[0], rig.f.ChannelID, "a")
			stopA := make(chan struct{})
			var aMoves atomic.Int64
			if held {
				rig.f.Fail(discordfake.Failure{Route: "POST channels/" + threadA + "/messages", Count: 1 << 30, RetryAfter: time.Second})
				moveA := func(ply int) {
					user := []string{"1a", "2a"}[ply%2]
					if _, err := rig.svc.Move(context.Background(), games.MoveRequest{Action: games.Action{GameID: ga.ID, UserID: user}, Move: knightDance[ply%8]}); err != nil {
						b.Error(err)
						return
					}
					aMoves.Add(1)
				}
				moveA(0)
				moveA(1)
				go func() { // A's players keep moving; their boards queue behind the limit
					t := time.NewTicker(50 * time.Millisecond)
					defer t.Stop()
					for ply := 2; ply < danceLength; ply++ {
						select {
						case <-stopA:
							return
						case <-t.C:
						}
						moveA(ply)
					}
				}()
			}
			defer close(stopA)

			lat := make([]time.Duration, 0, b.N)
			var gb *games.Game
			var threadB string
			ply := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if gb == nil || ply == danceLength {
					b.StopTimer()
					gb, threadB = rig.game(b, guilds[1], chB, fmt.Sprint("b", i))
					ply = 0
					b.StartTimer()
				}
				user := gb.White.ID
				if ply%2 == 1 {
					user = gb.Black.ID
				}
				start := time.Now()
				if _, err := rig.svc.Move(context.Background(), games.MoveRequest{Action: games.Action{GameID: gb.ID, UserID: user}, Move: knightDance[ply%8]}); err != nil {
					b.Fatal(err)
				}
				ply++
				for ch := range rig.posts.done {
					if ch == threadB {
						break
					}
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(lat)
			q := func(p float64) float64 {
				return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
			}
			b.ReportMetric(q(0.50), "B-p50-ms")
			b.ReportMetric(q(0.99), "B-p99-ms")
			if held {
				b.ReportMetric(float64(aMoves.Load()), "A-moves")
			}
		})
	}
}
