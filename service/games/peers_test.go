package games

import (
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

// TestDowntimeCreditedFromPeersHeartbeats restarts a process under a new instance name:
// the downtime it credits runs from the latest heartbeat of any peer (Options.Peers),
// not from its own name's (none) nor from the game's last move.
func TestDowntimeCreditedFromPeersHeartbeats(t *testing.T) {
	notPlay := func(instance string) bool { return instance != "play" }
	tests := []struct {
		name string
		// beats are heartbeats written while the first process is down, at offsets
		// from its death.
		beats map[string]time.Duration
		// live reports whether white's game is still on after the restart; left is
		// then white's clock.
		live bool
	}{
		{"a new name after a full stop credits the outage from the last process's beat", nil, true},
		{"a peer that ran meanwhile vouches for the clocks: the flag fell", map[string]time.Duration{"web-3": 30 * time.Minute}, false},
		{"gambit play's heartbeat is no peer's", map[string]time.Duration{"play": 30 * time.Minute}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{Instance: "web-1", Peers: notPlay})
			g := h.start("1+0", "")
			h.play(g.ID, "e4 e5")
			h.clk.Advance(10 * time.Second) // white thinks 10 s; heartbeats meanwhile
			h.s.FireDue()
			h.clk.Advance(time.Second) // a second after the last heartbeat, web-1 dies
			died := h.clk.Now()
			h.kill()
			if len(tc.beats) > 0 {
				db := storagetest.OpenFile(t, h.path, &bolt.Options{NoSync: true})
				for name, d := range tc.beats {
					if err := db.Update(ctx, func(tx storage.Tx) error { return tx.PutHeartbeat(name, died.Add(d)) }); err != nil {
						t.Fatal(err)
					}
				}
				db.Close()
			}
			h.clk.Advance(time.Hour)
			h.opts.Instance = "web-2" // another process starts
			h.open()
			got := h.game(g.ID)
			if !tc.live {
				want := chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.TimeForfeit}
				if got.Outcome != want {
					t.Fatalf("outcome %v, want %v", got.Outcome, want)
				}
				return
			}
			if !got.Live() {
				t.Fatalf("white lost on time to downtime: %v", got.Outcome)
			}
			// The time at web-1's last heartbeat (50 s), not the 60 s of the last move.
			if left, _ := got.Remaining(chesscore.White, h.clk.Now()); left < 49*time.Second || left > 50*time.Second {
				t.Errorf("white has %v after the restart, want 50 s (the time at web-1's last heartbeat)", left)
			}
		})
	}
}

// TestDowntimeWithoutPeersIsOwnHeartbeatOnly keeps the rule of a service without
// peers: another instance's heartbeat does not vouch for its games.
func TestDowntimeWithoutPeersIsOwnHeartbeatOnly(t *testing.T) {
	h := newHarness(t, Options{})
	g := h.start("1+0", "")
	h.play(g.ID, "e4 e5")
	h.clk.Advance(10 * time.Second)
	h.s.FireDue()
	h.clk.Advance(time.Second)
	died := h.clk.Now()
	h.kill()
	db := storagetest.OpenFile(t, h.path, &bolt.Options{NoSync: true})
	if err := db.Update(ctx, func(tx storage.Tx) error { return tx.PutHeartbeat("play", died.Add(30*time.Minute)) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	h.clk.Advance(time.Hour)
	h.open()
	if got := h.game(g.ID); !got.Live() {
		t.Fatalf("another program's heartbeat vouched for the bot's clocks: %v", got.Outcome)
	}
}

// TestDowntimeCreditedFromLastAliveOption: a process that read the last heartbeat
// before taking its share (Options.LastAlive) credits from that instant, even though a
// peer that started a moment earlier, after the same outage, has beaten since.
func TestDowntimeCreditedFromLastAliveOption(t *testing.T) {
	notPlay := func(instance string) bool { return instance != "play" }
	h := newHarness(t, Options{Instance: "web-1", Peers: notPlay})
	g := h.start("1+0", "")
	h.play(g.ID, "e4 e5")
	h.clk.Advance(10 * time.Second)
	h.s.FireDue()
	h.clk.Advance(time.Second)
	h.kill() // the whole cluster goes down
	h.clk.Advance(time.Hour)
	// web-2 reads the heartbeats as it starts; web-3, started a moment earlier after
	// the same outage, beats before web-2's game service starts.
	db := storagetest.OpenFile(t, h.path, &bolt.Options{NoSync: true})
	alive, err := LastAlive(ctx, db, "web-2", notPlay)
	if err != nil || !alive.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("LastAlive = %v, %v; want web-1's last heartbeat %v", alive, err, t0.Add(10*time.Second))
	}
	if err := db.Update(ctx, func(tx storage.Tx) error { return tx.PutHeartbeat("web-3", h.clk.Now()) }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	h.opts.Instance, h.opts.LastAlive = "web-2", alive
	h.open()
	got := h.game(g.ID)
	if !got.Live() {
		t.Fatalf("white lost on time to the outage: %v", got.Outcome)
	}
	if left, _ := got.Remaining(chesscore.White, h.clk.Now()); left < 49*time.Second || left > 50*time.Second {
		t.Errorf("white has %v after the restart, want 50 s (the time at web-1's last heartbeat)", left)
	}
}
