// messages.go: what a page may send on its socket, and the decoder that reads it. Every
// message is hostile until decoded: unknown types, fields or actions, and values out of
// range, are refused with an error that says which.

package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gambitchess/gambit/service/games"
)

// clientMsg is a decoded message from a page.
type clientMsg struct {
	// T is the message type: hello (sent on every connect: the page's ply and the
	// FEN it shows there, to catch up from), move, action, ping.
	T string `json:"t"`
	// ID is the page's id of a move or an action (8 to 32 letters, digits, '-' or '_'):
	// the answer names it, and a repeated id is answered without acting again.
	ID string `json:"id,omitempty"`
	// Ply is the ply the page saw when the player acted (move, action), or the ply it
	// has (hello).
	Ply int `json:"ply"`
	// FEN is the position after Ply plies as the page has it (hello).
	FEN string `json:"fen,omitempty"`
	// Move is the move in SAN or UCI (move; claim-draw's intended move).
	Move string `json:"move,omitempty"`
	// Action names the action (action): see actions.
	Action string `json:"action,omitempty"`
	// OfferDraw offers a draw with the move (move).
	OfferDraw bool `json:"offerDraw,omitempty"`
	// Line is a line of conditional moves, SAN or UCI separated by spaces, the
	// opponent's move first (plan-check: the start of a line being entered; plan-add:
	// a whole line; plan-remove: the start of the lines to remove).
	Line string `json:"line,omitempty"`
}

// planTypes are the messages of the plan mode (plans.go): each takes an id, the ply
// the page saw and, but for plan-clear, a line.
var planTypes = map[string]bool{"plan-check": true, "plan-add": true, "plan-remove": true, "plan-clear": true}

// actions are the actions a page may ask for, named as the buttons' data-action.
var actions = map[string]bool{
	"resign": true, "offer-draw": true, "accept-draw": true, "decline-draw": true, "claim-draw": true,
	"abort": true, "takeback": true, "accept-takeback": true, "decline-takeback": true,
}

// Limits of a message's fields.
const (
	maxPly     = 10000
	maxMoveLen = 12
	maxFENLen  = 100
	// maxLineLen is the longest line of conditional moves, as /conditional takes it.
	maxLineLen = games.MaxPlanLineLen
)

var (
	errMsgType = errors.New("unknown message type")
	errMsgForm = errors.New("malformed message")
)

// decodeClientMsg reads one message. It accepts exactly one JSON object with known
// fields, each within its limits for the message's type.
func decodeClientMsg(b []byte) (clientMsg, error) {
	var m clientMsg
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return clientMsg{}, fmt.Errorf("%w: %v", errMsgForm, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return clientMsg{}, fmt.Errorf("%w: trailing data", errMsgForm)
	}
	if m.Ply < 0 || m.Ply > maxPly {
		return clientMsg{}, fmt.Errorf("%w: ply %d out of range", errMsgForm, m.Ply)
	}
	if m.Line != "" && !planTypes[m.T] {
		return clientMsg{}, fmt.Errorf("%w: only the plan messages take a line", errMsgForm)
	}
	switch m.T {
	case "ping":
		if m.ID != "" || m.Move != "" || m.Action != "" || m.FEN != "" || m.OfferDraw {
			return clientMsg{}, fmt.Errorf("%w: ping takes no fields", errMsgForm)
		}
	case "hello":
		if m.ID != "" || m.Move != "" || m.Action != "" || m.OfferDraw || len(m.FEN) > maxFENLen || !printable(m.FEN) {
			return clientMsg{}, fmt.Errorf("%w: hello takes a ply and a FEN", errMsgForm)
		}
	case "move":
		if !validID(m.ID) || m.Action != "" || m.FEN != "" {
			return clientMsg{}, fmt.Errorf("%w: move takes an id, a ply and a move", errMsgForm)
		}
		if m.Move = strings.TrimSpace(m.Move); m.Move == "" || len(m.Move) > maxMoveLen || !printable(m.Move) {
			return clientMsg{}, fmt.Errorf("%w: the move must be 1 to %d characters of SAN or UCI", errMsgForm, maxMoveLen)
		}
	case "action":
		if !validID(m.ID) || m.FEN != "" || m.OfferDraw {
			return clientMsg{}, fmt.Errorf("%w: action takes an id, a ply and an action", errMsgForm)
		}
		if !actions[m.Action] {
			return clientMsg{}, fmt.Errorf("%w: unknown action", errMsgForm)
		}
		m.Move = strings.TrimSpace(m.Move)
		if (m.Move != "" && m.Action != "claim-draw") || len(m.Move) > maxMoveLen || !printable(m.Move) {
			return clientMsg{}, fmt.Errorf("%w: only claim-draw takes a move", errMsgForm)
		}
	case "plan-check", "plan-add", "plan-remove", "plan-clear":
		if !validID(m.ID) || m.Move != "" || m.Action != "" || m.FEN != "" || m.OfferDraw {
			return clientMsg{}, fmt.Errorf("%w: %s takes an id, a ply and a line", errMsgForm, m.T)
		}
		m.Line = strings.TrimSpace(m.Line)
		if m.T == "plan-clear" && m.Line != "" {
			return clientMsg{}, fmt.Errorf("%w: plan-clear takes no line", errMsgForm)
		}
		if m.T != "plan-clear" && (m.Line == "" || len(m.Line) > maxLineLen || !printable(m.Line)) {
			return clientMsg{}, fmt.Errorf("%w: the line must be 1 to %d characters of moves in SAN or UCI", errMsgForm, maxLineLen)
		}
	default:
		return clientMsg{}, errMsgType
	}
	return m, nil
}

// validID reports whether id is a page's request id.
func validID(id string) bool {
	if len(id) < 8 || len(id) > 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// printable reports whether s is printable ASCII (SAN in English letters, UCI, FEN).
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}
