// fen.go: reading and writing Forsyth-Edwards Notation, with every check that makes a
// parsed position one that legal play could reach as far as FEN can tell.

package chesscore

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// ErrFEN is wrapped by every FEN parsing error, for errors.Is.
var ErrFEN = errors.New("invalid FEN")

func fenError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFEN, fmt.Sprintf(format, args...))
}

// ParseFEN parses a FEN string. It accepts the four placement fields alone (counters then
// default to 0 and 1) or all six. It never panics, and it rejects positions that FEN can
// show to be impossible: a wrong number of kings, pawns on the first or last rank, castling
// rights the placement contradicts, an en passant square no double push could have made, or
// the side not to move in check. An en passant square that no legal capture can use is
// accepted and dropped (it does not change the position, FIDE 9.2.3).
func ParseFEN(fen string) (Position, error) {
	var p Position
	fields := strings.Fields(fen)
	if len(fields) != 6 && len(fields) != 4 {
		return p, fenError("%d fields, want 6 (placement, side, castling, en passant, halfmove clock, fullmove number)", len(fields))
	}
	if err := p.parsePlacement(fields[0]); err != nil {
		return Position{}, err
	}
	switch fields[1] {
	case "w":
		p.turn = White
	case "b":
		p.turn = Black
	default:
		return Position{}, fenError("side to move %q, want w or b", fields[1])
	}
	if err := p.checkPlacement(fields[2]); err != nil {
		return Position{}, err
	}
	if err := p.parseEnPassant(fields[3]); err != nil {
		return Position{}, err
	}
	p.fullmove = 1
	if len(fields) == 6 {
		hm, err := strconv.ParseUint(fields[4], 10, 16)
		if err != nil || hm > 10000 {
			return Position{}, fenError("halfmove clock %q, want a whole number from 0 to 10000", fields[4])
		}
		fm, err := strconv.ParseUint(fields[5], 10, 16)
		if err != nil || fm < 1 || fm > 10000 {
			return Position{}, fenError("fullmove number %q, want a whole number from 1 to 10000", fields[5])
		}
		p.halfmove, p.fullmove = uint16(hm), uint16(fm)
	}
	p.hash = p.computeHash()
	return p, nil
}

func (p *Position) parsePlacement(s string) error {
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return fenError("placement has %d ranks, want 8", len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				if file > 8 {
					break
				}
				continue
			}
			if c == '0' || c == '9' {
				return fenError("empty-square count %q on rank %d, want 1 to 8", string(rune(c)), rank+1)
			}
			pc, ok := pieceFromLetter(c)
			if !ok {
				return fenError("bad piece letter %q on rank %d", string(rune(c)), rank+1)
			}
			if file >= 8 {
				file++
				break
			}
			p.put(pc, MakeSquare(file, rank))
			file++
		}
		if file != 8 {
			return fenError("rank %d (%q) covers %d squares, want 8", rank+1, row, file)
		}
	}
	return nil
}

func pieceFromLetter(c byte) (Piece, bool) {
	i := strings.IndexByte("PNBRQKpnbrqk", c)
	if i < 0 {
		return NoPiece, false
	}
	return MakePiece(Color(i/6), PieceType(i%6+1)), true
}

// parseCastling reads the castling field, in X-FEN (K and Q for the outermost rook on
// the king's side, a file letter for another) or Shredder-FEN (file letters only), upper
// case for White. It runs once the kings are known to be one a side.
func (p *Position) parseCastling(s string) error {
	p.castleRook, p.castleEnds = [4]Square{NoSquare, NoSquare, NoSquare, NoSquare}, 0
	if s == "-" {
		return nil
	}
	if len(s) > 4 {
		return fenError("castling field %q is too long", s)
	}
	for j := 0; j < len(s); j++ {
		c, color, letter := s[j], White, s[j]|0x20
		if c >= 'a' {
			color = Black
		}
		ksq, back := p.KingSquare(color), 7*int(color)
		rooks := p.Pieces(color, Rook) & (Rank1 << (8 * back))
		rsq := NoSquare
		switch {
		case (letter < 'a' || letter > 'h') && letter != 'k' && letter != 'q':
			return fenError("castling field %q: bad letter %q (want K, Q, k, q, a file letter or -)", s, string(rune(c)))
		case ksq.Rank() != back:
			return fenError("castling field %q: %q but the %s king is not on rank %d", s, string(rune(c)), color, back+1)
		case letter == 'k' && rooks&^(ksq.Bitboard()<<1-1) != 0:
			rsq = Square(63 - bits.LeadingZeros64(uint64(rooks)))
		case letter == 'q' && rooks&(ksq.Bitboard()-1) != 0:
			rsq = rooks.First()
		case letter <= 'h' && rooks.Has(MakeSquare(int(letter-'a'), back)):
			rsq = MakeSquare(int(letter-'a'), back)
		}
		if where := "on " + MakeSquare(int(letter-'a')&7, back).String(); rsq == NoSquare {
			if letter > 'h' {
				where = "on rank " + string(rune('1'+back)) + map[byte]string{'k': " right", 'q': " left"}[letter] + " of the king on " + ksq.String()
			}
			return fenError("castling field %q: %q but no %s rook %s", s, string(rune(c)), color, where)
		}
		i := 2*int(color) + 1 // queen side: the rook left of the king
		if rsq.File() > ksq.File() {
			i--
		}
		if p.castling&(1<<i) != 0 {
			return fenError("castling field %q repeats the %s %s side", s, color, [2]string{"king", "queen"}[i%2])
		}
		p.castling |= 1 << i
		p.castleRook[i] = rsq
		p.castleEnds |= 0x1111111111111111 << i & (backNibble[rsq] | backNibble[ksq])
	}
	if p.needsChess960() {
		p.variant = Chess960
	}
	return nil
}

// castlingField returns the castling field in X-FEN: K, Q, k, q for a right whose rook
// is the outermost on its side of the king, the rook's file letter otherwise. X-FEN,
// not Shredder-FEN, because for every standard position and every Chess960 start
// position it is the plain FEN field that any reader takes.
func (p *Position) castlingField() string {
	b := make([]byte, 0, 4)
	for i, rsq := range p.castleRook {
		if p.castling&(1<<i) == 0 {
			continue
		}
		color := Color(i / 2)
		rooks := p.Pieces(color, Rook) & (Rank1 << (8 * 7 * int(color)))
		outer := rooks & (rsq.Bitboard() - 1) // further out on the queen side
		l := "KQ"[i%2]
		if i%2 == 0 {
			outer = rooks &^ (rsq.Bitboard()<<1 - 1)
		}
		if outer != 0 {
			l = byte('A' + rsq.File())
		}
		if color == Black {
			l |= 0x20
		}
		b = append(b, l)
	}
	if len(b) == 0 {
		return "-"
	}
	return string(b)
}

// checkPlacement enforces the facts about kings, pawns and castling that hold in every
// position reachable from the initial one.
func (p *Position) checkPlacement(castling string) error {
	for c := White; c <= Black; c++ {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return fenError("%s has %d kings, want exactly 1", c, n)
		}
		if n := p.Pieces(c, Pawn).Count(); n > 8 {
			return fenError("%s has %d pawns, at most 8 are possible", c, n)
		}
		if n := p.byColor[c].Count(); n > 16 {
			return fenError("%s has %d pieces, at most 16 are possible", c, n)
		}
	}
	if b := p.byType[Pawn] & (Rank1 | Rank8); b != 0 {
		return fenError("pawn on %s: pawns never stand on the first or last rank", b.First())
	}
	if kingAttacks[p.KingSquare(White)].Has(p.KingSquare(Black)) {
		return fenError("the kings stand next to each other")
	}
	if err := p.parseCastling(castling); err != nil {
		return err
	}
	if p.attacked(p.KingSquare(p.turn^1), p.turn, p.byType[0]) {
		return fenError("%s is in check but it is %s's move", p.turn^1, p.turn)
	}
	if n := p.Checkers().Count(); n > 2 {
		return fenError("%s is in check from %d pieces, at most 2 are possible", p.turn, n)
	}
	return nil
}

func (p *Position) parseEnPassant(s string) error {
	p.ep = NoSquare
	if s == "-" {
		return nil
	}
	ep, ok := ParseSquare(s)
	if !ok {
		return fenError("en passant square %q is not a square", s)
	}
	them := p.turn ^ 1
	wantRank := 5
	if p.turn == Black {
		wantRank = 2
	}
	pawnSq := Square(int(ep) - pawnUp[p.turn])
	origin := Square(int(ep) + pawnUp[p.turn])
	switch {
	case ep.Rank() != wantRank:
		return fenError("en passant square %s: with %s to move it must be on rank %d", ep, p.turn, wantRank+1)
	case p.board[pawnSq] != MakePiece(them, Pawn):
		return fenError("en passant square %s: no %s pawn on %s that could have just advanced two squares", ep, them, pawnSq)
	case p.board[ep] != NoPiece || p.board[origin] != NoPiece:
		return fenError("en passant square %s: %s and %s must be empty after a double push", ep, ep, origin)
	}
	ksq := p.KingSquare(p.turn)
	for b := pawnAttacks[them][ep] & p.Pieces(p.turn, Pawn); b != 0; {
		if p.epLegal(b.PopFirst(), ep, ksq) {
			p.ep = ep
			return nil
		}
	}
	return nil
}

// FEN returns the position in Forsyth-Edwards Notation. The en passant field names a
// square only when an en passant capture is legal.
func (p *Position) FEN() string {
	var b strings.Builder
	b.Grow(90)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := p.board[MakeSquare(file, rank)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(pc.FENLetter())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteString([2]string{" w ", " b "}[p.turn&1])
	b.WriteString(p.castlingField())
	b.WriteByte(' ')
	b.WriteString(p.ep.String())
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(p.halfmove)))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(p.fullmove)))
	return b.String()
}

// String returns the FEN of the position.
func (p Position) String() string { return p.FEN() }
