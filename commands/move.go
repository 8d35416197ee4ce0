package commands

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
)

// /move <move> [offer_draw] [game]: play a move typed in SAN (completed from the
// legal moves), and the button flow for people who do not type: piece, destination,
// promotion piece.

func init() {
	register(registration{
		name:    "move",
		build:   func(d *Deps) Command { return NewMove(d) },
		topic:   helpTopic{group: groupPlay, order: 30, example: "/move move:Nf3"},
		options: []optionUse{{nil, moveOptions{}}},
	})
}

var _ Command = (*MoveCommand)(nil)
var _ Autocompleter = (*MoveCommand)(nil)
var _ Componenter = (*MoveCommand)(nil)

// MoveCommand is /move and the move menus under the board.
type MoveCommand struct{ d *Deps }

// NewMove returns /move.
func NewMove(d *Deps) *MoveCommand { return &MoveCommand{d} }

type moveOptions struct {
	Move      string `option:"move"`
	OfferDraw bool   `option:"offer_draw"`
	Game      int64  `option:"game"`
}

// Definition implements Command.
func (c *MoveCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:             "move",
		Description:      "Play a move in your game",
		Contexts:         contexts(everywhere),
		IntegrationTypes: installs(bothInstalls),
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "Your move, e.g. e4, Nf3, O-O, exd5, e8=Q (the list shows the legal ones)", Required: true, Autocomplete: true, MaxLength: 20},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "offer_draw", Description: "Offer a draw together with the move"},
			gameOption(),
		},
	}
}

// Handle implements Command.
func (c *MoveCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	var o moveOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	g, err := c.d.findGame(ctx, r, o.Game, true)
	if err != nil {
		return nil, err
	}
	resp, err := c.d.play(ctx, r, g, strings.TrimSpace(o.Move), o.OfferDraw, g.Ply())
	if errors.Is(err, games.ErrStale) {
		// A typed move names no board: the ply checked was this process's copy of the
		// game, which another process on the store had moved on from. The service has
		// reloaded it; the move is for the game as it is now.
		if g, err = c.d.findGame(ctx, r, o.Game, true); err != nil {
			return nil, err
		}
		resp, err = c.d.play(ctx, r, g, strings.TrimSpace(o.Move), o.OfferDraw, g.Ply())
	}
	return resp, err
}

// play makes the move for the user at the ply they saw, and answers with the board
// (in the game's own place: the public post; elsewhere: a private copy, the notifier
// posting the board where the game lives).
func (d *Deps) play(ctx context.Context, r *Request, g *games.Game, move string, offerDraw bool, ply int) (*Response, error) {
	if move == "" {
		return nil, Errorf("Which move? Type it (e4, Nf3, O-O) or pick it from the list.")
	}
	inPlace := Place(&g.Game) == r.ChannelID
	releaseTurn, releaseOver, releaseDraw := func() {}, func() {}, func() {}
	if inPlace && mayMove(g, r.User.ID, ply) {
		releaseTurn = d.Ledger.Reserve(GamePost(g.ID, ply+1, EventTurn))
		releaseOver = d.Ledger.Reserve(GamePost(g.ID, ply+1, EventOver))
		releaseDraw = d.Ledger.Reserve(GamePost(g.ID, ply+1, EventDraw))
	}
	release := func() { releaseTurn(); releaseOver(); releaseDraw() }
	res, err := d.Games.Move(ctx, games.MoveRequest{
		Action: games.Action{RequestID: r.Interaction.ID, GameID: g.ID, UserID: r.User.ID, Expect: games.AtPly(ply)},
		Move:   move, OfferDraw: offerDraw,
	})
	if err != nil {
		release()
		if resp, err := d.guestOver(ctx, r, g, err); resp != nil {
			return resp, nil // the end of a guest game, shown where nothing showed it
		} else {
			return nil, gameError(err)
		}
	}
	if res.Replayed || res.Game == nil {
		release()
		return Private("That move was already played: %s.", res.SAN), nil
	}
	r.Log = r.Log.With("game", g.ID, "ply", res.Ply, "san", res.SAN)
	ng := res.Game
	if res.Ply > ply+1 {
		// The opponent's conditional reply came with the move: the notifier posts its
		// board (or the end it brought), which no answer stands for.
		release()
		text := fmt.Sprintf("You played **%s** in game %d: your opponent had planned a reply, played at once; the board follows in <#%s>.", res.SAN, g.ID, Place(&ng.Game))
		if inPlace {
			return &Response{Content: fmt.Sprintf("%s played **%s**, answered at once by a conditional move; the board follows.", EscapeMarkdown(playerName(g.Player(g.Turn()))), res.SAN)}, nil
		}
		return Private("%s", text), nil
	}
	// The answer stands for what the move brought: the next turn or the end, and the
	// draw offered with it. The other posts of this ply go back to the notifier: a flag
	// that falls before the reply, or an offer the opponent makes, is posted.
	if ng.Live() {
		releaseOver()
	} else {
		releaseTurn()
	}
	if !offerDraw {
		releaseDraw()
	}
	var resp *Response
	if ng.Live() {
		resp, err = d.TurnMessage(ctx, ng)
	} else {
		resp, err = d.GameOverMessage(ctx, ng, "")
	}
	if err != nil {
		return nil, err
	}
	if !inPlace {
		resp.Content = fmt.Sprintf("You played **%s** in game %d; the board is posted in <#%s>.\n\n%s", res.SAN, g.ID, Place(&ng.Game), resp.Content)
		resp.Ephemeral, resp.Mentions, resp.Components = true, nil, nil
	}
	return resp, nil
}

// mayMove reports whether userID may move in g at ply: a player, whose turn it is, in
// a live game still at that ply. Only such a request reserves the posts of the move: a
// spectator's /move, or a player's out of turn, must not stand for the board the
// opponent's (or the engine's) move brings. The service checks again and has the last
// word; a request it refuses after all gives back only its own reservation.
func mayMove(g *games.Game, userID string, ply int) bool {
	col, ok := g.ColorOf(userID)
	return ok && g.Live() && g.Ply() == ply && col == g.Turn()
}

// Autocomplete implements Autocompleter: the legal moves in SAN that fit what the
// user typed (at most 25), or the user's games for the game option. Discord lets a
// user submit anything, so Handle checks the move again.
func (c *MoveCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	if r.Focused == nil {
		return nil, nil
	}
	if r.Focused.Name == "game" {
		return c.d.gameChoices(ctx, r)
	}
	var o moveOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, nil
	}
	g, err := c.d.findGame(ctx, r, o.Game, true)
	if err != nil || !g.Live() {
		return nil, nil
	}
	if col, ok := g.ColorOf(r.User.ID); !ok || col != g.Turn() {
		return nil, nil
	}
	return MoveChoices(&g.Position, o.Move), nil
}

// MoveChoices returns the legal moves of pos whose SAN (or UCI) starts with what was
// typed, ignoring case, capture marks, checks and '='; at most 25, in SAN order.
func MoveChoices(pos *chesscore.Position, typed string) []*discordgo.ApplicationCommandOptionChoice {
	want := normalizeMove(typed)
	var sans []string
	for _, m := range legalMoves(pos) {
		san := pos.SAN(m)
		if want == "" || strings.HasPrefix(normalizeMove(san), want) || strings.HasPrefix(m.UCI(), strings.ToLower(strings.TrimSpace(typed))) {
			sans = append(sans, san)
		}
	}
	sort.Slice(sans, func(i, j int) bool {
		pi, pj := sanRank(sans[i]), sanRank(sans[j])
		if pi != pj {
			return pi < pj
		}
		return sans[i] < sans[j]
	})
	if len(sans) > maxMenuOptions {
		sans = sans[:maxMenuOptions]
	}
	out := make([]*discordgo.ApplicationCommandOptionChoice, len(sans))
	for i, s := range sans {
		out[i] = &discordgo.ApplicationCommandOptionChoice{Name: s, Value: s}
	}
	return out
}

// sanRank orders moves for the list: pawn moves, then pieces, then castling.
func sanRank(san string) int {
	switch {
	case strings.HasPrefix(san, "O-O"):
		return 2
	case san[0] >= 'a' && san[0] <= 'h':
		return 0
	}
	return 1
}

func normalizeMove(s string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(s) {
		switch r {
		case 'x', 'X', '+', '#', '=', '!', '?', ' ', '-', ':':
			continue
		}
		if r == '0' {
			r = 'o'
		}
		b.WriteRune(r)
	}
	return strings.ToLower(b.String())
}

// Components implements Componenter: the piece menu, the destination menus and the
// promotion buttons.
func (c *MoveCommand) Components() map[string]Handler {
	return map[string]Handler{
		"game/" + actionPick:    c.pick,
		"game/" + actionTo:      c.to,
		"game/" + actionPromote: c.promote,
	}
}

// moverGame loads the game of a component and checks that the user may move in it
// at the ply the component was made for.
func (d *Deps) moverGame(ctx context.Context, r *Request) (*games.Game, error) {
	g, err := d.visibleGame(ctx, r, r.ID.ID)
	if err != nil {
		return nil, err
	}
	col, ok := g.ColorOf(r.User.ID)
	switch {
	case !ok:
		return nil, gameError(games.ErrNotAPlayer)
	case !g.Live():
		return g, gameError(games.ErrGameOver) // the game, for the end of a guest game (guestOver)
	case g.Ply() != r.ID.Ply:
		return nil, gameError(games.ErrStale)
	case col != g.Turn():
		return nil, Errorf("It is not your turn: %s is to move.", colorName(g.Turn()))
	}
	return g, nil
}

func (c *MoveCommand) pick(ctx context.Context, r *Request) (*Response, error) {
	g, err := c.d.moverGame(ctx, r)
	if err != nil {
		return c.d.guestOver(ctx, r, g, err)
	}
	if len(r.Values) != 1 {
		return nil, Errorf("Choose one piece.")
	}
	from, ok := chesscore.ParseSquare(r.Values[0])
	if !ok {
		return nil, Errorf("That is not a square.")
	}
	pos := g.Position
	menus := destinationMenus(g.ID, g.Ply(), &pos, from)
	if menus == nil {
		return nil, Errorf("That piece has no legal move. Choose another.")
	}
	return &Response{
		Content:    fmt.Sprintf("Move your %s from %s to:", pos.PieceAt(from).Type(), from),
		Components: menus, Ephemeral: true,
	}, nil
}

func (c *MoveCommand) to(ctx context.Context, r *Request) (*Response, error) {
	g, err := c.d.moverGame(ctx, r)
	if err != nil {
		return c.d.guestOver(ctx, r, g, err)
	}
	from, ok1 := chesscore.ParseSquare(r.ID.Arg(0))
	var to chesscore.Square
	ok2 := len(r.Values) == 1
	if ok2 {
		to, ok2 = chesscore.ParseSquare(r.Values[0])
	}
	if !ok1 || !ok2 {
		return nil, Errorf("That choice could not be read. Use the menu under the latest board.")
	}
	pos := g.Position
	promotion := false
	found := false
	for _, m := range legalMoves(&pos) {
		if m.From() == from && m.To() == to {
			found = true
			promotion = m.Kind() == chesscore.PromotionMove
		}
	}
	if !found {
		return nil, gameError(games.ErrStale)
	}
	if promotion {
		return &Response{Kind: UpdateMessage, Content: fmt.Sprintf("Promote the pawn on %s to:", to),
			Components: promotionButtons(g.ID, g.Ply(), from, to)}, nil
	}
	return c.d.play(ctx, r, g, from.String()+to.String(), false, r.ID.Ply)
}

func (c *MoveCommand) promote(ctx context.Context, r *Request) (*Response, error) {
	g, err := c.d.moverGame(ctx, r)
	if err != nil {
		return c.d.guestOver(ctx, r, g, err)
	}
	uci := r.ID.Arg(0)
	if len(uci) != 5 {
		return nil, Errorf("That choice could not be read. Use the menu under the latest board.")
	}
	return c.d.play(ctx, r, g, uci, false, r.ID.Ply)
}
