// san.go: Standard Algebraic Notation out (exactly as the PGN standard writes it) and move
// text in (forgiving: SAN, UCI and long algebraic), with errors that say what is wrong.

package chesscore

import (
	"errors"
	"strings"
)

// Sentinel errors wrapped by every MoveError, for errors.Is.
var (
	// ErrMoveSyntax: the text cannot be read as a move at all.
	ErrMoveSyntax = errors.New("unreadable move")
	// ErrIllegalMove: the text names a move, but it is not legal here.
	ErrIllegalMove = errors.New("illegal move")
	// ErrAmbiguousMove: the text fits more than one legal move.
	ErrAmbiguousMove = errors.New("ambiguous move")
)

// MoveError explains why a move text was refused. Error returns Reason alone, written for
// the player ("no knight can move to f3", "ambiguous: Nbd2 or Nfd2"); Input is the text
// as given and Err one of ErrMoveSyntax, ErrIllegalMove or ErrAmbiguousMove.
type MoveError struct {
	Input  string
	Reason string
	Err    error
}

func (e *MoveError) Error() string { return e.Reason }

// Unwrap returns the sentinel error.
func (e *MoveError) Unwrap() error { return e.Err }

func moveErr(input string, kind error, reason string) *MoveError {
	return &MoveError{Input: input, Reason: reason, Err: kind}
}

// SAN returns the legal move m in Standard Algebraic Notation as the PGN standard (8.2.3)
// writes it: piece letter, the minimal disambiguation among the legal moves (file, else
// rank, else both), "x" for captures, "=Q" for promotions, "O-O"/"O-O-O" for castling and
// "+" or "#" for check and checkmate. m must be legal in p.
func (p *Position) SAN(m Move) string {
	var buf [8]byte
	return string(p.appendSAN(buf[:0], m, nil))
}

// appendSAN appends the SAN of m. ml, when not nil, holds p's legal moves (it saves
// generating them for disambiguation).
func (p *Position) appendSAN(b []byte, m Move, ml *MoveList) []byte {
	b = p.appendSANBody(b, m, ml)
	child := p.Play(m)
	if child.InCheck() {
		if child.HasLegalMove() {
			b = append(b, '+')
		} else {
			b = append(b, '#')
		}
	}
	return b
}

// appendSANBody appends the SAN of m without the check suffix.
func (p *Position) appendSANBody(b []byte, m Move, ml *MoveList) []byte {
	from, to := m.From(), m.To()
	if m.Kind() == CastlingMove {
		if to.File() == 6 {
			return append(b, "O-O"...)
		}
		return append(b, "O-O-O"...)
	}
	pt := p.board[from].Type()
	capture := p.IsCapture(m)
	if pt == Pawn {
		if capture {
			b = append(b, byte('a'+from.File()), 'x')
		}
		b = append(b, byte('a'+to.File()), byte('1'+to.Rank()))
		if promo := m.Promotion(); promo != NoPieceType {
			b = append(b, '=', promo.Letter())
		}
		return b
	}
	b = append(b, pt.Letter())
	if pt != King && p.rivalsTo(pt, from, to) != 0 {
		var own MoveList
		if ml == nil {
			p.LegalMoves(&own)
			ml = &own
		}
		var rivals Bitboard
		for _, x := range ml.Moves[:ml.N] {
			if x.To() == to && x.From() != from && p.board[x.From()].Type() == pt {
				rivals |= x.From().Bitboard()
			}
		}
		if rivals != 0 {
			switch {
			case rivals&(FileA<<from.File()) == 0:
				b = append(b, byte('a'+from.File()))
			case rivals&(Rank1<<(8*from.Rank())) == 0:
				b = append(b, byte('1'+from.Rank()))
			default:
				b = append(b, byte('a'+from.File()), byte('1'+from.Rank()))
			}
		}
	}
	if capture {
		b = append(b, 'x')
	}
	return append(b, byte('a'+to.File()), byte('1'+to.Rank()))
}

// rivalsTo returns the other pieces of the side to move of type pt (not on from) that
// attack to: a quick filter before looking for legal rivals.
func (p *Position) rivalsTo(pt PieceType, from, to Square) Bitboard {
	same := p.Pieces(p.turn, pt) &^ from.Bitboard()
	if same == 0 {
		return 0
	}
	return same & PieceAttacks(pt, p.turn, to, p.byType[0]) // a piece attacks to from where it would attack from to
}

// Annotation suffixes that may follow a move ("!", "?", "!!", "??", "!?", "?!") and their
// Numeric Annotation Glyphs (PGN standard 10).
var glyphNAGs = map[string]uint8{"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

// splitAnnotation removes trailing "+", "#", "!" and "?" marks from a move text and
// returns the bare move and the NAG of the "!?" part, if any (0 when none or unknown).
func splitAnnotation(s string) (string, uint8) {
	i := len(s)
	for i > 0 && (s[i-1] == '!' || s[i-1] == '?') {
		i--
	}
	nag := glyphNAGs[s[i:]]
	s = s[:i]
	for len(s) > 0 && (s[len(s)-1] == '+' || s[len(s)-1] == '#') {
		s = s[:len(s)-1]
	}
	// A glyph written before the check mark ("Qh5?+") is rarer but seen.
	j := len(s)
	for j > 0 && (s[j-1] == '!' || s[j-1] == '?') {
		j--
	}
	if j < len(s) {
		if nag == 0 {
			nag = glyphNAGs[s[j:]]
		}
		s = s[:j]
	}
	return s, nag
}

// sanText is a move text broken into its parts.
type sanText struct {
	piece      PieceType // NoPieceType for a pawn
	lowerB     bool      // the piece was a lower-case "b": a pawn on the b-file or a bishop
	fromFile   int       // -1 when not given
	fromRank   int       // -1 when not given
	to         Square
	promo      PieceType // NoPieceType when not given
	promoGiven bool
	capture    bool
	long       bool // both squares were given (UCI or long algebraic)
}

// ParseSAN reads a move in any common notation and returns the legal move it names.
//
// It accepts SAN with or without "x", "+", "#" and "!?" annotations ("Nxf3", "Nf3+",
// "e4!?"), castling as O-O, 0-0 or o-o (and O-O-O), promotions as e8=Q, e8Q, e8q or
// e8(Q), UCI ("e2e4", "e7e8q", "e1g1") and long algebraic ("Ng1-f3", "e7xd8=Q"). Piece
// letters are upper case; a lower-case "b" means a bishop only where no pawn move reads
// the same. A leading move number ("12." or "12...") is skipped.
//
// The error is a *MoveError whose Reason tells the player what is wrong, for example
// "no piece can move to e5", "ambiguous: Nbd2 or Nfd2", "the pawn must promote: e8=Q,
// e8=R, e8=B or e8=N", "illegal: your king would be in check" or "it is Black's move".
func (p *Position) ParseSAN(s string) (Move, error) {
	var ml MoveList
	p.LegalMoves(&ml)
	return p.parseMove(s, &ml)
}

// ParseUCI reads a move in strict UCI notation ("e2e4", "e7e8q", "e1g1" for castling) and
// returns it if it is legal.
func (p *Position) ParseUCI(s string) (Move, error) {
	if len(s) < 4 || len(s) > 5 {
		return NullMove, moveErr(s, ErrMoveSyntax, "a UCI move is two squares and an optional promotion letter, like e2e4 or e7e8q")
	}
	t, ok := parseLong(s)
	if _, sq := ParseSquare(s[2:4]); !ok || !sq || t.piece != NoPieceType || (len(s) == 5 && !t.promoGiven) {
		return NullMove, moveErr(s, ErrMoveSyntax, quote(s)+" is not a UCI move (want two squares and an optional promotion letter, like e2e4 or e7e8q)")
	}
	var ml MoveList
	p.LegalMoves(&ml)
	return p.resolveLong(s, t, &ml)
}

func quote(s string) string { return `"` + s + `"` }

// parseMove reads s against the legal moves ml of p.
func (p *Position) parseMove(input string, ml *MoveList) (Move, error) {
	s := strings.TrimSpace(input)
	s = skipMoveNumber(s)
	s, _ = splitAnnotation(s)
	s = strings.TrimSuffix(strings.TrimSuffix(s, "e.p."), "ep")
	s = strings.TrimSpace(s)
	if s == "" {
		return NullMove, moveErr(input, ErrMoveSyntax, "no move given")
	}
	if c := castleSide(s); c != 0 {
		return p.resolveCastle(input, c, ml)
	}
	if t, ok := parseLong(s); ok {
		return p.resolveLong(input, t, ml)
	}
	t, ok := parseShort(s)
	if !ok {
		return NullMove, moveErr(input, ErrMoveSyntax, quote(strings.TrimSpace(input))+" is not a move: write it like e4, Nf3, exd5, O-O, e8=Q or e2e4")
	}
	return p.resolveShort(input, t, ml)
}

// skipMoveNumber drops a leading "12." or "12..." (and the spaces after it).
func skipMoveNumber(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != '.' {
		return s
	}
	for i < len(s) && s[i] == '.' {
		i++
	}
	return strings.TrimSpace(s[i:])
}

// castleSide recognises the castling notations: 1 for king side, 2 for queen side.
func castleSide(s string) int {
	switch s {
	case "O-O", "0-0", "o-o", "OO", "00", "oo":
		return 1
	case "O-O-O", "0-0-0", "o-o-o", "OOO", "000", "ooo":
		return 2
	}
	return 0
}

func pieceFromSANLetter(c byte) PieceType {
	switch c {
	case 'N':
		return Knight
	case 'B':
		return Bishop
	case 'R':
		return Rook
	case 'Q':
		return Queen
	case 'K':
		return King
	}
	return NoPieceType
}

func promoFromLetter(c byte) PieceType {
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	return pieceFromSANLetter(c)
}

// cutPromotion removes a trailing promotion ("=Q", "Q", "q", "(Q)", "/Q") after the
// destination square and returns the rest, the piece type and whether one was written.
// A written letter that is no piece ("=X") gives ok false.
func cutPromotion(s string) (rest string, promo PieceType, given, ok bool) {
	n := len(s)
	if n >= 4 && s[n-1] == ')' && s[n-3] == '(' {
		s = s[:n-3] + s[n-2:n-1]
		n = len(s)
	}
	if n < 3 {
		return s, NoPieceType, false, true
	}
	last := s[n-1]
	if last >= '1' && last <= '8' {
		return s, NoPieceType, false, true
	}
	prev := s[n-2]
	switch {
	case prev == '=' || prev == '/':
		rest = s[:n-2]
	case prev >= '1' && prev <= '8':
		rest = s[:n-1]
	default:
		return s, NoPieceType, false, true
	}
	promo = promoFromLetter(last)
	if promo == NoPieceType && last != 'P' && last != 'p' {
		return s, NoPieceType, true, false
	}
	if promo == NoPieceType {
		promo = Pawn // "=P": reported as a bad promotion piece
	}
	return rest, promo, true, true
}

// parseLong reads UCI and long algebraic text: [piece] from [-x:] to [promotion].
func parseLong(s string) (sanText, bool) {
	t := sanText{fromFile: -1, fromRank: -1, long: true}
	rest, promo, given, ok := cutPromotion(s)
	if !ok {
		return t, false
	}
	t.promo, t.promoGiven = promo, given
	if len(rest) > 0 {
		if pt := pieceFromSANLetter(rest[0]); pt != NoPieceType {
			t.piece = pt
			rest = rest[1:]
		}
	}
	if len(rest) < 4 {
		return t, false
	}
	from, ok1 := ParseSquare(rest[:2])
	mid := rest[2 : len(rest)-2]
	to, ok2 := ParseSquare(rest[len(rest)-2:])
	if !ok1 || !ok2 {
		return t, false
	}
	switch mid {
	case "":
	case "-":
	case "x", ":", "-x", "x-":
		t.capture = true
	default:
		return t, false
	}
	t.fromFile, t.fromRank, t.to = from.File(), from.Rank(), to
	return t, true
}

// parseShort reads SAN: [piece][file][rank][x]square[promotion].
func parseShort(s string) (sanText, bool) {
	t := sanText{fromFile: -1, fromRank: -1}
	rest, promo, given, ok := cutPromotion(s)
	if !ok {
		return t, false
	}
	t.promo, t.promoGiven = promo, given
	if len(rest) < 2 {
		return t, false
	}
	to, ok := ParseSquare(rest[len(rest)-2:])
	if !ok {
		return t, false
	}
	t.to = to
	rest = rest[:len(rest)-2]
	if len(rest) > 0 {
		switch c := rest[0]; {
		case pieceFromSANLetter(c) != NoPieceType:
			t.piece = pieceFromSANLetter(c)
			rest = rest[1:]
		case c == 'n' || c == 'r' || c == 'q' || c == 'k':
			t.piece = promoFromLetter(c)
			rest = rest[1:]
		case c == 'b' && len(rest) >= 1:
			// "b..." reads as a pawn from the b-file first; resolveShort falls back to a bishop.
			t.lowerB = true
		}
	}
	if n := len(rest); n > 0 && (rest[n-1] == 'x' || rest[n-1] == ':' || rest[n-1] == '-') {
		t.capture = rest[n-1] != '-'
		rest = rest[:n-1]
	}
	if t.lowerB {
		// rest is "b" or "b" + rank/file disambiguation of a bishop move ("b1", "bc", ...).
		if rest == "b" {
			t.fromFile = 1
			return t, true
		}
		t.lowerB = false
		t.piece = Bishop
		rest = rest[1:]
	}
	for len(rest) > 0 {
		c := rest[0]
		switch {
		case c >= 'a' && c <= 'h' && t.fromFile < 0 && t.fromRank < 0:
			t.fromFile = int(c - 'a')
		case c >= '1' && c <= '8' && t.fromRank < 0:
			t.fromRank = int(c - '1')
		default:
			return t, false
		}
		rest = rest[1:]
	}
	if t.piece == NoPieceType && t.fromRank >= 0 && t.fromFile < 0 {
		return t, false // "4e5" is nothing
	}
	return t, true
}

// matches reports whether legal move m fits the parsed text (promotion aside).
func (p *Position) matches(m Move, t *sanText, pt PieceType) bool {
	from := m.From()
	if m.To() != t.to || p.board[from].Type() != pt {
		return false
	}
	if t.fromFile >= 0 && from.File() != t.fromFile {
		return false
	}
	if t.fromRank >= 0 && from.Rank() != t.fromRank {
		return false
	}
	if pt == Pawn && t.fromFile < 0 && from.File() != t.to.File() {
		return false // "e4" is a push: a capture needs its file ("dxe4")
	}
	return true
}

// resolveShort finds the legal move for parsed SAN.
func (p *Position) resolveShort(input string, t sanText, ml *MoveList) (Move, error) {
	pt := t.piece
	if pt == NoPieceType {
		pt = Pawn
	}
	if t.lowerB {
		if m, err := p.pick(input, t, Pawn, ml); err == nil || !errors.Is(err, errNoMatch) {
			return m, err
		}
		bt := t
		bt.lowerB, bt.fromFile = false, -1
		if m, err := p.pick(input, bt, Bishop, ml); err == nil || !errors.Is(err, errNoMatch) {
			return m, err
		}
		return NullMove, p.explainNoMove(input, t, Pawn, ml)
	}
	m, err := p.pick(input, t, pt, ml)
	if errors.Is(err, errNoMatch) {
		return NullMove, p.explainNoMove(input, t, pt, ml)
	}
	return m, err
}

// errNoMatch is internal: no legal move fits; the caller explains why.
var errNoMatch = errors.New("no match")

// pick returns the single legal move of type pt that fits t, or an ambiguity or promotion
// error, or errNoMatch.
func (p *Position) pick(input string, t sanText, pt PieceType, ml *MoveList) (Move, error) {
	var found [MaxMoves]Move
	n := 0
	for _, m := range ml.Moves[:ml.N] {
		if m.Kind() != CastlingMove && p.matches(m, &t, pt) {
			found[n] = m
			n++
		}
	}
	if n == 0 {
		return NullMove, errNoMatch
	}
	promoting := found[0].Kind() == PromotionMove
	if promoting {
		if !t.promoGiven {
			return NullMove, moveErr(input, ErrIllegalMove, "the pawn must promote: "+p.promotionChoices(found[0]))
		}
		if t.promo == King || t.promo == Pawn {
			return NullMove, moveErr(input, ErrIllegalMove, "a pawn promotes to a queen, rook, bishop or knight: "+p.promotionChoices(found[0]))
		}
		k := 0
		for _, m := range found[:n] {
			if m.Promotion() == t.promo {
				found[k] = m
				k++
			}
		}
		n = k
	} else if t.promoGiven {
		if pt == Pawn {
			return NullMove, moveErr(input, ErrIllegalMove, "only a pawn reaching the last rank promotes: write "+p.SAN(found[0]))
		}
		return NullMove, moveErr(input, ErrMoveSyntax, quote(strings.TrimSpace(input))+" is not a move: only pawns promote")
	}
	if n == 1 {
		return found[0], nil
	}
	names := make([]string, n)
	for i, m := range found[:n] {
		names[i] = string(p.appendSANBody(nil, m, ml))
		if t.long || pt == Pawn {
			names[i] = m.UCI()
		}
	}
	return NullMove, moveErr(input, ErrAmbiguousMove, "ambiguous: "+orList(names))
}

// promotionChoices lists the four promotions of the pawn move m in SAN, e.g.
// "e8=Q, e8=R, e8=B or e8=N".
func (p *Position) promotionChoices(m Move) string {
	names := make([]string, 0, 4)
	for _, pt := range [4]PieceType{Queen, Rook, Bishop, Knight} {
		names = append(names, string(p.appendSANBody(nil, NewPromotion(m.From(), m.To(), pt), nil)))
	}
	return orList(names)
}

// orList joins "a, b or c".
func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// pseudoFrom returns the squares of c's pieces of type pt that could move to to by their
// way of moving, ignoring whether their own king would be left in check.
func (p *Position) pseudoFrom(c Color, pt PieceType, to Square) Bitboard {
	if p.byColor[c].Has(to) {
		return 0
	}
	own := p.Pieces(c, pt)
	if pt != Pawn {
		return own & PieceAttacks(pt, c, to, p.byType[0]) // (no pawn: the attack is symmetric)
	}
	var from Bitboard
	up := pawnUp[c]
	if p.board[to] != NoPiece || (p.ep == to && c == p.turn) {
		from |= pawnAttacks[c^1][to] & own
	} else if one := int(to) - up; one >= 0 && one < 64 {
		if own.Has(Square(one)) {
			from |= Square(one).Bitboard()
		} else if two := one - up; p.board[one] == NoPiece && two >= 0 && two < 64 &&
			own.Has(Square(two)) && pawnRank3[c].Has(Square(one)) {
			from |= Square(two).Bitboard()
		}
	}
	return from
}

// filterFrom keeps the squares that fit the file and rank given in t (and, for pawn pushes
// written without a file, the destination's file).
func filterFrom(b Bitboard, t *sanText, pt PieceType) Bitboard {
	if t.fromFile >= 0 {
		b &= FileA << t.fromFile
	} else if pt == Pawn {
		b &= FileA << t.to.File()
	}
	if t.fromRank >= 0 {
		b &= Rank1 << (8 * t.fromRank)
	}
	return b
}

// explainNoMove says why no legal move of type pt fits t.
func (p *Position) explainNoMove(input string, t sanText, pt PieceType, ml *MoveList) error {
	us := p.turn
	to := t.to
	if own := p.board[to]; own != NoPiece && own.Color() == us {
		return moveErr(input, ErrIllegalMove, "your own "+own.Type().String()+" stands on "+to.String())
	}
	if pt == King {
		for i := 2 * int(us); i < 2*int(us)+2; i++ {
			if p.castling&(1<<i) != 0 && to == castleKingTo[i] {
				return moveErr(input, ErrIllegalMove, "to castle, write "+[2]string{"O-O", "O-O-O"}[i%2]+" (or "+p.KingSquare(us).String()+p.castleRook[i].String()+")")
			}
		}
	}
	if filterFrom(p.pseudoFrom(us, pt, to), &t, pt) != 0 {
		if pt == King {
			return moveErr(input, ErrIllegalMove, "illegal: your king would be in check on "+to.String())
		}
		return moveErr(input, ErrIllegalMove, "illegal: your king would be in check")
	}
	if filterFrom(p.opponentPseudoFrom(pt, to), &t, pt) != 0 {
		return moveErr(input, ErrIllegalMove, "it is "+colorName(us)+"'s move")
	}
	if pt == Pawn && t.fromFile >= 0 && t.fromFile != to.File() && p.board[to] == NoPiece &&
		to.Rank() == [2]int{5, 2}[us] && p.board[Square(int(to)-pawnUp[us])] == MakePiece(us^1, Pawn) &&
		filterFrom(pawnAttacks[us^1][to]&p.Pieces(us, Pawn), &t, pt) != 0 {
		return moveErr(input, ErrIllegalMove, "en passant onto "+to.String()+" is not possible now: it is legal only right after the pawn's two-square advance, and only if your king is not left in check")
	}
	var alt []string
	for _, m := range ml.Moves[:ml.N] {
		if m.To() == to && m.Kind() != CastlingMove {
			alt = append(alt, p.SAN(m))
		}
	}
	what := pt.String()
	if len(alt) == 0 {
		what = "piece"
	}
	if pt != Pawn || t.fromRank >= 0 {
		switch {
		case t.fromFile >= 0 && t.fromRank >= 0:
			what += " on " + MakeSquare(t.fromFile, t.fromRank).String()
		case t.fromFile >= 0:
			what += " on the " + string(rune('a'+t.fromFile)) + "-file"
		case t.fromRank >= 0:
			what += " on rank " + string(rune('1'+t.fromRank))
		}
	}
	reason := "no " + what + " can move to " + to.String()
	if len(alt) > 0 && len(alt) <= 4 {
		reason += " (legal here: " + orList(alt) + ")"
	}
	return moveErr(input, ErrIllegalMove, reason)
}

// opponentPseudoFrom is pseudoFrom for the side not to move.
func (p *Position) opponentPseudoFrom(pt PieceType, to Square) Bitboard {
	q := *p
	q.turn ^= 1
	q.ep = NoSquare
	return q.pseudoFrom(q.turn, pt, to)
}

// colorName returns "White" or "Black".
func colorName(c Color) string {
	if c == White {
		return "White"
	}
	return "Black"
}

// resolveLong finds the legal move for UCI or long algebraic text.
func (p *Position) resolveLong(input string, t sanText, ml *MoveList) (Move, error) {
	from := MakeSquare(t.fromFile, t.fromRank)
	pc := p.board[from]
	switch {
	case pc == NoPiece:
		return NullMove, moveErr(input, ErrIllegalMove, "there is no piece on "+from.String())
	case pc.Color() != p.turn:
		return NullMove, moveErr(input, ErrIllegalMove, "it is "+colorName(p.turn)+"'s move")
	case t.piece != NoPieceType && pc.Type() != t.piece:
		return NullMove, moveErr(input, ErrIllegalMove, "the piece on "+from.String()+" is a "+pc.Type().String()+", not a "+t.piece.String())
	}
	if pc.Type() == King {
		// Castling is the king "taking" its own rook (e1h1, as UCI_Chess960 writes it), or
		// the king's destination (e1g1) unless a plain king move goes there too.
		for i := 2 * int(p.turn); i < 2*int(p.turn)+2; i++ {
			if p.castling&(1<<i) == 0 || (t.to != castleKingTo[i] && t.to != p.castleRook[i]) {
				continue
			}
			if t.to == castleKingTo[i] && ml.Contains(NewMove(from, t.to)) {
				return NullMove, moveErr(input, ErrAmbiguousMove, "ambiguous: "+[2]string{"O-O", "O-O-O"}[i%2]+" or K"+t.to.String()+
					" (to castle, you may also move the king onto its rook: "+from.String()+p.castleRook[i].String()+")")
			}
			return p.resolveCastle(input, 1+i%2, ml)
		}
	}
	st := t
	st.piece = pc.Type()
	m, err := p.pick(input, st, pc.Type(), ml)
	if !errors.Is(err, errNoMatch) {
		return m, err
	}
	// Say why this piece cannot go there.
	if own := p.board[t.to]; own != NoPiece && own.Color() == p.turn {
		return NullMove, moveErr(input, ErrIllegalMove, "your own "+own.Type().String()+" stands on "+t.to.String())
	}
	if p.pseudoFrom(p.turn, pc.Type(), t.to).Has(from) {
		return NullMove, moveErr(input, ErrIllegalMove, "illegal: your king would be in check")
	}
	return NullMove, moveErr(input, ErrIllegalMove, "the "+pc.Type().String()+" on "+from.String()+" cannot move to "+t.to.String())
}

// resolveCastle finds castling on side (1 king side, 2 queen side) or says why it is not
// possible.
func (p *Position) resolveCastle(input string, side int, ml *MoveList) (Move, error) {
	us := p.turn
	i := 2*int(us) + side - 1
	name := [2]string{"king side", "queen side"}[i%2]
	for _, m := range ml.Moves[:ml.N] {
		if m.Kind() == CastlingMove && m.To() == castleKingTo[i] {
			return m, nil
		}
	}
	if p.castling&(1<<i) == 0 {
		return NullMove, moveErr(input, ErrIllegalMove, "you can no longer castle "+name+": the king or that rook has moved")
	}
	ksq, rsq := p.KingSquare(us), p.castleRook[i]
	cp := &castlePaths[i][ksq&7][rsq&7]
	switch {
	case p.byType[0]&cp.empty != 0:
		return NullMove, moveErr(input, ErrIllegalMove, "cannot castle "+name+": "+(p.byType[0]&cp.empty).First().String()+" is not empty")
	case p.InCheck():
		return NullMove, moveErr(input, ErrIllegalMove, "cannot castle out of check")
	}
	occ := p.byType[0] ^ ksq.Bitboard() ^ rsq.Bitboard()
	for b := cp.safe &^ castleKingTo[i].Bitboard(); b != 0; {
		if sq := b.PopFirst(); p.attacked(sq, us^1, occ) {
			return NullMove, moveErr(input, ErrIllegalMove, "cannot castle through check: "+sq.String()+" is attacked")
		}
	}
	return NullMove, moveErr(input, ErrIllegalMove, "illegal: your king would be in check on "+castleKingTo[i].String())
}
