package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/settings"
	"github.com/gambitchess/gambit/storage"
)

// /settings: a server's choices, for its administrators (Manage Server): default
// time control, the channel for games, a thread per game, board theme, who may
// challenge, pings, takebacks in rated games, conditional moves.

func init() {
	register(registration{
		name:  "settings",
		build: func(d *Deps) Command { return NewSettings(d) },
		topic: helpTopic{group: groupSettings, order: 10, example: "/settings threads enabled:true"},
		options: []optionUse{
			{[]string{"*"}, settingsOptions{}},
			{[]string{"ratings", "seed_rating"}, ladderSettingsOptions{}},
			{[]string{"puzzle"}, puzzleSettingsOptions{}},
		},
	})
}

var _ Command = (*SettingsCommand)(nil)
var _ PrivateAnswerer = (*SettingsCommand)(nil)

// SettingsCommand is /settings.
type SettingsCommand struct{ d *Deps }

// NewSettings returns /settings.
func NewSettings(d *Deps) *SettingsCommand { return &SettingsCommand{d} }

// AnswersPrivately implements PrivateAnswerer: only the admin who asked sees the
// server's settings.
func (c *SettingsCommand) AnswersPrivately(*Request) bool { return true }

// adminPermissions are the permissions that allow changing a server's settings.
const adminPermissions = discordgo.PermissionManageGuild | discordgo.PermissionAdministrator

type settingsOptions struct {
	Value      string `option:"value"`
	Channel    string `option:"channel"`
	Enabled    *bool  `option:"enabled"`
	Theme      string `option:"theme"`
	Role       string `option:"role"`
	OnTurn     *bool  `option:"on_turn"`
	OnGameOver *bool  `option:"on_game_over"`
	Rated      *bool  `option:"rated"`
	Days       *int   `option:"days"`
}

// Definition implements Command.
func (c *SettingsCommand) Definition() *discordgo.ApplicationCommand {
	perm := int64(discordgo.PermissionManageGuild)
	themes := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(render.Themes()))
	for _, t := range render.Themes() {
		themes = append(themes, &discordgo.ApplicationCommandOptionChoice{Name: t, Value: t})
	}
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	return &discordgo.ApplicationCommand{
		Name:                     "settings",
		Description:              "Gambit's settings for this server (administrators)",
		DefaultMemberPermissions: &perm,
		Contexts:                 contexts(serversOnly),
		IntegrationTypes:         installs(bothInstalls),
		Options: append([]*discordgo.ApplicationCommandOption{
			sub("show", "Show this server's settings"),
			sub("time_control", "The time control of a challenge that names none",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "value", Description: "e.g. 10+0, 5+3, 3d, or - for none", Required: true, MaxLength: 40}),
			sub("games_channel", "The channel games are played in (leave empty: the challenge's channel)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionChannel, Name: "channel", Description: "A text channel",
					ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}}),
			sub("threads", "Whether each game gets its own thread",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "enabled", Description: "A thread per game", Required: true}),
			sub("theme", "The board colours",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "theme", Description: "Board theme", Required: true, Choices: themes}),
			sub("challengers", "Who may challenge (leave empty: everyone)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionRole, Name: "role", Description: "The role a member needs to challenge"}),
			sub("pings", "When Gambit mentions players",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "on_turn", Description: "Mention the player whose turn it is (each player can turn it off with /notify)"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "on_game_over", Description: "Mention both players when a game ends"}),
			sub("takebacks", "Takebacks in rated games (casual games always allow them, tournament games never)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated", Description: "Allow takebacks in rated games, with the opponent's consent", Required: true}),
			sub("conditional_moves", "Where players may plan replies ahead (/conditional)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "value", Description: "The games that allow conditional moves", Required: true,
					Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "correspondence games (hours or days per move)", Value: "correspondence"},
						{Name: "daily games only (a day or more per move)", Value: "daily"},
						{Name: "none", Value: "off"},
					}}),
			sub("vacation_days", "Each player's vacation days a year (/vacation)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "days",
					Description: "Days a year, 0 for no vacations (empty: Gambit's default)", MinValue: new(float64), MaxValue: storage.MaxVacationDays}),
			sub("web_view", "The games' live boards on the web (the Live board and Play on the web buttons)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "enabled", Description: "Show this server's games on the web (off: every page of them is refused)", Required: true}),
		}, append(ladderSettingsSubcommands(), puzzleSettingsOption())...),
	}
}

// Handle implements Command. The permission is checked here as well as by Discord
// (default_member_permissions can be changed by the server).
func (c *SettingsCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	if r.GuildID == "" {
		return nil, Errorf("Settings belong to a server: use /settings in one.")
	}
	if r.Permissions&adminPermissions == 0 {
		return nil, Errorf("Only members with the Manage Server permission can change Gambit's settings.")
	}
	var o settingsOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	if r.Sub == "ratings" || r.Sub == "seed_rating" { // the ladder's settings (settings_ladder.go) recompute the ladders
		return c.d.ladderSettings(ctx, r)
	}
	owner := c.d.settingsOwner()
	changed := r.Sub != "show"
	var gs storage.GuildSettings
	var err error
	if changed {
		gs, err = owner.UpdateGuild(ctx, r.GuildID, func(gs *storage.GuildSettings) error { return c.apply(r, o, gs) })
		if errors.Is(err, settings.ErrInvalid) {
			return nil, Explain(err, sentence(err.Error()))
		}
		if err != nil {
			return nil, err
		}
		if r.Sub == "puzzle" && c.d.Puzzles != nil {
			c.d.Puzzles.SettingsChanged(r.GuildID)
		}
	} else if gs, err = owner.FreshGuild(ctx, r.GuildID); err != nil {
		return nil, err
	}
	return &Response{Content: describeSettings(gs, changed) + describePuzzleSettings(gs.Puzzle, c.d.now()), Ephemeral: true}, nil
}

// apply changes gs as the subcommand of r asks, with its options o.
func (c *SettingsCommand) apply(r *Request, o settingsOptions, gs *storage.GuildSettings) error {
	switch r.Sub {
	case "time_control":
		tc, err := clock.Parse(strings.TrimSpace(o.Value))
		if err != nil {
			return Explain(err, sentence(err.Error()))
		}
		if tc.Kind() == clock.KindUnknown {
			return Errorf("Give a time control such as 10+0, or - for none.")
		}
		gs.DefaultControl = tc
	case "games_channel":
		gs.GamesChannel = o.Channel
	case "threads":
		if o.Enabled != nil {
			gs.ThreadPerGame = *o.Enabled
		}
	case "theme":
		gs.BoardTheme = o.Theme
	case "challengers":
		gs.ChallengeRole = o.Role
	case "pings":
		if o.OnTurn != nil {
			gs.PingOnTurn = *o.OnTurn
		}
		if o.OnGameOver != nil {
			gs.PingOnGameOver = *o.OnGameOver
		}
	case "takebacks":
		if o.Rated != nil {
			gs.RatedTakebacks = *o.Rated
		}
	case "conditional_moves":
		sc, err := storage.ParseConditionalScope(o.Value)
		if err != nil {
			return Explain(err, sentence(err.Error()))
		}
		gs.ConditionalMoves = sc
	case "vacation_days":
		switch {
		case o.Days == nil:
			gs.VacationDays = 0
		case *o.Days < 0 || *o.Days > storage.MaxVacationDays:
			return Errorf("days: give 0 (no vacations) to %d, or leave it empty for Gambit's default.", storage.MaxVacationDays)
		case *o.Days == 0:
			gs.VacationDays = storage.VacationNone
		default:
			gs.VacationDays = *o.Days
		}
	case "web_view":
		if o.Enabled != nil {
			gs.WebViewOff = !*o.Enabled
		}
	case "puzzle": // the daily puzzle (settings_puzzle.go)
		return applyPuzzleSettings(r, gs, c.d.now())
	default:
		return fmt.Errorf("/settings: unknown subcommand %q", r.Sub)
	}
	return nil
}

func describeSettings(gs storage.GuildSettings, changed bool) string {
	var b strings.Builder
	if changed {
		b.WriteString("Saved. ")
	}
	b.WriteString("**Gambit's settings for this server**")
	fmt.Fprintf(&b, "\n• Default time control: %s", gs.DefaultControl)
	if gs.GamesChannel != "" {
		fmt.Fprintf(&b, "\n• Games are played in <#%s>", gs.GamesChannel)
	} else {
		b.WriteString("\n• Games are played where they are challenged")
	}
	fmt.Fprintf(&b, "\n• A thread per game: %s", yesNo(gs.ThreadPerGame))
	theme := knownTheme(gs.BoardTheme)
	if theme == "" {
		theme = render.DefaultTheme
	}
	fmt.Fprintf(&b, "\n• Board theme: %s", theme)
	if gs.ChallengeRole != "" {
		fmt.Fprintf(&b, "\n• Who may challenge: members with %s", RoleMention(gs.ChallengeRole))
	} else {
		b.WriteString("\n• Who may challenge: everyone")
	}
	fmt.Fprintf(&b, "\n• Mention the player to move: %s · mention both at the end: %s", yesNo(gs.PingOnTurn), yesNo(gs.PingOnGameOver))
	if gs.RatedTakebacks {
		b.WriteString("\n• Takebacks: in casual and rated games, with the opponent's consent (never in tournament games)")
	} else {
		b.WriteString("\n• Takebacks: in casual games only, with the opponent's consent (a completed move is final in rated and tournament games)")
	}
	switch gs.ConditionalMoves {
	case storage.ConditionalDaily:
		b.WriteString("\n• Conditional moves: in daily games (a day or more per move)")
	case storage.ConditionalOff:
		b.WriteString("\n• Conditional moves: off")
	default:
		b.WriteString("\n• Conditional moves: in correspondence games")
	}
	switch {
	case gs.VacationDays == storage.VacationNone:
		b.WriteString("\n• Vacations: none (/vacation is refused)")
	case gs.VacationDays > 0:
		fmt.Fprintf(&b, "\n• Vacation days a year: %d", gs.VacationDays)
	default:
		b.WriteString("\n• Vacation days a year: Gambit's default (games.vacation_days)")
	}
	fmt.Fprintf(&b, "\n• The games' live boards on the web: %s", yesNo(!gs.WebViewOff))
	if gs.ArbiterRole != "" {
		fmt.Fprintf(&b, "\n• Arbiters: Manage Server and %s (/arbiter role)", RoleMention(gs.ArbiterRole))
	} else {
		b.WriteString("\n• Arbiters: Manage Server (/arbiter role adds a role)")
	}
	b.WriteString(describeLadderSettings(string(gs.RatingSystem), gs.StartRating))
	return b.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// ServerThing implements ServerThing: /settings belongs to a server that added Gambit.
func (c *SettingsCommand) ServerThing() {}
