// The SIGSTOP test: a `gambit serve` process paused past its leases, and what it and
// its successor own, as each reports on its own /metrics.

package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/lease"
)

// ownedPartitions reads gambit_lease_partitions_owned{set="games"} from a process's
// /metrics.
func ownedPartitions(ctx context.Context, p *serveProc) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.ops+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s /metrics: %w", p.instance, err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), `gambit_lease_partitions_owned{set="games"} `); ok {
			f, err := strconv.ParseFloat(v, 64)
			return int(f), err
		}
	}
	return 0, fmt.Errorf("%s /metrics: no gambit_lease_partitions_owned{set=\"games\"}", p.instance)
}

// TestSIGSTOPPastTheLease pauses one of two `gambit serve` processes with SIGSTOP for
// longer than a lease, then resumes it with SIGCONT. While it is stopped, the other
// owns every partition within the lease's lifetime and a tick, and a game in a server
// the paused process owned goes on through it. Resumed, the paused process owns
// nothing at once (its own monotonic clock says its leases ran out during the pause),
// and from then on the two never own more than the 64 partitions between them until
// they share them again.
func TestSIGSTOPPastTheLease(t *testing.T) {
	c := startCluster(t, 2, 4)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	server := c.f.Guilds()[0]
	victim := c.owner(t, server)
	survivor := 1 - victim
	pv, ps := c.procs[victim], c.procs[survivor]
	// Resumed before the cluster is stopped, whatever happens.
	t.Cleanup(func() { pv.cmd.Process.Signal(syscall.SIGCONT) })

	g := c.newGames(0, 1, 40)[0]
	g.guildID, g.channelID = server, c.channels[0]
	if err := c.startGame(ctx, g, "30m+0", victim, victim); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := c.move(ctx, g, victim); err != nil {
			t.Fatal(err)
		}
	}
	// both reads the partitions each process owns; their sum is at most 64 unless one
	// is owned twice.
	both := func() (v, s int) {
		t.Helper()
		var err error
		if v, err = ownedPartitions(ctx, pv); err != nil {
			t.Fatal(err)
		}
		if s, err = ownedPartitions(ctx, ps); err != nil {
			t.Fatal(err)
		}
		return v, s
	}
	settled := time.Now().Add(30 * time.Second)
	for v, s := both(); v != 32 || s != 32; v, s = both() {
		if time.Now().After(settled) {
			t.Fatalf("the processes own %d and %d partitions; want 32 each", v, s)
		}
		time.Sleep(100 * time.Millisecond)
	}

	if err := pv.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	// The survivor takes the paused process's partitions once their leases end: at
	// most a lifetime after its last renewal, and a second or a tick later.
	bound := lease.DefaultTTL + 2*lease.DefaultTTL/3 + 5*time.Second
	for {
		s, err := ownedPartitions(ctx, ps)
		if err != nil {
			t.Fatal(err)
		}
		if s == lease.DefaultPartitions {
			break
		}
		if time.Since(stopped) > bound {
			t.Fatalf("%v after %s was stopped, %s owns %d partitions; want all", time.Since(stopped), pv.instance, ps.instance, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("%s owned every partition %v after %s was stopped", ps.instance, time.Since(stopped).Round(time.Millisecond), pv.instance)
	if err := c.move(ctx, g, survivor); err != nil {
		t.Fatalf("a move through %s while %s is stopped: %v", ps.instance, pv.instance, err)
	}

	// Stopped past its lease (and past the survivor's takeover) before it resumes.
	if wait := lease.DefaultTTL + time.Second - time.Since(stopped); wait > 0 {
		time.Sleep(wait)
	}
	if err := pv.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	resumed := time.Now()
	v, err := ownedPartitions(ctx, pv)
	if err != nil {
		t.Fatal(err)
	}
	if v != 0 {
		t.Errorf("%s resumed after %v stopped owns %d partitions; want none", pv.instance, resumed.Sub(stopped).Round(time.Millisecond), v)
	}
	worst := 0
	reshared := resumed.Add(30 * time.Second)
	for v, s := both(); v != 32 || s != 32; v, s = both() {
		worst = max(worst, v+s)
		if time.Now().After(reshared) {
			t.Fatalf("%v after %s resumed the processes own %d and %d partitions; want 32 each", time.Since(resumed), pv.instance, v, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if worst > lease.DefaultPartitions {
		t.Errorf("after %s resumed, the two owned %d partitions between them at once; want at most %d (none twice)", pv.instance, worst, lease.DefaultPartitions)
	}
	// The game goes on through either process.
	for _, i := range []int{victim, survivor} {
		if err := c.move(ctx, g, i); err != nil {
			t.Fatalf("a move through %s after the pause: %v", c.procs[i].instance, err)
		}
	}
	sg, err := c.storedGame(g.id)
	if err != nil || sg.Ply() != g.ply {
		t.Errorf("the game has %d plies in the store (%v), want %d", sg.Ply(), err, g.ply)
	}
}
