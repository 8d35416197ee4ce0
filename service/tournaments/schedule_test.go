package tournaments

import (
	"errors"
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
)

func TestPlannedStartEditAndScheduledEvent(t *testing.T) {
	r := newRig(t)
	starts := t0.Add(48 * time.Hour)
	v, err := r.ts.Create(ctx, CreateRequest{GuildID: "g", ChannelID: "c", By: player(1), Name: "Winter Swiss",
		Settings: Settings{Format: Swiss, Rounds: 5, Control: "5+3"}, Starts: starts})
	if err != nil {
		t.Fatal(err)
	}
	if !v.State.Starts.Equal(starts) || v.ScheduledEvent != "" {
		t.Fatalf("created: starts %v, event %q", v.State.Starts, v.ScheduledEvent)
	}
	// 5 rounds of 2×(5 min + 40×3 s) + 5 min = 19 min each.
	if got, want := v.ExpectedEnd(), starts.Add(5*19*time.Minute); !got.Equal(want) {
		t.Errorf("expected end %v, want %v", got, want)
	}
	if got, err := r.ts.SetScheduledEvent(ctx, v.ID, "9001"); err != nil || got != "9001" {
		t.Fatalf("record the event: %q, %v", got, err)
	}
	// A second event made at once by a duplicate request is not recorded over the first.
	if got, err := r.ts.SetScheduledEvent(ctx, v.ID, "9002"); err != nil || got != "9001" {
		t.Fatalf("record a second event: %q, %v", got, err)
	}
	if err := r.ts.ForgetScheduledEvent(ctx, v.ID, "9002"); err != nil {
		t.Fatal(err)
	}
	if got, _ := r.ts.Get(ctx, v.ID); got.ScheduledEvent != "9001" {
		t.Fatalf("forgetting another event cleared %q", got.ScheduledEvent)
	}
	if err := r.ts.ForgetScheduledEvent(ctx, v.ID, "9001"); err != nil {
		t.Fatal(err)
	}
	if got, err := r.ts.SetScheduledEvent(ctx, v.ID, "9001"); err != nil || got != "9001" {
		t.Fatalf("record the event again: %q, %v", got, err)
	}
	later := starts.Add(time.Hour)
	v, err = r.ts.Edit(ctx, EditRequest{ID: v.ID, GuildID: "g", By: "u1", Name: "Winter Open", Starts: later})
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "Winter Open" || !v.State.Starts.Equal(later) || v.ScheduledEvent != "9001" {
		t.Errorf("edited: %q, %v, event %q", v.Name, v.State.Starts, v.ScheduledEvent)
	}
	got, err := r.ts.Get(ctx, v.ID)
	version := got.Version
	if err != nil || got.Name != "Winter Open" || !got.State.Starts.Equal(later) || got.ScheduledEvent != "9001" {
		t.Errorf("read back: %+v, %v", got, err)
	}

	// Bad requests change nothing.
	for name, tc := range map[string]struct {
		req  EditRequest
		want error
	}{
		"nothing":      {EditRequest{ID: v.ID, GuildID: "g", By: "u1"}, ErrBadRequest},
		"past":         {EditRequest{ID: v.ID, GuildID: "g", By: "u1", Starts: t0.Add(-time.Minute)}, ErrBadRequest},
		"now":          {EditRequest{ID: v.ID, GuildID: "g", By: "u1", Starts: t0}, ErrBadRequest},
		"too far":      {EditRequest{ID: v.ID, GuildID: "g", By: "u1", Starts: t0.Add(MaxLeadTime + time.Hour)}, ErrBadRequest},
		"long name":    {EditRequest{ID: v.ID, GuildID: "g", By: "u1", Name: string(make([]rune, 81))}, ErrBadRequest},
		"not creator":  {EditRequest{ID: v.ID, GuildID: "g", By: "u2", Name: "Mine"}, ErrNotOrganizer},
		"other server": {EditRequest{ID: v.ID, GuildID: "g2", By: "u1", Name: "Mine", Manager: true}, ErrWrongGuild},
		"no such":      {EditRequest{ID: 99, GuildID: "g", By: "u1", Name: "Mine"}, ErrNoSuchEvent},
	} {
		if _, err := r.ts.Edit(ctx, tc.req); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
	if got, _ := r.ts.Get(ctx, v.ID); got.Name != "Winter Open" || !got.State.Starts.Equal(later) || got.Version != version {
		t.Errorf("after refused edits: %q, %v, version %d (want %d)", got.Name, got.State.Starts, got.Version, version)
	}
	if _, err := r.ts.Create(ctx, CreateRequest{GuildID: "g", ChannelID: "c", By: player(1),
		Settings: Settings{Format: Swiss, Rounds: 3}, Starts: t0.Add(-time.Hour)}); !errors.Is(err, ErrBadRequest) {
		t.Errorf("create with a past start: %v", err)
	}

	// A manager may edit; once started the event cannot be.
	if _, err := r.ts.Edit(ctx, EditRequest{ID: v.ID, GuildID: "g", By: "u9", Manager: true, Name: "Winter Cup"}); err != nil {
		t.Errorf("edit by a manager: %v", err)
	}
	for i := 1; i <= 6; i++ {
		if _, err := r.ts.Join(ctx, v.ID, "g", player(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.ts.Start(ctx, v.ID, "g", "u1", false); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ts.Edit(ctx, EditRequest{ID: v.ID, GuildID: "g", By: "u1", Name: "Late"}); !errors.Is(err, ErrStarted) {
		t.Errorf("edit after the start: %v", err)
	}
	if got, _ := r.ts.Get(ctx, v.ID); got.Status != storage.TournamentRunning || got.ScheduledEvent != "9001" {
		t.Errorf("started: %s, event %q", got.Status, got.ScheduledEvent)
	}
}

func TestExpectedEnd(t *testing.T) {
	at := t0.Add(time.Hour)
	for name, tc := range map[string]struct {
		set  Settings
		want time.Duration
	}{
		"arena":       {Settings{Format: Arena, Duration: 45 * time.Minute, Control: "3+2"}, 45 * time.Minute},
		"swiss":       {Settings{Format: Swiss, Rounds: 3, Control: "10+0"}, 3 * 25 * time.Minute},
		"short":       {Settings{Format: Swiss, Rounds: 1, Control: "1+0"}, minExpectedLength},
		"round robin": {Settings{Format: RoundRobin, Rounds: 2, Control: "3+0"}, 14 * 11 * time.Minute},
		"knockout":    {Settings{Format: Knockout, MatchGames: 2, Control: "5+0"}, 8 * 15 * time.Minute},
		"long":        {Settings{Format: Knockout, MatchGames: 10, Control: "180+30"}, maxExpectedLength},
	} {
		v := &View{State: &State{Settings: tc.set, Starts: at}}
		if got := v.ExpectedEnd().Sub(at); got != tc.want {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
	if end := (&View{State: &State{Settings: Settings{Format: Swiss}}}).ExpectedEnd(); !end.IsZero() {
		t.Errorf("no planned start: %v", end)
	}
}
