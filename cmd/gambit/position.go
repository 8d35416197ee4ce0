package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
)

// positionReport is the JSON object `gambit position` prints.
type positionReport struct {
	FEN            string            `json:"fen"`
	Turn           string            `json:"turn"`
	InCheck        bool              `json:"in_check"`
	LegalMoves     []legalMove       `json:"legal_moves"`
	Status         string            `json:"status"`
	Result         string            `json:"result"`
	Claimable      []string          `json:"claimable"`
	CanCheckmate   map[string]string `json:"can_checkmate"`
	Repetitions    int               `json:"repetitions"`
	HalfmoveClock  int               `json:"halfmove_clock"`
	FullmoveNumber int               `json:"fullmove_number"`
}

type legalMove struct {
	UCI string `json:"uci"`
	SAN string `json:"san"`
}

// statusNames names the automatic endings; anything else is "ongoing".
var statusNames = map[chesscore.Termination]string{
	chesscore.Checkmate:          "checkmate",
	chesscore.Stalemate:          "stalemate",
	chesscore.DeadPosition:       "dead_position",
	chesscore.FivefoldRepetition: "fivefold_repetition",
	chesscore.SeventyFiveMoves:   "seventy_five_moves",
}

// runPosition implements `gambit position [--fen FEN] [--moves "e2e4 e7e5 ..."]`: it plays
// the moves from the position and prints one JSON object describing where they lead.
func runPosition(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("position", stderr)
	fen := fs.String("fen", chesscore.StartFEN, "position to start from")
	moves := fs.String("moves", "", `moves to play from it, SAN or UCI, separated by spaces ("e4 e5 Nf3" or "e2e4 e7e5 g1f3")`)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	g, err := chesscore.NewGameFromFEN(*fen, dead.Decider{})
	if err != nil {
		return fmt.Errorf("--fen: %w", err)
	}
	n := 0
	for _, tok := range strings.Fields(*moves) {
		if notAMove(tok) {
			continue
		}
		n++
		if _, err := g.PlaySAN(tok); err != nil {
			return fmt.Errorf("--moves: move %d %q: %w", n, tok, err)
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(report(g))
}

// report describes the game's current position.
func report(g *chesscore.Game) positionReport {
	pos := g.Position()
	out := positionReport{
		FEN:            pos.FEN(),
		Turn:           pos.Turn().String(),
		InCheck:        pos.InCheck(),
		LegalMoves:     []legalMove{},
		Status:         "ongoing",
		Result:         g.Outcome().Result.String(),
		Claimable:      []string{},
		Repetitions:    g.Repetitions(),
		HalfmoveClock:  pos.HalfmoveClock(),
		FullmoveNumber: pos.FullmoveNumber(),
		CanCheckmate: map[string]string{
			"white": dead.CanCheckmate(&pos, chesscore.White).String(),
			"black": dead.CanCheckmate(&pos, chesscore.Black).String(),
		},
	}
	over := g.Over()
	if name, ok := statusNames[g.Outcome().Termination]; ok {
		out.Status = name
	}
	var ml chesscore.MoveList
	pos.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		out.LegalMoves = append(out.LegalMoves, legalMove{UCI: m.UCI(), SAN: pos.SAN(m)})
	}
	sort.Slice(out.LegalMoves, func(i, j int) bool { return out.LegalMoves[i].UCI < out.LegalMoves[j].UCI })
	if over {
		return out
	}
	var threefold, fifty bool
	for _, c := range g.Claimable() {
		threefold = threefold || c.Termination == chesscore.ThreefoldRepetition
		fifty = fifty || c.Termination == chesscore.FiftyMoves
	}
	if threefold {
		out.Claimable = append(out.Claimable, "threefold_repetition")
	}
	if fifty {
		out.Claimable = append(out.Claimable, "fifty_moves")
	}
	return out
}

// notAMove reports the tokens --moves skips: a bare move number ("12.", "12...") or a
// game result ("1-0", "*").
func notAMove(s string) bool {
	if _, err := chesscore.ParseResult(s); err == nil {
		return true
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i < len(s) && strings.Trim(s[i:], ".") == ""
}
