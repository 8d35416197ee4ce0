// Tests of the delivery of interactions to one chosen process and of their redelivery.
package discordfake

import (
	"errors"
	"net"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordnet"
)

// TestSendInteractionToAndRedeliver: an application with an endpoint URL has each
// interaction delivered to the process given; delivered again to another process, the
// second answer is refused as Discord refuses it, and the first stays; a process that
// is gone leaves the interaction unanswered; without an endpoint URL nothing is sent.
func TestSendInteractionToAndRedeliver(t *testing.T) {
	f := newFake(t)
	s, err := discordgo.New("Bot " + f.Token)
	if err != nil {
		t.Fatal(err)
	}
	if err := discordnet.Configure(s, f.RESTURL(), f.GatewayURL()); err != nil {
		t.Fatal(err)
	}
	register(t, s, f) // REST only: no gateway session
	var hits [2]atomic.Int32
	procs := make([]string, 2)
	for k := range procs {
		procs[k] = endpointFunc(t, f, func(w http.ResponseWriter, _ []byte) {
			hits[k].Add(1)
			writeCallback(w, map[string]any{"type": 4, "data": map[string]any{"content": []string{"first", "second"}[k]}})
		})
	}
	if _, err := f.SendInteractionTo(ctxFor(t), procs[0], Command("ping")); !errors.Is(err, ErrNoEndpoint) {
		t.Fatalf("without an endpoint URL: %v, want ErrNoEndpoint", err)
	}
	if err := f.SetInteractionsURL(ctxFor(t), procs[1]); err != nil {
		t.Fatal(err)
	}
	res, err := f.SendInteractionTo(ctxFor(t), procs[0], Command("ping"))
	if err != nil || res.Callback.Data.Content != "first" || hits[0].Load() != 1 || hits[1].Load() != 0 {
		t.Fatalf("delivered to the first process: %+v, %v; hits %d %d", res, err, hits[0].Load(), hits[1].Load())
	}
	status, err := f.RedeliverTo(ctxFor(t), procs[1], res)
	if status != http.StatusOK || !errors.Is(err, ErrAlreadyAcknowledged) || hits[1].Load() != 1 {
		t.Fatalf("redelivered to the second process: %d, %v (hits %d); want 200 and ErrAlreadyAcknowledged", status, err, hits[1].Load())
	}
	if m, ok := f.Original(res.ID); !ok || m.Content != "first" {
		t.Errorf("the original response after the redelivery is %q, want the first answer", m.Content)
	}
	if n := len(f.Callbacks()); n != 1 {
		t.Errorf("%d callbacks accepted, want 1", n)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + ln.Addr().String() + "/interactions"
	ln.Close() // a process that died: its port refuses connections
	if _, err := f.SendInteractionTo(ctxFor(t), gone, Command("ping")); err == nil {
		t.Error("an interaction delivered to a process that is gone was answered")
	}
	if n := len(f.Callbacks()); n != 1 {
		t.Errorf("%d callbacks accepted after a failed delivery, want 1", n)
	}
}
