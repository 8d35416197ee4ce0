package commands

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestRegistrations: each registration builds the command it names, has a place of its
// own in a group /help shows, and All lists every registered command once, group by
// group.
func TestRegistrations(t *testing.T) {
	if len(registered) < 15 {
		t.Fatalf("only %d commands registered", len(registered))
	}
	type place struct {
		group *helpGroup
		order int
	}
	taken := map[place]string{}
	for name, r := range registered {
		if got := r.build(&Deps{}).Definition().Name; got != name {
			t.Errorf("the registration %q builds /%s", name, got)
		}
		if !slices.Contains(helpGroups, r.topic.group) {
			t.Errorf("/%s: its help group %q is not one of helpGroups", name, r.topic.group.title)
		}
		p := place{r.topic.group, r.topic.order}
		if other, ok := taken[p]; ok {
			t.Errorf("/%s and /%s both take place %d in %q: give each its own order", name, other, p.order, p.group.title)
		}
		taken[p] = name
		if !strings.HasPrefix(r.topic.example, "/"+name) {
			t.Errorf("/%s: example %q does not start with the command", name, r.topic.example)
		}
	}
	var names []string
	last := -1
	for _, c := range All(&Deps{}) {
		name := c.Definition().Name
		names = append(names, name)
		g := slices.Index(helpGroups, registered[name].topic.group)
		if g < last {
			t.Errorf("All lists /%s (group %d) after a command of group %d", name, g, last)
		}
		last = g
	}
	if len(names) != len(registered) || len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(registered) {
		t.Errorf("All lists %v, want each of the %d registered commands once", names, len(registered))
	}
}

// TestRegisterRefusesMistakes: a registration without a name, constructor or group,
// or a second one of a name, panics while the package initialises rather than
// leaving a command out.
func TestRegisterRefusesMistakes(t *testing.T) {
	help := registered["help"]
	for _, c := range []struct {
		name string
		r    registration
	}{
		{"no name", registration{build: help.build, topic: help.topic}},
		{"no constructor", registration{name: "x-none", topic: help.topic}},
		{"no group", registration{name: "x-none", build: help.build}},
		{"twice", help},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("register(%+v) did not panic", c.r)
				}
			}()
			register(c.r)
		})
	}
	if _, ok := registered["x-none"]; ok {
		t.Error("a refused registration was kept")
	}
}

// echoCommand is a command a new file could add: /echo text.
type echoCommand struct{}

func (echoCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{Name: "echo", Description: "Say it again", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionString, Name: "text", Description: "What to say"}}}
}

func (echoCommand) Handle(context.Context, *Request) (*Response, error) { return Private("echo"), nil }

// TestANewCommandIsItsRegistration: a command registered from its file, and nothing
// else, is listed by All at its place and shown by /help in its group with its example.
func TestANewCommandIsItsRegistration(t *testing.T) {
	type echoOptions struct {
		Text string `option:"text"`
	}
	register(registration{name: "echo", build: func(*Deps) Command { return echoCommand{} },
		topic:   helpTopic{group: groupLadder, order: 15, example: "/echo text:hello"},
		options: []optionUse{{nil, echoOptions{}}}})
	t.Cleanup(func() { delete(registered, "echo") })
	var names []string
	for _, c := range All(&Deps{}) {
		names = append(names, c.Definition().Name)
	}
	if i := slices.Index(names, "echo"); i < 1 || names[i-1] != "ladder" || names[i+1] != "rating" {
		t.Errorf("All lists %v: want /echo between /ladder (order 10) and /rating (order 20)", names)
	}
	resp := HelpMessage(All(&Deps{}))
	for _, e := range resp.Embeds {
		if strings.Contains(e.Description, "**/echo** — Say it again") {
			if e.Title != groupLadder.title || !strings.Contains(e.Description, "`/echo text:hello`") {
				t.Errorf("/echo is shown in %q as %q", e.Title, e.Description)
			}
			return
		}
	}
	t.Errorf("/help does not show /echo")
}
