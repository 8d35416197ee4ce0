package commands

import (
	"fmt"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// notices.go: the short posts the notifier (package bot) makes beside the boards: an
// answer to a draw offer or a takeback request, a flag fall, a reminder, a challenge
// that expired or was declined, the direct message of a correspondence turn, and what
// a conditional move did (a reply played, a plan dropped).

// DrawDeclinedMessage says that by declined the draw offer.
func DrawDeclinedMessage(g *games.Game, by chesscore.Color) *Response {
	return &Response{Content: fmt.Sprintf("%s\n%s declined the draw offer. Play on!", Headline(&g.Game), colorName(by))}
}

// TakebackGrantedMessage says that by's takeback was granted (the board follows).
func TakebackGrantedMessage(g *games.Game, by chesscore.Color) *Response {
	return &Response{Content: fmt.Sprintf("%s\n↶ %s's takeback was granted; the board follows.", Headline(&g.Game), colorName(by))}
}

// TakebackDeclinedMessage says that by declined the takeback.
func TakebackDeclinedMessage(g *games.Game, by chesscore.Color) *Response {
	return &Response{Content: fmt.Sprintf("%s\n%s declined the takeback. Play on!", Headline(&g.Game), colorName(by))}
}

// FlagFellNote is the note of the game-over message after c's flag fell.
func FlagFellNote(c chesscore.Color) string { return fmt.Sprintf("⏱ %s's flag fell.", colorName(c)) }

// NoFirstMovesNote is the note of the game-over message of a game aborted because
// its first moves did not come in time.
const NoFirstMovesNote = "The game was aborted: the first moves did not come in time."

// ReminderMessage reminds the player to move before the deadline, pinging them.
func ReminderMessage(g *games.Game, p storage.Player, deadline time.Time) *Response {
	return &Response{
		Content:  fmt.Sprintf("⏰ %s, you have until <t:%d:f> (<t:%d:R>) to move in game %d.", Mention(p.ID), deadline.Unix(), deadline.Unix(), g.ID),
		Mentions: []string{p.ID},
	}
}

// TurnDM is the direct message telling a correspondence player it is their move.
func TurnDM(g *games.Game) *Response {
	text := fmt.Sprintf("Your move in game %d: <#%s>", g.ID, Place(&g.Game))
	if dl := g.Deadline(); !dl.IsZero() {
		text += fmt.Sprintf(" (deadline <t:%d:R>)", dl.Unix())
	}
	return &Response{Content: text}
}

// ChallengeExpiredMessage says that a challenge expired unanswered.
func ChallengeExpiredMessage(c *storage.Challenge) *Response {
	return &Response{Content: fmt.Sprintf("⌛ Challenge %d from %s expired without an answer.", c.ID, EscapeMarkdown(c.From.Name))}
}

// ChallengeDeclinedMessage says that the challenged player declined.
func ChallengeDeclinedMessage(c *storage.Challenge) *Response {
	return &Response{Content: fmt.Sprintf("✖ %s declined the challenge from %s.", EscapeMarkdown(c.To.Name), EscapeMarkdown(c.From.Name))}
}

// ConditionalNote heads the board a conditional reply brought: whose move it answered.
func ConditionalNote(ev games.ConditionalPlayed) string {
	note := fmt.Sprintf("↪ %s played **%s**; %s's conditional reply **%s** was played at once.",
		EscapeMarkdown(playerName(ev.Game.Player(ev.Color.Other()))), ev.Move, EscapeMarkdown(playerName(ev.Player)), ev.Reply)
	if ev.DrawLapsed {
		note += " The draw offered with that move lapsed: the reply is a move like any other."
	}
	return note
}

// PlanDroppedMessage tells the planner alone (the only mention) that their conditional
// moves in g are gone, without saying what they were.
func PlanDroppedMessage(g *games.Game, p storage.Player, move string, off bool) *Response {
	why := fmt.Sprintf("your opponent played **%s**, which they did not foresee", move)
	if off {
		why = "this server no longer allows them in this game"
	}
	return &Response{
		Content:  fmt.Sprintf("%s, your conditional moves in game %d are dropped: %s. It is your move.", Mention(p.ID), g.ID, why),
		Mentions: []string{p.ID},
	}
}
