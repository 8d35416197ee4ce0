package commands

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// checkMessageLimits fails the test if resp breaks one of Discord's limits on a
// message and its embeds (counted in UTF-16 units, as Discord does).
func checkMessageLimits(t *testing.T, resp *Response) {
	t.Helper()
	if n := Length(resp.Content, UTF16); n > maxContent {
		t.Errorf("content is %d long, over %d", n, maxContent)
	}
	if len(resp.Embeds) > maxEmbeds {
		t.Errorf("%d embeds, over %d", len(resp.Embeds), maxEmbeds)
	}
	for _, e := range resp.Embeds {
		if n := Length(e.Title, UTF16); n > maxEmbedTitle {
			t.Errorf("embed title %q is %d long, over %d", e.Title, n, maxEmbedTitle)
		}
		if n := Length(e.Description, UTF16); n > maxEmbedDescription {
			t.Errorf("embed %q: description is %d long, over %d", e.Title, n, maxEmbedDescription)
		}
	}
	if n := embedsLength(resp.Embeds); n > maxEmbedsTotal {
		t.Errorf("the embeds are %d long together, over %d", n, maxEmbedsTotal)
	}
}

// helpText is everything /help shows.
func helpText(resp *Response) string {
	var b strings.Builder
	b.WriteString(resp.Content)
	for _, e := range resp.Embeds {
		b.WriteString("\n" + e.Title + "\n" + e.Description)
	}
	return b.String()
}

// /help lists every registered command, privately, within Discord's limits, and is
// what the command answers once the router has indexed the commands.
func TestHelpListsEveryCommand(t *testing.T) {
	cmds := All(&Deps{})
	h := NewHelp()
	h.Index(cmds)
	resp, err := h.Handle(context.Background(), &Request{})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Ephemeral || resp.Kind != NewMessage {
		t.Errorf("/help answers kind %d, ephemeral %v; want a private new message", resp.Kind, resp.Ephemeral)
	}
	checkMessageLimits(t, resp)
	text := helpText(resp)
	for _, c := range cmds {
		name := c.Definition().Name
		if !strings.Contains(text, "**/"+name+"**") {
			t.Errorf("/help does not list /%s", name)
		}
		if ex := registered[name].topic.example; ex != "" && !strings.Contains(text, "`"+ex+"`") {
			t.Errorf("/help does not show /%s's example %q", name, ex)
		}
	}
	var titles []string
	for _, e := range resp.Embeds {
		titles = append(titles, e.Title)
	}
	want := []string{groupPlay.title, groupLadder.title, groupPuzzles.title, groupTournaments.title, groupSettings.title}
	if !slices.Equal(titles, want) {
		t.Errorf("groups %q, want %q", titles, want)
	}
}

// Without /puzzle registered (puzzles switched off), /help names no puzzle command and
// shows no puzzle group.
func TestHelpListsOnlyTheRegisteredCommands(t *testing.T) {
	var cmds []Command
	for _, c := range All(&Deps{}) {
		if c.Definition().Name != "puzzle" {
			cmds = append(cmds, c)
		}
	}
	resp := HelpMessage(cmds)
	text := helpText(resp)
	if strings.Contains(text, "/puzzle") || strings.Contains(text, groupPuzzles.title) {
		t.Errorf("/help without puzzles mentions them:\n%s", text)
	}
	if !strings.Contains(text, "**/tournament**") {
		t.Error("/help without puzzles lost /tournament")
	}
	if h := NewHelp(); len(HelpMessage(h.registered).Embeds) != 0 {
		t.Error("/help before Index lists commands")
	}
}

// Every command's topic has an example that uses the command's own subcommands and
// options.
func TestHelpTopics(t *testing.T) {
	for _, c := range All(&Deps{}) {
		def := c.Definition()
		topic := registered[def.Name].topic
		if topic.example == "" {
			t.Errorf("/%s registers no example: give its topic one", def.Name)
			continue
		}
		sub, opts, err := parseExample(def.Name, topic.example)
		if err != nil {
			t.Errorf("/%s: example %q: %v", def.Name, topic.example, err)
			continue
		}
		var subs []string
		if sub != "" {
			subs = []string{sub}
		}
		declared, err := optionsUnder(def, subs)
		if err != nil {
			t.Errorf("/%s: example %q: %v", def.Name, topic.example, err)
			continue
		}
		for _, o := range opts {
			if _, ok := declared[o]; !ok {
				t.Errorf("/%s: example %q uses option %q, which is not declared there", def.Name, topic.example, o)
			}
		}
	}
}

// parseExample reads "/name sub opt:value opt:two words" into the subcommand path and
// the option names.
func parseExample(name, ex string) (sub string, opts []string, err error) {
	words := strings.Fields(ex)
	if len(words) == 0 || words[0] != "/"+name {
		return "", nil, errors.New("the example does not start with /" + name)
	}
	var path []string
	for _, w := range words[1:] {
		if o, _, ok := strings.Cut(w, ":"); ok {
			opts = append(opts, o)
		} else if len(opts) == 0 {
			path = append(path, w)
		} // else: a later word of the previous option's value
	}
	return strings.Join(path, " "), opts, nil
}

// fakeCommand is a command with a definition only.
type fakeCommand struct{ def *discordgo.ApplicationCommand }

func (c fakeCommand) Definition() *discordgo.ApplicationCommand { return c.def }
func (c fakeCommand) Handle(context.Context, *Request) (*Response, error) {
	return nil, nil
}

// However long the commands' descriptions, and in whatever script, /help keeps to
// Discord's limits; a command without a topic still shows, under "More".
func TestHelpFitsDiscordsLimits(t *testing.T) {
	long := strings.Repeat("Ünïcödé 😀 text ", 20) // 100 characters, emoji counting two
	var cmds []Command
	for i := range 60 {
		name := "cmd" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		def := &discordgo.ApplicationCommand{Name: name, Description: long}
		for j := range 10 {
			def.Options = append(def.Options, &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "sub" + string(rune('a'+j))})
		}
		cmds = append(cmds, fakeCommand{def})
	}
	cmds = append(cmds, All(&Deps{})...)
	resp := HelpMessage(cmds)
	checkMessageLimits(t, resp)
	if got := resp.Embeds[len(resp.Embeds)-1].Title; got != groupMore.title {
		t.Errorf("last group %q, want %q", got, groupMore.title)
	}
	if !strings.Contains(helpText(resp), "**/cmdaa**") {
		t.Error("a command without a topic is not listed")
	}
}
