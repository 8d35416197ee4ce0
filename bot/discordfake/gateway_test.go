package discordfake

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/gambitchess/gambit/bot/discordnet"
)

// rawGateway dials the fake's gateway with a bare websocket client.
func rawGateway(t *testing.T, f *Fake, query string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(f.GatewayURL()+"/?"+query, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { ws.Close() })
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	return ws
}

type gwFrame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

func readFrame(t *testing.T, ws *websocket.Conn) (gwFrame, error) {
	t.Helper()
	var fr gwFrame
	_, msg, err := ws.ReadMessage()
	if err != nil {
		return fr, err
	}
	if err := json.Unmarshal(msg, &fr); err != nil {
		t.Fatalf("frame %s: %v", msg, err)
	}
	return fr, nil
}

func closeCode(err error) int {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return 0
}

func identifyFrame(token string, shard *[2]int) map[string]any {
	d := map[string]any{"token": token, "intents": 513, "properties": map[string]string{"os": "linux"}}
	if shard != nil {
		d["shard"] = shard
	}
	return map[string]any{"op": 2, "d": d}
}

func TestGatewayProtocolErrors(t *testing.T) {
	f := newFake(t)
	tests := []struct {
		name  string
		query string
		send  []any // JSON values, or string for a raw text frame
		want  int
	}{
		{"unknown opcode", "v=10&encoding=json", []any{map[string]any{"op": 42}}, closeUnknownOpcode},
		{"bad json", "v=10&encoding=json", []any{"{nope"}, closeDecodeError},
		{"presence before identify", "v=10&encoding=json", []any{map[string]any{"op": 3, "d": map[string]any{}}}, closeNotAuthed},
		{"wrong token", "v=10&encoding=json", []any{identifyFrame("Bot nope", nil)}, closeAuthFailed},
		{"bad shard", "v=10&encoding=json", []any{identifyFrame(f.Token, &[2]int{2, 2})}, closeInvalidShard},
		{"identify twice", "v=10&encoding=json", []any{identifyFrame(f.Token, nil), identifyFrame(f.Token, nil)}, closeAlreadyAuthed},
		{"etf", "v=10&encoding=etf", nil, closeDecodeError},
		{"old version", "v=6&encoding=json", nil, closeInvalidAPIVer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := rawGateway(t, f, tt.query)
			for _, m := range tt.send {
				var err error
				if s, ok := m.(string); ok {
					err = ws.WriteMessage(websocket.TextMessage, []byte(s))
				} else {
					err = ws.WriteJSON(m)
				}
				if err != nil {
					t.Fatalf("write: %v", err)
				}
			}
			for {
				_, err := readFrame(t, ws)
				if err != nil {
					if got := closeCode(err); got != tt.want {
						t.Errorf("closed with %d (%v), want %d", got, err, tt.want)
					}
					return
				}
			}
		})
	}
}

func TestGatewayRawSession(t *testing.T) {
	f := newFake(t)
	ws := rawGateway(t, f, "v=10&encoding=json")
	hello, err := readFrame(t, ws)
	if err != nil || hello.Op != opHello || !strings.Contains(string(hello.D), fmt.Sprintf(`"heartbeat_interval":%d`, DefaultHeartbeatInterval.Milliseconds())) {
		t.Fatalf("hello = %+v, %v", hello, err)
	}
	ws.WriteJSON(identifyFrame(f.Token, nil))
	ready, _ := readFrame(t, ws)
	var rd struct {
		SessionID string `json:"session_id"`
		Resume    string `json:"resume_gateway_url"`
		V         int    `json:"v"`
	}
	json.Unmarshal(ready.D, &rd)
	if ready.T == nil || *ready.T != "READY" || *ready.S != 1 || rd.SessionID == "" || rd.Resume != f.GatewayURL() || rd.V != 10 {
		t.Fatalf("READY = %+v %+v", ready, rd)
	}
	if gc, _ := readFrame(t, ws); gc.T == nil || *gc.T != "GUILD_CREATE" || *gc.S != 2 {
		t.Fatalf("second dispatch = %+v, want GUILD_CREATE seq 2", gc)
	}
	ws.WriteJSON(map[string]any{"op": 1, "d": 2})
	if ack, _ := readFrame(t, ws); ack.Op != opHeartbeatACK {
		t.Errorf("heartbeat answered with op %d", ack.Op)
	}
	if f.Connected() != 1 || len(f.Shards()) != 1 {
		t.Errorf("Connected %d Shards %v", f.Connected(), f.Shards())
	}
	ws.Close()
	if !f.WaitFor(func() bool { return f.Connected() == 0 }, hangGuard) {
		t.Fatal("connection still counted after close")
	}
	for i := 0; i < 3; i++ {
		if _, err := f.Dispatch("TYPING_START", f.GuildID, map[string]int{"n": i}); err != nil {
			t.Fatal(err)
		}
	}

	// Resume from seq 2: the three missed events (3, 4, 5), then RESUMED (6).
	ws2 := rawGateway(t, f, "v=10&encoding=json")
	readFrame(t, ws2)
	ws2.WriteJSON(map[string]any{"op": 6, "d": map[string]any{"token": "Bot " + f.Token, "session_id": rd.SessionID, "seq": 2}})
	var got []string
	for i := 0; i < 4; i++ {
		fr, err := readFrame(t, ws2)
		if err != nil {
			t.Fatalf("after resume: %v", err)
		}
		got = append(got, *fr.T+"@"+strings.TrimSpace(string(json.RawMessage(fmtInt(*fr.S)))))
	}
	if want := "TYPING_START@3 TYPING_START@4 TYPING_START@5 RESUMED@6"; strings.Join(got, " ") != want {
		t.Errorf("replay = %v, want %s", got, want)
	}

	// A session closed with 1000 cannot be resumed.
	ws2.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
	readFrame(t, ws2)
	if !f.WaitFor(func() bool { return len(f.Shards()) == 0 }, hangGuard) {
		t.Fatal("session survived a 1000 close")
	}
	ws3 := rawGateway(t, f, "")
	readFrame(t, ws3)
	ws3.WriteJSON(map[string]any{"op": 6, "d": map[string]any{"token": f.Token, "session_id": rd.SessionID, "seq": 7}})
	if fr, _ := readFrame(t, ws3); fr.Op != opInvalidSession || string(fr.D) != "false" {
		t.Errorf("resume of an ended session = %+v, want op 9 false", fr)
	}
}

func fmtInt(n int64) []byte { b, _ := json.Marshal(n); return b }

// TestOpenViaRESTGateway lets discordgo learn the gateway URL from the
// fake's GET gateway, with only the REST URL configured.
func TestOpenViaRESTGateway(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s, _ := discordgo.New("Bot " + f.Token)
	if err := discordnet.Configure(s, f.RESTURL(), ""); err != nil {
		t.Fatal(err)
	}
	if err := s.Open(); err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { discordnet.Close(s) })
	if f.Identifies() != 1 {
		t.Errorf("identifies = %d", f.Identifies())
	}
	found := false
	for _, r := range f.Requests() {
		found = found || (r.Path == "gateway" && r.Status == 200)
	}
	if !found {
		t.Error("GET gateway never reached the fake")
	}
	if _, err := s.Request("POST", discordgo.EndpointChannel(f.ChannelID)+"/typing", nil); err != nil {
		t.Errorf("typing: %v", err)
	}
	app, err := s.Application("@me")
	if err != nil || app.ID != f.AppID {
		t.Errorf("Application(@me) = %+v, %v", app, err)
	}
}
