package commands

import (
	"fmt"
	"strings"

	"github.com/gambitchess/gambit/service/digest"
	"github.com/gambitchess/gambit/service/games"
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
// move, with its time left, its server's name (from servers, by guild id; a server
// without one goes by its link alone: the DM is the player's own, so naming their
// servers shows them nothing new) and a link to its thread. The games that do not fit
// in one message (2000 characters) are counted at the end, after the nearest deadlines.
func DigestDM(d *digest.Digest, servers map[string]string) *Response {
	n := len(d.Games) + d.More
	head := fmt.Sprintf("📬 **Your daily digest**: it is your move in %d game%s.", n, plural(n))
	const foot = "\nTurn the digest off, or change its hour, with `/notify`."
	var b strings.Builder
	b.WriteString(head)
	more := d.More
	for i, g := range d.Games {
		line := digestLine(g, d, servers[g.GuildID])
		// Room for this line, the footer and the count of the games left out.
		left := fmt.Sprintf("\n…and %d more (the nearest deadlines are above).", len(d.Games)-i-1+more)
		if Length(b.String(), UTF16)+Length(line, UTF16)+Length(left, UTF16)+Length(foot, UTF16) > maxMessage {
			more += len(d.Games) - i
			break
		}
		b.WriteString(line)
	}
	if more > 0 {
		fmt.Fprintf(&b, "\n…and %d more (the nearest deadlines are above).", more)
	}
	b.WriteString(foot)
	return &Response{Content: b.String()}
}

// maxMessage is the most characters (UTF-16 code units) a Discord message holds.
const maxMessage = 2000

// maxServerName bounds a server's name in a digest (Discord allows 100 characters).
const maxServerName = 100

// digestLine is one game of a digest: its headline, time left, server and link.
func digestLine(g *games.Game, d *digest.Digest, server string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n• %s", Headline(&g.Game))
	if dl := g.Deadline(); !dl.IsZero() {
		fmt.Fprintf(&b, " · %s left (deadline <t:%d:f>)", timeLeft(dl.Sub(d.Now)), dl.Unix())
	} else {
		b.WriteString(" · no deadline")
	}
	if l := GameLink(&g.Game); l != "" {
		b.WriteString("\n  ")
		if server = strings.TrimSpace(server); server != "" {
			b.WriteString(EscapeMarkdown(Truncate(server, maxServerName, UTF16)) + ": ")
		}
		b.WriteString(l)
	}
	return b.String()
}
