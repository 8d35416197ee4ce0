// parse.go: Parse, the reader for the time control notation players type.

package clock

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Parse reads a time control in the notation described in the package doc:
// "5+3", "15m+10s", "30s+0", "½+0", "40/90+30, 30+30", "5+0 d3", "5+0 b3",
// "3d", "12h", "-" or "?". Letters may be in either case and spaces around
// '+', '/' and ',' are allowed; a unit must touch its number. The result is
// valid (see Validate); errors name the input and what is wrong with it.
func Parse(s string) (TimeControl, error) {
	tc, err := parse(s)
	if err != nil {
		return TimeControl{}, fmt.Errorf("time control %q: %w", s, err)
	}
	return tc, nil
}

func parse(s string) (TimeControl, error) {
	if len(s) > maxNotationSize {
		return TimeControl{}, fmt.Errorf("longer than %d bytes", maxNotationSize)
	}
	if !utf8.ValidString(s) {
		return TimeControl{}, errors.New("not valid UTF-8")
	}
	text := strings.ToLower(strings.TrimSpace(s))
	switch text {
	case "":
		return TimeControl{}, errors.New("empty")
	case "?":
		return TimeControl{}, nil
	case "-":
		return TimeControl{Untimed: true}, nil
	}
	sc := &scanner{src: text}
	var tc TimeControl
	for {
		p, perMove, err := sc.period(len(tc.Periods) == 0)
		if err != nil {
			return TimeControl{}, err
		}
		if perMove > 0 {
			tc.PerMove = perMove
			break
		}
		tc.Periods = append(tc.Periods, p)
		if len(tc.Periods) > MaxPeriods {
			return TimeControl{}, fmt.Errorf("more than %d periods", MaxPeriods)
		}
		sc.skipSpace()
		if !sc.eat(',') {
			break
		}
	}
	sc.skipSpace()
	if r := sc.peek(); (r == 'd' || r == 'b') && tc.Kind() == KindLive {
		sc.next()
		mode, name := Simple, "d"
		if r == 'b' {
			mode, name = Bronstein, "b"
		}
		a, ok, err := sc.amount()
		if err != nil {
			return TimeControl{}, err
		}
		if !ok {
			return TimeControl{}, fmt.Errorf("missing delay seconds after '%s'", name)
		}
		d, err := sc.duration(a, "delay", "s", time.Second)
		if err != nil {
			return TimeControl{}, err
		}
		tc.DelayMode, tc.Delay = mode, d
		sc.skipSpace()
	}
	if !sc.done() {
		if tc.Kind() == KindCorrespondence {
			return TimeControl{}, fmt.Errorf("unexpected %q after correspondence control %q (a delay is written after a space, as in \"5+0 d3\")", sc.rest(), tc.String())
		}
		return TimeControl{}, fmt.Errorf("unexpected %q", sc.rest())
	}
	if err := tc.Validate(); err != nil {
		return TimeControl{}, err
	}
	return tc, nil
}

// scanner walks the lower-cased notation rune by rune.
type scanner struct {
	src string
	pos int // byte offset of the next rune
}

func (sc *scanner) done() bool   { return sc.pos >= len(sc.src) }
func (sc *scanner) rest() string { return sc.src[sc.pos:] }

func (sc *scanner) peek() rune {
	if sc.done() {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(sc.src[sc.pos:])
	return r
}

func (sc *scanner) next() rune {
	r, n := utf8.DecodeRuneInString(sc.src[sc.pos:])
	sc.pos += n
	return r
}

func (sc *scanner) eat(r rune) bool {
	if sc.peek() == r {
		sc.next()
		return true
	}
	return false
}

func (sc *scanner) skipSpace() {
	for r := sc.peek(); r == ' ' || r == '\t'; r = sc.peek() {
		sc.next()
	}
}

// amount is a non-negative number num/den as written, e.g. "1½" is 6/4.
type amount struct {
	num, den int64
	text     string
}

// amount reads digits with an optional decimal fraction or one of the glyphs
// ¼ ½ ¾. ok is false when no number starts here.
func (sc *scanner) amount() (a amount, ok bool, err error) {
	start := sc.pos
	a.den = 1
	digits := 0
	for r := sc.peek(); r >= '0' && r <= '9'; r = sc.peek() {
		sc.next()
		if digits++; digits > 7 {
			return a, false, fmt.Errorf("number %q is too long", sc.src[start:sc.pos])
		}
		a.num = a.num*10 + int64(r-'0')
	}
	switch r := sc.peek(); {
	case r == '.' && digits > 0:
		sc.next()
		frac := 0
		for r := sc.peek(); r >= '0' && r <= '9'; r = sc.peek() {
			sc.next()
			if frac++; frac > 3 {
				return a, false, fmt.Errorf("number %q has too many decimals", sc.src[start:sc.pos])
			}
			a.num = a.num*10 + int64(r-'0')
			a.den *= 10
		}
		if frac == 0 {
			return a, false, fmt.Errorf("number %q has no digits after the point", sc.src[start:sc.pos])
		}
	case r == '¼' || r == '½' || r == '¾':
		sc.next()
		quarters := int64(1) // ¼
		switch r {
		case '½':
			quarters = 2
		case '¾':
			quarters = 3
		}
		a.num, a.den = a.num*4+quarters, 4
		digits++
	}
	a.text = sc.src[start:sc.pos]
	return a, digits > 0, nil
}

// unit reads a unit letter among those allowed, if one touches the number.
func (sc *scanner) unit(allowed string) rune {
	r := sc.peek()
	if r > 0 && strings.ContainsRune(allowed, r) {
		sc.next()
		return r
	}
	return 0
}

// unitSize gives the length of a unit letter.
var unitSize = map[rune]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour}

// duration reads an optional unit among allowed after the amount and returns
// the amount as a whole number of seconds; def is the unit when none is written.
func (sc *scanner) duration(a amount, what, allowed string, def time.Duration) (time.Duration, error) {
	size := def
	if u := sc.unit(allowed); u != 0 {
		size = unitSize[u]
		a.text += string(u)
	}
	return toDuration(a, what, size)
}

func toDuration(a amount, what string, size time.Duration) (time.Duration, error) {
	secs := a.num * int64(size/time.Second)
	if secs%a.den != 0 {
		return 0, fmt.Errorf("%s %q is not a whole number of seconds", what, a.text)
	}
	secs /= a.den
	if secs > 1<<32 {
		return 0, fmt.Errorf("%s %q is too large", what, a.text)
	}
	return time.Duration(secs) * time.Second, nil
}

// period reads [moves/]base[+increment]. When the base carries a day or hour
// unit it is a correspondence allowance, returned as perMove.
func (sc *scanner) period(first bool) (p Period, perMove time.Duration, err error) {
	sc.skipSpace()
	a, ok, err := sc.amount()
	if err != nil {
		return p, 0, err
	}
	if !ok {
		switch r := sc.peek(); {
		case r == '+':
			return p, 0, errors.New("missing base time before '+'")
		case r == '/':
			return p, 0, errors.New("missing move count before '/'")
		case sc.done() && !first:
			return p, 0, errors.New("missing period after ','")
		case sc.done():
			return p, 0, errors.New("empty")
		}
		return p, 0, fmt.Errorf("unexpected %q: a period starts with a number, as in \"5+3\"", sc.rest())
	}
	mark := sc.pos // a unit must touch its number, so come back here unless '/' follows
	sc.skipSpace()
	if !sc.eat('/') {
		sc.pos = mark
	} else {
		if a.den != 1 {
			return p, 0, fmt.Errorf("move count %q is not a whole number", a.text)
		}
		p.Moves = int(a.num)
		sc.skipSpace()
		if a, ok, err = sc.amount(); err != nil {
			return p, 0, err
		}
		if !ok {
			return p, 0, fmt.Errorf("missing base time after \"%d/\"", p.Moves)
		}
	}
	switch r := sc.peek(); r {
	case 'd', 'h':
		sc.next()
		text := a.text + string(r)
		switch {
		case p.Moves != 0:
			return p, 0, fmt.Errorf("%q: days and hours are for correspondence, which has no move count", text)
		case !first:
			return p, 0, fmt.Errorf("%q: days and hours are for correspondence, which has a single allowance per move", text)
		}
		d, err := toDuration(a, "allowance", unitSize[r])
		if err != nil {
			return p, 0, err
		}
		sc.skipSpace()
		switch {
		case sc.peek() == '+':
			return p, 0, fmt.Errorf("correspondence control %q takes no increment", text)
		case sc.peek() == ',':
			return p, 0, fmt.Errorf("correspondence control %q has no further periods", text)
		case d == 0:
			return p, 0, fmt.Errorf("correspondence allowance %q is zero", text)
		}
		return p, d, nil
	}
	if p.Base, err = sc.duration(a, "base time", "ms", time.Minute); err != nil {
		return p, 0, err
	}
	sc.skipSpace()
	if sc.eat('+') {
		sc.skipSpace()
		inc, ok, err := sc.amount()
		if err != nil {
			return p, 0, err
		}
		if !ok {
			return p, 0, errors.New("missing increment after '+'")
		}
		if p.Increment, err = sc.duration(inc, "increment", "sm", time.Second); err != nil {
			return p, 0, err
		}
	}
	return p, 0, nil
}
