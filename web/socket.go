// socket.go: a game page's WebSocket: the origin check, the limits, the reader (the
// page's messages, one at a time) and the writer (the queued states and answers, and
// the pings that keep a quiet connection open).
//
// The library is gorilla/websocket, already the fake Discord's: one WebSocket library
// in the tree, and its shared write-buffer pool keeps an idle connection small (no
// write buffer of its own between messages).

package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/service/games"
)

// Socket timing: a page answers pings within pongWait; a write that takes longer than
// writeWait means the page is gone.
const (
	pingEvery = 25 * time.Second
	pongWait  = 60 * time.Second
	writeWait = 10 * time.Second
	// sendQueue is how many messages may wait for a slow page before its socket is
	// closed (it reconnects and catches up).
	sendQueue = 16
)

// writePool lends write buffers to the sockets while they write.
var writePool sync.Pool

// conn is one page's socket.
type conn struct {
	s    *Server
	ws   *websocket.Conn
	game uint64
	// user is the signed-in Discord user ("" for a spectator); local: the page of
	// gambit play --web, which plays for the side to move.
	user  string
	local bool
	addr  string

	send      chan []byte
	closeOnce sync.Once
	done      chan struct{}
}

// queue queues msg for the page without waiting; a page that does not keep up is
// disconnected.
func (c *conn) queue(msg []byte) {
	select {
	case <-c.done:
	case c.send <- msg:
	default:
		c.close()
	}
}

// close ends the socket (the writer closes the connection).
func (c *conn) close() { c.closeOnce.Do(func() { close(c.done) }) }

// reply queues a message made of v.
func (c *conn) reply(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.s.log.Error("web: encode an answer", "err", err)
		return
	}
	c.queue(b)
}

// upgrader makes the sockets; CheckOrigin is the server's.
func (s *Server) upgrader() *websocket.Upgrader {
	return &websocket.Upgrader{
		HandshakeTimeout: 10 * time.Second, ReadBufferSize: 1024, WriteBufferSize: 4096, WriteBufferPool: &writePool,
		CheckOrigin: func(r *http.Request) bool { return s.sameOrigin(r) },
		Error: func(w http.ResponseWriter, r *http.Request, status int, reason error) {
			http.Error(w, http.StatusText(status), status)
		},
	}
}

// sameOrigin reports whether the request comes from a page of this server: its Origin
// is BaseURL's origin. A socket from any other page (or none) is refused, so another
// site cannot act with a visitor's session cookie.
func (s *Server) sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	return o != "" && o == s.origin
}

// socket serves GET /g/{id}/{token}/ws.
func (s *Server) socket(w http.ResponseWriter, r *http.Request) {
	g, ok := s.gameOf(w, r, false)
	if !ok {
		return
	}
	if !s.sameOrigin(r) {
		http.Error(w, "This socket is for the game's own page.", http.StatusForbidden)
		return
	}
	user, _ := s.sessionUser(r)
	s.serveSocket(w, r, g, user, s.upgrader())
}

// serveSocket runs the socket of game g's page for user ("" for a spectator) once the
// request is known to come from a page allowed to open it (up checks the origin
// again as it upgrades).
func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request, g *games.Game, user string, up *websocket.Upgrader) {
	s.mu.Lock()
	draining := s.draining
	s.mu.Unlock()
	if draining {
		http.Error(w, "The server is restarting; try again in a moment.", http.StatusServiceUnavailable)
		return
	}
	addr := addrOf(r)
	if !s.limits.openConn(addr) {
		http.Error(w, "Too many open boards from your address; close some tabs.", http.StatusTooManyRequests)
		return
	}
	defer s.limits.releaseConn(addr)
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered
	}
	c := &conn{s: s, ws: ws, game: g.ID, user: user, local: s.opts.LocalOnly, addr: addr,
		send: make(chan []byte, sendQueue), done: make(chan struct{})}
	ws.SetReadLimit(s.opts.Limits.withDefaults().MessageBytes)
	s.hub.add(c)
	defer s.hub.remove(c)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.writeLoop()
	}()
	c.readLoop(r.Context())
	c.close()
	wg.Wait()
}

// errorMsg answers a message the server refused.
type errorMsg struct {
	T     string `json:"t"` // "error"
	ID    string `json:"id,omitempty"`
	Error string `json:"error"`
}

// okMsg answers a move or an action done.
type okMsg struct {
	T   string `json:"t"` // "ok"
	ID  string `json:"id"`
	SAN string `json:"san,omitempty"`
}

// welcomeMsg answers hello before the state: who the page is for.
type welcomeMsg struct {
	T string `json:"t"` // "welcome"
	// You is the viewer's colour ("" for a spectator); Local: gambit play's page,
	// which plays for either side.
	You   string `json:"you"`
	Local bool   `json:"local,omitempty"`
}

func (c *conn) readLoop(ctx context.Context) {
	c.ws.SetPongHandler(func(string) error { return c.ws.SetReadDeadline(time.Now().Add(pongWait)) })
	for {
		if err := c.ws.SetReadDeadline(time.Now().Add(pongWait)); err != nil {
			return
		}
		kind, b, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		select {
		case <-c.done:
			return
		default:
		}
		if kind != websocket.TextMessage {
			c.reply(errorMsg{T: "error", Error: "send text messages"})
			continue
		}
		m, err := decodeClientMsg(b)
		if err != nil {
			c.reply(errorMsg{T: "error", Error: err.Error()})
			continue
		}
		switch m.T {
		case "ping":
			c.reply(struct {
				T string `json:"t"`
			}{"pong"})
		case "hello":
			c.hello(ctx, m)
		case "move", "action":
			c.act(ctx, m)
		case "plan-check", "plan-add", "plan-remove", "plan-clear":
			c.plan(ctx, m)
		}
	}
}

// hello sends the page who it is for and the game from the ply it has: from there when
// its position there is the game's, else the whole game.
func (c *conn) hello(ctx context.Context, m clientMsg) {
	g, err := c.s.opts.Games.Game(ctx, c.game)
	if err != nil {
		c.reply(errorMsg{T: "error", Error: "the game could not be read; reload the page"})
		return
	}
	you := ""
	if col, ok := g.ColorOf(c.user); ok && c.user != "" {
		you = colorName(col)
	}
	c.reply(welcomeMsg{T: "welcome", You: you, Local: c.local})
	from := 0
	if m.Ply > 0 && m.Ply <= g.Ply() {
		chess := g.Chess()
		if pos := chess.PositionAt(m.Ply); pos.FEN() == m.FEN {
			from = m.Ply
		}
	}
	st := fullState(g, c.s.opts.Now(), from)
	c.s.markAway(ctx, g, &st)
	c.queue(st.encode())
	if g.Control.Kind() == clock.KindCorrespondence {
		c.s.sendPlan(ctx, c) // the player's own plan, to this socket alone
	}
}

func (c *conn) writeLoop() {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	defer c.ws.Close()
	for {
		select {
		case <-c.done:
			_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, ""), time.Now().Add(time.Second))
			return
		case msg := <-c.send:
			_ = c.ws.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.ws.WriteMessage(websocket.TextMessage, msg); err != nil {
				c.close()
				return
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)); err != nil && !errors.Is(err, websocket.ErrCloseSent) {
				c.close()
				return
			}
		}
	}
}
