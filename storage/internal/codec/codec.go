// codec.go: the record encodings every backend stores: the binary game record (layout
// in doc.go), the ladder player and puzzle records (laid out in the bbolt backend's ratings.go and
// puzzles.go, storage/bolt), the small JSON envelope of the other records, and id keys.

package codec

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

// gameFormat is the first byte of an encoded game record.
const gameFormat = 1

// JSONFormat is the first byte of a record stored as JSON (challenges, guilds, users,
// receipts).
const JSONFormat = 'J'

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
	// flagVersion marks a record that ends with its version (Game.Version); records
	// without it read as version 0.
	flagVersion = 1 << 9
	// flagMates marks a record that ends with what is known of who can still mate
	// (Game.Mates), after the version.
	flagMates = 1 << 10
	// flagVariant marks a record of a game not of standard chess: it ends with the
	// variant's byte (Game.Variant), after the mates.
	flagVariant = 1 << 11
	// flagGuest marks a guest game (Game.Guest), played where the bot is not a
	// member; it has no field of its own.
	flagGuest = 1 << 12
)

type encoder struct{ b []byte }

func (e *encoder) byte(v byte) { e.b = append(e.b, v) }

func (e *encoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }

func (e *encoder) varint(v int64) { e.b = binary.AppendVarint(e.b, v) }

func (e *encoder) int(v int) { e.uvarint(uint64(v)) }

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

// EncodeGame returns the binary record of g (its id is the key, not part of the value).
func EncodeGame(g *storage.Game) []byte {
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
	if g.Version > 0 {
		flags |= flagVersion
	}
	if g.Mates.Known() {
		flags |= flagMates
	}
	if g.Variant != chesscore.Standard {
		flags |= flagVariant
	}
	if g.Guest {
		flags |= flagGuest
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
	if g.Version > 0 {
		e.uvarint(g.Version)
	}
	if g.Mates.Known() {
		for c, v := range g.Mates.Verdict {
			e.byte(byte(v))
			if v == chesscore.Yes {
				e.int(len(g.Mates.Line[c]))
				for _, m := range g.Mates.Line[c] {
					e.b = binary.BigEndian.AppendUint16(e.b, uint16(m))
				}
			}
		}
	}
	if g.Variant != chesscore.Standard {
		e.byte(byte(g.Variant))
	}
	return e.b
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", storage.ErrCorrupt, fmt.Sprintf(format, args...))
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

// DecodeGame reads the record of game id.
func DecodeGame(id uint64, b []byte) (*storage.Game, error) {
	d := decoder{b: b}
	if f := d.byte("format"); d.err == nil && f != gameFormat {
		return nil, fmt.Errorf("%w: game %d: record format %d is not known (this gambit reads format %d)", storage.ErrCorrupt, id, f, gameFormat)
	}
	g := &storage.Game{ID: id}
	flags := d.uvarint("flags")
	if flags >= flagGuest<<1 {
		d.fail("flags %#x: unknown bits", flags)
	}
	g.Rated = flags&flagRated != 0
	g.DrawWithMove = flags&flagDrawWithMove != 0
	g.Guest = flags&flagGuest != 0
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
		g.DrawOffer = storage.Offer{Pending: true, By: d.color("draw offer"), Ply: d.int("draw offer ply", maxPly)}
	}
	if flags&flagTakeback != 0 {
		g.Takeback = storage.Offer{Pending: true, By: d.color("takeback"), Ply: d.int("takeback ply", maxPly)}
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
		n := d.int("arbiter notes", storage.MaxNotes)
		if d.err == nil && n == 0 {
			d.fail("arbiter notes: the flag with no note")
		}
		for i := 0; i < n && d.err == nil; i++ {
			g.Notes = append(g.Notes, storage.Note{Ply: d.int("note ply", maxPly), At: d.time("note at"),
				By:     storage.Player{ID: d.str("note arbiter id"), Name: d.str("note arbiter name")},
				Action: d.str("note action"), Reason: d.str("note reason")})
		}
	}
	if flags&flagVersion != 0 {
		if g.Version = d.uvarint("version"); d.err == nil && g.Version == 0 {
			d.fail("version 0 with the version flag")
		}
	}
	if flags&flagMates != 0 {
		g.Mates = d.mates(len(g.Moves))
	}
	if flags&flagVariant != 0 {
		if g.Variant = chesscore.Variant(d.byte("variant")); d.err == nil && (g.Variant == chesscore.Standard || g.Variant > chesscore.Chess960) {
			d.fail("variant %d", g.Variant)
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

// EncodeJSON returns the JSON envelope of a record: the byte 'J' and the JSON text.
func EncodeJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append([]byte{JSONFormat}, b...), nil
}

// DecodeJSON reads a JSON envelope into v.
func DecodeJSON(b []byte, v any) error {
	if len(b) == 0 || b[0] != JSONFormat {
		return fmt.Errorf("%w: not a JSON record", storage.ErrCorrupt)
	}
	if err := json.Unmarshal(b[1:], v); err != nil {
		return fmt.Errorf("%w: %v", storage.ErrCorrupt, err)
	}
	return nil
}

// IDKey returns the 8-byte big-endian key of an id, so keys sort as numbers.
func IDKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

// KeyID reads an 8-byte key.
func KeyID(k []byte) uint64 { return binary.BigEndian.Uint64(k) }

// ladderFormat is the first byte of an encoded ladder player.
const ladderFormat = 'L'

// maxLadderCount bounds the counts a decoded ladder player may hold.
const maxLadderCount = 1 << 40

func (e *encoder) float(f float64) { e.b = binary.BigEndian.AppendUint64(e.b, math.Float64bits(f)) }

func (d *decoder) float(what string) float64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail("%s: record ends early", what)
		return 0
	}
	f := math.Float64frombits(binary.BigEndian.Uint64(d.b))
	d.b = d.b[8:]
	if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		d.fail("%s: %v", what, f)
		return 0
	}
	return f
}

// EncodeLadderPlayer returns the binary value of p (its key holds guild, category, user).
func EncodeLadderPlayer(p *storage.LadderPlayer) []byte {
	e := &encoder{b: make([]byte, 0, 48+len(p.History)*14)}
	e.byte(ladderFormat)
	e.float(p.Rating)
	e.float(p.RD)
	e.float(p.Volatility)
	e.float(p.Peak)
	for _, n := range []int{p.Games, p.Wins, p.Draws, p.Losses, p.Seed} {
		e.int(n)
	}
	e.int(len(p.History))
	var prev int64
	for i, h := range p.History {
		at := int64(0)
		if !h.At.IsZero() {
			at = h.At.UnixNano()
		}
		if i == 0 {
			e.varint(at)
		} else {
			e.varint(at - prev)
		}
		prev = at
		e.float(h.Rating)
	}
	return e.b
}

// DecodeLadderPlayerValue reads the value written by encodeLadderPlayer into p.
func DecodeLadderPlayerValue(b []byte, p *storage.LadderPlayer) error {
	d := &decoder{b: b}
	if f := d.byte("format"); d.err == nil && f != ladderFormat {
		d.fail("format %d: want %d", f, ladderFormat)
	}
	p.Rating, p.RD, p.Volatility, p.Peak = d.float("rating"), d.float("rd"), d.float("volatility"), d.float("peak")
	p.Games, p.Wins, p.Draws, p.Losses = d.int("games", maxLadderCount), d.int("wins", maxLadderCount), d.int("draws", maxLadderCount), d.int("losses", maxLadderCount)
	p.Seed = d.int("seed", maxLadderCount)
	n := d.int("history", storage.MaxRatingHistory)
	if d.err == nil && n > 0 {
		p.History = make([]storage.RatingPoint, n)
		var at int64
		for i := range p.History {
			delta := d.varint("history instant")
			at += delta
			if i == 0 {
				at = delta
			}
			r := d.float("history rating")
			if d.err != nil {
				break
			}
			if at != 0 {
				p.History[i].At = time.Unix(0, at).UTC()
			}
			p.History[i].Rating = r
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d trailing bytes", len(d.b))
	}
	if d.err == nil && p.Wins+p.Draws+p.Losses != p.Games {
		d.fail("record %d games = %d+%d+%d does not add up", p.Games, p.Wins, p.Draws, p.Losses)
	}
	if d.err != nil {
		p.History = nil
	}
	return d.err
}

// puzzleFormat is the first byte of an encoded puzzle record; puzzleFormatDescription is
// the older format whose description held the players as Discord mentions.
const (
	puzzleFormat            = 2
	puzzleFormatDescription = 1
)

func EncodePuzzle(p *storage.Puzzle) []byte {
	e := encoder{b: make([]byte, 0, 96+len(p.FEN)+6*len(p.Moves)+len(p.GameURL)+len(p.White)+len(p.Black))}
	e.byte(puzzleFormat)
	e.str(p.FEN)
	e.str(strings.Join(p.Moves, " "))
	e.int(p.Rating)
	e.int(p.RD)
	e.uvarint(uint64(math.Round(p.Volatility * 1e6)))
	e.varint(int64(p.Popularity))
	e.int(p.Plays)
	e.str(strings.Join(p.Themes, " "))
	e.str(p.GameURL)
	e.str(strings.Join(p.Openings, " "))
	e.str(p.Source)
	e.str(p.White)
	e.str(p.Black)
	e.time(p.Added)
	e.time(p.Played)
	return e.b
}

func fields(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ")
}

func DecodePuzzle(id string, b []byte) (*storage.Puzzle, error) {
	d := decoder{b: b}
	format := d.byte("format")
	if d.err == nil && format != puzzleFormat && format != puzzleFormatDescription {
		d.fail("puzzle format %d", format)
	}
	p := &storage.Puzzle{ID: id}
	p.FEN = d.str("FEN")
	p.Moves = fields(d.str("moves"))
	p.Rating = d.int("rating", 4000)
	p.RD = d.int("rating deviation", 5000)
	p.Volatility = float64(d.int("volatility", 10_000_000)) / 1e6
	pop := d.varint("popularity")
	if pop < math.MinInt32 || pop > math.MaxInt32 {
		d.fail("popularity %d", pop)
	}
	p.Popularity = int(pop)
	p.Plays = d.int("plays", math.MaxInt32)
	p.Themes = fields(d.str("themes"))
	p.GameURL = d.str("game URL")
	p.Openings = fields(d.str("openings"))
	p.Source = d.str("source")
	if format == puzzleFormatDescription {
		p.White, p.Black = playersFromDescription(d.str("description"))
	} else {
		p.White = d.str("white")
		p.Black = d.str("black")
	}
	p.Added = d.time("added")
	p.Played = d.time("played")
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes after the record", len(d.b))
	}
	if d.err != nil {
		return nil, fmt.Errorf("puzzle %s: %w", id, d.err)
	}
	return p, nil
}

// playersFromDescription reads the players out of a format-1 description,
// "<@white> vs <@black>"; any other description (none was written) gives none.
func playersFromDescription(desc string) (white, black string) {
	rest, ok := strings.CutPrefix(desc, "<@")
	if !ok {
		return "", ""
	}
	rest, ok = strings.CutSuffix(rest, ">")
	if !ok {
		return "", ""
	}
	white, black, ok = strings.Cut(rest, "> vs <@")
	if !ok || white == "" || black == "" {
		return "", ""
	}
	return white, black
}

// mates reads what is known of who can still mate after ply moves (Game.Mates).
func (d *decoder) mates(ply int) chesscore.MateKnowledge {
	k := chesscore.MateKnowledge{Ply: ply}
	for c := range k.Verdict {
		v := chesscore.Verdict(d.byte("mate verdict"))
		switch v {
		case chesscore.Unknown, chesscore.No:
		case chesscore.Yes:
			n := d.int("mate line length", chesscore.MaxKnownLine)
			if d.err == nil && n == 0 {
				d.fail("mate line: a yes without its line")
			}
			if d.err == nil && 2*n > len(d.b) {
				d.fail("mate line: %d moves announced, %d bytes left", n, len(d.b))
			}
			if d.err == nil {
				k.Line[c] = make([]chesscore.Move, n)
				for i := range k.Line[c] {
					k.Line[c][i] = chesscore.Move(binary.BigEndian.Uint16(d.b[2*i:]))
				}
				d.b = d.b[2*n:]
			}
		default:
			d.fail("mate verdict %d", v)
		}
		k.Verdict[c] = v
	}
	if d.err == nil && !k.Known() {
		d.fail("mate knowledge: the flag with nothing known")
	}
	return k
}
