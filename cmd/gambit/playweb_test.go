package main

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gambitchess/gambit/internal/syncbuf"
)

// TestPlayWeb: gambit play --web prints the game's link on loopback; the page's socket
// plays both sides at one keyboard, through the same game service; a resignation ends
// the game and the command.
func TestPlayWeb(t *testing.T) {
	db := tempDB(t)
	var out, errb syncbuf.Buffer
	done := make(chan error, 1)
	go func() { done <- runPlay([]string{"--db", db, "--web"}, &out, &errb) }()
	link := regexp.MustCompile(`http://127\.0\.0\.1:\d+/g/\d+/[A-Za-z0-9_-]+`)
	deadline := time.Now().Add(time.Minute)
	for link.FindString(out.String()) == "" {
		if time.Now().After(deadline) {
			t.Fatalf("no link printed: %q %q", out.String(), errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	u := link.FindString(out.String())
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET the board: %d", resp.StatusCode)
	}
	origin := u[:strings.Index(u, "/g/")]
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(u, "http")+"/ws", http.Header{"Origin": {origin}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	read := func(typ string) map[string]any {
		t.Helper()
		_ = ws.SetReadDeadline(time.Now().Add(time.Minute))
		for {
			var m map[string]any
			if err := ws.ReadJSON(&m); err != nil {
				t.Fatalf("waiting for %s: %v", typ, err)
			}
			if m["t"] == typ {
				return m
			}
			if m["t"] == "error" {
				t.Fatalf("waiting for %s: %v", typ, m)
			}
		}
	}
	send := func(m map[string]any) {
		t.Helper()
		if err := ws.WriteJSON(m); err != nil {
			t.Fatal(err)
		}
	}
	send(map[string]any{"t": "hello", "ply": 0})
	if m := read("welcome"); m["local"] != true {
		t.Fatalf("welcome %v: want a local board", m)
	}
	send(map[string]any{"t": "move", "id": "local-move-1", "ply": 0, "move": "e4"})
	read("ok")
	send(map[string]any{"t": "move", "id": "local-move-2", "ply": 1, "move": "e7e5"})
	read("ok")
	send(map[string]any{"t": "action", "id": "local-resign", "ply": 2, "action": "resign"})
	read("ok")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("gambit play --web: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("gambit play --web did not return after the game ended")
	}
	if gs := storedGames(t, db, "local:white"); len(gs) != 1 || gs[0].Ply() != 2 || gs[0].Live() {
		t.Fatalf("stored games %v", gs)
	}
}

func TestPlayWebRefusals(t *testing.T) {
	for _, args := range [][]string{
		{"--web", "--engine", "2"},
		{"--web", "--web-address", "0.0.0.0:0"},
		{"--web-address", "127.0.0.1:0"},
	} {
		var out, errb syncbuf.Buffer
		if err := runPlay(append([]string{"--db", tempDB(t)}, args...), &out, &errb); err == nil {
			t.Errorf("gambit play %v: no error", args)
		}
	}
}
