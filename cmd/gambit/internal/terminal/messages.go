// messages.go: what the session prints: the intro, prompts with the clocks, moves,
// refusals, and the end.

package terminal

import (
	"fmt"
	"io"
	"strings"

	"github.com/gambitchess/gambit/service/games"
)

// Intro prints the header of a session: the game, its players and control, where it is
// stored, and the board. resumed says the game was already under way.
func Intro(w io.Writer, g *games.Game, where string, unicode, flip bool, resumed bool) {
	verb := "Game"
	if resumed {
		verb = "Resuming game"
	}
	fmt.Fprintf(w, "%s %d: %s vs %s, %s. Stored in %s.\n", verb, g.ID, g.White.Name, g.Black.Name, DescribeControl(g.Control), where)
	if g.Clock != nil && g.Clock.FreeFirstMoves && g.Ply() < 2 {
		fmt.Fprintln(w, "Each side's first move is untimed.")
	}
	if resumed && g.Ply() > 0 {
		fmt.Fprintf(w, "Moves so far: %s\n", movesText(g))
	}
	fmt.Fprintln(w, "Type help for the commands.")
	fmt.Fprintln(w)
	fmt.Fprint(w, BoardText(g, unicode, flip))
}

// movesText writes the moves played in SAN with move numbers: "1. e4 e5 2. Nf3".
func movesText(g *games.Game) string {
	var b strings.Builder
	for i, san := range g.SAN {
		if n := moveNumber(g, i); i == 0 || !strings.HasSuffix(n, "...") {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(n + " ")
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(san)
	}
	return b.String()
}

// prompt shows what waits for the player to move and asks for input. For a timed game
// the line just above the prompt is the clocks line, which a tick rewrites.
func (s *Session) prompt(g *games.Game) {
	s.boardShown = false
	turn := g.Turn()
	if o := g.DrawOffer; o.Pending && o.By != turn {
		fmt.Fprintf(s.Out, "%s offers a draw: type draw to accept or decline to refuse (a move declines too).\n", colorName(o.By))
	}
	if line := ClockLine(g, s.now()); line != "" {
		fmt.Fprintln(s.Out, line)
	}
	if t := g.Takeback; t.Pending {
		fmt.Fprintf(s.Out, "%s asks to take back the last move. %s, accept? (yes/no): ", colorName(t.By), colorName(t.By.Other()))
		return
	}
	fmt.Fprintf(s.Out, "%s to move: ", colorName(turn))
}

// tickPrompt rewrites the clocks line above the prompt, leaving the cursor (and what
// the player is typing) where it is.
func (s *Session) tickPrompt(g *games.Game) {
	if line := ClockLine(g, s.now()); s.Redraw && line != "" {
		fmt.Fprintf(s.Out, "\x1b7\x1b[1A\r\x1b[2K%s\x1b8", line)
	}
}

// report prints what a command did, or why it was refused.
func (s *Session) report(res *games.Result, err error) {
	if err != nil {
		s.explain(err)
		return
	}
	switch res.Effect {
	case games.EffectTakebackAccepted:
		fmt.Fprintln(s.Out, "Move taken back.")
		fmt.Fprint(s.Out, BoardText(res.Game, s.Unicode, s.Flip))
	case games.EffectTakebackDeclined:
		fmt.Fprintln(s.Out, "Takeback declined.")
	case games.EffectDrawDeclined:
		fmt.Fprintln(s.Out, "Draw declined.")
	case games.EffectDrawClaimed:
		if res.SAN != "" {
			fmt.Fprintf(s.Out, "%s %s\n", moveNumber(res.Game, res.Ply-1), res.SAN)
		}
	}
}

// explain prints a refusal for the player.
func (s *Session) explain(err error) {
	msg := err.Error()
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	fmt.Fprintln(s.Out, msg+".")
}

// showMove prints a move just played and the board after it.
func (s *Session) showMove(res *games.Result) {
	text := fmt.Sprintf("%s %s", moveNumber(res.Game, res.Ply-1), res.SAN)
	if res.Game.DrawOffer.Pending && res.Game.DrawOffer.Ply == res.Ply {
		text += " (draw offered)"
	}
	fmt.Fprintln(s.Out, text)
	fmt.Fprint(s.Out, BoardText(res.Game, s.Unicode, s.Flip))
	s.boardShown = true
}

// leave ends the session without ending the game.
func (s *Session) leave() {
	fmt.Fprintf(s.Out, "Game %d stays open in %s: gambit play --db %s --resume %d goes on with it.\n", s.GameID, s.Where, s.Where, s.GameID)
}

// finish prints the end of the game: the result, the final board with the clocks, and
// the PGN.
func (s *Session) finish(g *games.Game) {
	fmt.Fprintf(s.Out, "Game over: %s (%s).\n", g.Outcome.Result, describeEnd(g))
	if !s.boardShown {
		fmt.Fprint(s.Out, BoardText(g, s.Unicode, s.Flip))
	}
	if line := ClockLine(g, s.now()); line != "" {
		fmt.Fprintf(s.Out, "%s\n\n", line)
	}
	fmt.Fprint(s.Out, g.PGN())
	fmt.Fprintf(s.Out, "\nGame %d is stored in %s.\n", s.GameID, s.Where)
}
