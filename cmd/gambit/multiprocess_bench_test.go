// Benchmarks of `gambit serve` processes on one PostgreSQL database: moves a second
// through one process and through three, and the time from a SIGKILL to the first
// flag a survivor announces. They start real processes: run them with -bench only
// (and without -race, which would slow the fake Discord in the test process).

package main

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkMultiProcessMoves plays moves through 1 and through 3 processes on one
// database: 24 players (or more for a long run) move at once without pause, each game
// through the processes in turn (or, by-game, each game through one of them), every
// interaction signed and delivered over HTTP by the fake Discord, every answer a board
// image. It reports moves a second; the ratio of 3 to 1 is what a second and third
// process add on the same machine.
func BenchmarkMultiProcessMoves(b *testing.B) {
	for _, run := range []struct {
		name  string
		procs int
		// byGame sends all of a game's moves through one process (a load balancer
		// with affinity); otherwise each move goes through the next process, whose
		// copy of the game is then behind the store (the reload, and the retry, are
		// part of the cost).
		byGame bool
	}{
		{"processes=1", 1, false},
		{"processes=3/alternating", 3, false},
		{"processes=3/by-game", 3, true},
	} {
		procs := run.procs
		b.Run(run.name, func(b *testing.B) {
			c := startCluster(b, procs, 8)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			const plies = 100
			count := max(24, b.N/(plies*3/4)+1)
			games := c.newGames(0, count, plies)
			if err := c.startGames(ctx, games, "30m+0"); err != nil {
				b.Fatal(err)
			}
			var left atomic.Int64
			left.Store(int64(b.N))
			b.ResetTimer()
			err := forEachLimit(len(games), len(games), func(k int) error {
				g := games[k]
				for turn := k; g.ply < len(g.line); turn++ {
					if left.Add(-1) < 0 {
						return nil
					}
					i := turn % procs
					if run.byGame {
						i = k % procs
					}
					if err := c.move(ctx, g, i); err != nil {
						return err
					}
				}
				left.Add(1) // this game's line ran out: another game takes the move
				return nil
			})
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			if n := left.Load(); n > 0 {
				b.Fatalf("%d moves not played: the games' lines ran out", n)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}

// BenchmarkSIGKILLToFlag measures, on three processes, the time from the SIGKILL of
// the process owning a server to the first flag of that server announced by a
// survivor: the game was played through the owner alone and its flag falls half a
// second after the kill, so the time is the takeover of the dead process's leases
// (their expiry, the survivor's next tick) and the adoption of its games. Each iteration starts its own processes (about 25 s); the
// figure is kill-to-flag-ms.
func BenchmarkSIGKILLToFlag(b *testing.B) {
	var total time.Duration
	for range b.N {
		c := startCluster(b, 3, 8)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		g := c.newGames(0, 1, 10)[0]
		victim := c.owner(b, g.guildID)
		// Played through the owner alone: no survivor knows the game before it takes
		// the server over.
		if err := c.startGame(ctx, g, "6s+0", victim, victim); err != nil {
			b.Fatal(err)
		}
		for range 2 {
			if err := c.move(ctx, g, victim); err != nil {
				b.Fatal(err)
			}
		}
		sg, err := c.storedGame(g.id)
		if err != nil {
			b.Fatal(err)
		}
		deadline := sg.Clock.FlagAt()
		time.Sleep(time.Until(deadline.Add(-500 * time.Millisecond)))
		killAt := c.kill(victim)
		var announced time.Time
		var once sync.Once
		if !c.f.WaitFor(func() bool {
			for _, m := range c.f.Messages(g.thread) {
				if strings.Contains(m.Content, "flag fell") {
					once.Do(func() { announced = m.Created })
					return true
				}
			}
			return false
		}, 30*time.Second) {
			sg, _ := c.storedGame(g.id)
			var msgs []string
			for _, m := range c.f.Messages(g.thread) {
				msgs = append(msgs, m.Kind.String()+": "+m.Content)
			}
			b.Fatalf("no flag announced within 30s of the SIGKILL (deadline %v, kill %v; stored: live %v ply %d outcome %+v ended %v; thread: %q)",
				deadline, killAt, sg.Live(), sg.Ply(), sg.Outcome, sg.Ended, msgs)
		}
		cancel()
		total += announced.Sub(killAt)
		c.stop()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "kill-to-flag-ms")
}
