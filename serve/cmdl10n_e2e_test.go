package serve

// The localized commands story: the bot registers every command in every shipped
// language, and a member whose Discord is in German or Russian picks the commands by
// their names in that language, on the fake Discord.

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/bot/discordfake"
	"github.com/gambitchess/gambit/i18n"
)

func TestStoryLocalizedCommands(t *testing.T) {
	w := newWorld(t)
	r := w.start()
	defer r.stop()

	// Every registered command has its name and description in every locale of
	// every shipped language; choice values stay as they are.
	cmds := w.f.Commands()
	if len(cmds) < 15 {
		t.Fatalf("%d commands registered", len(cmds))
	}
	for _, c := range cmds {
		for _, l := range i18n.CommandLanguages() {
			for _, code := range l.Discord {
				loc := discordgo.Locale(code)
				chat := c.Type == 0 || c.Type == discordgo.ChatApplicationCommand // a context menu has no description
				if c.NameLocalizations == nil || (*c.NameLocalizations)[loc] == "" || chat && (c.DescriptionLocalizations == nil || (*c.DescriptionLocalizations)[loc] == "") {
					t.Errorf("/%s has no name or description in %s", c.Name, code)
				}
			}
		}
	}
	games := cmds[0]
	for _, c := range cmds {
		if c.Name == "games" {
			games = c
		}
	}
	if games.Name != "games" || (*games.NameLocalizations)["ru"] != "партии" || games.Options[0].Choices[1].Value != "channel" ||
		games.Options[0].Choices[1].NameLocalizations["de"] != "dieser Kanal" {
		t.Fatalf("/games registered as %+v", games)
	}

	// A German member types /partien welche:…; Discord sends /games where:channel.
	de := discordfake.Command("partien", discordfake.StringOpt("welche", "channel")).From(w.bob)
	de.Locale = discordgo.German
	res := w.send(de)
	if !strings.Contains(res.Callback.Data.Content, "in this channel") {
		t.Errorf("/partien answered %q", res.Callback.Data.Content)
	}

	// A Russian member: /доска (board) without a game is answered by /board.
	ru := discordfake.Command("доска").From(w.bob)
	ru.Locale = discordgo.Russian
	if res := w.send(ru); !res.Callback.Data.Ephemeral() {
		t.Errorf("/доска answered %q, want the private answer of /board", res.Callback.Data.Content)
	}

	// A name of one language means nothing in another.
	fr := discordfake.Command("partien").From(w.bob)
	fr.Locale = discordgo.French
	if _, err := w.f.SendInteraction(context.Background(), fr); !errors.Is(err, discordfake.ErrUnknownCommand) {
		t.Errorf("/partien from a French member: %v, want ErrUnknownCommand", err)
	}
}
