package render

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

func ratingHistory() []RatingPoint {
	var pts []RatingPoint
	r := 1500.0
	t0 := time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)
	for i := range 60 {
		r += float64((i*37)%29-13) * 1.3
		pts = append(pts, RatingPoint{Time: t0.Add(time.Duration(i) * 31 * time.Hour), Rating: r})
	}
	// Out of order on purpose: the chart sorts by time.
	pts[3], pts[40] = pts[40], pts[3]
	return pts
}

func TestChartGolden(t *testing.T) {
	for _, c := range []struct {
		name   string
		points []RatingPoint
		opt    ChartOptions
	}{
		{"chart_history", ratingHistory(), ChartOptions{Title: "alice · blitz"}},
		{"chart_one_game_small", []RatingPoint{{Time: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), Rating: 1516}}, ChartOptions{Width: 400, Height: 200, Title: "bob"}},
		{"chart_empty", nil, ChartOptions{Title: "carol"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := RatingChart(&buf, c.points, c.opt); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.name, decodePNG(t, buf.Bytes()))
		})
	}
}

func TestChartErrors(t *testing.T) {
	for _, c := range []struct {
		points []RatingPoint
		opt    ChartOptions
		want   string
	}{
		{nil, ChartOptions{Width: 100, Height: 100}, "chart size 100×100"},
		{nil, ChartOptions{Width: 800}, "chart size 800×0"},
		{[]RatingPoint{{Rating: math.NaN()}}, ChartOptions{}, "rating is NaN"},
	} {
		var buf bytes.Buffer
		err := RatingChart(&buf, c.points, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RatingChart(%v): error %v, want one containing %q", c.opt, err, c.want)
		}
	}
}

func TestNiceStep(t *testing.T) {
	for _, c := range []struct{ raw, want float64 }{
		{0, 1}, {-3, 1}, {0.7, 1}, {1, 1}, {1.5, 2}, {2.2, 2.5}, {3, 5}, {7, 10}, {12, 20}, {24, 25}, {26, 50}, {260, 500},
	} {
		if got := niceStep(c.raw); got != c.want {
			t.Errorf("niceStep(%v) = %v, want %v", c.raw, got, c.want)
		}
	}
}

func TestDateLabel(t *testing.T) {
	at := time.Date(2026, 3, 7, 14, 5, 0, 0, time.UTC)
	for _, c := range []struct {
		span time.Duration
		want string
	}{
		{time.Hour, "14:05"}, {10 * 24 * time.Hour, "7 Mar"}, {400 * 24 * time.Hour, "Mar 2026"},
	} {
		if got := dateLabel(at, c.span); got != c.want {
			t.Errorf("dateLabel(span %v) = %q, want %q", c.span, got, c.want)
		}
	}
}

func TestLeaderboardGolden(t *testing.T) {
	rows := []LeaderboardRow{
		{Rank: 1, Name: "Magnus", Rating: 2140, Wins: 30, Draws: 5, Losses: 2},
		{Rank: 2, Name: "a_player_with_a_name_far_too_long_for_the_card", Rating: 2011, Wins: 20, Draws: 3, Losses: 8},
		{Rank: 3, Name: "Judit", Rating: 1950, Wins: 12, Draws: 4, Losses: 4},
		{Rank: 4, Name: "bob", Rating: 1502, Provisional: true, Wins: 2, Losses: 1},
		{Rank: 5, Name: "carol", Rating: 1400, Wins: 8, Draws: 2, Losses: 9},
	}
	for _, c := range []struct {
		name string
		rows []LeaderboardRow
		opt  LeaderboardOptions
	}{
		{"leaderboard", rows, LeaderboardOptions{Title: "Blitz ladder", Subtitle: "Gambit Chess Club · 12 Mar 2026"}},
		{"leaderboard_empty_wide", nil, LeaderboardOptions{Title: "Correspondence", Width: 900}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := LeaderboardCard(&buf, c.rows, c.opt); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.name, decodePNG(t, buf.Bytes()))
		})
	}
}

func TestLeaderboardErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := LeaderboardCard(&buf, nil, LeaderboardOptions{Width: 100}); err == nil || !strings.Contains(err.Error(), "width 100") {
		t.Errorf("narrow card: error %v", err)
	}
	rows := make([]LeaderboardRow, MaxLeaderboardRows+1)
	if err := LeaderboardCard(&buf, rows, LeaderboardOptions{}); err == nil || !strings.Contains(err.Error(), "51 rows") {
		t.Errorf("too many rows: error %v", err)
	}
}
