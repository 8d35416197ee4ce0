package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// /help: a private overview of what Gambit does, an embed per group of commands (play,
// ladder, puzzles, tournaments, settings), each command with its description, its
// subcommands and one example. It is built from the commands the router registered
// (see Indexer), so it names exactly the commands this bot has: a command added later
// shows up by itself, and /puzzle is not listed where puzzles are switched off.

func init() {
	register(registration{
		name:  "help",
		build: func(*Deps) Command { return NewHelp() },
		topic: helpTopic{group: groupSettings, order: 40, example: "/help"},
	})
}

var _ Command = (*HelpCommand)(nil)
var _ Indexer = (*HelpCommand)(nil)

// HelpCommand is /help.
type HelpCommand struct {
	// registered is set by Index, before the router serves anything.
	registered []Command
}

// NewHelp returns /help. It lists nothing until Index gives it the commands.
func NewHelp() *HelpCommand { return &HelpCommand{} }

// Index implements Indexer.
func (c *HelpCommand) Index(registered []Command) {
	c.registered = append([]Command(nil), registered...)
}

// Definition implements Command.
func (c *HelpCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:             "help",
		Description:      "What Gambit does: every command, with an example",
		Contexts:         contexts(everywhere),
		IntegrationTypes: installs(bothInstalls),
	}
}

// Handle implements Command.
func (c *HelpCommand) Handle(context.Context, *Request) (*Response, error) {
	return HelpMessage(c.registered), nil
}

// helpGroup is one embed of /help.
type helpGroup struct {
	title, blurb string
}

// The groups, in the order they are shown; groupMore gathers the commands no file
// registered (each registered command names its group and example where it registers).
var (
	groupPlay        = &helpGroup{"♟ Play", "Challenge someone or the engine, then move by typing, from the menu under the board, or with its buttons. A game gets its own thread."}
	groupLadder      = &helpGroup{"📈 Ladder and ratings", "Rated games count for the server's ladder (FIDE Elo or Glicko-2), by time control."}
	groupPuzzles     = &helpGroup{"🧩 Puzzles", "A puzzle of the day for the server and random ones near your puzzle rating. Your answers are only shown to you."}
	groupTournaments = &helpGroup{"🏆 Tournaments", "Swiss, round robin, arena and knockout events run in a channel; their games open in threads."}
	groupSettings    = &helpGroup{"⚙ Settings", "The server's settings (Manage Server) and your own notifications."}
	groupMore        = &helpGroup{"More", "Other commands."}
	helpGroups       = []*helpGroup{groupPlay, groupLadder, groupPuzzles, groupTournaments, groupSettings, groupMore}
)

// Discord's limits on a message, in UTF-16 units (see text.go).
const (
	maxContent          = 2000
	maxEmbeds           = 10
	maxEmbedTitle       = 256
	maxEmbedDescription = 4096
	maxEmbedsTotal      = 6000 // titles, descriptions, fields, footers and authors of all its embeds
)

// helpIntro is the text above the embeds.
const helpIntro = "**Gambit** plays chess on Discord: games between members or against the engine, with FIDE's rules and clocks, a rating ladder, puzzles and tournaments."

// HelpMessage is /help's answer for the commands given: private, an embed per group
// that has commands, within Discord's limits whatever the commands say.
func HelpMessage(cmds []Command) *Response {
	lines := map[*helpGroup][]string{}
	for _, c := range cmds {
		def := c.Definition()
		if def.Type != 0 && def.Type != discordgo.ChatApplicationCommand {
			continue // a context menu: found by right-clicking, not typed
		}
		topic := registered[def.Name].topic
		if topic.group == nil { // a command no file registered
			topic = helpTopic{group: groupMore, example: "/" + def.Name}
		}
		lines[topic.group] = append(lines[topic.group], helpLine(def, topic.example))
	}
	resp := &Response{Content: Shorten(helpIntro, maxContent, UTF16), Ephemeral: true}
	for _, g := range helpGroups[:min(len(helpGroups), maxEmbeds)] {
		if len(lines[g]) == 0 {
			continue
		}
		resp.Embeds = append(resp.Embeds, &discordgo.MessageEmbed{
			Title:       Shorten(g.title, maxEmbedTitle, UTF16),
			Description: Shorten(g.blurb+"\n\n"+strings.Join(lines[g], "\n\n"), maxEmbedDescription, UTF16),
		})
	}
	fitEmbeds(resp.Embeds)
	return resp
}

// helpLine is one command: name, description, subcommands and the example.
func helpLine(def *discordgo.ApplicationCommand, example string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**/%s** — %s", def.Name, def.Description)
	var subs []string
	for _, o := range def.Options {
		if o.Type == discordgo.ApplicationCommandOptionSubCommand || o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
			subs = append(subs, "`"+o.Name+"`")
		}
	}
	if len(subs) > 0 {
		fmt.Fprintf(&b, "\nSubcommands: %s", strings.Join(subs, " · "))
	}
	fmt.Fprintf(&b, "\ne.g. `%s`", strings.ReplaceAll(example, "`", "'"))
	return b.String()
}

// fitEmbeds shortens the longest descriptions until the embeds fit Discord's limit on
// their total length.
func fitEmbeds(es []*discordgo.MessageEmbed) {
	for over := embedsLength(es) - maxEmbedsTotal; over > 0; over = embedsLength(es) - maxEmbedsTotal {
		longest := es[0]
		for _, e := range es {
			if Length(e.Description, UTF16) > Length(longest.Description, UTF16) {
				longest = e
			}
		}
		n := Length(longest.Description, UTF16)
		longest.Description = Shorten(longest.Description, max(n-over, 0), UTF16)
		if n == 0 {
			return // only titles left: six titles of at most 256 always fit
		}
	}
}

// embedsLength is what Discord counts against the total limit of a message's embeds.
func embedsLength(es []*discordgo.MessageEmbed) int {
	n := 0
	for _, e := range es {
		n += Length(e.Title, UTF16) + Length(e.Description, UTF16)
		for _, f := range e.Fields {
			n += Length(f.Name, UTF16) + Length(f.Value, UTF16)
		}
		if e.Footer != nil {
			n += Length(e.Footer.Text, UTF16)
		}
		if e.Author != nil {
			n += Length(e.Author.Name, UTF16)
		}
	}
	return n
}
