package discordfake

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Gateway opcodes.
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresenceUpdate = 3
	opVoiceState     = 4
	opResume         = 6
	opReconnect      = 7
	opRequestMembers = 8
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatACK   = 11
)

// Gateway close codes.
const (
	closeUnknownOpcode = 4001
	closeDecodeError   = 4002
	closeNotAuthed     = 4003
	closeAuthFailed    = 4004
	closeAlreadyAuthed = 4005
	closeInvalidShard  = 4010
	closeInvalidAPIVer = 4012
)

const (
	// writeTimeout bounds one write to a client that stopped reading.
	writeTimeout = 2 * time.Second
	// maxClientFrame is the largest payload accepted from a client.
	maxClientFrame = 1 << 20
	// gatewayVersion is the v reported in READY.
	gatewayVersion = 10
	// defaultLargeThreshold is Discord's large_threshold when none is sent.
	defaultLargeThreshold = 50
)

// Identify records one op 2 Identify.
type Identify struct {
	ShardID, ShardCount int
	Intents             discordgo.Intent
	Compress            bool
	LargeThreshold      int
	// Version and Encoding are the v and encoding of the connection URL.
	Version, Encoding string
	SessionID         string
	At                time.Time
}

// gatewayState is the gateway side's records; Fake.mu guards it.
type gatewayState struct {
	conns      map[*gwConn]bool
	sessions   map[string]*session
	shards     map[int]*session // newest session per shard ID
	identifies []Identify
	resumes    int
	heartbeats int
	ops        map[int]int // other client opcodes seen
	// closeNext are the close codes the next identifies get instead of READY
	// (CloseNextIdentify), first first.
	closeNext []gatewayClose
}

func (g *gatewayState) init() {
	g.conns = map[*gwConn]bool{}
	g.sessions = map[string]*session{}
	g.shards = map[int]*session{}
	g.ops = map[int]int{}
}

// frame is a gateway payload.
type frame struct {
	Op   int             `json:"op"`
	D    json.RawMessage `json:"d"`
	S    *int64          `json:"s"`
	T    *string         `json:"t"`
	json []byte
}

// gwConn is one websocket connection.
type gwConn struct {
	ws    *websocket.Conn
	query url.Values
	wmu   sync.Mutex
	sess  *session // Fake.mu guards it
}

func (c *gwConn) write(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	return c.ws.WriteMessage(websocket.TextMessage, b)
}

func (c *gwConn) writeOp(op int, d any) error {
	b, err := json.Marshal(map[string]any{"op": op, "d": d, "s": nil, "t": nil})
	if err != nil {
		return fmt.Errorf("encode op %d: %w", op, err)
	}
	return c.write(b)
}

// closeWith sends a close frame and drops the connection.
func (c *gwConn) closeWith(code int, reason string) {
	c.wmu.Lock()
	c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(writeTimeout))
	c.wmu.Unlock()
	c.ws.Close()
}

// session is a gateway session: what survives a dropped connection.
type session struct {
	f                   *Fake
	id                  string
	shardID, shardCount int

	mu      sync.Mutex // held while writing dispatches, so they go out in order
	seq     int64
	history []frame
	conn    *gwConn // nil while disconnected
	invalid bool
}

// dispatch sends (or, while disconnected, queues for resume) an event.
func (s *session) dispatch(event string, d any) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dispatchLocked(event, d)
}

func (s *session) dispatchLocked(event string, d any) (int64, error) {
	if s.invalid {
		return 0, fmt.Errorf("dispatch %s: session %s is invalid: %w", event, s.id, ErrNoSession)
	}
	data, err := json.Marshal(d)
	if err != nil {
		return 0, fmt.Errorf("encode %s: %w", event, err)
	}
	s.seq++
	seq := s.seq
	fr := frame{Op: opDispatch, D: data, S: &seq, T: &event}
	fr.json, err = json.Marshal(fr)
	if err != nil {
		return 0, fmt.Errorf("encode %s frame: %w", event, err)
	}
	s.history = append(s.history, fr)
	if len(s.history) > historyLimit {
		s.history = s.history[len(s.history)-historyLimit:]
	}
	if s.conn != nil {
		if err := s.conn.write(fr.json); err != nil {
			// Leave the event for a resume; the reader notices the drop.
			s.f.log.Debug("gateway write failed", "session", s.id, "err", err)
			s.conn.ws.Close()
			s.conn = nil
		}
	}
	s.f.log.Debug("dispatch", "session", s.id, "shard", s.shardID, "seq", seq, "event", event)
	return seq, nil
}

func (f *Fake) serveGateway(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the client
	}
	c := &gwConn{ws: ws, query: r.URL.Query()}
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		ws.Close()
		return
	}
	f.gw.conns[c] = true
	f.wg.Add(1)
	f.mu.Unlock()
	defer f.wg.Done()
	f.runConn(c)
}

// runConn speaks the gateway protocol on one connection until it drops.
func (f *Fake) runConn(c *gwConn) {
	closeCode := 0
	defer func() { f.connGone(c, closeCode) }()
	c.ws.SetReadLimit(maxClientFrame)
	if v := c.query.Get("v"); v != "" && v != "9" && v != "10" {
		c.closeWith(closeInvalidAPIVer, "Invalid API version.")
		return
	}
	if enc := c.query.Get("encoding"); enc != "" && enc != "json" {
		c.closeWith(closeDecodeError, "Only JSON encoding is supported.")
		return
	}
	if err := c.writeOp(opHello, map[string]int64{"heartbeat_interval": f.cfg.heartbeat.Milliseconds()}); err != nil {
		c.ws.Close()
		return
	}
	for {
		_, msg, err := c.ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				closeCode = ce.Code
			}
			c.ws.Close()
			return
		}
		var fr frame
		if err := json.Unmarshal(msg, &fr); err != nil {
			c.closeWith(closeDecodeError, "Error while decoding payload.")
			return
		}
		if !f.handleOp(c, fr) {
			return
		}
	}
}

// handleOp answers one client payload; false means the connection is done.
func (f *Fake) handleOp(c *gwConn, fr frame) bool {
	f.mu.Lock()
	authed := c.sess != nil
	f.mu.Unlock()
	switch fr.Op {
	case opHeartbeat:
		f.mu.Lock()
		f.gw.heartbeats++
		f.mu.Unlock()
		if err := c.writeOp(opHeartbeatACK, nil); err != nil {
			c.ws.Close()
			return false
		}
	case opIdentify:
		if authed {
			c.closeWith(closeAlreadyAuthed, "You sent more than one identify payload.")
			return false
		}
		return f.identify(c, fr.D)
	case opResume:
		if authed {
			c.closeWith(closeAlreadyAuthed, "Already authenticated.")
			return false
		}
		return f.resume(c, fr.D)
	case opPresenceUpdate, opVoiceState, opRequestMembers:
		if !authed {
			c.closeWith(closeNotAuthed, "Not authenticated.")
			return false
		}
		f.mu.Lock()
		f.gw.ops[fr.Op]++
		f.mu.Unlock()
	default:
		c.closeWith(closeUnknownOpcode, "Unknown opcode.")
		return false
	}
	return true
}

func (f *Fake) validToken(tok string) bool {
	return tok == f.Token || tok == "Bot "+f.Token
}

func (f *Fake) identify(c *gwConn, raw json.RawMessage) bool {
	var id struct {
		Token          string           `json:"token"`
		Intents        discordgo.Intent `json:"intents"`
		Compress       bool             `json:"compress"`
		LargeThreshold int              `json:"large_threshold"`
		Shard          *[2]int          `json:"shard"`
	}
	if err := json.Unmarshal(raw, &id); err != nil {
		c.closeWith(closeDecodeError, "Error while decoding payload.")
		return false
	}
	if !f.validToken(id.Token) {
		c.closeWith(closeAuthFailed, "Authentication failed.")
		return false
	}
	if gc, ok := f.takeClose(); ok {
		c.closeWith(gc.code, gc.reason)
		return false
	}
	shard := [2]int{0, 1}
	if id.Shard != nil {
		shard = *id.Shard
	}
	if shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1] {
		c.closeWith(closeInvalidShard, "Invalid shard.")
		return false
	}
	s := &session{f: f, id: randomHex(16), shardID: shard[0], shardCount: shard[1]}
	s.mu.Lock()
	defer s.mu.Unlock()
	f.mu.Lock()
	f.gw.sessions[s.id] = s
	f.gw.shards[s.shardID] = s
	c.sess = s
	lt := id.LargeThreshold
	if lt == 0 {
		lt = defaultLargeThreshold
	}
	f.gw.identifies = append(f.gw.identifies, Identify{
		ShardID: shard[0], ShardCount: shard[1], Intents: id.Intents, Compress: id.Compress, LargeThreshold: lt,
		Version: c.query.Get("v"), Encoding: c.query.Get("encoding"), SessionID: s.id, At: time.Now(),
	})
	var guilds []string
	for _, g := range f.guilds {
		if ShardFor(g.id, s.shardCount) == s.shardID {
			guilds = append(guilds, g.id)
		}
	}
	f.notifyLocked()
	f.mu.Unlock()
	s.conn = c

	unavailable := make([]map[string]any, len(guilds))
	for i, g := range guilds {
		unavailable[i] = map[string]any{"id": g, "unavailable": true}
	}
	ready := map[string]any{
		"v": gatewayVersion, "user": f.Bot, "guilds": unavailable, "session_id": s.id,
		"resume_gateway_url": f.GatewayURL(), "shard": shard, "private_channels": []any{},
		"application": map[string]any{"id": f.AppID, "flags": 0},
	}
	if _, err := s.dispatchLocked("READY", ready); err != nil {
		return false
	}
	for _, g := range guilds {
		if _, err := s.dispatchLocked("GUILD_CREATE", f.guildCreate(g)); err != nil {
			return false
		}
	}
	return s.conn == c
}

func (f *Fake) resume(c *gwConn, raw json.RawMessage) bool {
	var rs struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(raw, &rs); err != nil {
		c.closeWith(closeDecodeError, "Error while decoding payload.")
		return false
	}
	if !f.validToken(rs.Token) {
		c.closeWith(closeAuthFailed, "Authentication failed.")
		return false
	}
	f.mu.Lock()
	s := f.gw.sessions[rs.SessionID]
	f.mu.Unlock()
	if s == nil {
		return c.writeOp(opInvalidSession, false) == nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.invalid || rs.Seq > s.seq || (len(s.history) > 0 && rs.Seq < *s.history[0].S-1) {
		return c.writeOp(opInvalidSession, false) == nil
	}
	if old := s.conn; old != nil && old != c {
		old.ws.Close()
	}
	f.mu.Lock()
	c.sess = s
	f.gw.resumes++
	f.notifyLocked()
	f.mu.Unlock()
	s.conn = c
	for _, fr := range s.history {
		if *fr.S > rs.Seq {
			if err := c.write(fr.json); err != nil {
				s.conn = nil
				c.ws.Close()
				return false
			}
		}
	}
	if _, err := s.dispatchLocked("RESUMED", map[string]any{}); err != nil {
		return false
	}
	return s.conn == c
}

// connGone forgets a dropped connection. A client that closed with 1000 or
// 1001 ends its session, as on Discord; any other drop leaves it resumable.
func (f *Fake) connGone(c *gwConn, closeCode int) {
	f.mu.Lock()
	delete(f.gw.conns, c)
	s := c.sess
	f.notifyLocked()
	f.mu.Unlock()
	if s == nil {
		return
	}
	s.mu.Lock()
	if s.conn == c {
		s.conn = nil
	}
	end := closeCode == websocket.CloseNormalClosure || closeCode == websocket.CloseGoingAway
	if end {
		s.invalid = true
	}
	s.mu.Unlock()
	if end {
		f.mu.Lock()
		delete(f.gw.sessions, s.id)
		if f.gw.shards[s.shardID] == s {
			delete(f.gw.shards, s.shardID)
		}
		f.notifyLocked()
		f.mu.Unlock()
	}
}

// liveConns returns the open connections with their sessions.
func (f *Fake) liveConns() []*gwConn {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]*gwConn, 0, len(f.gw.conns))
	for c := range f.gw.conns {
		out = append(out, c)
	}
	return out
}

// Disconnect drops every gateway connection abruptly, without a close
// frame, as a network failure would. Sessions stay resumable, and events
// dispatched until the bot resumes are replayed to it.
func (f *Fake) Disconnect() {
	for _, c := range f.liveConns() {
		f.mu.Lock()
		s := c.sess
		f.mu.Unlock()
		if s != nil {
			s.mu.Lock()
			if s.conn == c {
				s.conn = nil
			}
			s.mu.Unlock()
		}
		c.ws.Close()
	}
}

// dropConnections closes every connection for shutdown.
func (f *Fake) dropConnections() {
	for _, c := range f.liveConns() {
		c.ws.Close()
	}
}

// RequestReconnect sends op 7 Reconnect on every connection; the client is
// expected to close and resume.
func (f *Fake) RequestReconnect() {
	for _, c := range f.liveConns() {
		c.writeOp(opReconnect, nil)
	}
}

// InvalidateSessions sends op 9 Invalid Session (not resumable) on every
// connection and forgets the sessions; the client must identify again.
func (f *Fake) InvalidateSessions() {
	for _, c := range f.liveConns() {
		f.mu.Lock()
		s := c.sess
		c.sess = nil
		if s != nil {
			delete(f.gw.sessions, s.id)
			if f.gw.shards[s.shardID] == s {
				delete(f.gw.shards, s.shardID)
			}
		}
		f.mu.Unlock()
		if s != nil {
			s.mu.Lock()
			s.invalid = true
			s.conn = nil
			s.mu.Unlock()
		}
		c.writeOp(opInvalidSession, false)
	}
}

// Identifies returns the number of accepted Identify payloads.
func (f *Fake) Identifies() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.gw.identifies)
}

// IdentifyLog returns the accepted Identify payloads, in order.
func (f *Fake) IdentifyLog() []Identify {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Identify(nil), f.gw.identifies...)
}

// CheckIdentifySpacing fails the test if two accepted Identify payloads came closer than
// window (Discord's identify rate limit with max_concurrency 1: one bucket), give or take
// 500 ms of connection time.
func (f *Fake) CheckIdentifySpacing(t testing.TB, window time.Duration) {
	t.Helper()
	log := f.IdentifyLog()
	for i := 1; i < len(log); i++ {
		if gap := log[i].At.Sub(log[i-1].At); gap < window-500*time.Millisecond {
			t.Errorf("shard %d identified %v after shard %d: closer than the %v identify window", log[i].ShardID, gap, log[i-1].ShardID, window)
		}
	}
}

// Resumes returns the number of accepted Resume payloads.
func (f *Fake) Resumes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gw.resumes
}

// Heartbeats returns the number of heartbeats received.
func (f *Fake) Heartbeats() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gw.heartbeats
}

// Connected returns the number of open gateway connections that completed
// identify or resume.
func (f *Fake) Connected() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for c := range f.gw.conns {
		if c.sess != nil {
			n++
		}
	}
	return n
}

// Shards returns the shard IDs that have a gateway session, connected or
// waiting to resume.
func (f *Fake) Shards() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ids []int
	for id := range f.gw.shards {
		ids = append(ids, id)
	}
	return ids
}

// sessionFor returns the session that receives a guild's events.
func (f *Fake) sessionFor(guildID string) *session {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sessionForLocked(guildID)
}

func (f *Fake) sessionForLocked(guildID string) *session {
	for id, s := range f.gw.shards {
		if ShardFor(guildID, s.shardCount) == id {
			return s
		}
	}
	return nil
}

// dispatchGuild sends an event to the shard of a guild, if one is up.
func (f *Fake) dispatchGuild(guildID, event string, d any) {
	if s := f.sessionFor(guildID); s != nil {
		s.dispatch(event, d)
	}
}

// Dispatch sends a gateway event (op 0 with type event and data d) to the
// session of guildID's shard (shard 0 for ""), returning its sequence
// number. Events dispatched while the session is disconnected are replayed
// when it resumes. It returns ErrNoSession if no session covers the shard.
func (f *Fake) Dispatch(event, guildID string, d any) (int64, error) {
	s := f.sessionFor(guildID)
	if s == nil {
		return 0, fmt.Errorf("dispatch %s for guild %q: %w", event, guildID, ErrNoSession)
	}
	return s.dispatch(event, d)
}
