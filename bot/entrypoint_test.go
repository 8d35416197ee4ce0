package bot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// The bulk overwrite's commands: globally as defined, with the entry point when the
// Activity is on; in a guild without integration types, contexts or entry point; the
// definitions themselves untouched.
func TestOverwriteDefinitions(t *testing.T) {
	defs := []*discordgo.ApplicationCommand{{Name: "move", Description: "d",
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{0, 1}, Contexts: &[]discordgo.InteractionContextType{0, 1, 2}}}
	for _, tc := range []struct {
		name     string
		guild    string
		activity bool
		want     []string // fragments of the JSON sent
		not      []string
	}{
		{"global", "", false, []string{`"integration_types":[0,1]`, `"contexts":[0,1,2]`}, []string{`"type":4`, `"handler"`}},
		{"global with the Activity", "", true, []string{`"type":4,"name":"launch"`, `"handler":2`, `"integration_types":[0,1]`}, nil},
		{"guild", "g", true, []string{`"name":"move"`}, []string{`"integration_types"`, `"contexts"`, `"type":4`, `"handler"`}},
	} {
		raw, err := json.Marshal(overwriteDefinitions(defs, tc.guild, tc.activity))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(string(raw), w) {
				t.Errorf("%s: %s lacks %s", tc.name, raw, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(string(raw), n) {
				t.Errorf("%s: %s has %s", tc.name, raw, n)
			}
		}
	}
	if defs[0].IntegrationTypes == nil || defs[0].Contexts == nil {
		t.Error("the guild's overwrite changed the definitions themselves")
	}
}
