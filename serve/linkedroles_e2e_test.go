package serve

// Linked Roles: the bot registers its role-connection metadata when it starts, and a
// server can gate a role on it (the fake computes who qualifies, as Discord does).

import (
	"testing"

	"github.com/gambitchess/gambit/bot"
	"github.com/gambitchess/gambit/bot/discordfake"
)

func TestStoryLinkedRolesMetadataRegistered(t *testing.T) {
	w := newWorld(t)
	w.start()
	want := bot.RoleMetadata()
	var got int
	w.waitFor("the role-connection metadata", func() bool { got = len(w.f.RoleMetadata()); return got == len(want) })
	for i, m := range w.f.RoleMetadata() {
		if m.Key != want[i].Key || m.Type != want[i].Type {
			t.Errorf("record %d: %+v, want %+v", i, m, want[i])
		}
	}
	// A role gated on blitz ≥ 1800 is nobody's before a rating is pushed.
	role := w.f.AddLinkedRole(w.f.GuildID, discordfake.RoleRequirement{Key: bot.RoleKeyBlitz, Value: 1800})
	if w.f.HasLinkedRole(w.f.GuildID, role, w.alice.ID) {
		t.Error("alice qualifies with no role connection")
	}
}
