package commands

import (
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/chess960"
	"github.com/gambitchess/gambit/service/games"
)

// variant.go: the variant and position options of /challenge and /play bot.

// variantOptionDefs returns the definitions of the variant and position options.
func variantOptionDefs() []*discordgo.ApplicationCommandOption {
	lo, hi := 0.0, float64(chess960.Positions-1)
	return []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionString, Name: "variant", Description: "The kind of chess: standard (the default) or Chess960 (Fischer random)", Choices: []*discordgo.ApplicationCommandOptionChoice{
			{Name: "standard", Value: "standard"}, {Name: "chess960", Value: "chess960"},
		}},
		{Type: discordgo.ApplicationCommandOptionInteger, Name: "position", Description: "Chess960: the start position's number, 0 to 959 (518 is the standard array); default: random", MinValue: &lo, MaxValue: hi},
	}
}

// variantOf reads the variant and position options: the variant and the Chess960 position number (or
// games.RandomPosition). A position with standard chess, or a number outside 0 to 959
// (Discord checks it, but a hand-made request may not), is a clear error.
func variantOf(variant string, position *int) (chesscore.Variant, int, error) {
	v := chesscore.Standard
	switch variant {
	case "", "standard":
	case "chess960":
		v = chesscore.Chess960
	default:
		return 0, 0, Errorf("I do not know the variant %q: choose standard or chess960.", EscapeMarkdown(variant))
	}
	if position == nil {
		return v, games.RandomPosition, nil
	}
	switch n := *position; {
	case v != chesscore.Chess960:
		return 0, 0, Errorf("A start position number is for Chess960: add variant:chess960, or leave position out.")
	case n < 0 || n >= chess960.Positions:
		return 0, 0, Errorf("There is no Chess960 position %d: the positions are numbered 0 to 959 (518 is the standard one).", n)
	default:
		return v, n, nil
	}
}

// variantTitle names a Chess960 game's start for a message ("Chess960 #446"); "" for
// standard chess.
func variantTitle(v chesscore.Variant, startFEN string) string {
	if v != chesscore.Chess960 {
		return ""
	}
	if n, ok := chess960.Number(startFEN); ok {
		return fmt.Sprintf("Chess960 #%d", n)
	}
	return "Chess960"
}
