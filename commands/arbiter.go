package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// /arbiter adjudicate|addtime|forfeit|abort|role: the arbiter's tools (FIDE 12), for
// members with Manage Server or the server's arbiter role. Each decision is recorded in
// the game (a comment of its PGN) and announced in the game's thread.

func init() {
	register(registration{
		name:    "arbiter",
		build:   func(d *Deps) Command { return NewArbiter(d) },
		topic:   helpTopic{group: groupSettings, order: 20, example: "/arbiter addtime player:white time:2m reason:a disturbance"},
		options: []optionUse{{[]string{"*"}, arbiterOptions{}}},
	})
}

var _ Command = (*ArbiterCommand)(nil)
var _ Autocompleter = (*ArbiterCommand)(nil)

// ArbiterCommand is /arbiter.
type ArbiterCommand struct{ d *Deps }

// NewArbiter returns /arbiter.
func NewArbiter(d *Deps) *ArbiterCommand { return &ArbiterCommand{d} }

type arbiterOptions struct {
	Game   int64  `option:"game"`
	Result string `option:"result"`
	Color  string `option:"player"`
	Time   string `option:"time"`
	Reason string `option:"reason"`
	Role   string `option:"role"`
}

// Definition implements Command. Discord shows it to members with Manage Server; a
// server that names an arbiter role lets that role see it in its Integrations
// settings. Handle checks the permission or the role itself.
func (c *ArbiterCommand) Definition() *discordgo.ApplicationCommand {
	perm := int64(discordgo.PermissionManageGuild)
	game := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "game", MinValue: ptr(1.0),
		Description: "The game number (leave empty in the game's thread)", Autocomplete: true}
	reason := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "reason",
		Description: "Why (recorded in the game and shown to the players)", Required: true, MaxLength: games.MaxReason}
	player := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "player", Description: "Which side",
		Required: true, Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "White", Value: "white"}, {Name: "Black", Value: "black"}}}
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	return &discordgo.ApplicationCommand{
		Name:                     "arbiter",
		Description:              "The arbiter's tools: adjudicate, add time, forfeit, abort (Manage Server or the arbiter role)",
		DefaultMemberPermissions: &perm,
		Contexts:                 contexts(serversOnly),
		IntegrationTypes:         installs(guildInstall),
		Options: []*discordgo.ApplicationCommandOption{
			sub("adjudicate", "Decide a game's result",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "result", Description: "The result", Required: true,
					Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "1-0 (White wins)", Value: "1-0"}, {Name: "0-1 (Black wins)", Value: "0-1"}, {Name: "½-½ (draw)", Value: "1/2-1/2"}}},
				reason, game),
			sub("addtime", "Add time to a player's clock", player,
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "time", Description: "How much, e.g. 2m, 30s, 1h30m or 2d", Required: true, MaxLength: 20},
				reason, game),
			sub("forfeit", "A player has left: their opponent wins", player, reason, game),
			sub("abort", "Call the game off without a result", reason, game),
			sub("role", "Who may act as arbiter besides Manage Server (Manage Server)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionRole, Name: "role", Description: "The role (leave empty: Manage Server only)"}),
		},
	}
}

// Autocomplete implements Autocompleter: the server's games in progress, but the
// asker's own.
func (c *ArbiterCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	if r.GuildID == "" || !c.mayArbitrate(ctx, r) {
		return nil, nil
	}
	open, err := c.d.Games.OpenGamesInGuild(ctx, r.GuildID) // newest first
	if err != nil {
		return nil, err
	}
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, g := range open {
		if len(out) == 25 {
			break
		}
		if g.GuildID != r.GuildID || g.White.ID == r.User.ID || g.Black.ID == r.User.ID {
			continue // another server's, or one the asker plays in (never theirs to decide)
		}
		name := Truncate(fmt.Sprintf("Game %d · %s vs %s (%s)", g.ID, g.White.Name, g.Black.Name, g.Control), maxChoiceName, UTF16)
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: g.ID})
	}
	return out, nil
}

// mayArbitrate reports whether the asker has Manage Server or the server's arbiter role.
func (c *ArbiterCommand) mayArbitrate(ctx context.Context, r *Request) bool {
	if r.Permissions&adminPermissions != 0 {
		return true
	}
	gs, err := c.d.settingsOwner().FreshGuild(ctx, r.GuildID) // a permission: as stored
	if err != nil || gs.ArbiterRole == "" || r.Interaction == nil || r.Interaction.Member == nil {
		return false
	}
	return slices.Contains(r.Interaction.Member.Roles, gs.ArbiterRole)
}

// Handle implements Command.
func (c *ArbiterCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	if r.GuildID == "" {
		return nil, Errorf("The arbiter acts in a server: use /arbiter there.")
	}
	var o arbiterOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	if r.Sub == "role" {
		return c.setRole(ctx, r, o.Role)
	}
	if !c.mayArbitrate(ctx, r) {
		gs := c.d.settings(ctx, r.GuildID)
		if gs.ArbiterRole != "" {
			return nil, Errorf("Only members with Manage Server or %s can act as arbiter.", RoleMention(gs.ArbiterRole))
		}
		return nil, Errorf("Only members with the Manage Server permission can act as arbiter here.")
	}
	req := games.ArbiterRequest{RequestID: r.Interaction.ID, GuildID: r.GuildID,
		Arbiter: storage.Player{ID: r.User.ID, Name: Truncate(displayName(r), storage.MaxNameLen, Bytes)}, Reason: o.Reason}
	switch r.Sub {
	case "adjudicate":
		res, err := chesscore.ParseResult(o.Result)
		if err != nil || res == chesscore.NoResult {
			return nil, Errorf("Choose the result: 1-0, 0-1 or ½-½.")
		}
		req.Action, req.Result = games.Adjudicate, res
	case "addtime":
		d, err := ParseAddedTime(o.Time)
		if err != nil {
			return nil, Explain(err, sentence(err.Error()))
		}
		col, err := sideOption(o.Color)
		if err != nil {
			return nil, err
		}
		req.Action, req.Color, req.Time = games.AddTime, col, d
	case "forfeit":
		col, err := sideOption(o.Color)
		if err != nil {
			return nil, err
		}
		req.Action, req.Color = games.Forfeit, col
	case "abort":
		req.Action = games.AbortGame
	default:
		return nil, fmt.Errorf("/arbiter: unknown subcommand %q", r.Sub)
	}
	g, err := c.game(ctx, r, o.Game)
	if err != nil {
		return nil, err
	}
	return c.decide(ctx, r, g, req)
}

// setRole names the arbiter role (Manage Server only: a role's members may not
// choose who else arbitrates).
func (c *ArbiterCommand) setRole(ctx context.Context, r *Request, role string) (*Response, error) {
	if r.Permissions&adminPermissions == 0 {
		return nil, Errorf("Only members with the Manage Server permission can choose the arbiter role.")
	}
	if _, err := c.d.settingsOwner().UpdateGuild(ctx, r.GuildID, func(gs *storage.GuildSettings) error {
		gs.ArbiterRole = role
		return nil
	}); err != nil {
		return nil, Explain(err, sentence(err.Error()))
	}
	if role == "" {
		return Private("Only members with Manage Server may now act as arbiter."), nil
	}
	return Private("Members with %s (and Manage Server) may now act as arbiter. Discord shows /arbiter to Manage Server only: "+
		"let the role use it in Server Settings → Integrations → Gambit.", RoleMention(role)), nil
}

// sideOption reads the player option.
func sideOption(s string) (chesscore.Color, error) {
	switch s {
	case "white":
		return chesscore.White, nil
	case "black":
		return chesscore.Black, nil
	}
	return chesscore.White, Errorf("Choose the player: white or black.")
}

// noSuchGame is the answer about a game number that names no game of this server: the
// same sentence as for a number that names no game at all.
func arbiterNoSuchGame(id uint64, cause error) error {
	return Explain(cause, fmt.Sprintf("There is no game %d. /games lists yours.", id))
}

// game returns the game named, or the game in progress in the thread the command is
// typed in; a game of another server is answered as one that does not exist.
func (c *ArbiterCommand) game(ctx context.Context, r *Request, id int64) (*games.Game, error) {
	if id <= 0 {
		if v, ok := c.d.threads.Load(r.ChannelID); ok {
			id = int64(v.(uint64))
		} else {
			open, err := c.d.Games.OpenGamesInGuild(ctx, r.GuildID)
			if err != nil {
				return nil, fmt.Errorf("list the server's open games: %w", err)
			}
			for _, g := range open {
				if g.ThreadID != "" && g.ThreadID == r.ChannelID && g.GuildID == r.GuildID {
					id = int64(g.ID)
				}
			}
		}
		if id <= 0 {
			return nil, Errorf("No game is in progress in this channel: add game:<number>.")
		}
	}
	g, err := c.d.Games.Game(ctx, uint64(id))
	switch {
	case errors.Is(err, games.ErrNoSuchGame):
		return nil, arbiterNoSuchGame(uint64(id), err)
	case err != nil:
		return nil, fmt.Errorf("load game %d: %w", id, err)
	case g.GuildID != r.GuildID:
		return nil, arbiterNoSuchGame(uint64(id), fmt.Errorf("game %d of another server: %w", id, games.ErrNoSuchGame))
	}
	return g, nil
}

// decide carries out the decision and announces it in the game's place: as the answer
// when the command is typed there, else as a post there with a private confirmation.
// A decision that ends the game is announced with the game-over message (its post is
// reserved, so the notifier does not post it a second time).
func (c *ArbiterCommand) decide(ctx context.Context, r *Request, g *games.Game, req games.ArbiterRequest) (*Response, error) {
	r.Log = r.Log.With("game", g.ID)
	var res *games.Result
	var err error
	for range 3 { // a move between the look-up and the decision: look again
		req.GameID, req.Expect = g.ID, games.AtPly(g.Ply())
		release := c.d.Ledger.Reserve(GamePost(g.ID, g.Ply(), EventOver))
		res, err = c.d.Games.Arbitrate(ctx, req)
		if err == nil && !res.Replayed && !res.Game.Live() {
			break // the reservation stands for the game-over post below
		}
		release()
		if !errors.Is(err, games.ErrStale) {
			break
		}
		if g, err = c.d.Games.Game(ctx, g.ID); err != nil {
			return nil, fmt.Errorf("load game %d: %w", req.GameID, err)
		}
	}
	if err != nil {
		return nil, arbiterError(req.GameID, err)
	}
	if res.Replayed {
		return Private("Already done (%s).", res.Effect), nil
	}
	msg, err := c.announcement(ctx, res.Game)
	if err != nil {
		return nil, err
	}
	place := Place(&res.Game.Game)
	if place == "" || place == r.ChannelID {
		return msg, nil
	}
	if c.d.Outbox == nil {
		return Private("Recorded in game %d; this bot posts nowhere, so the players were not told: %s", res.Game.ID, firstLine(msg.Content)), nil
	}
	if _, err := c.d.Outbox.Post(ctx, place, msg); err != nil {
		r.Log.Error("arbiter: post the decision", "place", place, "err", err)
		return Private("Recorded in game %d, but the announcement could not be posted in <#%s>: %s",
			res.Game.ID, place, firstLine(msg.Content)), nil
	}
	return Private("Done in game %d, and announced in <#%s>: %s", res.Game.ID, place, firstLine(msg.Content)), nil
}

// announcement is the public message about the game's latest decision: the decision,
// then the game-over message if it ended the game, else the clocks.
func (c *ArbiterCommand) announcement(ctx context.Context, g *games.Game) (*Response, error) {
	n := g.Notes[len(g.Notes)-1]
	line := fmt.Sprintf("⚖ **Arbiter's decision** in game %d: %s %s. Reason: %s",
		g.ID, EscapeMarkdown(playerName(n.By)), n.Action, EscapeMarkdown(n.Reason))
	if g.Live() {
		text := line
		if cl := clockLine(&g.Game, c.d.now()); cl != "" {
			text += "\n" + cl
		}
		return &Response{Content: Truncate(text, maxContent, UTF16)}, nil
	}
	msg, err := c.d.GameOverMessage(ctx, g, line)
	if err != nil {
		return nil, err
	}
	msg.Content = Truncate(msg.Content, maxContent, UTF16)
	return msg, nil
}

// firstLine is the first line of a message.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// arbiterError tells the arbiter why a decision was refused.
func arbiterError(id uint64, err error) error {
	switch {
	case errors.Is(err, games.ErrNoSuchGame):
		return arbiterNoSuchGame(id, err)
	case errors.Is(err, games.ErrGameOver):
		return Explain(err, fmt.Sprintf("Game %d is over: the arbiter decides on games in progress.", id))
	case errors.Is(err, games.ErrStale):
		return Explain(err, fmt.Sprintf("Game %d keeps moving: try again.", id))
	case errors.Is(err, games.ErrNoReason):
		return Explain(err, "Give the reason for the decision.")
	case errors.Is(err, games.ErrArbiterPlays):
		return Explain(err, fmt.Sprintf("You play in game %d: an arbiter never decides their own game. Ask another arbiter.", id))
	}
	return gameError(err)
}

// ParseAddedTime reads the time an arbiter adds: a whole number with a unit, or
// several ("2m", "90s", "1h30m", "2d", "1d12h"), from 1 second to 30 days.
func ParseAddedTime(s string) (time.Duration, error) {
	s = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	if s == "" {
		return 0, errors.New("give the time to add, e.g. 2m, 30s, 1h30m or 2d")
	}
	units := map[string]time.Duration{"d": 24 * time.Hour, "h": time.Hour, "m": time.Minute, "min": time.Minute, "s": time.Second}
	var total time.Duration
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) })
		if i <= 0 {
			return 0, fmt.Errorf("time %q: want a number and a unit (d, h, m, s), e.g. 2m or 1h30m", s)
		}
		j := i + strings.IndexFunc(s[i:], unicode.IsDigit)
		if j < i {
			j = len(s)
		}
		n, err := strconv.Atoi(s[:i])
		unit, ok := units[s[i:j]]
		if err != nil || !ok || n > 100000 {
			return 0, fmt.Errorf("time %q: want a number and a unit (d, h, m, s), e.g. 2m or 1h30m", s[:j])
		}
		total += time.Duration(n) * unit
		if total > games.MaxAddedTime {
			// Checked at each term: the sum of terms up to 100000 days each would
			// overflow a Duration (100000d100000d13504d wrapped around to 25 min 26 s).
			return 0, fmt.Errorf("add from 1 second to %d days", int(games.MaxAddedTime/(24*time.Hour)))
		}
		s = s[j:]
	}
	if total < time.Second || total > games.MaxAddedTime {
		return 0, fmt.Errorf("add from 1 second to %d days", int(games.MaxAddedTime/(24*time.Hour)))
	}
	return total, nil
}
