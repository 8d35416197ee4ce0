// epd.go: reading one line of Extended Position Description (EPD): the position fields and the operations after them.

package chesscore

import (
	"errors"
	"strconv"
	"strings"
)

// EPD is one parsed EPD line: a position and its operations.
type EPD struct {
	// FEN is the position with all six FEN fields. Its move counters are the line's own
	// when the four position fields are followed by two counters (the perft-suite form
	// "FEN ;D1 20"), else the operands of the hmvc and fmvn operations when they are
	// counters (an fmvn of 0 counts as 1), else "0 1". It is not checked: ParseFEN it.
	FEN string
	// Ops are the operations in the order of the line.
	Ops []EPDOp
}

// EPDOp is one EPD operation, "opcode operand operand ...;".
type EPDOp struct {
	// Code is the opcode, the operation's first token.
	Code string
	// Operands are the tokens after the opcode, with the quotes of quoted operands removed.
	Operands []string
}

// ParseEPD reads one EPD line (comments and blank lines are the caller's to skip). Two
// forms are read:
//
//   - the standard form: the four position fields (placement, side, castling, en
//     passant), then operations, each "opcode operands" ended by ';' (the last ';' may be
//     left out), as in `... KQkq - hmvc 0; id "Ruy Lopez";`;
//   - the perft-suite form: a full six-field FEN, then operations each started by ';',
//     as in `... KQkq - 0 1 ;D1 20 ;D2 400 ;src cpw-1`.
//
// Tokens are separated by white space; an operand in double quotes may hold white space
// and ';' (EPD has no escape for a quote inside one). Empty operations (";;") are skipped;
// an unterminated quoted operand ends the line: its operation and everything after it are
// dropped. The only error is a line with fewer than four position fields.
func ParseEPD(line string) (EPD, error) {
	var fields [4]string
	rest := line
	for i := range fields {
		var tok string
		tok, rest = nextToken(rest)
		if tok == "" {
			return EPD{}, errors.New("want placement, side, castling and en passant")
		}
		fields[i] = tok
	}
	fen := strings.Join(fields[:], " ")
	hm, after := nextToken(rest)
	fm, afterBoth := nextToken(after)
	var ops []EPDOp
	if isEPDCount(hm) && isEPDCount(fm) {
		fen += " " + hm + " " + fm
		ops = ParseEPDOps(afterBoth)
	} else {
		ops = ParseEPDOps(rest)
		e := EPD{Ops: ops}
		hm, fm = "0", "1"
		if op, ok := e.Op("hmvc"); ok && isEPDCount(op.Operand()) {
			hm = op.Operand()
		}
		if op, ok := e.Op("fmvn"); ok && isEPDCount(op.Operand()) && op.Operand() != "0" {
			fm = op.Operand()
		}
		fen += " " + hm + " " + fm
	}
	return EPD{FEN: fen, Ops: ops}, nil
}

// ParseEPDOps reads the operations part of an EPD line (what follows the position
// fields), by the rules of ParseEPD.
func ParseEPDOps(s string) []EPDOp {
	var ops []EPDOp
	for {
		s = skipSpace(s)
		for s != "" && s[0] == ';' {
			s = skipSpace(s[1:])
		}
		if s == "" {
			return ops
		}
		var op EPDOp
		op.Code, s = nextToken(s)
		for {
			s = skipSpace(s)
			if s == "" {
				break
			}
			if s[0] == ';' {
				s = s[1:]
				break
			}
			if s[0] == '"' {
				end := strings.IndexByte(s[1:], '"')
				if end < 0 {
					return ops // unterminated quoted operand: drop the rest
				}
				op.Operands = append(op.Operands, s[1:1+end])
				s = s[2+end:]
				continue
			}
			var tok string
			tok, s = nextToken(s)
			op.Operands = append(op.Operands, tok)
		}
		ops = append(ops, op)
	}
}

// Op returns the operation with opcode code (the last one if the line repeats it) and
// whether there is one.
func (e EPD) Op(code string) (EPDOp, bool) {
	for i := len(e.Ops) - 1; i >= 0; i-- {
		if e.Ops[i].Code == code {
			return e.Ops[i], true
		}
	}
	return EPDOp{}, false
}

// Operand returns the operands joined by single spaces ("" when there are none).
func (o EPDOp) Operand() string {
	return strings.Join(o.Operands, " ")
}

// String returns the operation as EPD, "opcode operand ...;", quoting the operands that
// need it.
func (o EPDOp) String() string {
	var b strings.Builder
	b.WriteString(o.Code)
	for _, v := range o.Operands {
		b.WriteByte(' ')
		if v == "" || v[0] == '"' || strings.ContainsAny(v, " \t\n\r\v\f;") {
			b.WriteByte('"')
			b.WriteString(v)
			b.WriteByte('"')
		} else {
			b.WriteString(v)
		}
	}
	b.WriteByte(';')
	return b.String()
}

// String returns the line in the standard form with the full FEN: "FEN op; op;".
func (e EPD) String() string {
	var b strings.Builder
	b.WriteString(e.FEN)
	for _, op := range e.Ops {
		b.WriteByte(' ')
		b.WriteString(op.String())
	}
	return b.String()
}

// isEPDCount reports whether s is a move counter: one to four decimal digits.
func isEPDCount(s string) bool {
	if s == "" || len(s) > 4 {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 16)
	return err == nil
}

// isEPDSpace reports whether c separates tokens.
func isEPDSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// skipSpace returns s without its leading white space.
func skipSpace(s string) string {
	i := 0
	for i < len(s) && isEPDSpace(s[i]) {
		i++
	}
	return s[i:]
}

// nextToken skips white space and returns the token up to the next white space or ';'
// ("" at a ';' or the end) and the rest of s from there.
func nextToken(s string) (tok, rest string) {
	s = skipSpace(s)
	i := 0
	for i < len(s) && !isEPDSpace(s[i]) && s[i] != ';' {
		i++
	}
	return s[:i], s[i:]
}
