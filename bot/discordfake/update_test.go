package discordfake

// An UPDATE_MESSAGE callback edits the message as Discord does: a field that is null
// or absent stays as it was ("components": null leaves the old buttons live), an empty
// list clears it.

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

func TestUpdateMessageKeepsComponentsOnNull(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	updates := make(chan *discordgo.InteractionResponseData, 1)
	var herr errs
	s := open(t, f, func(s *discordgo.Session) {
		s.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
			if i.Type == discordgo.InteractionMessageComponent {
				herr.add(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: <-updates}))
			}
		})
	})
	buttons := func(ids ...string) []discordgo.MessageComponent {
		var row []discordgo.MessageComponent
		for _, id := range ids {
			row = append(row, discordgo.Button{Label: id, Style: discordgo.PrimaryButton, CustomID: id})
		}
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
	}
	m, err := s.ChannelMessageSendComplex(f.ChannelID, &discordgo.MessageSend{
		Content: "A challenge", Components: buttons("accept", "cancel"),
		Embeds: []*discordgo.MessageEmbed{{Title: "Terms"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t)
	for _, step := range []struct {
		name       string
		data       *discordgo.InteractionResponseData
		click      string
		wantIDs    []string
		wantEmbeds int
	}{
		// discordgo writes a nil slice as null: unchanged on Discord.
		{"null components and embeds", &discordgo.InteractionResponseData{Content: "Accepted"}, "accept", []string{"accept", "cancel"}, 1},
		{"new components", &discordgo.InteractionResponseData{Content: "Again", Components: buttons("again")}, "accept", []string{"again"}, 1},
		{"empty lists", &discordgo.InteractionResponseData{Content: "Done", Components: []discordgo.MessageComponent{}, Embeds: []*discordgo.MessageEmbed{}}, "again", nil, 0},
	} {
		updates <- step.data
		if _, err := f.SendInteraction(ctx, Button(step.click)); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		got, ok := f.Message(m.ID)
		if !ok {
			t.Fatalf("%s: message gone", step.name)
		}
		ids := got.CustomIDs()
		if len(ids) != len(step.wantIDs) || len(got.Embeds) != step.wantEmbeds || got.Content != step.data.Content {
			t.Errorf("after %s: content %q, buttons %v, %d embeds; want buttons %v, %d embeds", step.name, got.Content, ids, len(got.Embeds), step.wantIDs, step.wantEmbeds)
		}
		for i := range ids {
			if i < len(step.wantIDs) && ids[i] != step.wantIDs[i] {
				t.Errorf("after %s: buttons %v, want %v", step.name, ids, step.wantIDs)
			}
		}
	}
	if _, err := f.SendInteraction(ctx, Button("again")); err == nil {
		t.Error("a removed button could still be clicked")
	}
	herr.check(t)
}
