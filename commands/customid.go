package commands

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// CustomIDVersion is the version written into every custom ID this build makes.
// Bump it when the meaning of a path changes, so that buttons posted by an older
// build are refused politely instead of being misread.
const CustomIDVersion = 1

// MaxCustomIDLen is Discord's limit on a component's custom ID.
const MaxCustomIDLen = 100

// Errors of ParseCustomID, for errors.Is.
var (
	// ErrCustomIDSyntax: the text is not a custom ID this bot could have made.
	ErrCustomIDSyntax = errors.New("malformed custom id")
	// ErrCustomIDVersion: a well-formed custom ID from another version of the bot.
	ErrCustomIDVersion = errors.New("custom id from another version")
)

// CustomID is the parsed form of a component's custom ID, a path:
//
//	v1/<kind>/<id>/<ply>/<action>[/<arg>...]
//
// for example "v1/game/42/17/to/e2/0" (game 42, made when 17 half-moves had been
// played: the destinations of the piece on e2, first menu) or "v1/challenge/9/0/accept".
// Kind names what ID is (a game, a challenge, a settings panel), Ply is the half-move
// count of the position the component was made for (0 where it does not apply), so a
// component clicked after the position changed is recognised as stale, and Action
// names the handler. Every custom ID is made by String and read by ParseCustomID,
// here and nowhere else.
type CustomID struct {
	Version int
	Kind    string
	ID      uint64
	Ply     int
	Action  string
	Args    []string
}

// NewCustomID returns a current-version custom ID.
func NewCustomID(kind string, id uint64, ply int, action string, args ...string) CustomID {
	return CustomID{Version: CustomIDVersion, Kind: kind, ID: id, Ply: ply, Action: action, Args: args}
}

// Route is the key the router dispatches on: "<kind>/<action>".
func (c CustomID) Route() string { return c.Kind + "/" + c.Action }

// Arg returns argument i, or "" when there is none.
func (c CustomID) Arg(i int) string {
	if i < 0 || i >= len(c.Args) {
		return ""
	}
	return c.Args[i]
}

// String writes the custom ID as a path. It panics if a part would make an ID that
// ParseCustomID refuses (a programming error: the parts are the bot's own).
func (c CustomID) String() string {
	s, err := c.format()
	if err != nil {
		panic(err)
	}
	return s
}

func (c CustomID) format() (string, error) {
	if !isWord(c.Kind) || !isWord(c.Action) || c.Ply < 0 || c.Version < 1 {
		return "", fmt.Errorf("custom id v%d kind %q ply %d action %q: %w", c.Version, c.Kind, c.Ply, c.Action, ErrCustomIDSyntax)
	}
	var b strings.Builder
	b.WriteByte('v')
	b.WriteString(strconv.Itoa(c.Version))
	b.WriteByte('/')
	b.WriteString(c.Kind)
	b.WriteByte('/')
	b.WriteString(strconv.FormatUint(c.ID, 10))
	b.WriteByte('/')
	b.WriteString(strconv.Itoa(c.Ply))
	b.WriteByte('/')
	b.WriteString(c.Action)
	for _, a := range c.Args {
		if !isArg(a) {
			return "", fmt.Errorf("custom id argument %q: %w", a, ErrCustomIDSyntax)
		}
		b.WriteByte('/')
		b.WriteString(a)
	}
	if b.Len() > MaxCustomIDLen {
		return "", fmt.Errorf("custom id %q is %d bytes, over %d: %w", b.String(), b.Len(), MaxCustomIDLen, ErrCustomIDSyntax)
	}
	return b.String(), nil
}

// ParseCustomID reads a custom ID written by String. An ID of another version is
// ErrCustomIDVersion (with Version set and nothing else trusted); anything else that
// does not fit is ErrCustomIDSyntax.
func ParseCustomID(s string) (CustomID, error) {
	if len(s) > MaxCustomIDLen {
		return CustomID{}, fmt.Errorf("custom id of %d bytes: %w", len(s), ErrCustomIDSyntax)
	}
	parts := strings.Split(s, "/")
	if len(parts[0]) < 2 || parts[0][0] != 'v' {
		return CustomID{}, fmt.Errorf("custom id %q: no version: %w", s, ErrCustomIDSyntax)
	}
	v, err := strconv.Atoi(parts[0][1:])
	if err != nil || v < 1 || parts[0][1] == '0' || parts[0][1] == '+' {
		return CustomID{}, fmt.Errorf("custom id %q: bad version: %w", s, ErrCustomIDSyntax)
	}
	if v != CustomIDVersion {
		return CustomID{Version: v}, fmt.Errorf("custom id %q is version %d, not %d: %w", s, v, CustomIDVersion, ErrCustomIDVersion)
	}
	if len(parts) < 5 {
		return CustomID{}, fmt.Errorf("custom id %q: want v<n>/kind/id/ply/action: %w", s, ErrCustomIDSyntax)
	}
	c := CustomID{Version: v, Kind: parts[1], Action: parts[4]}
	if !isWord(c.Kind) || !isWord(c.Action) {
		return CustomID{}, fmt.Errorf("custom id %q: bad kind or action: %w", s, ErrCustomIDSyntax)
	}
	if !isDigits(parts[2]) || !isDigits(parts[3]) {
		return CustomID{}, fmt.Errorf("custom id %q: id and ply must be numbers: %w", s, ErrCustomIDSyntax)
	}
	if c.ID, err = strconv.ParseUint(parts[2], 10, 64); err != nil {
		return CustomID{}, fmt.Errorf("custom id %q: id: %w", s, ErrCustomIDSyntax)
	}
	ply, err := strconv.ParseUint(parts[3], 10, 31)
	if err != nil {
		return CustomID{}, fmt.Errorf("custom id %q: ply: %w", s, ErrCustomIDSyntax)
	}
	c.Ply = int(ply)
	for _, a := range parts[5:] {
		if !isArg(a) {
			return CustomID{}, fmt.Errorf("custom id %q: bad argument %q: %w", s, a, ErrCustomIDSyntax)
		}
	}
	if len(parts) > 5 {
		c.Args = parts[5:]
	}
	return c, nil
}

// isWord reports whether s is a lower-case name: a-z, digits and '-', starting with a letter.
func isWord(s string) bool {
	if s == "" || len(s) > 24 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// isArg reports whether s is a non-empty argument: letters, digits, '-' and '_'.
func isArg(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isDigits reports whether s is a canonical decimal number (no sign, no leading zero).
func isDigits(s string) bool {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
