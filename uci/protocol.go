// protocol.go: the text of UCI commands and replies: go parameters, positions, info lines.

package uci

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
)

// GoParams are the parameters of a "go" command. Zero fields are left out.
type GoParams struct {
	WTime, BTime, WInc, BInc time.Duration
	MovesToGo                int
	Depth                    int
	Nodes                    uint64
	Mate                     int
	MoveTime                 time.Duration
	Infinite                 bool
	Ponder                   bool
	SearchMoves              []string
}

// ParseGo reads the arguments of a "go" command (the words after "go").
func ParseGo(args []string) (GoParams, error) {
	var g GoParams
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch w {
		case "infinite":
			g.Infinite = true
			continue
		case "ponder":
			g.Ponder = true
			continue
		case "searchmoves":
			for i+1 < len(args) && looksLikeMove(args[i+1]) {
				i++
				g.SearchMoves = append(g.SearchMoves, args[i])
			}
			continue
		}
		if i+1 >= len(args) {
			return g, fmt.Errorf("go %s: missing value", w)
		}
		i++
		n, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil {
			return g, fmt.Errorf("go %s %q: want an integer", w, args[i])
		}
		ms := time.Duration(max(n, 0)) * time.Millisecond
		switch w {
		case "wtime":
			g.WTime = ms
		case "btime":
			g.BTime = ms
		case "winc":
			g.WInc = ms
		case "binc":
			g.BInc = ms
		case "movetime":
			g.MoveTime = ms
		case "movestogo":
			g.MovesToGo = clampInt(n, 0, 10000)
		case "depth":
			g.Depth = clampInt(n, 0, engine.MaxPly)
		case "mate":
			g.Mate = clampInt(n, 0, engine.MaxPly/2)
		case "nodes":
			g.Nodes = uint64(max(n, 0))
		default:
			return g, fmt.Errorf("go: unknown parameter %q", w)
		}
	}
	return g, nil
}

func clampInt(n int64, lo, hi int) int { return int(max(min(n, int64(hi)), int64(lo))) }

// looksLikeMove reports whether w has the shape of a UCI move (e2e4, e7e8q).
func looksLikeMove(w string) bool {
	if len(w) != 4 && len(w) != 5 {
		return false
	}
	_, ok1 := cc.ParseSquare(w[0:2])
	_, ok2 := cc.ParseSquare(w[2:4])
	return ok1 && ok2 && (len(w) == 4 || strings.IndexByte("nbrq", w[4]) >= 0)
}

// String returns the "go" command.
func (g GoParams) String() string {
	var b strings.Builder
	b.WriteString("go")
	ms := func(name string, d time.Duration) {
		if d > 0 {
			fmt.Fprintf(&b, " %s %d", name, d.Milliseconds())
		}
	}
	ms("wtime", g.WTime)
	ms("btime", g.BTime)
	ms("winc", g.WInc)
	ms("binc", g.BInc)
	if g.MovesToGo > 0 {
		fmt.Fprintf(&b, " movestogo %d", g.MovesToGo)
	}
	if g.Depth > 0 {
		fmt.Fprintf(&b, " depth %d", g.Depth)
	}
	if g.Nodes > 0 {
		fmt.Fprintf(&b, " nodes %d", g.Nodes)
	}
	if g.Mate > 0 {
		fmt.Fprintf(&b, " mate %d", g.Mate)
	}
	ms("movetime", g.MoveTime)
	if g.Ponder {
		b.WriteString(" ponder")
	}
	if g.Infinite {
		b.WriteString(" infinite")
	}
	if len(g.SearchMoves) > 0 {
		b.WriteString(" searchmoves " + strings.Join(g.SearchMoves, " "))
	}
	return b.String()
}

// Position is a "position" command: a start (StartFEN when FEN is empty) and moves. In a
// Chess960 position (UCI_Chess960) castling is written as the king taking its own rook.
type Position struct {
	FEN      string
	Moves    []cc.Move
	Chess960 bool
}

// Start returns the start position, in the Chess960 variant when Chess960 is set.
func (p Position) Start() (cc.Position, error) {
	fen := p.FEN
	if fen == "" {
		fen = cc.StartFEN
	}
	pos, err := cc.ParseFEN(fen)
	if err != nil {
		return pos, fmt.Errorf("%w: %w", ErrBadPosition, err)
	}
	if p.Chess960 {
		_ = pos.SetVariant(cc.Chess960) // only Standard is ever refused
	}
	return pos, nil
}

// ErrBadPosition marks a position command that cannot be set up.
var ErrBadPosition = errors.New("bad position")

// ParsePosition reads the arguments of a "position" command and plays its moves, castling
// written as UCI_Chess960 writes it when chess960 is set. It returns the start, the moves
// and the resulting position; an illegal move is an error that says which one.
func ParsePosition(args []string, chess960 bool) (Position, cc.Position, error) {
	p := Position{Chess960: chess960}
	if len(args) == 0 {
		return p, cc.Position{}, fmt.Errorf("%w: want startpos or fen", ErrBadPosition)
	}
	rest := args[1:]
	switch args[0] {
	case "startpos":
	case "fen":
		n := 0
		for n < len(rest) && rest[n] != "moves" {
			n++
		}
		p.FEN = strings.Join(rest[:n], " ")
		rest = rest[n:]
	default:
		return p, cc.Position{}, fmt.Errorf("%w: %q: want startpos or fen", ErrBadPosition, args[0])
	}
	pos, err := p.Start()
	if err != nil {
		return p, cc.Position{}, err
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return p, cc.Position{}, fmt.Errorf("%w: %q: want moves", ErrBadPosition, rest[0])
		}
		for i, w := range rest[1:] {
			m, err := pos.ParseUCI(w)
			if err != nil {
				return p, pos, fmt.Errorf("%w: move %d %q: %w", ErrBadPosition, i+1, w, err)
			}
			p.Moves = append(p.Moves, m)
			pos = pos.Play(m)
		}
	}
	return p, pos, nil
}

// String returns the "position" command.
func (p Position) String() string {
	var b strings.Builder
	if (p.FEN == "" || p.FEN == cc.StartFEN) && !p.Chess960 {
		b.WriteString("position startpos")
	} else {
		fen := p.FEN
		if fen == "" {
			fen = cc.StartFEN
		}
		b.WriteString("position fen " + fen)
	}
	if len(p.Moves) > 0 {
		b.WriteString(" moves")
		pos, err := p.Start()
		for _, m := range p.Moves {
			if p.Chess960 && err == nil {
				b.WriteString(" " + pos.UCIMove(m))
				pos = pos.Play(m)
			} else {
				b.WriteString(" " + m.UCI())
			}
		}
	}
	return b.String()
}

// PositionOf returns the position command for g's current position.
func PositionOf(g *cc.Game) Position {
	start := g.Start()
	p := Position{Moves: g.Moves(), Chess960: start.Variant() == cc.Chess960}
	if fen := start.FEN(); fen != cc.StartFEN || p.Chess960 {
		p.FEN = fen
	}
	return p
}

// Info is an "info" line from an engine. Fields the line lacks are zero (HasScore tells a
// score of 0 from none).
type Info struct {
	Depth, SelDepth, MultiPV int
	Score                    engine.Score
	HasScore                 bool
	Bound                    engine.Bound
	Nodes, NPS               uint64
	Time                     time.Duration
	Hashfull                 int
	PV                       []string
	// String is the text of "info string ..." (the rest of the line).
	String string
}

// ParseInfo reads an info line (with or without the leading "info"). Unknown tokens are
// skipped, as the protocol asks.
func ParseInfo(line string) (Info, error) {
	f := strings.Fields(line)
	if len(f) > 0 && f[0] == "info" {
		f = f[1:]
	}
	var in Info
	num := func(i int, what string) (int64, error) {
		if i >= len(f) {
			return 0, fmt.Errorf("info %s: missing value", what)
		}
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("info %s %q: want an integer", what, f[i])
		}
		return n, nil
	}
	for i := 0; i < len(f); i++ {
		key := f[i]
		switch key {
		case "string":
			in.String = strings.Join(f[i+1:], " ")
			return in, nil
		case "pv":
			in.PV = append([]string(nil), f[i+1:]...)
			i = len(f)
			for j, w := range in.PV {
				if !looksLikeMove(w) && w != "0000" {
					in.PV = in.PV[:j]
					break
				}
			}
		case "score":
			if i+2 >= len(f) {
				return in, errors.New("info score: missing kind or value")
			}
			n, err := num(i+2, "score "+f[i+1])
			if err != nil {
				return in, err
			}
			switch f[i+1] {
			case "cp":
				in.Score = engine.Score(max(min(n, int64(engine.MateScore-engine.MaxPly-1)), -int64(engine.MateScore-engine.MaxPly-1)))
			case "mate":
				in.Score = mateScore(n)
			default:
				return in, fmt.Errorf("info score %q: want cp or mate", f[i+1])
			}
			in.HasScore = true
			i += 2
			if i+1 < len(f) {
				switch f[i+1] {
				case "lowerbound":
					in.Bound = engine.LowerBound
					i++
				case "upperbound":
					in.Bound = engine.UpperBound
					i++
				}
			}
		case "depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull":
			n, err := num(i+1, key)
			if err != nil {
				return in, err
			}
			i++
			n = max(n, 0)
			switch key {
			case "depth":
				in.Depth = clampInt(n, 0, 1<<20)
			case "seldepth":
				in.SelDepth = clampInt(n, 0, 1<<20)
			case "multipv":
				in.MultiPV = clampInt(n, 0, 1<<10)
			case "nodes":
				in.Nodes = uint64(n)
			case "nps":
				in.NPS = uint64(n)
			case "time":
				in.Time = time.Duration(min(n, int64(1<<40))) * time.Millisecond
			case "hashfull":
				in.Hashfull = clampInt(n, 0, 1000)
			}
		case "currmove", "currmovenumber", "tbhits", "sbhits", "cpuload", "refutation", "currline", "wdl":
			// Known tokens this package does not keep; their values are skipped with the
			// unknown-token rule below.
		}
	}
	return in, nil
}

// mateScore converts UCI's "mate n" (moves; negative when mated) into a Score.
func mateScore(n int64) engine.Score {
	n = max(min(n, engine.MaxPly/2), -engine.MaxPly/2)
	if n > 0 {
		return engine.MateScore - engine.Score(2*n-1)
	}
	return -engine.MateScore + engine.Score(-2*n)
}

// FormatInfo writes an engine report as an info line.
func FormatInfo(in engine.Info) string { return formatInfo(in, false, nil) }

// FormatInfoWDL writes an engine report as an info line with the score's win, draw and
// loss chances in permille after it ("wdl 151 698 151"), as UCI_ShowWDL asks.
func FormatInfoWDL(in engine.Info) string { return formatInfo(in, true, nil) }

// formatInfo writes the info line; with root, the position searched, the PV's castlings
// are written as that position's variant has them (UCIMove).
func formatInfo(in engine.Info, wdl bool, root *cc.Position) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d multipv %d score %s", in.Depth, in.SelDepth, in.MultiPV, in.Score.UCI())
	switch in.Bound {
	case engine.LowerBound:
		b.WriteString(" lowerbound")
	case engine.UpperBound:
		b.WriteString(" upperbound")
	}
	if wdl {
		w, d, l := in.Score.WDL()
		fmt.Fprintf(&b, " wdl %d %d %d", w, d, l)
	}
	fmt.Fprintf(&b, " nodes %d nps %d hashfull %d time %d", in.Nodes, in.NPS, in.Hashfull, in.Time.Milliseconds())
	if len(in.PV) > 0 {
		b.WriteString(" pv")
		var pos cc.Position
		if root != nil {
			pos = *root
		}
		for _, m := range in.PV {
			if root == nil || !pos.IsLegal(m) {
				b.WriteString(" " + m.UCI())
				continue
			}
			b.WriteString(" " + pos.UCIMove(m))
			pos = pos.Play(m)
		}
	}
	return b.String()
}

// Option is an option an engine declares ("option name Hash type spin default 16 min 1
// max 33554432").
type Option struct {
	Name, Type, Default string
	Min, Max            int
	Vars                []string
}

// ParseOption reads an option line (with or without the leading "option").
func ParseOption(line string) (Option, error) {
	f := strings.Fields(line)
	if len(f) > 0 && f[0] == "option" {
		f = f[1:]
	}
	var o Option
	keys := map[string]bool{"name": true, "type": true, "default": true, "min": true, "max": true, "var": true}
	for i := 0; i < len(f); {
		key := f[i]
		if !keys[key] {
			return o, fmt.Errorf("option: unexpected %q", key)
		}
		j := i + 1
		for j < len(f) && !keys[f[j]] {
			j++
		}
		val := strings.Join(f[i+1:j], " ")
		switch key {
		case "name":
			o.Name = val
		case "type":
			o.Type = val
		case "default":
			o.Default = val
		case "min", "max":
			n, err := strconv.Atoi(val)
			if err != nil {
				return o, fmt.Errorf("option %s %s %q: want an integer", o.Name, key, val)
			}
			if key == "min" {
				o.Min = n
			} else {
				o.Max = n
			}
		case "var":
			o.Vars = append(o.Vars, val)
		}
		i = j
	}
	if o.Name == "" {
		return o, errors.New("option without a name")
	}
	return o, nil
}
