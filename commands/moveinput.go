package commands

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
)

// moveinput.go: the button flow for people who do not type moves. The board message
// carries a menu of the pieces that can move; choosing one shows (to that player
// alone) menus of its destinations, at most 25 to a menu; a pawn reaching the last
// rank then asks for the promotion piece. Every custom ID carries the game and the
// ply, so a choice made for an earlier position is refused.

// Component actions of the move flow.
const (
	actionPick    = "pick"    // piece menu; value: from square
	actionTo      = "to"      // destination menu; args: from square, menu index; value: to square
	actionPromote = "promote" // promotion button; arg: UCI move with the piece
)

// maxMenuOptions is Discord's limit of options in one select menu.
const maxMenuOptions = 25

// pieceOrder sorts piece types for the menu: king first, pawns last.
var pieceOrder = map[chesscore.PieceType]int{
	chesscore.King: 0, chesscore.Queen: 1, chesscore.Rook: 2, chesscore.Bishop: 3, chesscore.Knight: 4, chesscore.Pawn: 5,
}

// legalMoves lists the legal moves of a position.
func legalMoves(pos *chesscore.Position) []chesscore.Move {
	var ml chesscore.MoveList
	pos.LegalMoves(&ml)
	return append([]chesscore.Move(nil), ml.Slice()...)
}

// pieceMenu is the select menu of the pieces the side to move can move.
func pieceMenu(gameID uint64, ply int, pos *chesscore.Position) *discordgo.ActionsRow {
	byFrom := map[chesscore.Square][]string{}
	for _, m := range legalMoves(pos) {
		to := m.To().String()
		list := byFrom[m.From()]
		if len(list) == 0 || list[len(list)-1] != to { // promotions share a square
			byFrom[m.From()] = append(list, to)
		}
	}
	if len(byFrom) == 0 {
		return nil
	}
	froms := make([]chesscore.Square, 0, len(byFrom))
	for sq := range byFrom {
		froms = append(froms, sq)
	}
	sort.Slice(froms, func(i, j int) bool {
		a, b := pos.PieceAt(froms[i]).Type(), pos.PieceAt(froms[j]).Type()
		if a != b {
			return pieceOrder[a] < pieceOrder[b]
		}
		return froms[i] < froms[j]
	})
	var opts []discordgo.SelectMenuOption
	for _, sq := range froms {
		if len(opts) == maxMenuOptions {
			break // at most 16 pieces: never reached
		}
		desc := Shorten("to "+strings.Join(byFrom[sq], ", "), maxMenuOptionText, UTF16)
		opts = append(opts, discordgo.SelectMenuOption{
			Label: fmt.Sprintf("%s %s", capitalize(pos.PieceAt(sq).Type().String()), sq), Value: sq.String(), Description: desc,
		})
	}
	return &discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		MenuType: discordgo.StringSelectMenu, CustomID: NewCustomID("game", gameID, ply, actionPick).String(),
		Placeholder: "Move a piece…", Options: opts,
	}}}
}

// destinationMenus are the menus of the squares the piece on from can reach, 25 to
// a menu. It returns nil when the piece has no legal move.
func destinationMenus(gameID uint64, ply int, pos *chesscore.Position, from chesscore.Square) []discordgo.MessageComponent {
	var tos []chesscore.Move
	seen := map[chesscore.Square]bool{}
	for _, m := range legalMoves(pos) {
		if m.From() == from && !seen[m.To()] {
			seen[m.To()] = true
			tos = append(tos, m)
		}
	}
	if len(tos) == 0 {
		return nil
	}
	sort.Slice(tos, func(i, j int) bool { return tos[i].To() < tos[j].To() })
	var rows []discordgo.MessageComponent
	for part := 0; part*maxMenuOptions < len(tos); part++ {
		chunk := tos[part*maxMenuOptions : min(len(tos), (part+1)*maxMenuOptions)]
		opts := make([]discordgo.SelectMenuOption, len(chunk))
		for i, m := range chunk {
			label := pos.SAN(m)
			if m.Kind() == chesscore.PromotionMove {
				label = m.To().String() + " (promote)"
			}
			opts[i] = discordgo.SelectMenuOption{Label: label, Value: m.To().String()}
		}
		placeholder := "Where to?"
		if len(tos) > maxMenuOptions {
			placeholder = fmt.Sprintf("Where to? (%s–%s)", chunk[0].To(), chunk[len(chunk)-1].To())
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			MenuType: discordgo.StringSelectMenu, CustomID: NewCustomID("game", gameID, ply, actionTo, from.String(), fmt.Sprint(part)).String(),
			Placeholder: placeholder, Options: opts,
		}}})
	}
	return rows
}

// promotionButtons ask which piece a pawn promotes to.
func promotionButtons(gameID uint64, ply int, from, to chesscore.Square) []discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	for _, p := range []struct {
		letter, name string
	}{{"q", "Queen"}, {"r", "Rook"}, {"b", "Bishop"}, {"n", "Knight"}} {
		buttons = append(buttons, discordgo.Button{
			Label: p.name, Style: discordgo.PrimaryButton,
			CustomID: NewCustomID("game", gameID, ply, actionPromote, from.String()+to.String()+p.letter).String(),
		})
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}}
}
