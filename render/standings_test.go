package render

import (
	"bytes"
	"strings"
	"testing"
)

func TestStandingsGolden(t *testing.T) {
	cols := []string{"BH/C1", "BH", "SB", "DE"}
	rows := []StandingsRow{
		{Rank: 1, Name: "Magnus", Points: "4.5", Values: []string{"9.50", "11.00", "12.25", "0.00"}},
		{Rank: 2, Name: "Judit", Points: "4.0", Values: []string{"10.00", "12.00", "10.50", "1.00"}},
		{Rank: 3, Name: "a_player_with_a_name_far_too_long_for_the_card", Points: "3.0", Values: []string{"8.00", "9.00", "6.00", "0.00"}},
		{Rank: 3, Name: "bob", Points: "3.0", Values: []string{"8.00", "9.00", "6.00", "0.00"}},
		{Rank: 5, Name: "carol", Points: "0.5", Values: []string{"7.50", "8.00", "0.75", "0.00"}, Note: "withdrawn"},
	}
	for _, c := range []struct {
		name string
		rows []StandingsRow
		opt  StandingsOptions
	}{
		{"standings_swiss", rows, StandingsOptions{Title: "Spring Swiss", Subtitle: "Swiss · 5+3 · final, 5 rounds", Columns: cols}},
		{"standings_arena_wide", []StandingsRow{
			{Rank: 1, Name: "alice", Points: "11", Values: []string{"6"}, Note: "on fire"},
			{Rank: 2, Name: "bob", Points: "4", Values: []string{"5"}},
		}, StandingsOptions{Title: "Blitz arena", Subtitle: "final", Columns: []string{"Games"}, Width: 1000}},
		{"standings_empty", nil, StandingsOptions{Title: "New event"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := StandingsCard(&buf, c.rows, c.opt); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.name, decodePNG(t, buf.Bytes()))
		})
	}
}

func TestStandingsErrors(t *testing.T) {
	var buf bytes.Buffer
	for _, c := range []struct {
		rows []StandingsRow
		opt  StandingsOptions
		want string
	}{
		{nil, StandingsOptions{Width: 100}, "width 100"},
		{make([]StandingsRow, MaxStandingsRows+1), StandingsOptions{}, "65 rows"},
		{nil, StandingsOptions{Columns: make([]string, 7)}, "7 tie-break columns"},
		{[]StandingsRow{{Values: []string{"1"}}}, StandingsOptions{}, "row 1 has 1 values for 0 columns"},
	} {
		if err := StandingsCard(&buf, c.rows, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want %q, got %v", c.want, err)
		}
	}
}
