// The multi-process end-to-end test: three `gambit serve` processes on one PostgreSQL
// database, interactions over HTTP spread across them, one killed with SIGKILL mid-load.

package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/internal/lease"
	"github.com/gambitchess/gambit/storage"
)

// The load of TestMultiProcessServe.
const (
	mpProcesses = 3
	mpGames     = 24
	mpGuilds    = 8
	mpLinePlies = 120 // each game's line; the load stops well before its end
	// mpFlagControl is the flag game's control: white's flag falls this long after
	// black's first move, while the load runs.
	mpFlagControl = "12s+0"
	// mpFlagBound is how late after its deadline a flag may be announced when its
	// owner is dead: a lease's lifetime, plus a second.
	mpFlagBound = lease.DefaultTTL + 2*time.Second
	// mpKillBefore is how long before the flag's deadline its owner is killed. A
	// survivor takes the owner's partitions once its leases expire (at most a lifetime
	// after its last renewal, which is at most a third of a lifetime before the kill)
	// at its next tick (every third of a lifetime): up to 12 s after the kill. Killed 3 s
	// before the deadline, the owner's flag is due while it is dead and must be
	// announced within a lifetime plus a second of the deadline.
	mpKillBefore = 3 * time.Second
	// mpPause is a player's pause between two moves: 24 games at about two moves a
	// second each keep the load going past the kill and the flag's takeover.
	mpPause = 400 * time.Millisecond
	// mpAfterKill is how many moves each game must have acknowledged through the
	// survivors after the kill before the load stops.
	mpAfterKill = 3
)

// TestMultiProcessServe runs three `gambit serve` processes on one PostgreSQL schema,
// with interactions over HTTP (signed by the fake Discord) spread across them: 24
// games in 8 servers, each move of a game through another process than the one before,
// and two more whose flags are due while the process that owns their server is dead.
// That process is killed with SIGKILL 3 s before the flags' deadline, mid-load.
// Then: every move whose answer a player saw is in the store, in order; every game
// went on through the survivors; no game has two threads or two first boards, no
// interaction two answers; each flag fell once, announced once, by a survivor, within
// a lease's lifetime plus a second of its deadline.
func TestMultiProcessServe(t *testing.T) {
	c := startCluster(t, mpProcesses, mpGuilds)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	f := c.f

	// The 24 games, set up four at a time, the challenge and the acceptance through
	// different processes.
	start := time.Now()
	games := c.newGames(0, mpGames, mpLinePlies)
	if err := c.startGames(ctx, games, "30m+0"); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d games set up in %v", len(games), time.Since(start).Round(time.Millisecond))

	// Two flag games in the first server, whose owner is the process killed. The
	// first was played through the owner alone: no survivor knows it until one takes
	// the server over and reloads its games. The last move of the second was answered
	// by a survivor, which fires the deadlines of the games it wrote last whoever owns
	// them (and whose answer to that move must not stand for the flag's post).
	server := c.f.Guilds()[0]
	victim := c.owner(t, server)
	s1, s2 := (victim+1)%mpProcesses, (victim+2)%mpProcesses
	flags := c.newGames(mpGames, 2, mpLinePlies)
	deadlines := make([]time.Time, len(flags))
	for k, via := range [][4]int{{victim, victim, victim, victim}, {victim, s2, victim, s1}} { // challenge, accept, e4, e5
		g := flags[k]
		g.guildID, g.channelID = server, c.channels[0]
		if err := c.startGame(ctx, g, mpFlagControl, via[0], via[1]); err != nil {
			t.Fatal(err)
		}
		for m := range 2 {
			if err := c.move(ctx, g, via[2+m]); err != nil {
				t.Fatal(err)
			}
		}
		sg, err := c.storedGame(g.id)
		if err != nil {
			t.Fatal(err)
		}
		deadlines[k] = sg.Clock.FlagAt()
	}
	deadline := deadlines[0]
	t.Logf("the flags of games %d and %d (server %s, partition %d) are due at +%v; their owner is %s",
		flags[0].id, flags[1].id, server, lease.Partition(server, lease.DefaultPartitions), time.Until(deadline).Round(time.Millisecond), c.procs[victim].instance)

	// The load: each game plays its line, each move through the next live process.
	var (
		killed   = make(chan struct{}) // closed once the victim is gone
		stopLoad = make(chan struct{}) // closed once the flag was announced (or given up)
		killAt   time.Time             // when SIGKILL was sent
		killDone time.Time             // when the process was gone
	)
	go func() {
		select {
		case <-time.After(time.Until(deadline.Add(-mpKillBefore))):
		case <-ctx.Done():
		}
		killAt = c.kill(victim)
		killDone = time.Now()
		close(killed)
	}()
	flagMsgs := make([]discordfake.Message, len(flags))
	go func() {
		defer close(stopLoad)
		<-killed
		f.WaitFor(func() bool {
			for k, g := range flags {
				for _, m := range f.Messages(g.thread) {
					if flagMsgs[k].ID == "" && strings.Contains(m.Content, "flag fell") {
						flagMsgs[k] = m
					}
				}
			}
			return flagMsgs[0].ID != "" && flagMsgs[1].ID != ""
		}, time.Until(deadlines[1].Add(mpFlagBound+5*time.Second)))
	}()
	loadStart := time.Now()
	var resynced sync.Map // game number → the ply found in the store after an unanswered move
	err := forEachLimit(len(games), len(games), func(n int) error {
		g := games[n]
		afterKill := 0
		for turn := n; g.ply < len(g.line); turn++ {
			select {
			case <-stopLoad:
				if afterKill >= mpAfterKill {
					return nil
				}
			default:
			}
			live := c.live()
			i := live[turn%len(live)]
			wasKilled := isClosed(killed)
			err := c.move(ctx, g, i)
			switch {
			case err == nil:
				if wasKilled {
					afterKill++
				}
			case errors.Is(err, errUnanswered) && i == victim:
				// The process died with the move in flight: the player does not know
				// whether it was played. The store says.
				<-killed
				time.Sleep(300 * time.Millisecond)
				sg, err := c.storedGame(g.id)
				if err != nil {
					return err
				}
				if sg.Ply() != g.ply && sg.Ply() != g.ply+1 {
					return fmt.Errorf("game %d: %d moves acknowledged, the store has %d after the kill", g.n, g.ply, sg.Ply())
				}
				resynced.Store(n, [2]int{g.ply, sg.Ply()})
				g.ply = sg.Ply()
			default:
				return err
			}
			time.Sleep(mpPause)
		}
		return fmt.Errorf("game %d: its line of %d plies ran out before the load stopped", g.n, len(g.line))
	})
	loadTime := time.Since(loadStart)
	if err != nil {
		t.Fatal(err)
	}
	<-stopLoad

	// Who answered what.
	moves, byProc, beforeKillByVictim := 0, make([]int, mpProcesses), 0
	for _, g := range games {
		for _, a := range g.acked {
			moves++
			byProc[a.proc]++
			if a.proc == victim && a.sent.Before(killAt) {
				beforeKillByVictim++
			}
			if a.proc == victim && a.sent.After(killDone) {
				t.Errorf("game %d: ply %d sent to %s after it died, and answered", g.n, a.ply, c.procs[victim].instance)
			}
		}
	}
	t.Logf("%d moves acknowledged in %v (%.0f/s), by process %v; %s killed at +%v, %d of its moves acknowledged before",
		moves, loadTime.Round(time.Millisecond), float64(moves)/loadTime.Seconds(), byProc, c.procs[victim].instance,
		killAt.Sub(loadStart).Round(time.Millisecond), beforeKillByVictim)
	resynced.Range(func(k, v any) bool {
		p := v.([2]int)
		t.Logf("game %d: a move in flight at the kill: %d acknowledged, the store had %d", k, p[0], p[1])
		return true
	})
	if beforeKillByVictim == 0 {
		t.Errorf("the load did not reach %s before it was killed", c.procs[victim].instance)
	}

	// Every acknowledged move is in the store, in order, and every game goes on.
	for _, g := range append(games, flags...) {
		sg, err := c.storedGame(g.id)
		if err != nil {
			t.Fatal(err)
		}
		want := moveLineUCI(g.line[:min(sg.Ply(), len(g.line))])
		for k, m := range sg.Moves {
			if k >= len(want) || m.UCI() != want[k] {
				t.Errorf("game %d: stored ply %d is %s, the line's is %v", g.n, k+1, m.UCI(), want[min(k, len(want)-1)])
				break
			}
		}
		for _, a := range g.acked {
			if a.ply > sg.Ply() {
				t.Errorf("game %d: ply %d was acknowledged by %s but the store has %d plies", g.n, a.ply, c.procs[a.proc].instance, sg.Ply())
			}
		}
		if g.n < mpGames && (!sg.Live() || sg.Ply() != g.ply) {
			t.Errorf("game %d: stored live %v at ply %d; the players saw ply %d", g.n, sg.Live(), sg.Ply(), g.ply)
		}
	}

	// The flags: each fallen once, dated at its deadline, announced once by a survivor
	// in time.
	for k, g := range flags {
		sg, err := c.storedGame(g.id)
		if err != nil {
			t.Fatal(err)
		}
		if sg.Live() || sg.Outcome.Termination != chesscore.TimeForfeit || sg.Outcome.Result != chesscore.BlackWins {
			t.Errorf("flag game %d: live %v, outcome %+v; want black winning on time", g.n, sg.Live(), sg.Outcome)
			continue
		}
		if !sg.Ended.Equal(deadlines[k]) {
			t.Errorf("flag game %d ended at %v, want its deadline %v", g.n, sg.Ended, deadlines[k])
		}
		msg := flagMsgs[k]
		if msg.ID == "" {
			t.Errorf("flag game %d: no flag announcement in its thread within %v of the deadline", g.n, mpFlagBound+5*time.Second)
			continue
		}
		if !msg.Created.After(killAt) {
			t.Errorf("flag game %d: announced at %v, before the owner was killed at %v", g.n, msg.Created, killAt)
		}
		late := msg.Created.Sub(deadlines[k])
		t.Logf("flag game %d: announced %v after its deadline, %v after the SIGKILL", g.n, late.Round(time.Millisecond), msg.Created.Sub(killAt).Round(time.Millisecond))
		if late > mpFlagBound {
			t.Errorf("flag game %d: announced %v after its deadline, want at most %v", g.n, late, mpFlagBound)
		}
		over := 0
		for _, m := range f.Messages(g.thread) {
			if m.Kind == discordfake.KindChannel && strings.Contains(m.Content, "flag fell") {
				over++
			}
		}
		if over != 1 {
			t.Errorf("flag game %d: the flag was announced %d times, want once", g.n, over)
		}
	}

	// A move delivered again (a replay, or a load balancer retrying on another
	// process) is answered once, everywhere: the store records each delivery, so the
	// process that answered it and every other one refuse it (409) and nothing is
	// answered or played a second time.
	for k, g := range games[:6] {
		a := g.acked[len(g.acked)-1]
		live := c.live()
		for _, i := range []int{a.proc, live[k%len(live)]} {
			if i == victim {
				continue
			}
			status, err := f.RedeliverTo(ctx, c.procs[i].url, a.result)
			if status != http.StatusConflict || err != nil {
				t.Errorf("game %d: ply %d answered by %s, delivered again to %s: %d, %v; want 409", g.n, a.ply,
					c.procs[a.proc].instance, c.procs[i].instance, status, err)
			}
		}
		if sg, err := c.storedGame(g.id); err != nil || sg.Ply() != g.ply {
			t.Errorf("game %d: after its last move was delivered again the store has %d plies (%v), want %d", g.n, sg.Ply(), err, g.ply)
		}
	}

	// Nothing twice: one thread and one first board per game, one answer per
	// interaction, no request refused.
	threads := map[string]bool{}
	for _, th := range f.Threads() {
		threads[th.ID] = true
	}
	if len(threads) != len(games)+len(flags) {
		t.Errorf("%d threads for %d games", len(threads), len(games)+len(flags))
	}
	answers := map[string]int{} // messages answering each interaction, in every channel
	for _, ch := range c.channels {
		for _, m := range f.Messages(ch) {
			if m.InteractionID != "" {
				answers[m.InteractionID]++
			}
		}
	}
	for _, g := range append(games, flags...) {
		posted := 0
		for _, m := range f.Messages(g.thread) {
			if m.InteractionID != "" {
				answers[m.InteractionID]++
			}
			if _, ok := m.File("board.png"); ok && m.Kind == discordfake.KindChannel && !strings.Contains(m.Content, "flag fell") {
				posted++
			}
		}
		if posted != 1 {
			t.Errorf("game %d: %d boards posted in its thread, want the first one only", g.n, posted)
		}
		for _, a := range g.acked {
			if answers[a.interaction] != 1 {
				t.Errorf("game %d: ply %d answered by %d messages, want 1", g.n, a.ply, answers[a.interaction])
			}
		}
	}
	for id, n := range answers {
		if n > 1 {
			t.Errorf("interaction %s answered by %d messages", id, n)
		}
	}
	for _, q := range f.Requests() {
		if q.Status >= 400 {
			t.Errorf("a request refused: %+v", q)
		}
	}
	if u := f.Unknown(); len(u) > 0 {
		t.Errorf("routes the fake does not know: %+v", u)
	}
}

// isClosed reports whether ch is closed.
func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// moveLineUCI returns a line given in SAN as UCI moves.
func moveLineUCI(san []string) []string {
	g := chesscore.NewGame(chesscore.StartPosition(), dead.Decider{})
	out := make([]string, 0, len(san))
	for _, s := range san {
		m, err := g.PlaySAN(s)
		if err != nil {
			break
		}
		out = append(out, m.UCI())
	}
	return out
}

// owner returns the process that fires a server's deadlines: the holder of the lease
// of the server's partition, once the partitions are settled (each process holding its
// fair share, as the first ticks after start-up give it). Without a lease for it (deadlines not divided), every
// process fires them all, and the last process is taken.
func (c *cluster) owner(tb testing.TB, guildID string) int {
	tb.Helper()
	part := lease.Partition(guildID, lease.DefaultPartitions)
	var holder string
	start := time.Now()
	c.f.WaitFor(func() bool {
		ls, err := storage.LeaseTable(c.db, storage.LeaseSetGames).Leases()
		if err != nil {
			tb.Fatalf("read the leases: %v", err)
		}
		if len(ls) == 0 && time.Since(start) > 3*time.Second {
			return true // no leases: the processes take no share of the work
		}
		holders := map[string]int{}
		holder = ""
		for _, l := range ls {
			if l.Held(l.Holder, time.Now()) {
				holders[l.Holder]++
				if l.Partition == part {
					holder = l.Holder
				}
			}
		}
		// Settled: every partition held, none by a process above its fair share (so
		// none is given up and taken by another at the next ticks).
		fair := (lease.DefaultPartitions + len(c.procs) - 1) / len(c.procs)
		held := 0
		for _, n := range holders {
			if n > fair {
				return false
			}
			held += n
		}
		return len(holders) == len(c.procs) && held == lease.DefaultPartitions
	}, 3*lease.DefaultTTL)
	for i, p := range c.procs {
		if p.instance == holder {
			return i
		}
	}
	return len(c.procs) - 1
}
