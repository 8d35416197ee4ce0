// Tests of the delivery of interactions over HTTP, against hand-written endpoints.
package discordfake

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// endpointFunc is an interactions endpoint: it checks the signature as a bot must, then
// answers what answer says.
func endpointFunc(t *testing.T, f *Fake, answer func(w http.ResponseWriter, body []byte)) string {
	t.Helper()
	pub, err := hex.DecodeString(f.PublicKey())
	if err != nil || len(pub) != ed25519.PublicKeySize {
		t.Fatalf("PublicKey() = %q: %v", f.PublicKey(), err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		ts := r.Header.Get("X-Signature-Timestamp")
		if err != nil || ts == "" || !ed25519.Verify(pub, append([]byte(ts), body...), sig) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var head struct{ Type int }
		json.Unmarshal(body, &head)
		if head.Type == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"type":1}`))
			return
		}
		answer(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/interactions"
}

// writeCallback writes a complete JSON response (with its length, so the fake has all
// of it once flushed, before the handler returns).
func writeCallback(w http.ResponseWriter, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

// rawCommand is a chat command in the fake's first channel (no registration needed).
func rawCommand(f *Fake) []byte {
	return []byte(`{"type":2,"guild_id":"` + f.GuildID + `","channel_id":"` + f.ChannelID + `","member":{"user":{"id":"1","username":"alice"}},"data":{"id":"9","name":"hello","type":1}}`)
}

func TestSetInteractionsURLChecksTheEndpoint(t *testing.T) {
	f := newFake(t)
	good := endpointFunc(t, f, func(w http.ResponseWriter, _ []byte) {})
	if err := f.SetInteractionsURL(ctxFor(t), good); err != nil {
		t.Fatalf("a correct endpoint refused: %v", err)
	}
	if f.InteractionsURL() != good {
		t.Errorf("InteractionsURL() = %q", f.InteractionsURL())
	}
	for _, c := range []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"accepts any signature", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"type":1}`))
		}, "want 401"},
		{"answers PING wrongly", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`pong`)) }, `want 200 application/json {"type":1}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			err := f.SetInteractionsURL(ctxFor(t), srv.URL)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("SetInteractionsURL = %v, want an error with %q", err, c.want)
			}
			if f.InteractionsURL() != good {
				t.Errorf("a refused endpoint replaced the delivery: %q", f.InteractionsURL())
			}
		})
	}
	if err := f.SetInteractionsURL(ctxFor(t), ""); err != nil || f.InteractionsURL() != "" {
		t.Errorf("back to the gateway: %v, %q", err, f.InteractionsURL())
	}
}

func TestInteractionOverHTTP(t *testing.T) {
	f := newFake(t)
	var got atomic.Value
	url := endpointFunc(t, f, func(w http.ResponseWriter, body []byte) {
		got.Store(string(body))
		writeCallback(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "hello back"}})
	})
	if err := f.SetInteractionsURL(ctxFor(t), url); err != nil {
		t.Fatal(err)
	}
	res, err := f.SendRawInteraction(ctxFor(t), rawCommand(f))
	if err != nil {
		t.Fatal(err)
	}
	if res.Callback.Type != discordgo.InteractionResponseChannelMessageWithSource || res.Callback.Data.Content != "hello back" {
		t.Errorf("callback %+v", res.Callback)
	}
	var i discordgo.Interaction
	if err := json.Unmarshal([]byte(got.Load().(string)), &i); err != nil || i.ID != res.ID || i.Token != res.Token || i.AppID != f.AppID {
		t.Errorf("the endpoint got %s (%v)", got.Load(), err)
	}
	if m, ok := f.Original(res.ID); !ok || m.Content != "hello back" {
		t.Errorf("original response %+v, %v", m, ok)
	}
	for _, q := range f.Requests() {
		if strings.HasPrefix(q.Path, "interactions/") {
			t.Errorf("a callback went through REST: %+v", q)
		}
	}
	if f.Connected() != 0 {
		t.Errorf("%d gateway connections", f.Connected())
	}
}

// TestDeferralOverHTTPThenEdit: an endpoint that edits its deferred response the
// moment its HTTP response is written finds the deferral already taken: the fake holds
// the edit until it has read the response.
func TestDeferralOverHTTPThenEdit(t *testing.T) {
	f := newFake(t)
	edited := make(chan error, 1)
	url := endpointFunc(t, f, func(w http.ResponseWriter, body []byte) {
		var i discordgo.Interaction
		json.Unmarshal(body, &i)
		writeCallback(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		http.NewResponseController(w).Flush()
		req, _ := http.NewRequest(http.MethodPatch, f.RESTURL()+"webhooks/"+f.AppID+"/"+i.Token+"/messages/@original",
			strings.NewReader(`{"content":"thought it through"}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				err = errors.New(resp.Status)
			}
		}
		edited <- err
	})
	if err := f.SetInteractionsURL(ctxFor(t), url); err != nil {
		t.Fatal(err)
	}
	res, err := f.SendRawInteraction(ctxFor(t), rawCommand(f))
	if err != nil {
		t.Fatal(err)
	}
	if res.Callback.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Errorf("callback type %d, want 5", res.Callback.Type)
	}
	if err := <-edited; err != nil {
		t.Fatalf("edit of the original response: %v", err)
	}
	if m, ok := f.Original(res.ID); !ok || m.Content != "thought it through" {
		t.Errorf("original response %+v, %v", m, ok)
	}
}

func TestInteractionOverHTTPWithFile(t *testing.T) {
	f := newFake(t)
	url := endpointFunc(t, f, func(w http.ResponseWriter, _ []byte) {
		ct, body, err := discordgo.MultipartBodyWithJSON(discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "the board"}}, []*discordgo.File{{Name: "board.txt", ContentType: "text/plain", Reader: strings.NewReader("rnbqkbnr")}})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", ct)
		w.Write(body)
	})
	if err := f.SetInteractionsURL(ctxFor(t), url); err != nil {
		t.Fatal(err)
	}
	res, err := f.SendRawInteraction(ctxFor(t), rawCommand(f))
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := res.Callback.Data.File("board.txt"); !ok || !bytes.Equal(a.Data, []byte("rnbqkbnr")) {
		t.Errorf("attachment %+v, %v", a, ok)
	}
}

func TestInteractionOverHTTPRefusals(t *testing.T) {
	cases := []struct {
		name   string
		answer func(w http.ResponseWriter, body []byte)
		want   error
		text   string
	}{
		{"error status", func(w http.ResponseWriter, _ []byte) { http.Error(w, "boom", http.StatusInternalServerError) }, ErrRefused, "HTTP 500"},
		{"empty message", func(w http.ResponseWriter, _ []byte) {
			writeCallback(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{}})
		}, nil, "Cannot send an empty message"},
		{"a type that does not fit", func(w http.ResponseWriter, _ []byte) {
			writeCallback(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{Content: "x"}})
		}, nil, "INTERACTION_RESPONSE_TYPE_INVALID"},
		{"late", func(w http.ResponseWriter, _ []byte) {
			time.Sleep(300 * time.Millisecond) // past the 100ms deadline, whatever the machine's speed
			writeCallback(w, discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "x"}})
		}, ErrLate, "deadline"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, WithInteractionDeadline(100*time.Millisecond))
			if err := f.SetInteractionsURL(ctxFor(t), endpointFunc(t, f, c.answer)); err != nil {
				t.Fatal(err)
			}
			_, err := f.SendRawInteraction(ctxFor(t), rawCommand(f))
			if err == nil || (c.want != nil && !errors.Is(err, c.want)) || !strings.Contains(err.Error(), c.text) {
				t.Errorf("SendRawInteraction = %v, want %v with %q", err, c.want, c.text)
			}
			if cb := f.Callbacks(); len(cb) != 0 {
				t.Errorf("a refused answer was recorded: %+v", cb)
			}
		})
	}
}

// TestSign: the headers Sign makes verify with PublicKey, and PostSigned sends them.
func TestSign(t *testing.T) {
	f := newFake(t)
	body := []byte(`{"type":1}`)
	at := time.Unix(1_770_000_000, 0)
	sig, ts := f.Sign(body, at)
	pub, _ := hex.DecodeString(f.PublicKey())
	raw, _ := hex.DecodeString(sig)
	if ts != "1770000000" || !ed25519.Verify(pub, append([]byte(ts), body...), raw) {
		t.Errorf("Sign = %q, %q: does not verify", sig, ts)
	}
	url := endpointFunc(t, f, func(w http.ResponseWriter, _ []byte) {})
	status, answer, err := f.PostSigned(context.Background(), url, body, time.Now())
	if err != nil || status != http.StatusOK || string(answer) != `{"type":1}` {
		t.Errorf("PostSigned = %d %s %v", status, answer, err)
	}
}
