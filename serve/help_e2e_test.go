package serve

// The /help story: the overview a member asks for, on the fake Discord.

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
)

// listedCommand is how /help names a command.
var listedCommand = regexp.MustCompile(`\*\*/([a-z0-9_-]+)\*\*`)

// askHelp runs /help as bob and returns the commands it lists, checking that the
// answer is private and carries examples.
func (w *world) askHelp() []string {
	w.t.Helper()
	cb := w.send(discordfake.Command("help").From(w.bob)).Callback
	if cb.Type != discordgo.InteractionResponseChannelMessageWithSource || !cb.Data.Ephemeral() {
		w.t.Fatalf("/help answered type %d, ephemeral %v; want a private message", cb.Type, cb.Data.Ephemeral())
	}
	var text strings.Builder
	for _, e := range cb.Data.Embeds {
		text.WriteString(e.Title + "\n" + e.Description + "\n")
	}
	if !strings.Contains(text.String(), "e.g. `/") {
		w.t.Errorf("/help shows no example:\n%s", text.String())
	}
	var names []string
	for _, m := range listedCommand.FindAllStringSubmatch(text.String(), -1) {
		names = append(names, m[1])
	}
	sort.Strings(names)
	return names
}

// registered returns the names of the slash commands a running bot registered, sorted
// (the context menus are right-clicked, not listed by /help).
func (r *running) registered() []string {
	var names []string
	for _, d := range r.bot.Discord.Router.Definitions() {
		if d.Type == discordgo.ChatApplicationCommand || d.Type == 0 {
			names = append(names, d.Name)
		}
	}
	sort.Strings(names)
	return names
}

// /help answers privately, at once, with exactly the commands the bot registered: all
// of them by default, and none that puzzles.enabled: false leaves out.
func TestStoryHelp(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	got, want := w.askHelp(), r.registered()
	if len(want) < 15 || !slices.Equal(got, want) {
		t.Errorf("/help lists %q; the bot registered %q", got, want)
	}
	r.stop()

	off := w.cfg
	off.Puzzles.Enabled = false
	r = w.startWith(off, Deps{})
	got, want = w.askHelp(), r.registered()
	if !slices.Equal(got, want) || !slices.Contains(got, "challenge") {
		t.Errorf("with puzzles off, /help lists %q; the bot registered %q", got, want)
	}
}
