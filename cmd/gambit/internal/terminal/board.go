// board.go: the board as text, the clocks line and the words for moves, controls and
// endings.

package terminal

import (
	"fmt"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/games"
)

// Unicode chess symbols, indexed by colour and piece type.
var unicodePieces = [2][7]string{
	{" ", "♙", "♘", "♗", "♖", "♕", "♔"},
	{" ", "♟", "♞", "♝", "♜", "♛", "♚"},
}

// BoardText draws the position with coordinates (White at the bottom unless flip), in
// FEN letters (upper case White) or Unicode symbols, and names the last move.
func BoardText(g *games.Game, unicode, flip bool) string {
	var b strings.Builder
	pos := g.Position
	files := "  a b c d e f g h"
	if flip {
		files = "  h g f e d c b a"
	}
	for row := range 8 {
		rank := 7 - row
		if flip {
			rank = row
		}
		fmt.Fprintf(&b, "%d ", rank+1)
		for col := range 8 {
			file := col
			if flip {
				file = 7 - col
			}
			pc := pos.PieceAt(chesscore.MakeSquare(file, rank))
			switch {
			case pc == chesscore.NoPiece:
				b.WriteByte('.')
			case unicode:
				b.WriteString(unicodePieces[pc.Color()][pc.Type()])
			default:
				b.WriteByte(pc.FENLetter())
			}
			if col < 7 {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString(files)
	if len(g.SAN) > 0 {
		fmt.Fprintf(&b, "    last move %s %s", moveNumber(g, len(g.SAN)-1), g.SAN[len(g.SAN)-1])
	}
	b.WriteString("\n\n")
	return b.String()
}

// ClockLine shows both clocks at now, "White 4:58 | Black 5:00", or "" for an untimed
// game.
func ClockLine(g *games.Game, now time.Time) string {
	w, ok := g.Remaining(chesscore.White, now)
	if !ok {
		return ""
	}
	b, _ := g.Remaining(chesscore.Black, now)
	return "White " + render.FormatClock(w) + " | Black " + render.FormatClock(b)
}

// DescribeControl names a time control: "5+3 blitz", "no clock", "correspondence, 3d a
// move".
func DescribeControl(tc clock.TimeControl) string {
	switch tc.Kind() {
	case clock.KindUntimed:
		return "no clock"
	case clock.KindCorrespondence:
		return "correspondence, " + tc.String() + " a move"
	}
	return tc.String() + " " + tc.Category().String()
}

// describeEnd says in words how a game ended.
func describeEnd(g *games.Game) string {
	o := g.Outcome
	winner, won := o.Winner()
	switch o.Termination {
	case chesscore.Checkmate:
		return colorName(winner) + " wins by checkmate"
	case chesscore.Resignation:
		if won {
			return colorName(winner.Other()) + " resigned"
		}
		return "resigned, but the opponent could not have checkmated: a draw"
	case chesscore.TimeForfeit:
		return colorName(winner.Other()) + "'s time ran out"
	case chesscore.DrawOnTime:
		return "a flag fell, but the opponent could not have checkmated: a draw"
	case chesscore.Aborted:
		return "aborted"
	}
	return o.Termination.String()
}

// moveNumber returns "12." or "12..." for the move at ply (from 0) of g.
func moveNumber(g *games.Game, ply int) string { return moveLabel(g.Chess().Start(), ply) }

// moveLabel returns "12." or "12..." for the move at ply (from 0) of a game that began
// at start.
func moveLabel(start chesscore.Position, ply int) string {
	n := start.FullmoveNumber()
	black := 0
	if start.Turn() == chesscore.Black {
		black = 1
	}
	n += (ply + black) / 2
	if (ply%2 == 1) != (black == 1) {
		return fmt.Sprintf("%d...", n)
	}
	return fmt.Sprintf("%d.", n)
}

// colorName is "White" or "Black".
func colorName(c chesscore.Color) string {
	if c == chesscore.White {
		return "White"
	}
	return "Black"
}
