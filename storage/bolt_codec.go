// bolt_codec.go: the bbolt backend's encodings: the binary game record (layout in
// doc.go), the small JSON envelope of the other records, and id keys.

package storage

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
)

// gameFormat is the first byte of an encoded game record.
const gameFormat = 1

// jsonFormat is the first byte of a record stored as JSON (challenges, guilds, users,
// receipts).
const jsonFormat = 'J'

// Flag bits of the game record.
const (
	flagRated    = 1 << 0
	flagClock    = 1 << 1
	flagFreeMove = 1 << 2
	flagDraw     = 1 << 3
	flagTakeback = 1 << 4
	// flagNoShow marks a record that ends with the forfeit time (Game.NoShow); records
	// written before it existed lack both and decode with NoShow zero.
	flagNoShow = 1 << 5
	// flagDrawWithMove marks a draw offer waiting for its maker's next move
	// (Game.DrawWithMove); it has no field of its own.
	flagDrawWithMove = 1 << 6
	// flagMoved marks a record that carries the instant of the last move (Game.Moved),
	// after the no-show time.
	flagMoved = 1 << 7
	// flagNotes marks a record that ends with the arbiter's notes (Game.Notes).
	flagNotes = 1 << 8
)

type encoder struct{ b []byte }

func (e *encoder) byte(v byte)         { e.b = append(e.b, v) }
func (e *encoder) uvarint(v uint64)    { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) varint(v int64)      { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) int(v int)           { e.uvarint(uint64(v)) }
func (e *encoder) dur(d time.Duration) { e.varint(int64(d)) }
func (e *encoder) str(s string) {
	e.uvarint(uint64(len(s)))
	e.b = append(e.b, s...)
}
func (e *encoder) time(t time.Time) {
	if t.IsZero() {
		e.varint(0)
		return
	}
	e.varint(t.UnixNano())
}

// encodeGame returns the binary record of g (its id is the key, not part of the value).
func encodeGame(g *Game) []byte {
	e := encoder{b: make([]byte, 0, 96+len(g.White.Name)+len(g.Black.Name)+4*len(g.Moves))}
	e.byte(gameFormat)
	var flags uint64
	if g.Rated {
		flags |= flagRated
	}
	if g.Clock != nil {
		flags |= flagClock
		if g.Clock.FreeFirstMoves {
			flags |= flagFreeMove
		}
	}
	if g.DrawOffer.Pending {
		flags |= flagDraw
	}
	if g.Takeback.Pending {
		flags |= flagTakeback
	}
	if g.NoShow > 0 {
		flags |= flagNoShow
	}
	if g.DrawWithMove {
		flags |= flagDrawWithMove
	}
	if !g.Moved.IsZero() {
		flags |= flagMoved
	}
	if len(g.Notes) > 0 {
		flags |= flagNotes
	}
	e.uvarint(flags)
	e.str(g.GuildID)
	e.str(g.ChannelID)
	e.str(g.ThreadID)
	e.str(g.White.ID)
	e.str(g.White.Name)
	e.str(g.Black.ID)
	e.str(g.Black.Name)
	e.str(g.Control.String())
	e.str(g.StartFEN)
	e.uvarint(g.ChallengeID)
	e.time(g.Created)
	e.time(g.Ended)
	e.byte(byte(g.Outcome.Result))
	e.byte(byte(g.Outcome.Termination))
	if c := g.Clock; c != nil {
		e.byte(byte(c.State))
		e.byte(byte(c.Turn))
		e.dur(c.Left[0])
		e.dur(c.Left[1])
		e.int(c.Moves[0])
		e.int(c.Moves[1])
		e.time(c.Since)
		e.dur(c.Spent)
	}
	if g.DrawOffer.Pending {
		e.byte(byte(g.DrawOffer.By))
		e.int(g.DrawOffer.Ply)
	}
	if g.Takeback.Pending {
		e.byte(byte(g.Takeback.By))
		e.int(g.Takeback.Ply)
	}
	e.int(g.DrawOffers[0])
	e.int(g.DrawOffers[1])
	e.int(g.LastDrawOffer[0])
	e.int(g.LastDrawOffer[1])
	e.int(g.LastTakeback[0])
	e.int(g.LastTakeback[1])
	e.time(g.AbortAt)
	e.int(g.ReminderPly)
	e.int(len(g.Moves))
	for _, m := range g.Moves {
		e.b = binary.BigEndian.AppendUint16(e.b, uint16(m))
	}
	e.int(len(g.MoveClocks))
	for _, d := range g.MoveClocks {
		e.uvarint(uint64(max(0, d.Milliseconds())))
	}
	if g.NoShow > 0 {
		e.dur(g.NoShow)
	}
	if !g.Moved.IsZero() {
		e.time(g.Moved)
	}
	if len(g.Notes) > 0 {
		e.int(len(g.Notes))
		for _, n := range g.Notes {
			e.int(n.Ply)
			e.time(n.At)
			e.str(n.By.ID)
			e.str(n.By.Name)
			e.str(n.Action)
			e.str(n.Reason)
		}
	}
	return e.b
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) byte(what string) byte {
	if d.err != nil {
		return 0
	}
	if len(d.b) == 0 {
		d.fail("%s: record ends early", what)
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *decoder) uvarint(what string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("%s: bad varint", what)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint(what string) int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("%s: bad varint", what)
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int reads a non-negative count of at most limit.
func (d *decoder) int(what string, limit int) int {
	v := d.uvarint(what)
	if v > uint64(limit) {
		d.fail("%s: %d is more than %d", what, v, limit)
		return 0
	}
	return int(v)
}

func (d *decoder) dur(what string) time.Duration { return time.Duration(d.varint(what)) }

func (d *decoder) time(what string) time.Time {
	n := d.varint(what)
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func (d *decoder) str(what string) string {
	n := d.uvarint(what)
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.b)) {
		d.fail("%s: %d bytes announced, %d left", what, n, len(d.b))
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) color(what string) chesscore.Color {
	c := d.byte(what)
	if c > 1 {
		d.fail("%s: colour %d", what, c)
	}
	return chesscore.Color(c & 1)
}

// maxPly bounds the moves of a record: far beyond any game (the seventy-five-move rule
// ends every game before about 12,000 plies), small enough that a bad count cannot
// allocate much.
const maxPly = 1 << 14

// decodeGame reads the record of game id.
func decodeGame(id uint64, b []byte) (*Game, error) {
	d := decoder{b: b}
	if f := d.byte("format"); d.err == nil && f != gameFormat {
		return nil, fmt.Errorf("%w: game %d: record format %d is not known (this gambit reads format %d)", ErrCorrupt, id, f, gameFormat)
	}
	g := &Game{ID: id}
	flags := d.uvarint("flags")
	if flags >= flagNotes<<1 {
		d.fail("flags %#x: unknown bits", flags)
	}
	g.Rated = flags&flagRated != 0
	g.DrawWithMove = flags&flagDrawWithMove != 0
	g.GuildID = d.str("guild")
	g.ChannelID = d.str("channel")
	g.ThreadID = d.str("thread")
	g.White.ID = d.str("white id")
	g.White.Name = d.str("white name")
	g.Black.ID = d.str("black id")
	g.Black.Name = d.str("black name")
	tcText := d.str("control")
	g.StartFEN = d.str("start FEN")
	g.ChallengeID = d.uvarint("challenge")
	g.Created = d.time("created")
	g.Ended = d.time("ended")
	g.Outcome.Result = chesscore.Result(d.byte("result"))
	g.Outcome.Termination = chesscore.Termination(d.byte("termination"))
	if d.err == nil {
		if g.Outcome.Result > chesscore.Draw || g.Outcome.Termination > chesscore.NoShow {
			d.fail("outcome %d/%d", g.Outcome.Result, g.Outcome.Termination)
		}
		tc, err := clock.Parse(tcText)
		if err != nil {
			d.fail("time control %q: %v", tcText, err)
		}
		g.Control = tc
	}
	if flags&flagClock != 0 {
		c := &clock.Clock{Control: g.Control, FreeFirstMoves: flags&flagFreeMove != 0}
		c.State = clock.State(d.byte("clock state"))
		if c.State > clock.Stopped {
			d.fail("clock state %d", c.State)
		}
		c.Turn = d.color("clock turn")
		c.Left[0] = d.dur("white time")
		c.Left[1] = d.dur("black time")
		c.Moves[0] = d.int("white moves", maxPly)
		c.Moves[1] = d.int("black moves", maxPly)
		c.Since = d.time("clock since")
		c.Spent = d.dur("clock spent")
		g.Clock = c
	}
	if flags&flagDraw != 0 {
		g.DrawOffer = Offer{Pending: true, By: d.color("draw offer"), Ply: d.int("draw offer ply", maxPly)}
	}
	if flags&flagTakeback != 0 {
		g.Takeback = Offer{Pending: true, By: d.color("takeback"), Ply: d.int("takeback ply", maxPly)}
	}
	g.DrawOffers[0] = d.int("white draw offers", maxPly)
	g.DrawOffers[1] = d.int("black draw offers", maxPly)
	g.LastDrawOffer[0] = d.int("white last offer", maxPly)
	g.LastDrawOffer[1] = d.int("black last offer", maxPly)
	g.LastTakeback[0] = d.int("white last takeback", maxPly)
	g.LastTakeback[1] = d.int("black last takeback", maxPly)
	g.AbortAt = d.time("abort at")
	g.ReminderPly = d.int("reminder ply", maxPly+1)
	n := d.int("moves", maxPly)
	if d.err == nil && 2*n > len(d.b) {
		d.fail("%d moves announced, %d bytes left", n, len(d.b))
	}
	if d.err == nil && n > 0 {
		g.Moves = make([]chesscore.Move, n)
		for i := range g.Moves {
			g.Moves[i] = chesscore.Move(binary.BigEndian.Uint16(d.b[2*i:]))
		}
		d.b = d.b[2*n:]
	}
	k := d.int("move clocks", maxPly)
	if d.err == nil && k > len(d.b) {
		d.fail("%d move clocks announced, %d bytes left", k, len(d.b))
	}
	if d.err == nil && k > 0 {
		g.MoveClocks = make([]time.Duration, k)
		for i := range g.MoveClocks {
			ms := d.uvarint("move clock")
			if ms > math.MaxInt64/uint64(time.Millisecond) {
				d.fail("move clock %d ms", ms)
			}
			g.MoveClocks[i] = time.Duration(ms) * time.Millisecond
		}
	}
	if flags&flagNoShow != 0 {
		if g.NoShow = d.dur("no-show time"); d.err == nil && g.NoShow <= 0 {
			d.fail("no-show time %v", g.NoShow)
		}
	}
	if flags&flagMoved != 0 {
		if g.Moved = d.time("moved"); d.err == nil && g.Moved.IsZero() {
			d.fail("moved: the zero time is written as no flag")
		}
	}
	if flags&flagNotes != 0 {
		n := d.int("arbiter notes", MaxNotes)
		if d.err == nil && n == 0 {
			d.fail("arbiter notes: the flag with no note")
		}
		for i := 0; i < n && d.err == nil; i++ {
			g.Notes = append(g.Notes, Note{Ply: d.int("note ply", maxPly), At: d.time("note at"),
				By:     Player{ID: d.str("note arbiter id"), Name: d.str("note arbiter name")},
				Action: d.str("note action"), Reason: d.str("note reason")})
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes after the record", len(d.b))
	}
	if d.err != nil {
		return nil, fmt.Errorf("game %d: %w", id, d.err)
	}
	return g, nil
}

// encodeJSON returns the JSON envelope of a record: the byte 'J' and the JSON text.
func encodeJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append([]byte{jsonFormat}, b...), nil
}

// decodeJSON reads a JSON envelope into v.
func decodeJSON(b []byte, v any) error {
	if len(b) == 0 || b[0] != jsonFormat {
		return fmt.Errorf("%w: not a JSON record", ErrCorrupt)
	}
	if err := json.Unmarshal(b[1:], v); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return nil
}

// idKey returns the 8-byte big-endian key of an id, so keys sort as numbers.
func idKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// keyID reads an 8-byte key.
func keyID(k []byte) uint64 { return binary.BigEndian.Uint64(k) }
