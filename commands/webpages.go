package commands

import (
	"context"

	"github.com/bwmarrin/discordgo"
)

// webpages.go: the link buttons to a server's web pages under the answers of /ladder,
// /rating, /tournament standings, /puzzle today and /analyze.

// WebPages makes the links of a server's web pages (package web's Server implements it
// beside WebLinks; Deps.Web without it, or a server whose web view is off: no buttons).
type WebPages interface {
	// LadderURL is a server's ladder page in a category.
	LadderURL(guildID, category string) string
	// ProfileURL is a player's profile page in a server.
	ProfileURL(guildID, userID string) string
	// TournamentURL is a server's tournament page.
	TournamentURL(guildID string, id uint64) string
	// PuzzleURL is a server's puzzle of the day.
	PuzzleURL(guildID string) string
	// PuzzleSignInURL is a member's personal, short-lived link that signs them in and
	// opens the server's puzzle of the day.
	PuzzleSignInURL(guildID, userID string) string
	// AnalysisURL is a finished game's analysis page.
	AnalysisURL(gameID uint64) string
}

// webPages returns the links of guildID's pages, or nil when there are none to give.
func (d *Deps) webPages(ctx context.Context, guildID string) WebPages {
	if d.Web == nil || guildID == "" {
		return nil
	}
	wp, ok := d.Web.(WebPages)
	if !ok || d.settings(ctx, guildID).WebViewOff {
		return nil
	}
	return wp
}

// withWebLink adds a row with one link button (style 5) to resp.
func withWebLink(resp *Response, label, url string) *Response {
	if resp == nil {
		return nil
	}
	resp.Components = append(resp.Components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: label, Style: discordgo.LinkButton, URL: url},
	}})
	return resp
}
