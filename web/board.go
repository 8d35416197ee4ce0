// board.go: the board of a page: 64 squares in the order the viewer sees them, each
// named (a1..h8) and holding its piece, drawn from render's vector pieces (the same
// shapes as the PNG boards) in the server's board theme.

package web

import (
	"html/template"
	"strings"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/render"
)

// square is one square of a boardView.
type square struct {
	Name  string // a1..h8
	Light bool
	Piece string // wK..bP, "" when empty
	Last  bool   // a square of the last move
	Check bool   // the king in check stands here
	// File and Rank are the coordinates drawn on the board's edge squares ("" elsewhere).
	File, Rank string
}

// boardView is the board as the page draws it.
type boardView struct {
	FEN         string
	Orientation string // white or black: the side at the bottom
	Result      string // *, 1-0, 0-1, 1/2-1/2
	Squares     []square
}

// pieceCode is a piece's name on the page: colour then letter, wK..bP.
func pieceCode(pc chesscore.Piece) string {
	if pc == chesscore.NoPiece {
		return ""
	}
	c := "w"
	if pc.Color() == chesscore.Black {
		c = "b"
	}
	return c + string(pc.Type().Letter())
}

// newBoardView returns the board of pos from bottom's side, with the last move (or
// chesscore.NullMove) marked.
func newBoardView(pos *chesscore.Position, last chesscore.Move, bottom chesscore.Color, result chesscore.Result) boardView {
	v := boardView{FEN: pos.FEN(), Orientation: colorName(bottom), Result: result.String(), Squares: make([]square, 0, 64)}
	checked := chesscore.Square(64)
	if pos.InCheck() {
		checked = pos.KingSquare(pos.Turn())
	}
	for row := 0; row < 8; row++ {
		for col := 0; col < 8; col++ {
			file, rank := col, 7-row
			if bottom == chesscore.Black {
				file, rank = 7-col, row
			}
			sq := chesscore.MakeSquare(file, rank)
			s := square{Name: sq.String(), Light: (file+rank)%2 == 1, Piece: pieceCode(pos.PieceAt(sq)), Check: sq == checked}
			if last != chesscore.NullMove && (sq == last.From() || sq == last.To()) {
				s.Last = true
			}
			if row == 7 {
				s.File = string(rune('a' + file))
			}
			if col == 0 {
				s.Rank = string(rune('1' + rank))
			}
			v.Squares = append(v.Squares, s)
		}
	}
	return v
}

func colorName(c chesscore.Color) string {
	if c == chesscore.Black {
		return "black"
	}
	return "white"
}

// pieceSymbols is the SVG of the twelve pieces as <symbol>s (ids wK..bP), made once
// from render's piece art: a page includes it once and every piece is a <use> of it.
var pieceSymbols = func() template.HTML {
	var b strings.Builder
	b.WriteString(`<svg class="piece-defs" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">`)
	for _, c := range []chesscore.Color{chesscore.White, chesscore.Black} {
		for _, t := range []chesscore.PieceType{chesscore.King, chesscore.Queen, chesscore.Rook, chesscore.Bishop, chesscore.Knight, chesscore.Pawn} {
			pc := chesscore.MakePiece(c, t)
			b.WriteString(`<symbol id="` + pieceCode(pc) + `" viewBox="0 0 100 100">`)
			b.WriteString(render.PieceSVG(pc)) // our own markup: paths and colours only
			b.WriteString(`</symbol>`)
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}()
