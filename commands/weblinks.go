package commands

import (
	"context"
	"fmt"

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
	row := &discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Live board", Style: discordgo.LinkButton, URL: d.Web.GameURL(g.ID)},
		discordgo.Button{Label: "Play on the web", Style: discordgo.SecondaryButton, CustomID: NewCustomID("game", g.ID, g.Ply(), actionWeb).String()},
	}}
	if d.Activity {
		row.Components = append(row.Components, discordgo.Button{Label: "Play in Discord", Style: discordgo.PrimaryButton,
			CustomID: NewCustomID("game", g.ID, g.Ply(), actionActivity).String()})
	}
	return row
}

// actionActivity is the custom id action of "Play in Discord".
const actionActivity = "activity"

// playInDiscord answers "Play in Discord": it opens the Activity, where the game is
// found by its channel (docs/activity.md), for anyone who may see the game.
func (d *Deps) playInDiscord(ctx context.Context, r *Request) (*Response, error) {
	if _, err := d.visibleGame(ctx, r, r.ID.ID); err != nil {
		return nil, err
	}
	if !d.Activity {
		return nil, Errorf("The Activity is not on for this bot: use Live board or Play on the web.")
	}
	return &Response{Kind: LaunchActivity}, nil
}

// playOnWeb answers "Play on the web": a player gets their personal sign-in link
// (ephemeral: it signs them in), anyone else the game's Live board link.
func (d *Deps) playOnWeb(ctx context.Context, r *Request) (*Response, error) {
	g, err := d.visibleGame(ctx, r, r.ID.ID)
	if err != nil {
		return nil, err
	}
	gs := d.settings(ctx, g.GuildID)
	if d.Web == nil || gs.WebViewOff {
		return nil, Errorf("The web view of this server's games is off.")
	}
	if _, ok := g.ColorOf(r.User.ID); !ok {
		return &Response{Ephemeral: true,
			Content: fmt.Sprintf("You are not playing in game %d, so there is no personal link for you; you can watch it live.", g.ID),
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Live board", Style: discordgo.LinkButton, URL: d.Web.GameURL(g.ID)},
			}}}}, nil
	}
	return &Response{Ephemeral: true,
		Content: fmt.Sprintf("Your board for game %d: the link signs you in on this browser. It is yours alone and works for ten minutes; do not share it.", g.ID),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Open my board", Style: discordgo.LinkButton, URL: d.Web.SignInURL(r.User.ID, g.ID)},
		}}}}, nil
}
