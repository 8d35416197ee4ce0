package commands

import (
	"github.com/gambitchess/gambit/chesscore/openings"
	"github.com/gambitchess/gambit/service/games"
)

// warmOpenings reads the opening book in the background, so that the first /pgn,
// /board or /analyze does not wait the fraction of a second its reading takes (a
// failure comes back to every later caller).
func warmOpenings() { go openings.Default() }

// gameOpening names the opening of g (chesscore/openings): false for a game none of
// whose positions is named, such as one from a set-up position off the book.
func gameOpening(g *games.Game) (openings.Opening, bool) {
	c := g.Chess()
	return openings.Name(c.Start(), c.Moves())
}

// openingLine is the opening of g as a line of a message, "📖 C60 Ruy Lopez", or ""
// when it has no name.
func openingLine(g *games.Game) string {
	o, ok := gameOpening(g)
	if !ok {
		return ""
	}
	return "📖 " + EscapeMarkdown(o.String())
}
