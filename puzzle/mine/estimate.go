// estimate.go: the first rating of a mined puzzle, before anyone has played it.

package mine

import (
	"strings"

	"github.com/gambitchess/gambit/puzzle"
)

// EstimateRating guesses a puzzle's rating from its length and themes, before anyone has
// played it (players' attempts then move it by Glicko-2): 900 for a one-move mate, about
// 250 more per further solver move, more for material wins than mates, for quiet
// finishes and for under-promotions. Clamped to 600..2600.
func EstimateRating(l puzzle.Line, themes []string) int {
	r := 900 + 250*(l.Steps()-1)
	has := func(t string) bool {
		for _, x := range themes {
			if strings.EqualFold(x, t) {
				return true
			}
		}
		return false
	}
	if !has("mate") {
		r += 150
	}
	if has("underPromotion") {
		r += 250
	}
	if has("backRankMate") {
		r -= 100
	}
	if has("fork") {
		r -= 50
	}
	return min(max(r, 600), 2600)
}
