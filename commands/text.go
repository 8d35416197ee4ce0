package commands

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// text.go: cutting text to a length limit without splitting a character, and the few
// words every message spells the same way.
//
// Discord measures its limits (2,000 characters of content, 100 of a thread or choice
// name, 4,096 of an embed description, ...) in UTF-16 code units, as its clients count
// them: a character outside the Basic Multilingual Plane, such as most emoji, counts
// two. Counted so, a string is never shorter than counted in code points, so text cut
// to a limit in UTF-16 units fits whichever way the limit is read. The store bounds
// names in bytes, and fixed-width tables pad by code points: those are the other units.

// Unit is what a length limit counts.
type Unit uint8

// The units of a length limit.
const (
	// UTF16 counts UTF-16 code units: Discord's limits.
	UTF16 Unit = iota
	// Runes counts code points: the columns of a fixed-width table (as fmt pads them).
	Runes
	// Bytes counts UTF-8 bytes: the store's limits.
	Bytes
)

// width is how many units r takes.
func (u Unit) width(r rune) int {
	switch u {
	case Bytes:
		return utf8.RuneLen(r)
	case Runes:
		return 1
	}
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// Length returns how long s is in unit u (invalid UTF-8 counts as U+FFFD, as Truncate
// writes it).
func Length(s string, u Unit) int {
	if u == Bytes && utf8.ValidString(s) {
		return len(s)
	}
	n := 0
	for _, r := range s {
		n += u.width(r)
	}
	return n
}

// Truncate returns the longest prefix of s that is at most max long in unit u, cut
// between two characters, never inside one. Invalid UTF-8 in s is first replaced by
// U+FFFD, so the result is always valid UTF-8 (Discord rejects anything else); for
// valid s the result is a prefix of s, and s itself when it fits. It does not allocate
// for valid s.
func Truncate(s string, max int, u Unit) string {
	if max <= 0 {
		return ""
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, string(utf8.RuneError))
	}
	if u == Bytes && len(s) <= max {
		return s
	}
	n := 0
	for i, r := range s {
		w := u.width(r)
		if n+w > max {
			return s[:i]
		}
		n += w
	}
	return s
}

// ellipsis marks text that was cut.
const ellipsis = "…"

// Shorten is Truncate that shows the cut: when s does not fit it is cut shorter and
// ends with an ellipsis, the whole still at most max long in unit u.
func Shorten(s string, max int, u Unit) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, string(utf8.RuneError))
	}
	t := Truncate(s, max, u)
	if len(t) == len(s) {
		return t
	}
	room := max - Length(ellipsis, u)
	if room <= 0 {
		return t
	}
	return Truncate(t, room, u) + ellipsis
}

// capitalize writes the first letter of s in upper case.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || r == utf8.RuneError {
		return s
	}
	if u := unicode.ToUpper(r); u != r {
		return string(u) + s[n:]
	}
	return s
}

// Discord's limits on the names and texts the commands make, in UTF-16 units.
const (
	// maxChoiceName bounds an autocomplete choice's name.
	maxChoiceName = 100
	// maxThreadName bounds a thread's name.
	maxThreadName = 100
	// maxMenuOptionText bounds a select menu option's label and description.
	maxMenuOptionText = 100
)
