package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/votechess"
	"github.com/gambitchess/gambit/storage"
)

// messages.go: the messages about a game, shared by the handlers (whose answers are
// these messages when given in the game's thread) and the notifier (which posts the
// ones no answer stood for).

// Component actions on a game's messages.
const (
	actionDrawOffer       = "draw-offer"
	actionDrawAccept      = "draw-accept"
	actionDrawDecline     = "draw-decline"
	actionDrawClaim       = "draw-claim"
	actionResign          = "resign"
	actionResignConfirm   = "resign-confirm"
	actionAbort           = "abort"
	actionTakebackAccept  = "takeback-accept"
	actionTakebackDecline = "takeback-decline"
	actionBoard           = "board"
)

// Post events reserved and consumed (see PostLedger).
const (
	EventTurn     = "turn"
	EventOver     = "over"
	EventDraw     = "draw-offer"
	EventDeclined = "declined"
	EventTakeback = "takeback"
	EventStarted  = "started"
)

// settings returns the guild's settings (for a DM, the defaults), with the configured
// default time control when the guild chose none, from the settings owner's memory
// when it read them lately; the store's defaults on error.
func (d *Deps) settings(ctx context.Context, guildID string) storage.GuildSettings {
	owner := d.settingsOwner()
	if owner == nil {
		return storage.DefaultGuildSettings(guildID)
	}
	s, err := owner.Guild(ctx, guildID)
	if err != nil {
		return storage.DefaultGuildSettings(guildID)
	}
	return s
}

// pingTurn reports whether the player to move wants (and the guild allows) a ping.
func (d *Deps) pingTurn(ctx context.Context, gs storage.GuildSettings, userID string) bool {
	owner := d.settingsOwner()
	if !gs.PingOnTurn || owner == nil {
		return gs.PingOnTurn
	}
	p, err := owner.Prefs(ctx, userID)
	if err != nil {
		return true
	}
	return p.PingOnTurn
}

// who names a player, as a mention when ping is set (allowed_mentions then lists
// exactly that user).
func who(p storage.Player, ping bool) string {
	if ping {
		return Mention(p.ID) + " (" + playerName(p) + ")"
	}
	return "**" + playerName(p) + "**"
}

// lastMoveLine is e.g. "12… Black played **Nf6**."
func lastMoveLine(g *games.Game) string {
	n := len(g.SAN)
	if n == 0 {
		return ""
	}
	ply := n - 1
	if g.StartFEN != "" {
		return fmt.Sprintf("%s played **%s**.", colorName(g.Turn().Other()), g.SAN[ply])
	}
	num := ply/2 + 1
	dots := "."
	if ply%2 == 1 {
		dots = "…"
	}
	return fmt.Sprintf("%d%s %s played **%s**.", num, dots, colorName(g.Turn().Other()), g.SAN[ply])
}

// TurnMessage is the message posted after every move: the board, whose move it is,
// the clocks, a ping for the player to move, and the controls.
func (d *Deps) TurnMessage(ctx context.Context, g *games.Game) (*Response, error) {
	gs := d.settings(ctx, g.GuildID)
	now := d.now()
	mover := g.Player(g.Turn())
	ping := d.pingTurn(ctx, gs, mover.ID)
	png, err := d.boardPNG(g, BoardOptions{Theme: gs.BoardTheme, Flip: g.Turn() == chesscore.Black, Now: now})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(Headline(&g.Game))
	if l := lastMoveLine(g); l != "" {
		b.WriteString("\n" + l)
	}
	fmt.Fprintf(&b, "\n%s to move (%s)", who(mover, ping), colorName(g.Turn()))
	if c := clockLine(&g.Game, now); c != "" {
		b.WriteString(" · " + c)
	}
	b.WriteString(d.vacationLines(ctx, &g.Game))
	if g.DrawOffer.Pending {
		fmt.Fprintf(&b, "\n½ %s offers a draw: accept or decline below (moving declines it).", colorName(g.DrawOffer.By))
	}
	if g.Position.InCheck() {
		b.WriteString("\nCheck!")
	}
	if votechess.IsTeam(mover.ID) {
		b.WriteString("\n🗳 The team chooses this move by vote: see the vote post (or /vote move).")
	}
	resp := &Response{Content: b.String(), Files: []File{{Name: "board.png", ContentType: "image/png", Data: png}},
		Components: gameControls(g)}
	if row := d.webRow(gs, g); row != nil {
		resp.Components = append(resp.Components, *row)
	}
	if ping {
		resp.Mentions = []string{mover.ID}
	}
	return resp, nil
}

// gameControls are the components under a live game's board: the piece menu and the
// buttons. Every custom ID carries the ply.
func gameControls(g *games.Game) []discordgo.MessageComponent {
	if !g.Live() || votechess.IsTeam(g.White.ID) || votechess.IsTeam(g.Black.ID) {
		return nil // a vote game's moves are the team's votes (the vote post)
	}
	ply := g.Ply()
	id := func(action string) string { return NewCustomID("game", g.ID, ply, action).String() }
	var rows []discordgo.MessageComponent
	pos := g.Position
	if row := pieceMenu(g.ID, ply, &pos); row != nil {
		rows = append(rows, *row)
	}
	var buttons []discordgo.MessageComponent
	if g.DrawOffer.Pending {
		buttons = append(buttons,
			discordgo.Button{Label: "Accept draw", Style: discordgo.SuccessButton, CustomID: id(actionDrawAccept)},
			discordgo.Button{Label: "Decline draw", Style: discordgo.SecondaryButton, CustomID: id(actionDrawDecline)})
	} else if ply >= 1 {
		buttons = append(buttons, discordgo.Button{Label: "Offer draw", Style: discordgo.SecondaryButton, CustomID: id(actionDrawOffer)})
	}
	if claimableNow(g) {
		buttons = append(buttons, discordgo.Button{Label: "Claim draw", Style: discordgo.PrimaryButton, CustomID: id(actionDrawClaim)})
	}
	if ply < 2 {
		buttons = append(buttons, discordgo.Button{Label: "Abort", Style: discordgo.SecondaryButton, CustomID: id(actionAbort)})
	}
	buttons = append(buttons,
		discordgo.Button{Label: "Resign", Style: discordgo.DangerButton, CustomID: id(actionResign)},
		discordgo.Button{Label: "My board", Style: discordgo.SecondaryButton, CustomID: id(actionBoard)})
	if len(buttons) > 5 {
		buttons = buttons[:5]
	}
	return append(rows, discordgo.ActionsRow{Components: buttons})
}

// GameOverMessage is the message of a finished game: result and reason, the final
// board, the PGN attached and a lichess analysis link. note, if set, comes first
// ("White's flag fell.").
func (d *Deps) GameOverMessage(ctx context.Context, g *games.Game, note string) (*Response, error) {
	gs := d.settings(ctx, g.GuildID)
	png, err := d.boardPNG(g, BoardOptions{Theme: gs.BoardTheme, Bars: true, Now: d.now()})
	if err != nil {
		return nil, err
	}
	link := LichessURL(g)
	var b strings.Builder
	b.WriteString(Headline(&g.Game))
	if note != "" {
		b.WriteString("\n" + note)
	}
	moves := (len(g.SAN) + 1) / 2
	fmt.Fprintf(&b, "\n**%s** after %d move%s.", resultText(g.Outcome), moves, plural(moves))
	if line := d.ratingChangeLine(ctx, g); line != "" {
		b.WriteString("\n" + line)
	}
	if gs.PingOnGameOver {
		fmt.Fprintf(&b, "\n%s · %s", Mention(g.White.ID), Mention(g.Black.ID))
	}
	fmt.Fprintf(&b, "\n[Analyse on lichess](<%s>)", link)
	resp := &Response{
		Content: b.String(),
		Files: []File{
			{Name: "board.png", ContentType: "image/png", Data: png},
			{Name: fmt.Sprintf("gambit-game-%d.pgn", g.ID), ContentType: "application/x-chess-pgn", Data: []byte(ExportPGN(g))},
		},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Analyse on lichess", Style: discordgo.LinkButton, URL: link},
		}}},
	}
	if row := d.webRow(gs, g); row != nil {
		resp.Components = append(resp.Components, *row)
	}
	if gs.PingOnGameOver {
		resp.Mentions = []string{g.White.ID, g.Black.ID}
	}
	return resp, nil
}

// claimableNow reports whether the player to move may claim a draw on the board as it
// stands (a claim with an intended move goes through /draw claim move:...).
func claimableNow(g *games.Game) bool {
	for _, c := range g.Claimable() {
		if c.Move == chesscore.NullMove {
			return true
		}
	}
	return false
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// TakebackMessage announces a pending takeback request, pinging the opponent who may
// answer it; the engine answers one itself, so then it is a note without buttons.
func (d *Deps) TakebackMessage(ctx context.Context, g *games.Game, by chesscore.Color) *Response {
	if d.playsEngine(ctx, g, by.Other()) {
		return engineRequestMessage(g, by, "asks to take back their last move",
			"The engine grants takebacks: the board follows in a moment.")
	}
	ply := g.Ply()
	opp := g.Player(by.Other())
	return &Response{
		Content: fmt.Sprintf("%s\n%s (%s) asks to take back their last move. %s, do you agree?",
			Headline(&g.Game), playerName(g.Player(by)), colorName(by), Mention(opp.ID)),
		Mentions: []string{opp.ID},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Accept takeback", Style: discordgo.SuccessButton, CustomID: NewCustomID("game", g.ID, ply, actionTakebackAccept).String()},
			discordgo.Button{Label: "Decline", Style: discordgo.SecondaryButton, CustomID: NewCustomID("game", g.ID, ply, actionTakebackDecline).String()},
		}}},
	}
}

// engineRequestMessage announces a takeback request or a draw offer made to the engine,
// which answers it itself: no buttons and nobody to ping. asks says what was asked
// ("asks to take back their last move"), then what follows.
func engineRequestMessage(g *games.Game, by chesscore.Color, asks, then string) *Response {
	return &Response{Content: fmt.Sprintf("%s\n%s (%s) %s. %s", Headline(&g.Game), playerName(g.Player(by)), colorName(by), asks, then)}
}

// playsEngine reports whether the engine plays color c in g.
func (d *Deps) playsEngine(ctx context.Context, g *games.Game, c chesscore.Color) bool {
	if d.Engine == nil {
		return false
	}
	e, ok := d.Engine.EngineGame(ctx, g.ID)
	return ok && e.Color == c
}

// DrawOfferMessage announces a draw offer made after one's move (an offer made with
// the move shows in the board message); the engine answers one itself, so then it is a
// note without buttons.
func (d *Deps) DrawOfferMessage(ctx context.Context, g *games.Game, by chesscore.Color) *Response {
	if d.playsEngine(ctx, g, by.Other()) {
		return engineRequestMessage(g, by, "offers a draw", "The engine weighs it and answers in a moment.")
	}
	ply := g.Ply()
	opp := g.Player(by.Other())
	return &Response{
		Content: fmt.Sprintf("%s\n½ %s (%s) offers a draw. %s, accept or decline, or simply move.",
			Headline(&g.Game), playerName(g.Player(by)), colorName(by), Mention(opp.ID)),
		Mentions: []string{opp.ID},
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Accept draw", Style: discordgo.SuccessButton, CustomID: NewCustomID("game", g.ID, ply, actionDrawAccept).String()},
			discordgo.Button{Label: "Decline draw", Style: discordgo.SecondaryButton, CustomID: NewCustomID("game", g.ID, ply, actionDrawDecline).String()},
		}}},
	}
}

// StartOnDiscord gives a new game its place: a thread when the guild wants one (from
// the challenge message when there is one in that channel), else the games channel or
// the challenge's channel. It records the place and posts the first board there.
func (d *Deps) StartOnDiscord(ctx context.Context, g *games.Game, challengeMessageID string) (*games.Game, error) {
	gs := d.settings(ctx, g.GuildID)
	parent := g.ChannelID
	if gs.GamesChannel != "" {
		parent = gs.GamesChannel
	}
	place := parent
	if gs.ThreadPerGame && g.GuildID != "" && parent != "" {
		from := ""
		if parent == g.ChannelID {
			from = challengeMessageID
		}
		name := Truncate(fmt.Sprintf("Game %d · %s vs %s", g.ID, g.White.Name, g.Black.Name), maxThreadName, UTF16)
		th, err := d.Outbox.StartThread(ctx, parent, from, name)
		if err != nil && from != "" {
			th, err = d.Outbox.StartThread(ctx, parent, "", name)
		}
		if err == nil {
			place = th
			d.threads.Store(th, g.ID)
		}
	}
	if place != "" && place != g.ChannelID {
		ng, err := d.Games.SetGameThread(ctx, g.ID, place)
		if err != nil {
			return g, fmt.Errorf("record the place of game %d: %w", g.ID, err)
		}
		g = ng
	}
	if votechess.IsTeam(g.White.ID) || votechess.IsTeam(g.Black.ID) {
		// The first vote is announced where the game is, once it has its place.
		defer d.votePlaced(g.ID)
	}
	if place == "" {
		return g, nil
	}
	msg, err := d.TurnMessage(ctx, g)
	if err != nil {
		return g, err
	}
	if _, err := d.Outbox.Post(ctx, place, msg); err != nil {
		return g, fmt.Errorf("post the first board of game %d: %w", g.ID, err)
	}
	return g, nil
}
