// The harness of the multi-process tests: real `gambit serve` processes (the binary
// built once) on one PostgreSQL schema, taking interactions over HTTP from the fake
// Discord, and players driving games through them.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/pg"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// The gambit binary the multi-process tests run, built once per test binary (without
// the race detector: the children run as in production) into a directory TestMain
// removes.
var (
	serveBinaryOnce sync.Once
	serveBinaryDir  string
	serveBinaryPath string
	serveBinaryErr  error
)

// serveBinary builds ./cmd/gambit once and returns the binary's path.
func serveBinary(tb testing.TB) string {
	tb.Helper()
	serveBinaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gambit-multiprocess-")
		if err != nil {
			serveBinaryErr = fmt.Errorf("temporary directory for the binary: %w", err)
			return
		}
		serveBinaryDir = dir
		path := filepath.Join(dir, "gambit")
		cmd := exec.Command("go", "build", "-o", path, ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			serveBinaryErr = fmt.Errorf("go build the gambit binary: %w\n%s", err, out)
			return
		}
		serveBinaryPath = path
	})
	if serveBinaryErr != nil {
		tb.Fatal(serveBinaryErr)
	}
	return serveBinaryPath
}

// removeServeBinary deletes the built binary (TestMain calls it after the tests).
func removeServeBinary() {
	if serveBinaryDir != "" {
		os.RemoveAll(serveBinaryDir)
	}
}

// interactionDeadline is the fake's deadline for an interaction's first answer. It is
// Discord's 3 s stretched: three processes, PostgreSQL and the race-instrumented test
// share two cores, and the tests are about what the processes do together, not their
// latency (the bot defers after 1.5 s in any case).
const interactionDeadline = 10 * time.Second

// serveProc is one `gambit serve` child process.
type serveProc struct {
	index    int
	instance string
	url      string // its POST /interactions
	cmd      *exec.Cmd
	log      *procLog
	done     chan struct{} // closed when the process has exited
	waitErr  error         // its exit, once done is closed
	killed   atomic.Bool   // set once the test has sent SIGKILL
}

// alive reports whether the process has not exited.
func (p *serveProc) alive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// procLog keeps a process's log (JSON lines) and announces the endpoint's address.
type procLog struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	partial []byte
	addr    chan string // receives the interactions address once
	sent    bool
}

// Write implements io.Writer.
func (l *procLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		line := l.partial[:i]
		if !l.sent && bytes.Contains(line, []byte(`"interactions over HTTP"`)) {
			var rec struct {
				Address string `json:"address"`
			}
			if json.Unmarshal(line, &rec) == nil && rec.Address != "" {
				l.addr <- rec.Address
				l.sent = true
			}
		}
		l.partial = l.partial[i+1:]
	}
	return len(p), nil
}

// tail returns the last n bytes of the log.
func (l *procLog) tail(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buf.Bytes()
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// cluster is the fake Discord, one PostgreSQL schema and the processes serving it.
type cluster struct {
	tb    testing.TB
	f     *discordfake.Fake
	dsn   string
	db    *pg.DB // the test's own handle on the store
	procs []*serveProc
	dir   string
	// channels holds a text channel of each server, in the fake's order of servers.
	channels []string
}

// startCluster starts n `gambit serve` processes (instances gambit-1 … gambit-n) on a
// fresh schema, with interactions over HTTP from a fake Discord that has the given
// number of guilds, and checks each endpoint as the developer portal does. The
// processes are stopped with SIGTERM when the test ends, the fake after them.
func startCluster(tb testing.TB, n, guilds int) *cluster {
	tb.Helper()
	dsn := storagetest.PostgresDSN(tb) // skips without a test cluster, as every PostgreSQL test
	bin := serveBinary(tb)
	f := discordfake.New(tb, discordfake.WithGuilds(guilds), discordfake.WithInteractionDeadline(interactionDeadline))
	c := &cluster{tb: tb, f: f, dsn: dsn, dir: tb.TempDir()}
	tb.Cleanup(c.stop) // before the fake closes and the schema is dropped
	var wg sync.WaitGroup
	errs := make([]error, n)
	c.procs = make([]*serveProc, n)
	for i := range n {
		wg.Go(func() { c.procs[i], errs[i] = c.start(bin, i) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		c.dumpLogs()
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// The portal's check of the endpoint (a signed PING, refused bad signatures), on
	// each process the load balancer can pick.
	for _, p := range c.procs {
		if err := f.SetInteractionsURL(ctx, p.url); err != nil {
			c.dumpLogs()
			tb.Fatalf("%s: %v", p.instance, err)
		}
	}
	c.db = storagetest.OpenPostgresDSN(tb, dsn, nil)
	for _, gid := range f.Guilds() {
		ch, err := f.AddChannel(gid, "chess")
		if err != nil {
			tb.Fatal(err)
		}
		c.channels = append(c.channels, ch)
	}
	return c
}

// newGames returns count games numbered from first, spread over the servers, each
// with two new players and a line of plies moves.
func (c *cluster) newGames(first, count, plies int) []*mpGame {
	guilds := c.f.Guilds()
	out := make([]*mpGame, count)
	for k := range out {
		n := first + k
		out[k] = &mpGame{n: n, guildID: guilds[n%len(guilds)], channelID: c.channels[n%len(guilds)],
			white: c.f.NewUser(fmt.Sprintf("white%d", n)), black: c.f.NewUser(fmt.Sprintf("black%d", n)),
			line: moveLine(uint64(n+1), plies)}
	}
	return out
}

// startGames starts games, four at a time, each challenged through one process and
// accepted through the next.
func (c *cluster) startGames(ctx context.Context, games []*mpGame, control string) error {
	return forEachLimit(4, len(games), func(k int) error {
		n := games[k].n
		return c.startGame(ctx, games[k], control, n%len(c.procs), (n+1)%len(c.procs))
	})
}

// forEachLimit runs fn(0) … fn(n-1), at most limit at once, and returns their errors
// joined.
func forEachLimit(limit, n int, fn func(int) error) error {
	sem := make(chan struct{}, limit)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for k := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			errs[k] = fn(k)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// start starts process i and waits until its endpoint listens.
func (c *cluster) start(bin string, i int) (*serveProc, error) {
	p := &serveProc{index: i, instance: fmt.Sprintf("gambit-%d", i+1), done: make(chan struct{}),
		log: &procLog{addr: make(chan string, 1)}}
	yaml := strings.Join([]string{
		"instance: " + p.instance,
		"discord:",
		"  rest_url: " + c.f.RESTURL(),
		"  interactions_address: 127.0.0.1:0",
		"  public_key: " + c.f.PublicKey(),
		"storage:",
		"  driver: postgres",
		"  dsn: '" + c.dsn + "'",
		"log:",
		"  level: info",
		"  format: json",
		"puzzles:", // the daily puzzle is not divided between processes (docs/scaling.md §4)
		"  enabled: false",
		"commands:",
		"  per_user_per_minute: 0",
		"",
	}, "\n")
	path := filepath.Join(c.dir, p.instance+".yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		return nil, err
	}
	p.cmd = exec.Command(bin, "serve", "--config", path)
	p.cmd.Env = append(childEnv(), "DISCORD_TOKEN="+c.f.Token)
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", p.instance, err)
	}
	go func() {
		p.waitErr = p.cmd.Wait()
		close(p.done)
	}()
	select {
	case addr := <-p.log.addr:
		p.url = "http://" + addr + "/interactions"
		return p, nil
	case <-p.done:
		return p, fmt.Errorf("%s exited before serving (%v):\n%s", p.instance, p.waitErr, p.log.tail(4000))
	case <-time.After(30 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
		return p, fmt.Errorf("%s did not serve interactions within 30s:\n%s", p.instance, p.log.tail(4000))
	}
}

// childEnv is the test's environment without any GAMBIT_ variable (the test's own
// settings are not the child's configuration).
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GAMBIT_") && !strings.HasPrefix(kv, "DISCORD_TOKEN=") {
			env = append(env, kv)
		}
	}
	return env
}

// kill sends SIGKILL to process i, waits for it to be gone and returns when it was sent.
func (c *cluster) kill(i int) time.Time {
	c.tb.Helper()
	p := c.procs[i]
	at := time.Now()
	p.killed.Store(true)
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		c.tb.Fatalf("SIGKILL %s: %v", p.instance, err)
	}
	<-p.done
	return at
}

// stop stops every process still running with SIGTERM; each must exit 0 within 20 s.
func (c *cluster) stop() {
	for _, p := range c.procs {
		if p != nil && p.alive() {
			p.cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	for _, p := range c.procs {
		if p == nil {
			continue
		}
		select {
		case <-p.done:
		case <-time.After(20 * time.Second):
			p.cmd.Process.Kill()
			<-p.done
			c.tb.Errorf("%s did not stop within 20s of SIGTERM", p.instance)
		}
		if !p.killed.Load() && p.waitErr != nil {
			c.tb.Errorf("%s exited with %v after SIGTERM:\n%s", p.instance, p.waitErr, p.log.tail(4000))
		}
	}
	if c.tb.Failed() {
		c.dumpLogs()
	}
}

// dumpLogs writes the end of each process's log to the test's output.
func (c *cluster) dumpLogs() {
	for _, p := range c.procs {
		if p != nil {
			c.tb.Logf("log of %s (end):\n%s", p.instance, p.log.tail(6000))
		}
	}
}

// live returns the indexes of the processes not killed.
func (c *cluster) live() []int {
	var out []int
	for i, p := range c.procs {
		if !p.killed.Load() && p.alive() {
			out = append(out, i)
		}
	}
	return out
}

// errUnanswered marks an interaction its process did not answer (it died first).
var errUnanswered = errors.New("interaction not answered")

// send delivers spec to process i and returns what the user finally sees of the answer
// (the response, or after a deferral the edited response or the followup).
func (c *cluster) send(ctx context.Context, i int, spec discordfake.InteractionSpec) (*discordfake.InteractionResult, discordfake.Payload, error) {
	res, err := c.f.SendInteractionTo(ctx, c.procs[i].url, spec)
	if err != nil {
		return nil, discordfake.Payload{}, fmt.Errorf("%s: %w: %w", c.procs[i].instance, errUnanswered, err)
	}
	switch res.Callback.Type {
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
	default:
		return res, res.Callback.Data, nil
	}
	var out discordfake.Payload
	ok := c.f.WaitFor(func() bool {
		if m, ok := c.f.Original(res.ID); ok && !m.Deleted && (m.Content != "" || len(m.Attachments) > 0) {
			out = m.Payload
			out.Flags = m.Flags
			return true
		}
		if fu := c.f.Followups(res.ID); len(fu) > 0 {
			out = fu[0].Payload
			out.Flags = fu[0].Flags
			return true
		}
		return false
	}, 15*time.Second)
	if !ok {
		return res, out, fmt.Errorf("%s: deferred answer to %s never came: %w", c.procs[i].instance, res.ID, errUnanswered)
	}
	return res, out, nil
}

// storedGame reads game id from the store.
func (c *cluster) storedGame(id uint64) (*storage.Game, error) {
	return storage.Read(context.Background(), c.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(id) })
}

// mpGame is a game the players drive through the processes.
type mpGame struct {
	n                  int // its number in the test
	id                 uint64
	guildID, channelID string
	thread             string
	white, black       *discordgo.User
	line               []string // the moves it will play, in SAN
	ply                int      // the moves known to be stored
	acked              []ackedMove
}

// ackedMove is a move whose answer the player saw.
type ackedMove struct {
	ply         int // the ply it made
	proc        int // the process that answered
	sent        time.Time
	interaction string                         // the interaction's id
	result      *discordfake.InteractionResult // as delivered, for a redelivery
}

// customIDFor returns the custom ID among ids whose action is action ("accept").
func customIDFor(ids []string, action string) (string, bool) {
	for _, id := range ids {
		parts := strings.SplitN(id, "/", 5)
		if len(parts) == 5 && (parts[4] == action || strings.HasPrefix(parts[4], action+"/")) {
			return id, true
		}
	}
	return "", false
}

// startGame has white challenge black through process a and black accept through
// process b, and waits until the game's thread is recorded in the store and shows the
// first board.
func (c *cluster) startGame(ctx context.Context, g *mpGame, control string, a, b int) error {
	_, ans, err := c.send(ctx, a, discordfake.Command("challenge",
		discordfake.UserOpt("opponent", g.black.ID), discordfake.StringOpt("time", control),
		discordfake.StringOpt("color", "white")).From(g.white).In(g.guildID, g.channelID))
	if err != nil {
		return fmt.Errorf("game %d: challenge: %w", g.n, err)
	}
	accept, ok := customIDFor(ans.CustomIDs(), "accept")
	if !ok {
		return fmt.Errorf("game %d: the challenge has no accept button: %q %v", g.n, ans.Content, ans.CustomIDs())
	}
	_, ans, err = c.send(ctx, b, discordfake.Button(accept).From(g.black).In(g.guildID, g.channelID))
	if err != nil {
		return fmt.Errorf("game %d: accept: %w", g.n, err)
	}
	if !strings.Contains(ans.Content, "accepted") {
		return fmt.Errorf("game %d: accept answered %q", g.n, ans.Content)
	}
	var stored *storage.Game
	found := c.f.WaitFor(func() bool {
		games, err := storage.Read(ctx, c.db, func(tx storage.Tx) ([]*storage.Game, error) {
			return tx.GamesInChannel(g.channelID, storage.Query{})
		})
		if err != nil {
			return false
		}
		for _, sg := range games {
			if sg.White.ID == g.white.ID && sg.Black.ID == g.black.ID && sg.ThreadID != "" {
				stored = sg
				return len(boards(c.f.Messages(sg.ThreadID))) > 0
			}
		}
		return false
	}, 20*time.Second)
	if !found {
		return fmt.Errorf("game %d: no thread with a board in the store and on Discord within 20s", g.n)
	}
	g.id, g.thread = stored.ID, stored.ThreadID
	return nil
}

// boards returns the messages the bot posted itself (not answers) carrying a board.
func boards(ms []discordfake.Message) []discordfake.Message {
	var out []discordfake.Message
	for _, m := range ms {
		if _, ok := m.File("board.png"); ok && m.Kind == discordfake.KindChannel {
			out = append(out, m)
		}
	}
	return out
}

// mover returns who plays ply+1 of g.
func (g *mpGame) mover() *discordgo.User {
	if g.ply%2 == 0 {
		return g.white
	}
	return g.black
}

// move plays g's next move of its line through process i. It returns errUnanswered
// (wrapped) when the process gave no answer; any other answer than the move played is
// an error.
func (c *cluster) move(ctx context.Context, g *mpGame, i int) error {
	san := g.line[g.ply]
	sent := time.Now()
	res, ans, err := c.send(ctx, i, discordfake.Command("move", discordfake.StringOpt("move", san)).
		From(g.mover()).In(g.guildID, g.thread))
	if err != nil {
		return fmt.Errorf("game %d ply %d %s: %w", g.n, g.ply+1, san, err)
	}
	if ans.Ephemeral() || !strings.Contains(ans.Content, "**"+strings.TrimRight(san, "+#")) {
		return fmt.Errorf("game %d ply %d %s through %s: answered %q", g.n, g.ply+1, san, c.procs[i].instance, ans.Content)
	}
	g.ply++
	g.acked = append(g.acked, ackedMove{ply: g.ply, proc: i, sent: sent, interaction: res.ID, result: res})
	return nil
}

// moveLine returns a line of up to plies legal moves in SAN from the start position,
// chosen at random from seed, none of which ends the game or repeats a position.
func moveLine(seed uint64, plies int) []string {
	r := rand.New(rand.NewPCG(seed, 0x9a3b17))
	g := chesscore.NewGame(chesscore.StartPosition(), dead.Decider{})
	seen := map[uint64]bool{}
	pos := g.Position()
	seen[pos.Hash()] = true
	for g.Ply() < plies {
		pos := g.Position()
		var ml chesscore.MoveList
		pos.LegalMoves(&ml)
		moves := ml.Slice()
		played := false
		for _, k := range r.Perm(len(moves)) {
			next := g.Clone()
			if err := next.Play(moves[k]); err != nil || next.Over() || len(next.Claimable()) > 0 {
				continue
			}
			np := next.Position()
			if seen[np.Hash()] {
				continue
			}
			seen[np.Hash()] = true
			g = next
			played = true
			break
		}
		if !played {
			break
		}
	}
	return g.SAN()
}
