// hub.go: the pages watching each game, and the fan-out of the games' events to them.
// The service tells the hub of every event (Notify); the hub makes the game's state
// once and queues the same bytes to every socket of the game, never waiting for one:
// a socket whose queue is full is closed, and its page reconnects and catches up.

package web

import (
	"context"
	"sync"

	"github.com/gambitchess/gambit/service/games"
)

// hub keeps the sockets by game and the last state sent for each game.
type hub struct {
	s *Server

	mu    sync.Mutex
	conns map[uint64]map[*conn]struct{}
	// sent is, by game with sockets, the version and ply of the last state sent.
	sent map[uint64]sentState
}

type sentState struct {
	version uint64
	ply     int
}

func newHub(s *Server) *hub {
	return &hub{s: s, conns: map[uint64]map[*conn]struct{}{}, sent: map[uint64]sentState{}}
}

// add registers c for its game's states.
func (h *hub) add(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.conns[c.game]
	if m == nil {
		m = map[*conn]struct{}{}
		h.conns[c.game] = m
	}
	m[c] = struct{}{}
}

// remove forgets c.
func (h *hub) remove(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.conns[c.game]
	delete(m, c)
	if len(m) == 0 {
		delete(h.conns, c.game)
		delete(h.sent, c.game)
	}
}

// userConns returns the sockets of game id signed in as user.
func (h *hub) userConns(id uint64, user string) []*conn {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*conn
	for c := range h.conns[id] {
		if c.user == user {
			out = append(out, c)
		}
	}
	return out
}

// watched reports whether a socket watches game id.
func (h *hub) watched(id uint64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns[id]) > 0
}

// closeAll closes every socket (the server is shutting down).
func (h *hub) closeAll() {
	h.mu.Lock()
	var all []*conn
	for _, m := range h.conns {
		for c := range m {
			all = append(all, c)
		}
	}
	h.mu.Unlock()
	for _, c := range all {
		c.close()
	}
}

// Notify implements games.Notifier: every event of a game sends its state to the game's
// sockets (and each player's own plan to their sockets alone), and tells the other
// processes (Fanout) that it changed.
func (s *Server) Notify(ctx context.Context, e games.Event) {
	g := eventGame(e)
	if g == nil {
		return
	}
	s.hub.broadcast(g)
	s.pushPlans(ctx, g)
	if f := s.opts.Fanout; f != nil {
		if err := f.Publish(ctx, g.ID); err != nil {
			s.log.Warn("web: tell the other processes of a move", "game", g.ID, "err", err)
		}
	}
}

// eventGame returns the game snapshot an event carries, or nil.
func eventGame(e games.Event) *games.Game {
	switch ev := e.(type) {
	case games.GameStarted:
		return ev.Game
	case games.YourTurn:
		return ev.Game
	case games.DrawOffered:
		return ev.Game
	case games.DrawDeclined:
		return ev.Game
	case games.TakebackRequested:
		return ev.Game
	case games.TakebackAccepted:
		return ev.Game
	case games.TakebackDeclined:
		return ev.Game
	case games.GameOver:
		return ev.Game
	case games.FlagFell:
		return ev.Game
	case games.ConditionalPlayed: // the opponent's move and the planned reply
		return ev.Game
	case games.PlanDropped:
		return ev.Game
	}
	return nil
}

// changedElsewhere reloads game id, which another process changed, for its sockets.
func (h *hub) changedElsewhere(ctx context.Context, id uint64) {
	if !h.watched(id) {
		return
	}
	g, err := h.s.opts.Games.Game(ctx, id)
	if err != nil {
		h.s.log.Warn("web: reload a game another process changed", "game", id, "err", err)
		return
	}
	h.broadcast(g)
	h.s.pushPlans(ctx, g)
}

// broadcast sends g's state to its sockets, unless a state as recent was sent.
func (h *hub) broadcast(g *games.Game) {
	h.mu.Lock()
	m := h.conns[g.ID]
	last, seen := h.sent[g.ID]
	if len(m) == 0 || (seen && g.Version <= last.version) {
		h.mu.Unlock()
		return
	}
	from := 0
	if seen {
		from = last.ply
	}
	h.sent[g.ID] = sentState{version: g.Version, ply: g.Ply()}
	targets := make([]*conn, 0, len(m))
	for c := range m {
		targets = append(targets, c)
	}
	h.mu.Unlock()
	st := fullState(g, h.s.opts.Now(), from)
	h.s.markAway(context.Background(), g, &st) // from an event's delivery, which has no context of its own
	msg := st.encode()
	for _, c := range targets {
		c.queue(msg)
	}
}
