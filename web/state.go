// state.go: a game as the page sees it, the same for every viewer: the moves (SAN, UCI
// and the position after each), the clocks as the server has them, the result, the
// offers, the legal moves. The page draws it, and the socket sends it after every change.

package web

import (
	"encoding/json"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
)

// plyMove is one move of a state: its SAN (English letters), its UCI, and the FEN of the
// position it leads to.
type plyMove struct {
	SAN string `json:"san"`
	UCI string `json:"uci"`
	FEN string `json:"fen"`
}

// clockState is the clocks at the instant the state was made: the time each side has
// left (ms), and whose clock runs ("" for none). The page counts the running one down
// from the instant it received the state.
type clockState struct {
	White   int64  `json:"white"`
	Black   int64  `json:"black"`
	Running string `json:"running"`
	// Days is set for a correspondence control: the page shows days and hours.
	Days bool `json:"days,omitempty"`
	// AwayWhite and AwayBlack are when the vacation of a player who is on one ends
	// (Unix milliseconds; 0 for none): their clock waits on their turns meanwhile.
	AwayWhite int64 `json:"awayWhite,omitempty"`
	AwayBlack int64 `json:"awayBlack,omitempty"`
}

// stateMsg is the "state" message of the socket: the game from ply From on. The page
// keeps the moves before From and replaces the rest; Base is the FEN after From plies,
// so a page whose moves differ there (a takeback it missed) asks for the whole game.
type stateMsg struct {
	T       string      `json:"t"` // "state"
	Game    uint64      `json:"game"`
	Version uint64      `json:"version"`
	Ply     int         `json:"ply"`
	From    int         `json:"from"`
	Base    string      `json:"base"`
	Start   string      `json:"start"` // the FEN before the first move
	Moves   []plyMove   `json:"moves"`
	Clock   *clockState `json:"clock"`
	Turn    string      `json:"turn"`
	Result  string      `json:"result"`
	Reason  string      `json:"reason,omitempty"`
	// DrawOffer and Takeback name the side whose offer or request waits ("" for none).
	DrawOffer string `json:"drawOffer"`
	Takeback  string `json:"takeback"`
	// Claim: the player to move may claim a draw on the board as it stands;
	// ClaimMoves are the moves (UCI) with which they may claim one by announcing the
	// move (FIDE 9.2.1).
	Claim      bool     `json:"claim"`
	ClaimMoves []string `json:"claimMoves,omitempty"`
	// Legal holds the legal moves of the side to move, in UCI (none once the game ended).
	Legal []string `json:"legal"`
}

// fullState returns the state of g from ply from on (0: the whole game).
func fullState(g *games.Game, now time.Time, from int) stateMsg {
	chess := g.Chess()
	ply := chess.Ply()
	from = max(0, min(from, ply))
	start := chess.Start()
	base := chess.PositionAt(from)
	st := stateMsg{
		T: "state", Game: g.ID, Version: g.Version, Ply: ply, From: from, Base: base.FEN(), Start: start.FEN(),
		Moves: make([]plyMove, 0, ply-from), Turn: colorName(g.Turn()), Result: g.Outcome.Result.String(),
	}
	moves, sans := chess.Moves(), chess.SAN()
	for i := from; i < ply; i++ {
		pos := chess.PositionAt(i + 1)
		st.Moves = append(st.Moves, plyMove{SAN: sans[i], UCI: moves[i].UCI(), FEN: pos.FEN()})
	}
	if g.Outcome.Over() {
		st.Reason = outcomeText(g)
	}
	if c := g.Clock; c != nil {
		cs := &clockState{White: c.Remaining(chesscore.White, now).Milliseconds(), Black: c.Remaining(chesscore.Black, now).Milliseconds()}
		if g.Live() && !c.FlagAt().IsZero() {
			cs.Running = colorName(c.Turn)
		}
		cs.Days = c.Control.Kind().String() == "correspondence"
		st.Clock = cs
	}
	if g.Live() {
		if g.DrawOffer.Pending {
			st.DrawOffer = colorName(g.DrawOffer.By)
		}
		if g.Takeback.Pending {
			st.Takeback = colorName(g.Takeback.By)
		}
		for _, c := range g.Claimable() {
			if c.Move == chesscore.NullMove {
				st.Claim = true
			} else {
				st.ClaimMoves = append(st.ClaimMoves, c.Move.UCI())
			}
		}
		var ml chesscore.MoveList
		pos := g.Position
		pos.LegalMoves(&ml)
		st.Legal = make([]string, 0, ml.Len())
		for _, m := range ml.Slice() {
			st.Legal = append(st.Legal, m.UCI())
		}
	}
	return st
}

// encode returns the message as JSON.
func (m *stateMsg) encode() []byte {
	b, err := json.Marshal(m)
	if err != nil {
		panic("web: encode a state: " + err.Error()) // plain fields only: cannot fail
	}
	return b
}

// outcomeText says how the game ended, for people: "White wins · checkmate".
func outcomeText(g *games.Game) string {
	o := g.Outcome
	var who string
	switch o.Result {
	case chesscore.WhiteWins:
		who = "White wins"
	case chesscore.BlackWins:
		who = "Black wins"
	case chesscore.Draw:
		who = "Draw"
	default:
		who = "Game over"
	}
	return who + " · " + o.Termination.String()
}
