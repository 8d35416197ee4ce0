package commands

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/ladder"
)

// /rating [user] [category]: a player's card: the rating in each ladder ("1500?" while
// provisional), the place, W–D–L and peak, with the rating history of one ladder drawn.

func init() {
	register(registration{
		name:    "rating",
		build:   func(d *Deps) Command { return NewRating(d) },
		topic:   helpTopic{group: groupLadder, order: 20, example: "/rating user:@friend"},
		options: []optionUse{{nil, ratingOptions{}}},
	})
}

var _ Command = (*RatingCommand)(nil)

// RatingCommand is /rating.
type RatingCommand struct{ d *Deps }

// NewRating returns /rating.
func NewRating(d *Deps) *RatingCommand { return &RatingCommand{d} }

// cardColor is the accent of the rating card (the chart's line colour).
const cardColor = 0x5aa9e6

// Definition implements Command.
func (c *RatingCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:             "rating",
		Description:      "A player's ratings on this server, with their history",
		Contexts:         contexts(serversOnly),
		IntegrationTypes: installs(bothInstalls),
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose ratings (default: yours)"},
			categoryOption(false, "The ladder whose history is drawn (default: the one with most games)"),
		},
	}
}

// ratingOptions are the options of /rating.
type ratingOptions struct {
	User     *discordgo.User `option:"user"`
	Category string          `option:"category"`
}

// Handle implements Command.
func (c *RatingCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	if r.GuildID == "" {
		return nil, Errorf("Ratings belong to a server: use /rating in one.")
	}
	lad, err := c.d.ladderService()
	if err != nil {
		return nil, err
	}
	var o ratingOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	u := r.User
	if o.User != nil {
		u = o.User
	}
	pr, err := lad.Profile(ctx, r.GuildID, u.ID)
	if err != nil {
		return nil, err
	}
	name := storagePlayer(u).Name
	if name == "" {
		name = pr.Name
	}
	if len(pr.Entries) == 0 {
		who := "You have"
		if u.ID != r.User.ID {
			who = EscapeMarkdown(name) + " has"
		}
		return Private("%s no rated games on this server yet. Rated games are challenged with `/challenge rated:True`; newcomers start at %d (%s).",
			who, pr.Settings.StartRating, systemName(pr.Settings.System)), nil
	}
	main, _ := pr.Main()
	if o.Category != "" {
		cat, err := parseCategory(o.Category, main.Category)
		if err != nil {
			return nil, err
		}
		main = ladder.Entry{Category: cat}
		for _, e := range pr.Entries {
			if e.Category == cat {
				main = e
			}
		}
	}
	resp, err := ratingCard(name, pr, main)
	if wp := c.d.webPages(ctx, r.GuildID); wp != nil && err == nil {
		resp = withWebLink(resp, "Profile on the web", wp.ProfileURL(r.GuildID, u.ID))
	}
	return resp, err
}

// ratingCard is the embed with the chart of main's history attached.
func ratingCard(name string, pr ladder.Profile, main ladder.Entry) (*Response, error) {
	set := pr.Settings
	points := make([]render.RatingPoint, len(main.History))
	for i, h := range main.History {
		points[i] = render.RatingPoint{Time: h.At, Rating: h.Rating}
	}
	var png bytes.Buffer
	title := fmt.Sprintf("%s · %s", name, categoryName(main.Category))
	if err := render.RatingChart(&png, points, render.ChartOptions{Title: title}); err != nil {
		return nil, fmt.Errorf("draw the rating chart of %s: %w", pr.UserID, err)
	}
	games, w, d, l := pr.Games()
	embed := &discordgo.MessageEmbed{
		Title: "Ratings of " + EscapeMarkdown(name),
		Description: fmt.Sprintf("%s · %d rated game%s: %d win%s, %d draw%s, %d loss%s",
			systemName(set.System), games, plural(games), w, plural(w), d, plural(d), l, pluralES(l)),
		Color: cardColor,
		Image: &discordgo.MessageEmbedImage{URL: "attachment://rating.png"},
	}
	var summary []string
	provisional := false
	for _, e := range pr.Entries {
		embed.Fields = append(embed.Fields, &discordgo.MessageEmbedField{
			Name: categoryTitle(e.Category),
			Value: fmt.Sprintf("**%s**\n#%d of %d\n%d–%d–%d · peak %d", e.Display(set), e.Rank, e.Of,
				e.Wins, e.Draws, e.Losses, int(math.Round(e.Peak))),
			Inline: true,
		})
		summary = append(summary, fmt.Sprintf("%s %s", categoryTitle(e.Category), e.Display(set)))
		provisional = provisional || e.Provisional(set)
	}
	if provisional {
		embed.Footer = &discordgo.MessageEmbedFooter{Text: strings.Trim(provisionalNote(set), "_")}
	}
	return &Response{
		Content: fmt.Sprintf("Ratings of **%s**: %s", EscapeMarkdown(name), strings.Join(summary, " · ")),
		Embeds:  []*discordgo.MessageEmbed{embed},
		Files:   []File{{Name: "rating.png", ContentType: "image/png", Data: png.Bytes()}},
	}, nil
}

// pluralES is "es" unless n is 1 ("losses").
func pluralES(n int) string {
	if n == 1 {
		return ""
	}
	return "es"
}

// ServerThing implements ServerThing: /rating belongs to a server that added Gambit.
func (c *RatingCommand) ServerThing() {}
