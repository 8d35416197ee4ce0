package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/tournaments"
	"github.com/gambitchess/gambit/storage"
)

// /tournament create | edit | join | leave | start | withdraw | standings | pairings |
// list | cancel | creators: events run in a channel, their games started in threads by the
// tournament service. Who may create one: members with Manage Server, or with the role
// set by /tournament creators. The round announcements and the final standings (a
// card, a text table and the TRF) are posted by TournamentEvent, the service's
// notifier. An event with a planned start (the starts option) is announced as a
// scheduled event of the server (calendar.go).

func init() {
	register(registration{
		name:    "tournament",
		build:   func(d *Deps) Command { return NewTournament(d) },
		topic:   helpTopic{group: groupTournaments, order: 10, example: "/tournament create format:swiss time:5+3 rounds:5"},
		options: []optionUse{{[]string{"*"}, tournamentOptions{}}},
	})
}

var _ Command = (*TournamentCommand)(nil)
var _ Componenter = (*TournamentCommand)(nil)

// TournamentCommand is /tournament.
type TournamentCommand struct{ d *Deps }

// NewTournament returns /tournament.
func NewTournament(d *Deps) *TournamentCommand { return &TournamentCommand{d} }

type tournamentOptions struct {
	ID         int64  `option:"tournament"`
	Format     string `option:"format"`
	Time       string `option:"time"`
	Rounds     int64  `option:"rounds"`
	Minutes    int64  `option:"minutes"`
	Rated      *bool  `option:"rated"`
	Chess960   bool   `option:"chess960"`
	Name       string `option:"name"`
	Forfeit    int64  `option:"forfeit"`
	TieBreaks  string `option:"tiebreaks"`
	Games      int64  `option:"games"`
	Rapid      *int64 `option:"rapid"`
	Blitz      *int64 `option:"blitz"`
	Armageddon string `option:"armageddon"`
	MaxPlayers int64  `option:"max_players"`
	Round      int64  `option:"round"`
	Role       string `option:"role"`
	Berserk    *bool  `option:"berserk"`
	Starts     string `option:"starts"`
}

// Definition implements Command.
func (c *TournamentCommand) Definition() *discordgo.ApplicationCommand {
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	fl := func(v float64) *float64 { return &v }
	id := func() *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "tournament",
			Description: "The tournament's number (default: the latest one open or running here)", MinValue: fl(1)}
	}
	integer := func(name, desc string, lo, hi float64) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: name, Description: desc, MinValue: fl(lo), MaxValue: hi}
	}
	starts := func() *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "starts",
			Description: "Planned start, UTC (2026-03-02 18:00) or from now (in 2h): announced as a server event", MaxLength: 40}
	}
	formats := []*discordgo.ApplicationCommandOptionChoice{
		{Name: "Swiss (FIDE Dutch)", Value: "swiss"}, {Name: "Round robin", Value: "roundrobin"},
		{Name: "Arena", Value: "arena"}, {Name: "Knockout", Value: "knockout"},
	}
	return &discordgo.ApplicationCommand{
		Name:             "tournament",
		Description:      "Tournaments: Swiss, round robin, arena and knockout",
		Contexts:         contexts(serversOnly),
		IntegrationTypes: installs(guildInstall),
		Options: []*discordgo.ApplicationCommandOption{
			sub("create", "Create a tournament in this channel (Manage Server or the creators' role)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "format", Description: "The pairing system", Required: true, Choices: formats},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "time", Description: "Time control, e.g. 5+3 (default 5+3)", MaxLength: 40},
				integer("rounds", "Swiss: rounds; round robin: 1 single, 2 double", 1, tournaments.MaxSwissRounds),
				integer("minutes", "Arena: how long it lasts", 1, float64(tournaments.MaxDuration/time.Minute)),
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated", Description: "Games count for the server's ladder (default no)"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "chess960", Description: "Every game Chess960, each from a start position drawn for it (default no)"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "name", Description: "The tournament's name", MaxLength: 80},
				integer("forfeit", "Seconds a player has for a first move before losing by forfeit (default 300)", 10, 3600),
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "tiebreaks", Description: "Tie-breaks in order, e.g. BH/C1, BH, SB, DE", MaxLength: 100},
				integer("games", "Knockout: games per match (default 2)", 1, tournaments.MaxMatchGames),
				integer("rapid", "Knockout: rapid tie-break games (default 2; 0 skips)", 0, tournaments.MaxMatchGames),
				integer("blitz", "Knockout: blitz tie-break games (default 2; 0 skips)", 0, tournaments.MaxMatchGames),
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "armageddon", Description: "Knockout: Armageddon minutes, White/Black, e.g. 5/4 (default; a draw sends Black through)", MaxLength: 20},
				integer("max_players", "Most players who may join (default 64)", 2, tournaments.MaxPlayers),
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "berserk", Description: "Arena: players may halve their clock for a bonus point on a win (default yes)"},
				starts()),
			sub("edit", "Rename a tournament or move its planned start before it starts (its creator or Manage Server)", id(),
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "name", Description: "The new name", MaxLength: 80},
				starts()),
			sub("join", "Join a tournament", id()),
			sub("leave", "Leave a tournament before it starts", id()),
			sub("start", "Start a tournament (its creator or Manage Server)", id()),
			sub("withdraw", "Withdraw from a running tournament: you will not be paired again", id()),
			sub("berserk", "Arena: halve your clock before your first move; a win earns a bonus point"),
			sub("standings", "Show the standings with the tie-breaks", id()),
			sub("pairings", "Show a round's pairings and results", id(), integer("round", "The round (default: the latest)", 1, 1000)),
			sub("list", "List this server's tournaments"),
			sub("cancel", "Call off a tournament that has not started (its creator or Manage Server)", id()),
			sub("creators", "Who may create tournaments besides Manage Server (Manage Server)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionRole, Name: "role", Description: "The role (leave empty: Manage Server only)"}),
		},
	}
}

// Handle implements Command.
func (c *TournamentCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	ts := c.d.Tournaments
	if ts == nil {
		return nil, Errorf("Tournaments are not available on this bot.")
	}
	if r.GuildID == "" {
		return nil, Errorf("Tournaments belong to a server: use /tournament in one.")
	}
	var o tournamentOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	manager := r.Permissions&adminPermissions != 0
	player := storage.Player{ID: r.User.ID, Name: displayName(r)}
	switch r.Sub {
	case "create":
		return c.create(ctx, r, o, player, manager)
	case "list":
		vs, err := ts.List(ctx, r.GuildID, false)
		if err != nil {
			return nil, tournamentError(err)
		}
		return Private("%s", describeTournaments(vs)), nil
	case "creators":
		if !manager {
			return nil, Errorf("Only members with the Manage Server permission can choose who creates tournaments.")
		}
		if _, err := c.d.settingsOwner().UpdateGuild(ctx, r.GuildID, func(gs *storage.GuildSettings) error {
			gs.TournamentRole = o.Role
			return nil
		}); err != nil {
			return nil, err
		}
		if o.Role == "" {
			return Private("Only members with Manage Server may now create tournaments."), nil
		}
		return Private("Members with %s (and Manage Server) may now create tournaments.", RoleMention(o.Role)), nil
	}
	if r.Sub == "berserk" {
		return c.berserk(ctx, r)
	}
	id, err := c.pick(ctx, r.GuildID, o.ID)
	if err != nil {
		return nil, err
	}
	var v *tournaments.View
	switch r.Sub {
	case "join", "leave":
		return c.enter(ctx, r, r.Sub, id)
	case "edit":
		return c.edit(ctx, r, o, id, manager)
	case "start":
		v, err = ts.Start(ctx, id, r.GuildID, r.User.ID, manager)
		if err != nil {
			return nil, tournamentError(err)
		}
		c.d.setEventStatus(ctx, v, discordgo.GuildScheduledEventStatusActive)
		return Reply("🏁 **%s** has started with %s; the games open in threads below.", EscapeMarkdown(v.Name), countPlayers(len(v.State.Players))), nil
	case "withdraw":
		v, err = ts.Withdraw(ctx, id, r.GuildID, r.User.ID)
		if err != nil {
			return nil, tournamentError(err)
		}
		return Reply("%s withdrew from **%s**; a game under way goes on (resign it to end it).", EscapeMarkdown(player.Name), EscapeMarkdown(v.Name)), nil
	case "cancel":
		v, err = ts.Cancel(ctx, id, r.GuildID, r.User.ID, manager)
		if err != nil {
			return nil, tournamentError(err)
		}
		c.d.setEventStatus(ctx, v, discordgo.GuildScheduledEventStatusCanceled)
		return Reply("✖ **%s** was called off.", EscapeMarkdown(v.Name)), nil
	case "standings":
		if v, err = ts.Get(ctx, id); err != nil {
			return nil, tournamentError(err)
		}
		if v.GuildID != r.GuildID {
			return nil, tournamentError(tournaments.ErrWrongGuild)
		}
		resp, err := StandingsMessage(v, false)
		if wp := c.d.webPages(ctx, r.GuildID); wp != nil && err == nil {
			resp = withWebLink(resp, "Tournament on the web", wp.TournamentURL(r.GuildID, v.ID))
		}
		return resp, err
	case "pairings":
		if v, err = ts.Get(ctx, id); err != nil {
			return nil, tournamentError(err)
		}
		if v.GuildID != r.GuildID {
			return nil, tournamentError(tournaments.ErrWrongGuild)
		}
		if v.State.Started.IsZero() {
			return nil, tournamentError(tournaments.ErrNotStarted)
		}
		text, err := PairingsText(v, int(o.Round))
		if err != nil {
			return nil, tournamentError(err)
		}
		return Reply("%s", text), nil
	}
	return nil, fmt.Errorf("/tournament: unknown subcommand %q", r.Sub)
}

func (c *TournamentCommand) create(ctx context.Context, r *Request, o tournamentOptions, by storage.Player, manager bool) (*Response, error) {
	if !manager {
		gs, err := c.d.settingsOwner().FreshGuild(ctx, r.GuildID) // a permission: as stored
		if err != nil {
			return nil, err
		}
		var roles []string
		if r.Interaction != nil && r.Interaction.Member != nil {
			roles = r.Interaction.Member.Roles
		}
		if gs.TournamentRole == "" || !slices.Contains(roles, gs.TournamentRole) {
			if gs.TournamentRole != "" {
				return nil, Errorf("Only members with Manage Server or %s can create tournaments.", RoleMention(gs.TournamentRole))
			}
			return nil, Errorf("Only members with the Manage Server permission can create tournaments here.")
		}
	}
	if c.d.draining() {
		return nil, Errorf("Gambit is restarting; create the tournament in a minute.")
	}
	set := tournaments.Settings{
		Format: tournaments.Format(o.Format), Control: strings.TrimSpace(o.Time), Rounds: int(o.Rounds),
		Duration: time.Duration(o.Minutes) * time.Minute, NoShow: time.Duration(o.Forfeit) * time.Second,
		TieBreaks: o.TieBreaks, MatchGames: int(o.Games), MaxPlayers: int(o.MaxPlayers), RapidGames: 2, BlitzGames: 2,
	}
	if o.Rated != nil {
		set.Rated = *o.Rated
	}
	set.Chess960 = o.Chess960
	if o.Berserk != nil {
		set.NoBerserk = !*o.Berserk
	}
	if o.Rapid != nil {
		set.RapidGames = int(*o.Rapid)
	}
	if o.Blitz != nil {
		set.BlitzGames = int(*o.Blitz)
	}
	if o.Armageddon != "" {
		w, b, err := parseArmageddon(o.Armageddon)
		if err != nil {
			return nil, err
		}
		set.ArmageddonWhite, set.ArmageddonBlack = w, b
	}
	if set.Format == tournaments.Arena && o.Minutes == 0 {
		return nil, Errorf("Say how long the arena lasts with the minutes option.")
	}
	var starts time.Time
	if o.Starts != "" {
		var err error
		if starts, err = parseStarts(o.Starts, c.d.now()); err != nil {
			return nil, err
		}
	}
	rid := ""
	if r.Interaction != nil {
		rid = r.Interaction.ID
	}
	v, err := c.d.Tournaments.Create(ctx, tournaments.CreateRequest{RequestID: rid, GuildID: r.GuildID, ChannelID: r.ChannelID,
		By: by, Name: strings.TrimSpace(o.Name), Settings: set, Starts: starts})
	if err != nil {
		return nil, tournamentError(err)
	}
	when, note := "", ""
	if !v.State.Starts.IsZero() {
		when = fmt.Sprintf("\nPlanned start <t:%d:F>.", v.State.Starts.Unix())
		if v.ScheduledEvent == "" { // a repeated request finds the event made the first time
			note = c.d.scheduleEvent(ctx, v)
		}
	}
	resp := Reply("🏆 **%s** (tournament %d): %s.\nJoin with the button or `/tournament join tournament:%d`; %s starts it with `/tournament start`.%s%s",
		EscapeMarkdown(v.Name), v.ID, describeEvent(v.State.Settings), v.ID, EscapeMarkdown(by.Name), when, note)
	id := func(action string) string { return NewCustomID("tournament", v.ID, 0, action).String() }
	resp.Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Join", Style: discordgo.SuccessButton, CustomID: id("join")},
		discordgo.Button{Label: "Leave", Style: discordgo.SecondaryButton, CustomID: id("leave")},
	}}}
	return resp, nil
}

// edit renames an event or moves its planned start, and updates (or makes) its
// scheduled event.
func (c *TournamentCommand) edit(ctx context.Context, r *Request, o tournamentOptions, id uint64, manager bool) (*Response, error) {
	req := tournaments.EditRequest{ID: id, GuildID: r.GuildID, By: r.User.ID, Manager: manager, Name: strings.TrimSpace(o.Name)}
	if o.Starts != "" {
		var err error
		if req.Starts, err = parseStarts(o.Starts, c.d.now()); err != nil {
			return nil, err
		}
	}
	v, err := c.d.Tournaments.Edit(ctx, req)
	if err != nil {
		return nil, tournamentError(err)
	}
	when := ""
	if !v.State.Starts.IsZero() {
		when = fmt.Sprintf(", planned to start <t:%d:F>", v.State.Starts.Unix())
	}
	note := c.d.scheduleEvent(ctx, v)
	return Reply("✏ Tournament %d is now **%s**%s.%s", v.ID, EscapeMarkdown(v.Name), when, note), nil
}

// Components implements Componenter: the Join and Leave buttons of an event's
// announcement.
func (c *TournamentCommand) Components() map[string]Handler {
	button := func(sub string) Handler {
		return func(ctx context.Context, r *Request) (*Response, error) {
			if c.d.Tournaments == nil || r.GuildID == "" {
				return nil, Errorf("Tournaments are not available here.")
			}
			return c.enter(ctx, r, sub, r.ID.ID)
		}
	}
	return map[string]Handler{"tournament/join": button("join"), "tournament/leave": button("leave")}
}

// enter joins or leaves an event.
func (c *TournamentCommand) enter(ctx context.Context, r *Request, sub string, id uint64) (*Response, error) {
	player := storage.Player{ID: r.User.ID, Name: displayName(r)}
	if sub == "join" {
		v, err := c.d.Tournaments.Join(ctx, id, r.GuildID, player)
		if err != nil {
			return nil, tournamentError(err)
		}
		return Reply("✅ %s joined **%s** (%s).", EscapeMarkdown(player.Name), EscapeMarkdown(v.Name), countPlayers(len(v.State.Players))), nil
	}
	v, err := c.d.Tournaments.Leave(ctx, id, r.GuildID, r.User.ID)
	if err != nil {
		return nil, tournamentError(err)
	}
	return Reply("%s left **%s** (%s).", EscapeMarkdown(player.Name), EscapeMarkdown(v.Name), countPlayers(len(v.State.Players))), nil
}

// berserk halves the player's clock in the arena game of the thread it is typed in.
func (c *TournamentCommand) berserk(ctx context.Context, r *Request) (*Response, error) {
	g, err := c.d.findGame(ctx, r, 0, true)
	if err != nil {
		return nil, err
	}
	hook, err := c.d.Tournaments.BerserkHook(ctx, g.ID, r.User.ID)
	if err != nil {
		return nil, tournamentError(err)
	}
	rid := ""
	if r.Interaction != nil {
		rid = r.Interaction.ID
	}
	res, err := c.d.Games.Berserk(ctx, games.BerserkRequest{Action: games.Action{RequestID: rid, GameID: g.ID, UserID: r.User.ID}, After: hook})
	if errors.Is(err, games.ErrTooLateToBerserk) {
		return nil, Explain(err, "Too late: go berserk before your first move.")
	}
	if err != nil {
		if te := tournamentError(err); te != err {
			return nil, te
		}
		return nil, gameError(err)
	}
	color, _ := res.Game.ColorOf(r.User.ID)
	left := res.Game.Clock.Left[color]
	return Reply("🔥 %s goes berserk in game %d: %s on the clock, and a win is worth a bonus point.",
		EscapeMarkdown(displayName(r)), g.ID, render.FormatClock(left)), nil
}

// pick returns the tournament id given, or the guild's latest open or running one.
func (c *TournamentCommand) pick(ctx context.Context, guildID string, id int64) (uint64, error) {
	if id > 0 {
		return uint64(id), nil
	}
	vs, err := c.d.Tournaments.List(ctx, guildID, true)
	if err != nil {
		return 0, err
	}
	if len(vs) == 0 {
		return 0, Errorf("There is no open or running tournament here: create one with /tournament create.")
	}
	return vs[0].ID, nil
}

func countPlayers(n int) string {
	if n == 1 {
		return "1 player"
	}
	return fmt.Sprintf("%d players", n)
}

// describeEvent is e.g. "Swiss, 5 rounds, 5+3, rated, forfeit after 5m0s".
func describeEvent(s tournaments.Settings) string {
	var parts []string
	switch s.Format {
	case tournaments.Swiss:
		parts = append(parts, fmt.Sprintf("Swiss, %d rounds", s.Rounds))
	case tournaments.RoundRobin:
		if s.Rounds == 2 {
			parts = append(parts, "double round robin")
		} else {
			parts = append(parts, "round robin")
		}
	case tournaments.Arena:
		parts = append(parts, fmt.Sprintf("arena of %d minutes", int(s.Duration/time.Minute)))
	case tournaments.Knockout:
		aw, ab := s.ArmageddonWhite, s.ArmageddonBlack
		if aw == 0 {
			aw, ab = tournaments.DefaultArmageddonWhite, tournaments.DefaultArmageddonBlack
		}
		parts = append(parts, fmt.Sprintf("knockout, matches of %d games (then %d rapid, %d blitz, Armageddon with White %s and Black %s)",
			s.MatchGames, s.RapidGames, s.BlitzGames, minutesLabel(aw), minutesLabel(ab)))
	}
	parts = append(parts, s.Control)
	if s.Chess960 {
		parts = append(parts, "Chess960")
	}
	if s.Rated {
		parts = append(parts, "rated")
	} else {
		parts = append(parts, "casual")
	}
	parts = append(parts, "forfeit after "+s.NoShow.String()+" without a first move")
	if s.TieBreaks != "" {
		parts = append(parts, "tie-breaks "+s.TieBreaks)
	}
	return strings.Join(parts, ", ")
}

func describeTournaments(vs []*tournaments.View) string {
	if len(vs) == 0 {
		return "No tournaments here yet: create one with /tournament create."
	}
	var b strings.Builder
	b.WriteString("**Tournaments**")
	for i, v := range vs {
		if i == 15 {
			fmt.Fprintf(&b, "\n… and %d more", len(vs)-i)
			break
		}
		fmt.Fprintf(&b, "\n%d. **%s**: %s, %s, %s", v.ID, EscapeMarkdown(v.Name), v.Format().Title(), v.Status, countPlayers(len(v.State.Players)))
	}
	return b.String()
}

// tournamentError turns the service's errors into what the user reads.
func tournamentError(err error) error {
	for _, e := range []error{
		tournaments.ErrNoSuchEvent, tournaments.ErrAlreadyJoined, tournaments.ErrNotJoined, tournaments.ErrStarted,
		tournaments.ErrNotStarted, tournaments.ErrOver, tournaments.ErrFull, tournaments.ErrTooFewPlayers,
		tournaments.ErrNotOrganizer, tournaments.ErrWithdrawn, tournaments.ErrWrongGuild, tournaments.ErrNoSuchRound,
		tournaments.ErrBadRequest, tournaments.ErrNoBerserk, tournaments.ErrAlreadyBerserk,
	} {
		if errors.Is(err, e) {
			msg := err.Error()
			if errors.Is(err, tournaments.ErrBadRequest) {
				msg = strings.TrimPrefix(msg, tournaments.ErrBadRequest.Error()+": ")
			}
			if errors.Is(err, tournaments.ErrNoSuchEvent) {
				msg = "There is no such tournament here (see /tournament list)."
			}
			return Explain(err, sentence(msg))
		}
	}
	return err
}

// PairingsText lists a round's pairings (0: the latest round).
func PairingsText(v *tournaments.View, round int) (string, error) {
	n, ps, err := v.Pairings(round)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	switch v.Format() {
	case tournaments.Arena:
		fmt.Fprintf(&b, "**%s**: games under way", EscapeMarkdown(v.Name))
	case tournaments.Knockout:
		fmt.Fprintf(&b, "**%s**: round %d of the knockout", EscapeMarkdown(v.Name), n)
	default:
		fmt.Fprintf(&b, "**%s**: round %d", EscapeMarkdown(v.Name), n)
	}
	if len(ps) == 0 {
		b.WriteString("\nNo games.")
	}
	for i, p := range ps {
		if b.Len() > maxTextTable {
			fmt.Fprintf(&b, "\n… %d more boards", len(ps)-i)
			break
		}
		if p.Black == "" {
			fmt.Fprintf(&b, "\n%d. **%s**: %s", p.Board, EscapeMarkdown(p.White), p.Result)
			continue
		}
		stage := ""
		if p.Stage != "" {
			stage = " (" + p.Stage + ")"
		}
		fmt.Fprintf(&b, "\n%d. **%s** – **%s**  %s%s", p.Board, EscapeMarkdown(p.White), EscapeMarkdown(p.Black), p.Result, stage)
		if p.GameID != 0 {
			fmt.Fprintf(&b, " · game %d", p.GameID)
		}
	}
	return b.String(), nil
}

// maxTextTable bounds the text of a table, within Discord's 2,000 characters.
const maxTextTable = 1800

// standingsText is the text fallback of the standings card: a fixed-width table.
func standingsText(v *tournaments.View, tb tournaments.Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: standings, %s\n```\n", EscapeMarkdown(v.Name), standingsCaption(tb, false))
	fmt.Fprintf(&b, "%-3s %-20s %5s", "#", "Name", "Pts")
	for _, c := range tb.Columns {
		fmt.Fprintf(&b, " %7s", c)
	}
	b.WriteString("\n")
	for i, r := range tb.Rows {
		name := Shorten(strings.ReplaceAll(r.Name, "`", "'"), 20, Runes)
		line := fmt.Sprintf("%-3d %-20s %5s", r.Rank, name, r.Points)
		for _, x := range r.Values {
			line += fmt.Sprintf(" %7s", x)
		}
		if r.Note != "" {
			line += fmt.Sprintf("  (%s)", r.Note)
		}
		if b.Len()+len(line) > maxTextTable { // Discord takes 2,000 characters; the card has all
			fmt.Fprintf(&b, "… %d more (see the card)\n", len(tb.Rows)-i)
			break
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("```")
	return b.String()
}

// standingsCaption is what the table covers; for a running arena, when it ends: as
// Discord shows a time to each reader in the text, in UTC on the card (a picture).
func standingsCaption(tb tournaments.Table, card bool) string {
	switch {
	case tb.Ends.IsZero():
		return tb.Caption
	case card:
		return "ends " + tb.Ends.UTC().Format("15:04") + " UTC"
	}
	return fmt.Sprintf("ends <t:%d:R>", tb.Ends.Unix())
}

// StandingsMessage is the standings: the card, the text table and, for the final
// standings of a Swiss, round robin or knockout, the TRF.
func StandingsMessage(v *tournaments.View, final bool) (*Response, error) {
	tb := v.Standings()
	resp := &Response{Content: standingsText(v, tb)}
	if final {
		resp.Content = "🏆 Final standings\n" + resp.Content
	}
	var rows []render.StandingsRow
	for i, r := range tb.Rows {
		if i == render.MaxStandingsRows {
			break
		}
		rows = append(rows, render.StandingsRow{Rank: r.Rank, Name: r.Name, Points: r.Points, Values: r.Values, Note: r.Note})
	}
	cols := tb.Columns
	if len(cols) > render.MaxStandingsColumns {
		cols = cols[:render.MaxStandingsColumns]
		for i := range rows {
			rows[i].Values = rows[i].Values[:render.MaxStandingsColumns]
		}
	}
	var png bytes.Buffer
	sub := fmt.Sprintf("%s · %s · %s", v.Format().Title(), v.State.Settings.Control, standingsCaption(tb, true))
	if err := render.StandingsCard(&png, rows, render.StandingsOptions{Title: v.Name, Subtitle: sub, Columns: cols}); err != nil {
		return nil, fmt.Errorf("standings card of tournament %d: %w", v.ID, err)
	}
	resp.Files = append(resp.Files, File{Name: "standings.png", ContentType: "image/png", Data: png.Bytes()})
	if final && v.Format() != tournaments.Arena {
		trf, err := v.TRF()
		if err != nil {
			return nil, err
		}
		resp.Files = append(resp.Files, File{Name: fmt.Sprintf("tournament-%d.trf", v.ID), ContentType: "text/plain", Data: trf})
	}
	return resp, nil
}

var _ tournaments.Notifier = (*Deps)(nil)

// Notify implements tournaments.Notifier: a round's pairings, and the final standings,
// go to the tournament's channel through the outbox.
func (d *Deps) Notify(ctx context.Context, e tournaments.Event) {
	if err := d.tournamentEvent(ctx, e); err != nil {
		slog.Error("tournament post", "event", fmt.Sprintf("%T", e), "err", err)
	}
}

func (d *Deps) tournamentEvent(ctx context.Context, e tournaments.Event) error {
	if d.Outbox == nil {
		return nil
	}
	switch ev := e.(type) {
	case tournaments.RoundStarted:
		v := ev.Tournament
		text, err := PairingsText(v, ev.Round)
		if err != nil {
			return err
		}
		if v.Format() == tournaments.Arena {
			text = fmt.Sprintf("⚔ **%s** is on until <t:%d:t>: players are paired again as soon as their game ends.\n%s", EscapeMarkdown(v.Name), v.State.Ends.Unix(), text)
		}
		_, err = d.Outbox.Post(ctx, v.ChannelID, &Response{Content: text})
		return err
	case tournaments.Finished:
		d.setEventStatus(ctx, ev.Tournament, discordgo.GuildScheduledEventStatusCompleted)
		msg, err := StandingsMessage(ev.Tournament, true)
		if err != nil {
			return err
		}
		_, err = d.Outbox.Post(ctx, ev.Tournament.ChannelID, msg)
		return err
	}
	return nil
}

// parseArmageddon reads the Armageddon option: White's and Black's minutes, "5/4" or
// "4.5/3".
func parseArmageddon(s string) (white, black time.Duration, err error) {
	ws, bs, ok := strings.Cut(strings.TrimSpace(s), "/")
	bad := Errorf("Give the Armageddon times as White's and Black's minutes, such as 5/4 (White must have more).")
	if !ok {
		return 0, 0, bad
	}
	mins := func(v string) (time.Duration, bool) {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || f <= 0 || f > 60 || math.IsNaN(f) {
			return 0, false
		}
		return time.Duration(math.Round(f*60)) * time.Second, true
	}
	w, okW := mins(ws)
	b, okB := mins(bs)
	if !okW || !okB || w <= b {
		return 0, 0, bad
	}
	return w, b, nil
}

// minutesLabel writes a time as minutes and seconds ("5 min", "4 min 30 s").
func minutesLabel(d time.Duration) string {
	m, sec := int(d/time.Minute), int(d%time.Minute/time.Second)
	switch {
	case sec == 0:
		return fmt.Sprintf("%d min", m)
	case m == 0:
		return fmt.Sprintf("%d s", sec)
	}
	return fmt.Sprintf("%d min %d s", m, sec)
}
