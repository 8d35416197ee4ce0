package engineplay

// Tests of the fair queue's order.

import (
	"fmt"
	"strings"
	"testing"
)

// TestFairQueueOrder runs scripts of pushes, pops and releases: "s1/a:1" queues item 1
// for user a of server s1 ("^s1/a:1" ahead of a's other items), "pop 1,2" pops and expects 1 then 2, "release s1" ends s1's
// turn (exclusive queues), "stale 3" makes item 3 stale, "len 4" checks the count.
func TestFairQueueOrder(t *testing.T) {
	for _, c := range []struct {
		name      string
		exclusive bool
		script    string
	}{
		{"one user: first in, first out", false, "s1/a:1 s1/a:2 s1/a:3; pop 1,2,3; pop -"},
		{"users of a server take turns", false, "s1/a:1 s1/a:2 s1/a:3 s1/b:4 s1/b:5 s1/c:6; pop 1,4,6,2,5,3; pop -"},
		{"servers take turns", false, "s1/a:1 s1/a:2 s2/b:3 s2/b:4 s3/c:5; pop 1,3,5,2,4"},
		// The case: a flood of six from one person on one server, one request
		// from another server: the latter is served second, not seventh.
		{"a flooding user does not hold up another server", false, "s1/a:1 s1/a:2 s1/a:3 s1/a:4 s1/a:5 s1/a:6 s2/b:7; pop 1,7,2,3,4,5,6"},
		{"a flooding server does not hold up another", false, "s1/a:1 s1/b:2 s1/c:3 s1/d:4 s2/e:5 s2/e:6; pop 1,5,2,6,3,4"},
		// Work that arrives later joins at the back of the ring, and a server or user
		// that was served goes behind those waiting.
		{"a newcomer goes before the server just served", false, "s1/a:1 s1/a:2 s1/a:3; pop 1; s2/b:4; pop 4,2; s2/b:5; pop 5,3"},
		{"a newcomer goes behind the servers waiting", false, "s1/a:1 s1/a:2 s2/b:3; pop 1; s3/c:4; pop 3,4,2"},
		{"a user arriving mid-flood is served next", false, "s1/a:1 s1/a:2 s1/a:3 s1/a:4 s1/a:5 s1/a:6; pop 1; s2/b:7; pop 7,2,3"},
		{"a newcomer user goes before the user just served", false, "s1/a:1 s1/a:2; pop 1; s1/b:3; pop 3,2"},
		{"requeued work (a takeback) waits behind the others", false, "s1/a:1 s1/a:2 s2/b:3; pop 1; s1/a:1; pop 3,2,1"},
		{"resumed work goes first in its user's line", false, "s1/a:1 s1/a:2 s2/b:3; pop 1; ^s1/a:1; pop 3,1,2"},
		{"resumed work ahead of items never popped", false, "s1/a:1 s1/a:2; ^s1/a:3; len 3; pop 3,1,2; pop -"},
		{"resumed work of a user with nothing left", false, "s1/a:1 s2/b:2; pop 1; ^s1/a:1; s1/c:3; pop 2,1,3"},
		{"served work re-queued goes behind the others", false, "s1/a:1 s2/b:2; pop 1; s1/a:3; pop 2,3"},
		{"a user that emptied joins at the back", false, "s1/a:1 s1/b:2 s1/b:3; pop 1; s1/a:4; pop 2,4,3"},
		{"stale items are dropped and cost no turn", false, "s1/a:1 s1/a:2 s2/b:3 s2/b:4; stale 1,3; len 4; pop 2,4; len 0; pop -"},
		{"a server of stale items leaves the ring", false, "s1/a:1 s2/b:2 s3/c:3; stale 2; pop 1,3; pop -"},
		{"exclusive: one at a time per server", true, "s1/a:1 s1/b:2 s2/c:3; pop 1,3; pop -; release s1; pop 2; pop -"},
		{"exclusive: a released server goes to the back", true, "s1/a:1 s1/a:2 s2/b:3 s2/b:4 s3/c:5; pop 1; release s1; pop 3,5,2; pop -; release s2; pop 4"},
		{"exclusive: work queued while busy waits for release", true, "s1/a:1; pop 1; s1/a:2 s1/b:3; pop -; release s1; pop 2; release s1; pop 3"},
		{"exclusive: release of an idle server is harmless", true, "release s9; s1/a:1; pop 1; release s1; release s1; pop -; s1/a:2; pop 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := newFairQueue[int](c.exclusive)
			stale := map[int]bool{}
			live := func(v int) bool { return !stale[v] }
			for step := range strings.SplitSeq(c.script, ";") {
				fields := strings.Fields(step)
				switch fields[0] {
				case "pop":
					if fields[1] == "-" {
						if v, s, ok := q.pop(live); ok {
							t.Fatalf("%s: popped %d of %s, want nothing", step, v, s)
						}
						continue
					}
					for want := range strings.SplitSeq(fields[1], ",") {
						v, _, ok := q.pop(live)
						if got := fmt.Sprint(v); !ok || got != want {
							t.Fatalf("%s: popped %s (%v), want %s", step, got, ok, want)
						}
					}
				case "release":
					q.release(fields[1])
				case "stale":
					for v := range strings.SplitSeq(fields[1], ",") {
						var n int
						fmt.Sscan(v, &n)
						stale[n] = true
					}
				case "len":
					if got := fmt.Sprint(q.len()); got != fields[1] {
						t.Fatalf("%s: len %s", step, got)
					}
				default:
					for _, f := range fields {
						front := strings.HasPrefix(f, "^")
						f = strings.TrimPrefix(f, "^")
						var server, user string
						var v int
						who, item, _ := strings.Cut(f, ":")
						server, user, _ = strings.Cut(who, "/")
						if _, err := fmt.Sscan(item, &v); err != nil || server == "" || user == "" {
							t.Fatalf("bad push %q", f)
						}
						if front {
							q.pushFront(server, user, v)
						} else {
							q.push(server, user, v)
						}
					}
				}
			}
		})
	}
}

// TestFairQueueServesEveryone: whatever the mix, every item comes out exactly once,
// and each user's items in the order they were pushed.
func TestFairQueueServesEveryone(t *testing.T) {
	q := newFairQueue[int](false)
	next := map[string]int{}
	pushed := 0
	for i := range 500 {
		server, user := fmt.Sprint("s", i%3), fmt.Sprint("u", (i*7)%5)
		q.push(server, server+user, i)
		pushed++
		if i%4 == 3 {
			v, s, ok := q.pop(nil)
			if !ok {
				t.Fatal("empty too soon")
			}
			check(t, next, s, v)
		}
	}
	popped := 500 / 4
	for {
		v, s, ok := q.pop(nil)
		if !ok {
			break
		}
		check(t, next, s, v)
		popped++
	}
	if popped != pushed || q.len() != 0 || len(q.byServer) != 0 {
		t.Errorf("popped %d of %d; left %d items, %d servers", popped, pushed, q.len(), len(q.byServer))
	}
}

// check asserts that a user's items come in increasing order.
func check(t *testing.T, last map[string]int, server string, v int) {
	t.Helper()
	user := fmt.Sprint(server, "u", (v*7)%5)
	if p, ok := last[user]; ok && v <= p {
		t.Fatalf("%s: item %d after %d", user, v, p)
	}
	last[user] = v
}

// TestFairQueueDoesNotAllocate: once warm, a push and a pop allocate nothing.
func TestFairQueueDoesNotAllocate(t *testing.T) {
	q := newFairQueue[uint64](false)
	servers := []string{"100000000000000001", "100000000000000002", "100000000000000003"}
	users := []string{"200000000000000001", "200000000000000002"}
	round := func() {
		for i := range 12 {
			q.push(servers[i%3], users[i%2], uint64(i))
		}
		for range 12 {
			q.pop(nil)
		}
	}
	round()
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Errorf("%v allocations per round of 12 pushes and pops", n)
	}
}

// BenchmarkFairQueue measures a push and a pop with six servers of three users waiting.
func BenchmarkFairQueue(b *testing.B) {
	q := newFairQueue[uint64](false)
	var servers, users []string
	for i := range 6 {
		servers = append(servers, fmt.Sprint("10000000000000000", i))
	}
	for i := range 3 {
		users = append(users, fmt.Sprint("20000000000000000", i))
	}
	for i := range 18 {
		q.push(servers[i%6], users[i%3], uint64(i))
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		v, _, _ := q.pop(nil)
		q.push(servers[i%6], users[(i/6)%3], v)
	}
}
