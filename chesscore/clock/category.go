// category.go: FIDE time categories (and the online bullet convention).

package clock

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Category is the speed class of a time control.
type Category uint8

// The categories, fastest first. NoCategory (the zero value) is for untimed
// and unknown controls.
const (
	NoCategory     Category = iota
	Bullet                  // online convention: 40-move budget under 3 minutes
	Blitz                   // FIDE: 60-move budget of 10 minutes or less
	Rapid                   // FIDE: more than 10 and less than 60 minutes
	Standard                // FIDE: 60 minutes or more (classical)
	Correspondence          // a correspondence control
	// Chess960 is not a speed: it is the category of rated Chess960 games, whatever
	// their control, so that they have a ladder of their own.
	Chess960
)

// Thresholds of the categories, applied to TimeControl budgets.
const (
	bulletUnder  = 3 * time.Minute  // 40-move budget below this is bullet
	blitzUpTo    = 10 * time.Minute // 60-move budget at most this is blitz
	standardFrom = 60 * time.Minute // 60-move budget at least this is standard
	fideMoves    = 60               // moves in the FIDE budget
	onlineMoves  = 40               // moves in the online estimate
)

var categoryNames = [...]string{"none", "bullet", "blitz", "rapid", "standard", "correspondence", "chess960"}

// String returns "bullet", "blitz", "rapid", "standard", "correspondence",
// "chess960", or "none" for NoCategory.
func (c Category) String() string {
	if int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return "Category(" + strconv.Itoa(int(c)) + ")"
}

// FIDE returns the FIDE rating list the category belongs to: Bullet, which
// FIDE does not define, maps to Blitz; the others are unchanged.
func (c Category) FIDE() Category {
	if c == Bullet {
		return Blitz
	}
	return c
}

// ParseCategory reads a category name as String writes it, in any case;
// "classical" is accepted for standard and "daily" for correspondence.
func ParseCategory(s string) (Category, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	switch name {
	case "classical":
		return Standard, nil
	case "daily":
		return Correspondence, nil
	case "960", "chess 960", "fischer random":
		return Chess960, nil
	}
	for i, n := range categoryNames {
		if i != int(NoCategory) && n == name {
			return Category(i), nil
		}
	}
	return NoCategory, fmt.Errorf("category %q: want bullet, blitz, rapid, standard, correspondence or chess960", s)
}

// MarshalText encodes the category as its name.
func (c Category) MarshalText() ([]byte, error) {
	if int(c) >= len(categoryNames) {
		return nil, fmt.Errorf("marshal category: unknown value %d", c)
	}
	return []byte(c.String()), nil
}

// UnmarshalText decodes a name written by MarshalText ("none" included).
func (c *Category) UnmarshalText(text []byte) error {
	if string(text) == "none" {
		*c = NoCategory
		return nil
	}
	parsed, err := ParseCategory(string(text))
	if err != nil {
		return err
	}
	*c = parsed
	return nil
}

// Category returns the speed class of the control (see the package doc):
// from the time a player receives for 60 moves, standard at 60 minutes or
// more, rapid over 10 and under 60, blitz at 10 or less, and bullet when the
// 40-move budget is under 3 minutes. 90+30 is standard, 15+10 and 10+5 are
// rapid, 3+2 is blitz, 2+1 is bullet.
func (tc TimeControl) Category() Category {
	switch tc.Kind() {
	case KindCorrespondence:
		return Correspondence
	case KindLive:
	default:
		return NoCategory
	}
	switch fide := tc.Budget(fideMoves); {
	case fide >= standardFrom:
		return Standard
	case fide > blitzUpTo:
		return Rapid
	case tc.Budget(onlineMoves) < bulletUnder:
		return Bullet
	}
	return Blitz
}
