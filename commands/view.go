package commands

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/lru"
	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// view.go: how a game looks on Discord (text, board image, PGN, analysis link).

// EscapeMarkdown makes user-chosen text (a display name) print as itself: Discord's
// markdown characters are escaped and mention syntax is broken up. Pings are refused
// by allowed_mentions anyway; this keeps the text honest too.
func EscapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '*', '_', '~', '`', '|', '>', '#', '-', '[', ']', '(', ')', ':':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '@':
			b.WriteString("@\u200b")
		case '\n', '\r':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// playerName is a player's display name, escaped.
func playerName(p storage.Player) string {
	if p.Name == "" {
		return "a player"
	}
	return EscapeMarkdown(p.Name)
}

// colorName is "White" or "Black": chesscore's name of the colour, capitalised.
func colorName(c chesscore.Color) string { return capitalize(c.String()) }

// BoardOptions are the choices behind one board picture.
type BoardOptions struct {
	Theme string
	// Flip puts Black at the bottom.
	Flip bool
	// Bars adds the players' bars with their clocks as of Now. The board posted after
	// every move goes without: its text carries the names and clocks, and the bars
	// cost more to draw than the board itself.
	Bars bool
	Now  time.Time
}

// boardPNG draws the current position of a game, the last move highlighted.
func (d *Deps) boardPNG(g *games.Game, o BoardOptions) ([]byte, error) {
	pos := g.Position
	opt := render.BoardOptions{Theme: knownTheme(o.Theme), Flip: o.Flip, Coordinates: true, Size: 400}
	if m, ok := g.LastMove(); ok {
		opt.LastMove = m
	}
	if o.Bars {
		white := &render.PlayerBar{Name: g.White.Name}
		black := &render.PlayerBar{Name: g.Black.Name}
		if g.Clock != nil {
			white.Clock, white.HasClock = g.Clock.Remaining(chesscore.White, o.Now), true
			black.Clock, black.HasClock = g.Clock.Remaining(chesscore.Black, o.Now), true
		}
		opt.White, opt.Black = white, black
	}
	key := ""
	if !o.Bars {
		// Without bars the picture depends on the position, the last move and the view
		// only: the same opening positions come up in game after game.
		key = fmt.Sprintf("%s|%s|%t|%s", pos.FEN(), opt.LastMove, opt.Flip, opt.Theme)
		if b, ok := d.pictures().Get(key); ok {
			return b, nil
		}
	}
	var buf bytes.Buffer
	buf.Grow(24 << 10)
	if err := render.PNG(&buf, &pos, opt); err != nil {
		return nil, fmt.Errorf("draw game %d: %w", g.ID, err)
	}
	if key != "" {
		d.pictures().Add(key, buf.Bytes())
	}
	return buf.Bytes(), nil
}

// pictures returns the cache of recent board pictures (about 20 kB each). Callers must
// not modify what it holds.
func (d *Deps) pictures() *lru.Cache[string, []byte] {
	d.picturesOnce.Do(func() { d.pictureCache = lru.New[string, []byte](1024) })
	return d.pictureCache
}

// knownTheme returns theme if the renderer has it, else "" (the default theme), so a
// stored setting from elsewhere never breaks a board.
func knownTheme(theme string) string {
	for _, t := range render.Themes() {
		if t == theme {
			return theme
		}
	}
	return ""
}

// clockLine describes both clocks, e.g. "⏱ White 4:31 · Black 3:58".
func clockLine(g *storage.Game, now time.Time) string {
	if g.Clock == nil {
		return ""
	}
	return fmt.Sprintf("⏱ White %s · Black %s",
		render.FormatClock(g.Clock.Remaining(chesscore.White, now)), render.FormatClock(g.Clock.Remaining(chesscore.Black, now)))
}

// controlLabel is e.g. "5+3 rated" or "untimed casual".
func controlLabel(g *storage.Game) string {
	tc := g.Control.String()
	if tc == "-" {
		tc = "untimed"
	}
	if g.Rated {
		return tc + " rated"
	}
	return tc + " casual"
}

// Headline is the first line of every game message: players and control.
func Headline(g *storage.Game) string {
	return fmt.Sprintf("**Game %d** · %s (White) vs %s (Black) · %s", g.ID, playerName(g.White), playerName(g.Black), controlLabel(g))
}

// resultText is e.g. "1-0 · White wins by checkmate" or "½-½ · draw by agreement".
func resultText(o chesscore.Outcome) string {
	reason := o.Termination.String()
	if o.Termination == chesscore.NoShow {
		switch o.Result {
		case chesscore.WhiteWins:
			return "1-0 · White wins by forfeit: Black made no first move in time"
		case chesscore.BlackWins:
			return "0-1 · Black wins by forfeit: White made no first move in time"
		}
	}
	switch o.Result {
	case chesscore.WhiteWins:
		return "1-0 · White wins by " + reason
	case chesscore.BlackWins:
		return "0-1 · Black wins by " + reason
	case chesscore.Draw:
		return "½-½ · draw by " + reason
	}
	if o.Termination == chesscore.Aborted {
		return "aborted · no result"
	}
	return reason
}

// maxLinkLen keeps an analysis link short enough for a message and a link button.
const maxLinkLen = 512

// LichessURL returns a lichess analysis link for the game: the moves pasted into
// lichess's analysis board (https://lichess.org/analysis/pgn/<moves>), or, when that
// would be too long, the final position (https://lichess.org/analysis/<FEN>).
func LichessURL(g *games.Game) string {
	if g.StartFEN == "" {
		var b strings.Builder
		for i, san := range g.SAN {
			if i%2 == 0 {
				fmt.Fprintf(&b, "%d. ", i/2+1)
			}
			b.WriteString(san)
			b.WriteByte(' ')
		}
		u := "https://lichess.org/analysis/pgn/" + url.PathEscape(strings.TrimSpace(b.String()))
		if len(u) <= maxLinkLen {
			return u
		}
	}
	return "https://lichess.org/analysis/" + strings.ReplaceAll(g.Position.FEN(), " ", "_")
}
