package commands

import (
	"fmt"
	"strings"

	"github.com/gambitchess/gambit/service/digest"
	"github.com/gambitchess/gambit/storage"
)

// digest.go: the daily digest's direct message (the notifier sends it) and the note of
// a digest turned off because Discord refused it.

// DigestRefusedNote is the note the next answer to a player carries, once, after their
// digest was turned off because Discord refused the direct message.
const DigestRefusedNote = "📭 Your daily digest is turned off: Discord refused the direct message (your DMs are closed to Gambit). " +
	"Allow direct messages from this server's members (Privacy Settings), then turn it back on with `/notify digest:True`."

// GameLink is the address of a game's thread (or channel) on Discord, which opens it
// from anywhere, a direct message included; "" for a game with no place on a server.
func GameLink(g *storage.Game) string {
	place := Place(g)
	if g.GuildID == "" || place == "" {
		return ""
	}
	return fmt.Sprintf("https://discord.com/channels/%s/%s", g.GuildID, place)
}

// DigestDM is the direct message of a daily digest: each game where it is the player's
// move, with its time left and a link to its thread. It names the games' servers
// through the links alone, in the player's own DM.
func DigestDM(d *digest.Digest) *Response {
	var b strings.Builder
	n := len(d.Games) + d.More
	fmt.Fprintf(&b, "📬 **Your daily digest**: it is your move in %d game%s.", n, plural(n))
	for _, g := range d.Games {
		fmt.Fprintf(&b, "\n• %s", Headline(&g.Game))
		if dl := g.Deadline(); !dl.IsZero() {
			fmt.Fprintf(&b, " · %s left (deadline <t:%d:f>)", timeLeft(dl.Sub(d.Now)), dl.Unix())
		} else {
			b.WriteString(" · no deadline")
		}
		if l := GameLink(&g.Game); l != "" {
			b.WriteString("\n  " + l)
		}
	}
	if d.More > 0 {
		fmt.Fprintf(&b, "\n…and %d more (the nearest deadlines are above).", d.More)
	}
	b.WriteString("\nTurn the digest off, or change its hour, with `/notify`.")
	return &Response{Content: b.String()}
}
