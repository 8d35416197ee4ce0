package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
)

// /pgn [game]: the game's record as a PGN file, with a lichess analysis link. Every PGN
// the bot hands out is made by ExportPGN, which names no server.

func init() {
	register(registration{
		name:    "pgn",
		build:   func(d *Deps) Command { return NewPGN(d) },
		topic:   helpTopic{group: groupPlay, order: 100, example: "/pgn game:12"},
		options: []optionUse{{nil, gameOptions{}}},
	})
}

var _ Command = (*PGNCommand)(nil)
var _ Autocompleter = (*PGNCommand)(nil)

// PGNCommand is /pgn.
type PGNCommand struct{ gameCommand }

// NewPGN returns /pgn.
func NewPGN(d *Deps) *PGNCommand {
	warmOpenings()
	c := &PGNCommand{}
	c.gameCommand = gameCommand{d: d, name: "pgn", mine: false, on: c.on,
		description: "Get a game's record (PGN file) and a lichess analysis link"}
	return c
}

// on acts on the game found.
func (c *PGNCommand) on(ctx context.Context, r *Request, g *games.Game) (*Response, error) {
	link := LichessURL(g)
	return &Response{
		Content: fmt.Sprintf("%s\n[Analyse on lichess](<%s>)", Headline(&g.Game), link),
		Files:   []File{{Name: fmt.Sprintf("gambit-game-%d.pgn", g.ID), ContentType: "application/x-chess-pgn", Data: []byte(ExportPGN(g))}},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Analyse on lichess", Style: discordgo.LinkButton, URL: link},
		}}},
	}, nil
}

// pgnSite is the Site tag of a game played on Discord.
const pgnSite = "Gambit on Discord"

// ExportPGN is the game's PGN as the bot hands it out (the /pgn file, the file under
// the game-over message, the analysis): the service's export with the opening's ECO and
// Opening tags (chesscore/openings; none for a game off the book) and its Site tag
// naming no server. A PGN file travels (it is downloaded, pasted, shared), and the
// server's id would tell whoever reads it where to look for the players; the Site says
// Discord, the GameId finds the game for those who may see it.
func ExportPGN(g *games.Game) string {
	pgn := g.PGN()
	var extra []string
	if o, ok := gameOpening(g); ok {
		extra = append(extra, fmt.Sprintf("[ECO %s]", pgnString(o.ECO)), fmt.Sprintf("[Opening %s]", pgnString(o.Name)))
	}
	var b strings.Builder
	b.Grow(len(pgn) + 100)
	rest := pgn
	for rest != "" {
		line, after, found := strings.Cut(rest, "\n")
		if strings.TrimSpace(line) == "" {
			break // the end of the tag section
		}
		if strings.HasPrefix(line, "[Site ") && g.GuildID != "" {
			line = fmt.Sprintf("[Site %s]", pgnString(pgnSite))
		}
		b.WriteString(line)
		if found {
			b.WriteByte('\n')
		}
		rest = after
	}
	for _, tag := range extra {
		b.WriteString(tag + "\n")
	}
	b.WriteString(rest)
	return b.String()
}

// pgnString quotes s as a PGN tag value: in double quotes, with backslashes and quotes
// escaped by a backslash.
func pgnString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
