package games

import (
	"context"
	"slices"
	"testing"
)

// TestRecentGames: a user's games in one guild only, newest first, at most limit, and
// found among at most scan of their games.
func TestRecentGames(t *testing.T) {
	h := newHarness(t, Options{})
	ctx := context.Background()
	var inG []uint64
	for i := 0; i < 3; i++ {
		inG = append(inG, h.start("10+5", "").ID)
		_, err := h.s.StartGame(ctx, StartRequest{RequestID: h.rid(), GuildID: "other", ChannelID: "ch2",
			White: alice, Black: carol, Control: "10+5"})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		guild, user string
		limit, scan int
		want        []uint64
	}{
		{"g", alice.ID, 10, 100, []uint64{inG[2], inG[1], inG[0]}},
		{"g", bob.ID, 2, 100, []uint64{inG[2], inG[1]}},
		{"g", alice.ID, 10, 2, []uint64{inG[2]}}, // the newest two of alice's: one is another guild's
		{"g", carol.ID, 10, 100, nil},
		{"nowhere", alice.ID, 10, 100, nil},
	} {
		got, err := h.s.RecentGames(ctx, c.guild, c.user, c.limit, c.scan)
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint64
		for _, g := range got {
			if g.GuildID != c.guild {
				t.Errorf("RecentGames(%s, %s) returned game %d of guild %s", c.guild, c.user, g.ID, g.GuildID)
			}
			ids = append(ids, g.ID)
		}
		if !slices.Equal(ids, c.want) {
			t.Errorf("RecentGames(%s, %s, %d, %d) = %v, want %v", c.guild, c.user, c.limit, c.scan, ids, c.want)
		}
	}
}
