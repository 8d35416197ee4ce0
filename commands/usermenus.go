package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// usermenus.go: the user context menu commands (right-click a member, Apps): "Challenge
// to chess" asks privately for the time control, then posts the challenge in the
// channel as /challenge does; "Chess rating" shows privately that member's ratings on
// this server, as /rating does.

// UserMenus returns the user context menu commands, built on d. They are registered
// with the slash commands but are not slash commands: /help and the command reference
// do not list them (docs/discord.md describes them).
func UserMenus(d *Deps) []Command {
	return []Command{&ChallengeMenu{d: d}, &RatingMenu{d: d, rating: NewRating(d)}}
}

// The menus' names, as Discord shows them.
const (
	challengeMenuName = "Challenge to chess"
	ratingMenuName    = "Chess rating"
)

var (
	_ Command     = (*ChallengeMenu)(nil)
	_ Componenter = (*ChallengeMenu)(nil)
	_ Command     = (*RatingMenu)(nil)
	_ ServerThing = (*RatingMenu)(nil)
)

// ChallengeMenu is "Challenge to chess": the time control menu, then the challenge.
type ChallengeMenu struct{ d *Deps }

// Definition implements Command.
func (c *ChallengeMenu) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Type: discordgo.UserApplicationCommand, Name: challengeMenuName,
		Contexts:         contexts([]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextPrivateChannel}),
		IntegrationTypes: installs(bothInstalls),
	}
}

// routeChallengeMenu is the custom ID route of the time control menu; the custom ID's
// id is the challenged user's.
const (
	kindUserMenu        = "usermenu"
	actionMenuChallenge = "challenge"
)

// Handle implements Command: the private menu of time controls for the member.
func (c *ChallengeMenu) Handle(ctx context.Context, r *Request) (*Response, error) {
	target, err := menuTarget(r)
	if err != nil {
		return nil, err
	}
	switch {
	case target.Bot:
		return nil, Errorf("%s is a bot and cannot play. Challenge a person.", EscapeMarkdown(target.Username))
	case target.ID == r.User.ID:
		return nil, Errorf("You cannot challenge yourself. Right-click someone else.")
	}
	id, err := strconv.ParseUint(target.ID, 10, 64)
	if err != nil {
		return nil, Explain(fmt.Errorf("target %q: %w", target.ID, err), "That member could not be read. Use /challenge instead.")
	}
	var opts []discordgo.SelectMenuOption
	for _, pc := range popularControls {
		opts = append(opts, discordgo.SelectMenuOption{Label: pc.name, Value: pc.value})
	}
	return &Response{Ephemeral: true,
		Content: fmt.Sprintf("Challenge %s to a casual game (colours drawn at random): pick the time control. Other choices: /challenge.", Mention(target.ID)),
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{MenuType: discordgo.StringSelectMenu, CustomID: NewCustomID(kindUserMenu, id, 0, actionMenuChallenge).String(),
				Placeholder: "Time control", Options: opts},
		}}},
	}, nil
}

// Components implements Componenter.
func (c *ChallengeMenu) Components() map[string]Handler {
	return map[string]Handler{kindUserMenu + "/" + actionMenuChallenge: c.challenge}
}

// challenge posts the challenge the menu's choice makes, in the channel.
func (c *ChallengeMenu) challenge(ctx context.Context, r *Request) (*Response, error) {
	if c.d.draining() {
		return nil, Errorf("Gambit is restarting: new challenges are paused for a minute. Games in progress go on.")
	}
	if r.GuildID == "" && !r.Guest {
		return nil, Errorf("Challenges are made in a server channel or a group DM, where the game can be played.")
	}
	if len(r.Values) != 1 || !slices.ContainsFunc(popularControls, func(pc struct{ name, value string }) bool { return pc.value == r.Values[0] }) {
		return nil, Errorf("Pick one time control from the menu.")
	}
	req := games.ChallengeRequest{
		RequestID: r.Interaction.ID, GuildID: r.GuildID, ChannelID: r.ChannelID, Guest: r.Guest,
		From: storagePlayer(r.User), To: storage.Player{ID: strconv.FormatUint(r.ID.ID, 10)},
		Control: r.Values[0], Color: storage.ChooseRandom, ExpiresIn: c.d.ChallengeExpiry,
	}
	if r.Interaction.Member != nil && !r.Guest {
		req.Roles = r.Interaction.Member.Roles
	}
	res, err := c.d.Games.CreateChallenge(ctx, req)
	if err != nil {
		if errors.Is(err, games.ErrSelfChallenge) {
			return nil, Explain(err, "You cannot challenge yourself.")
		}
		return nil, challengeLimitError(err)
	}
	// A new public message: the menu was the user's alone.
	return challengeMessage(res.Challenge), nil
}

// RatingMenu is "Chess rating": /rating of the member, privately.
type RatingMenu struct {
	d      *Deps
	rating *RatingCommand
}

// Definition implements Command.
func (c *RatingMenu) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Type: discordgo.UserApplicationCommand, Name: ratingMenuName,
		Contexts:         contexts(serversOnly),
		IntegrationTypes: installs(bothInstalls),
	}
}

// ServerThing implements ServerThing: ratings belong to a server's ladder.
func (c *RatingMenu) ServerThing() {}

// AnswersPrivately implements PrivateAnswerer.
func (c *RatingMenu) AnswersPrivately(*Request) bool { return true }

// Handle implements Command: the member's rating card, as /rating user:<member> gives
// it, to the asker alone.
func (c *RatingMenu) Handle(ctx context.Context, r *Request) (*Response, error) {
	target, err := menuTarget(r)
	if err != nil {
		return nil, err
	}
	rr := *r
	rr.Options = []*discordgo.ApplicationCommandInteractionDataOption{{Name: "user", Type: discordgo.ApplicationCommandOptionUser, Value: target.ID}}
	resp, err := c.rating.Handle(ctx, &rr)
	if err != nil {
		return nil, err
	}
	resp.Ephemeral, resp.Mentions = true, nil
	return resp, nil
}

// menuTarget is the member a user context menu was used on, from the resolved users.
func menuTarget(r *Request) (*discordgo.User, error) {
	if r.TargetID != "" && r.Resolved != nil {
		if u := r.Resolved.Users[r.TargetID]; u != nil {
			return u, nil
		}
	}
	return nil, Explain(fmt.Errorf("context menu without its target user %q", r.TargetID), "That member could not be read. Try again.")
}
