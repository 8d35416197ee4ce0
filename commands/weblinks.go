package commands

import (
	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// weblinks.go: the web's buttons on a game's board posts: "Live board", a link to the
// game's page, and "Play on the web", which gives a player their personal sign-in link.

// WebLinks makes the links of the web pages (package web's Server implements it; nil
// in Deps: no web, no web buttons).
type WebLinks interface {
	// GameURL is the link of a game's page (its number and token).
	GameURL(gameID uint64) string
	// SignInURL is a player's personal, short-lived link that signs them in and opens
	// the game's page.
	SignInURL(userID string, gameID uint64) string
}

// actionWeb is the custom id action of "Play on the web".
const actionWeb = "web"

// webRow is the row of web buttons under a game's board, or nil without a web or when
// the game's server turned its web view off.
func (d *Deps) webRow(gs storage.GuildSettings, g *games.Game) *discordgo.ActionsRow {
	if d.Web == nil || gs.WebViewOff {
		return nil
	}
	return &discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Live board", Style: discordgo.LinkButton, URL: d.Web.GameURL(g.ID)},
		discordgo.Button{Label: "Play on the web", Style: discordgo.SecondaryButton, CustomID: NewCustomID("game", g.ID, g.Ply(), actionWeb).String()},
	}}
}
