// Tests of the configured default time control: what a guild that chose none plays.

package games

import (
	"testing"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

func mustControl(t *testing.T, s string) clock.TimeControl {
	t.Helper()
	tc, err := clock.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

func TestConfiguredDefaultControl(t *testing.T) {
	// Alice makes six open challenges: the cap on pending ones is not what this tests.
	h := newHarness(t, Options{DefaultControl: mustControl(t, "3+2"), ChallengeLimits: ChallengeLimits{MaxPending: -1}})
	challengeControl := func(guild string) string {
		t.Helper()
		r, err := h.s.CreateChallenge(ctx, ChallengeRequest{RequestID: h.rid(), GuildID: guild, From: alice})
		if err != nil {
			t.Fatal(err)
		}
		return r.Challenge.Control.String()
	}
	if got := challengeControl("g"); got != "3+2" {
		t.Errorf("a challenge without a time in a guild without settings: %s, want the configured 3+2", got)
	}
	if got := challengeControl(""); got != "3+2" {
		t.Errorf("a challenge without a time outside a guild: %s, want 3+2", got)
	}
	gs, err := h.s.Settings().Guild(ctx, "g")
	if err != nil || gs.DefaultControl.String() != "3+2" {
		t.Fatalf("GuildSettings = %v, %v; want the configured 3+2", gs.DefaultControl, err)
	}

	// Saving another setting (as /settings does: read, change one field, write) leaves
	// the guild on the configuration's default, so a new default applies after a
	// restart.
	gs.PingOnTurn = false
	if err := h.putGuild(gs); err != nil {
		t.Fatal(err)
	}
	if stored, _ := storage.Read(ctx, h.db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings("g") }); stored.DefaultControl.Kind() != clock.KindUnknown {
		t.Errorf("stored control %v: the configured default was written into the guild's settings", stored.DefaultControl)
	}
	h.opts.DefaultControl = mustControl(t, "5+0")
	h.restart()
	if got := challengeControl("g"); got != "5+0" {
		t.Errorf("after the default changed to 5+0: %s", got)
	}
	if gs, _ := h.s.Settings().Guild(ctx, "g"); gs.PingOnTurn {
		t.Error("the other setting was lost")
	}

	// A guild's own choice wins over the configuration, and stays its own.
	gs, _ = h.s.Settings().Guild(ctx, "g")
	gs.DefaultControl = mustControl(t, "1d")
	if err := h.putGuild(gs); err != nil {
		t.Fatal(err)
	}
	h.opts.DefaultControl = mustControl(t, "15+10")
	h.restart()
	if got := challengeControl("g"); got != "1d" {
		t.Errorf("a guild that chose 1d plays %s", got)
	}
	if got := challengeControl("other"); got != "15+10" {
		t.Errorf("another guild plays %s, want the configured 15+10", got)
	}
	// A challenge naming its time is not affected by either.
	r, err := h.s.CreateChallenge(ctx, ChallengeRequest{RequestID: h.rid(), GuildID: "g", From: alice, Control: "1+0"})
	if err != nil || r.Challenge.Control.String() != "1+0" {
		t.Errorf("a challenge naming 1+0: %v, %v", r, err)
	}
}

func TestDefaultControlWithoutConfiguration(t *testing.T) {
	h := newHarness(t, Options{})
	gs, err := h.s.Settings().Guild(ctx, "g")
	if err != nil || gs.DefaultControl.String() != "10+5" {
		t.Errorf("GuildSettings = %v, %v; want 10+5", gs.DefaultControl, err)
	}
	if d := storage.DefaultGuildSettings("g"); d.DefaultControl.Kind() != clock.KindUnknown {
		t.Errorf("the store picks a default time control (%v): the service's configuration does", d.DefaultControl)
	}
}
