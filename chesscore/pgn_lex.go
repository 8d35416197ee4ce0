// pgn_lex.go: the PGN lexer: tokens with their line and column.

package chesscore

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// tokKind is the kind of a PGN token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tLBracket
	tRBracket
	tLParen
	tRParen
	tPeriod
	tString
	tSymbol
	tNAG
	tComment
)

type token struct {
	kind      tokKind
	text      string
	line, col int
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tLBracket:
		return "["
	case tRBracket:
		return "]"
	case tLParen:
		return "("
	case tRParen:
		return ")"
	case tPeriod:
		return "."
	case tString:
		return "string " + strconv.Quote(t.text)
	case tNAG:
		return "$" + t.text
	case tComment:
		return "comment"
	}
	return strconv.Quote(t.text)
}

// lexError is a syntax error of the lexer at a line and column.
type lexError struct {
	line, col int
	msg       string
}

func (e *lexError) Error() string { return e.msg }

// pgnLexer splits PGN text into tokens, keeping track of lines and columns.
type pgnLexer struct {
	r         *bufio.Reader
	line, col int // of the next byte
	peeked    token
	hasPeeked bool
}

func (l *pgnLexer) peek() (token, error) {
	if l.hasPeeked {
		return l.peeked, nil
	}
	t, err := l.scan()
	if err != nil {
		return t, err
	}
	l.peeked, l.hasPeeked = t, true
	return t, nil
}

func (l *pgnLexer) next() (token, error) {
	t, err := l.peek()
	l.hasPeeked = false
	return t, err
}

func (l *pgnLexer) drop() { l.hasPeeked = false }

func (l *pgnLexer) readByte() (byte, error) {
	c, err := l.r.ReadByte()
	if err != nil {
		return 0, err
	}
	if c == '\n' {
		l.line++
		l.col = 1
	} else {
		l.col++
	}
	return c, nil
}

func (l *pgnLexer) peekByte() (byte, bool) {
	b, err := l.r.Peek(1)
	if err != nil {
		return 0, false
	}
	return b[0], true
}

func isSymbolByte(c byte) bool {
	return isLetter(c) || isDigit(c) || c >= 0x80 || strings.IndexByte("_+#=:-/!?", c) >= 0
}

func (l *pgnLexer) scan() (token, error) {
	for {
		line, col := l.line, l.col
		c, err := l.readByte()
		if err == io.EOF {
			return token{kind: tEOF, line: line, col: col}, nil
		}
		if err != nil {
			return token{}, err
		}
		t := token{line: line, col: col}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			continue
		case c == '%' && col == 1: // an escaped line
			if err := l.skipLine(); err != nil {
				return t, err
			}
			continue
		case c == '[':
			t.kind = tLBracket
		case c == ']':
			t.kind = tRBracket
		case c == '(':
			t.kind = tLParen
		case c == ')':
			t.kind = tRParen
		case c == '.':
			t.kind = tPeriod
		case c == '*':
			t.kind, t.text = tSymbol, "*"
		case c == '"':
			return l.scanString(t)
		case c == '{':
			return l.scanComment(t)
		case c == ';':
			var b strings.Builder
			for {
				c, ok := l.peekByte()
				if !ok || c == '\n' {
					break
				}
				l.readByte()
				if b.Len() < maxPGNText {
					b.WriteByte(c)
				}
			}
			t.kind, t.text = tComment, b.String()
		case c == '$':
			var b strings.Builder
			for {
				c, ok := l.peekByte()
				if !ok || !isDigit(c) || b.Len() > 3 {
					break
				}
				l.readByte()
				b.WriteByte(c)
			}
			if b.Len() == 0 {
				return t, &lexError{line, col, "$ must be followed by a number (a NAG, like $1)"}
			}
			t.kind, t.text = tNAG, b.String()
		case isSymbolByte(c):
			b := []byte{c}
			for {
				c, ok := l.peekByte()
				if !ok || !isSymbolByte(c) {
					break
				}
				l.readByte()
				if len(b) < 64 {
					b = append(b, c)
				}
			}
			t.kind, t.text = tSymbol, string(b)
		default:
			return t, &lexError{line, col, fmt.Sprintf("unexpected character %q", rune(c))}
		}
		return t, nil
	}
}

func (l *pgnLexer) skipLine() error {
	for {
		c, err := l.readByte()
		if err == io.EOF || c == '\n' {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (l *pgnLexer) scanString(t token) (token, error) {
	var b strings.Builder
	for {
		c, err := l.readByte()
		if err == io.EOF || c == '\n' {
			return t, &lexError{t.line, t.col, "unterminated string: want a closing \" on the same line"}
		}
		if err != nil {
			return t, err
		}
		switch c {
		case '"':
			t.kind, t.text = tString, b.String()
			return t, nil
		case '\\':
			line, col := l.line, l.col-1
			n, err := l.readByte()
			if err != nil || (n != '\\' && n != '"') {
				return t, &lexError{line, col, `in a string, \ must be followed by \ or "`}
			}
			c = n
		}
		if b.Len() >= maxPGNText {
			return t, &lexError{t.line, t.col, "string longer than 1 MiB"}
		}
		b.WriteByte(c)
	}
}

func (l *pgnLexer) scanComment(t token) (token, error) {
	var b strings.Builder
	for {
		c, err := l.readByte()
		if err == io.EOF {
			return t, &lexError{t.line, t.col, "unterminated comment: want }"}
		}
		if err != nil {
			return t, err
		}
		if c == '}' {
			t.kind, t.text = tComment, b.String()
			return t, nil
		}
		if b.Len() < maxPGNText {
			b.WriteByte(c)
		}
	}
}
