package render

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestReviewCardGolden(t *testing.T) {
	white := ReviewSide{Name: "ana", Accuracy: 87.4, HasAccuracy: true, Counts: [reviewClasses]int{14, 6, 4, 2, 1, 1, 0}}
	black := ReviewSide{Name: "Gambit engine (level 3)", Accuracy: 62.05, HasAccuracy: true, Counts: [reviewClasses]int{9, 5, 6, 3, 2, 0, 3}}
	for _, c := range []struct {
		name         string
		white, black ReviewSide
		opt          ReviewCardOptions
	}{
		{"reviewcard_game", white, black, ReviewCardOptions{Title: "Game 12 · review", Opening: "B90 Sicilian Defense: Najdorf Variation", Result: "0-1 · Black wins by checkmate"}},
		{"reviewcard_one_move_wide", ReviewSide{Name: "bo", Accuracy: 100, HasAccuracy: true, Counts: [reviewClasses]int{1}}, ReviewSide{Name: "cy"},
			ReviewCardOptions{Title: "Game 3 · review", Result: "1-0 · White wins by resignation", Width: 960}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := ReviewCard(&buf, c.white, c.black, c.opt); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.name, decodePNG(t, buf.Bytes()))
		})
	}
}

func TestReviewCardRefusesBadInput(t *testing.T) {
	good := ReviewSide{Name: "ana", Accuracy: 50, HasAccuracy: true}
	for _, c := range []struct {
		name         string
		white, black ReviewSide
		opt          ReviewCardOptions
		want         string
	}{
		{"narrow", good, good, ReviewCardOptions{Width: 399}, "width 399"},
		{"wide", good, good, ReviewCardOptions{Width: 2001}, "width 2001"},
		{"accuracy above 100", ReviewSide{Name: "x", Accuracy: 100.5, HasAccuracy: true}, good, ReviewCardOptions{}, "x's accuracy 100.5"},
		{"NaN accuracy", good, ReviewSide{Name: "y", Accuracy: math.NaN(), HasAccuracy: true}, ReviewCardOptions{}, "y's accuracy NaN"},
		{"negative count", ReviewSide{Name: "z", Counts: [reviewClasses]int{ClassBlunder: -1}}, good, ReviewCardOptions{}, "z's count of Blunder moves is -1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := ReviewCard(&buf, c.white, c.black, c.opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ReviewCard: %v, want an error with %q", err, c.want)
			}
			if buf.Len() != 0 {
				t.Errorf("%d bytes written beside the error", buf.Len())
			}
		})
	}
}
