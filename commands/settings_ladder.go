package commands

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/service/ladder"
)

// /settings ratings [system] [start] and /settings seed_rating <user> <category>
// <rating>: the ladder's part of the server's settings, which recompute the ladders.

// The ratings an admin may seed a player with.
const (
	minSeedRating = 100
	maxSeedRating = 3500
)

// ladderSettingsSubcommands are the ladder's subcommands of /settings.
func ladderSettingsSubcommands() []*discordgo.ApplicationCommandOption {
	minStart, maxStart := float64(ladder.MinStartRating), float64(ladder.MaxStartRating)
	minSeed, maxSeed := float64(minSeedRating), float64(maxSeedRating)
	return []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "ratings", Description: "The ladders' rating system and start rating (recomputes every ladder)",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "system", Description: "FIDE Elo or Glicko-2", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "FIDE Elo", Value: string(ladder.FIDE)}, {Name: "Glicko-2", Value: string(ladder.Glicko2)},
				}},
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "start", Description: "A newcomer's rating (default 1500)", MinValue: &minStart, MaxValue: maxStart},
			}},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "seed_rating", Description: "Start a player's ladder from a known rating (e.g. their FIDE rating)",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "The player", Required: true},
				categoryOption(true, "Which ladder"),
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "rating", Description: "The known rating", Required: true, MinValue: &minSeed, MaxValue: maxSeed},
			}},
	}
}

// ladderSettingsOptions are the options of /settings ratings and /settings seed_rating.
type ladderSettingsOptions struct {
	System   string          `option:"system"`
	Start    *int            `option:"start"`
	User     *discordgo.User `option:"user"`
	Category string          `option:"category"`
	Rating   int             `option:"rating"`
}

// ladderSettings answers /settings ratings and /settings seed_rating (the caller has
// checked the permission).
func (d *Deps) ladderSettings(ctx context.Context, r *Request) (*Response, error) {
	lad, err := d.ladderService()
	if err != nil {
		return nil, err
	}
	var o ladderSettingsOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	set, err := lad.Settings(ctx, r.GuildID)
	if err != nil {
		return nil, err
	}
	switch r.Sub {
	case "ratings":
		next := set
		if o.System != "" {
			sys, err := ladder.ParseSystem(o.System)
			if err != nil {
				return nil, Explain(err, "Pick fide or glicko2.")
			}
			next.System = sys
		}
		if o.Start != nil {
			next.StartRating = *o.Start
		}
		if next == set {
			return Private("The ladders already use %s from %d: nothing to recompute.", systemName(set.System), set.StartRating), nil
		}
		n, err := lad.SetSettings(ctx, r.GuildID, next)
		if err != nil {
			if verr := next.Validate(); verr != nil {
				return nil, Explain(err, sentence(verr.Error()))
			}
			return nil, err
		}
		return Private("Saved. The ladders now use %s, newcomers start at %d; every ladder was recomputed from its %d rated game%s.",
			systemName(next.System), next.StartRating, n, plural(n)), nil
	case "seed_rating":
		if o.User == nil {
			return nil, Errorf("Name the player to seed.")
		}
		if o.User.Bot {
			return nil, Errorf("%s is a bot and plays no rated games.", EscapeMarkdown(o.User.Username))
		}
		cat, err := parseCategory(o.Category, clock.NoCategory)
		if err != nil || cat == clock.NoCategory {
			return nil, Errorf("Pick a category: bullet, blitz, rapid, classical or correspondence.")
		}
		if o.Rating < minSeedRating || o.Rating > maxSeedRating {
			return nil, Errorf("A seed rating is between %d and %d.", minSeedRating, maxSeedRating)
		}
		p, err := lad.Seed(ctx, r.GuildID, cat, storagePlayer(o.User), o.Rating)
		if err != nil {
			return nil, err
		}
		name := EscapeMarkdown(storagePlayer(o.User).Name)
		if p.Games == 0 {
			return Private("Saved. **%s** enters the %s ladder at %s.", name, categoryName(cat), p.Display(set)), nil
		}
		return Private("Saved. **%s**'s %s games were replayed from %d: now %s.", name, categoryName(cat), o.Rating, p.Display(set)), nil
	}
	return nil, fmt.Errorf("/settings: unknown ladder subcommand %q", r.Sub)
}

// describeLadderSettings is the ladder's line of /settings show.
func describeLadderSettings(sys string, start int) string {
	s, err := ladder.ParseSystem(sys)
	if err != nil {
		s = ladder.FIDE
	}
	return fmt.Sprintf("\n• Ratings: %s, newcomers start at %d (provisional until established)", systemName(s), start)
}
