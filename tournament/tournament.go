// Package tournament is the pure model of a chess event shared by the pairing
// systems, the tie-breaks and the TRF reader and writer: players, their round
// by round results, and the scoring scheme. It does no I/O and reads no clock.
//
// Sub-packages: trf (FIDE Tournament Report File), dutch (FIDE Dutch Swiss
// pairings, C.04.3), berger (round-robin tables, C.05 Annex 1), tiebreak
// (FIDE C.07 tie-breaks and standings), knockout (matches with a rapid, blitz
// and Armageddon ladder) and arena (continuous online pairing with streaks
// and berserk).
package tournament

import (
	"fmt"
	"strconv"
	"strings"
)

// Points is a score in tenths of a point, so 1 = 0.1 and 15 = 1.5. Tenths
// cover the usual 1/½/0 scheme as well as 3/1/0 and 2/1/0.
type Points int

// Pts returns whole points as Points.
func Pts(whole int) Points { return Points(whole * 10) }

// String formats p with one decimal, as TRF does ("2.5", "10.0").
func (p Points) String() string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	return fmt.Sprintf("%s%d.%d", sign, int(p)/10, int(p)%10)
}

// ParsePoints reads "2.5", "3", "1,5" or "½"-free decimal text into Points.
func ParsePoints(s string) (Points, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, ",", "."))
	if s == "" {
		return 0, fmt.Errorf("parse points: empty")
	}
	neg := false
	if s[0] == '-' {
		neg, s = true, s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	w, err := strconv.Atoi(whole)
	if err != nil || w < 0 {
		return 0, fmt.Errorf("parse points %q: not a decimal number", s)
	}
	f := 0
	if frac != "" {
		if len(frac) > 1 && strings.Trim(frac[1:], "0") != "" {
			return 0, fmt.Errorf("parse points %q: more than one decimal", s)
		}
		f, err = strconv.Atoi(frac[:1])
		if err != nil {
			return 0, fmt.Errorf("parse points %q: not a decimal number", s)
		}
	}
	p := Points(w*10 + f)
	if neg {
		p = -p
	}
	return p, nil
}

// Color is the colour a player had in a round.
type Color int8

// Colours. NoColor is used for byes and unplayed rounds.
const (
	NoColor Color = iota
	White
	Black
)

// Opposite returns the other colour (NoColor stays NoColor).
func (c Color) Opposite() Color {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColor
}

// String returns "w", "b" or "-" as in TRF.
func (c Color) String() string {
	switch c {
	case White:
		return "w"
	case Black:
		return "b"
	}
	return "-"
}

// Code is a TRF result code of one player in one round.
type Code byte

// Result codes of TRF16 (round cells).
const (
	None        Code = ' ' // round not played and nothing recorded
	Win         Code = '1'
	Draw        Code = '='
	Loss        Code = '0'
	ForfeitWin  Code = '+'
	ForfeitLoss Code = '-'
	WinShort    Code = 'W' // win in a game of less than one move (played, unrated)
	DrawShort   Code = 'D'
	LossShort   Code = 'L'
	HalfBye     Code = 'H' // requested half-point bye
	FullBye     Code = 'F' // requested full-point bye
	PAB         Code = 'U' // pairing-allocated bye
	ZeroBye     Code = 'Z' // zero-point bye or absence
)

// Valid reports whether c is one of the TRF16 result codes.
func (c Code) Valid() bool {
	return strings.IndexByte(" 1=0+-WDLHFUZ", byte(c)) >= 0
}

// Result is one player's round: the scheduled opponent (a starting number,
// 0 for none), the colour and the result code.
type Result struct {
	Opponent int
	Color    Color
	Code     Code
}

// Played reports whether a game was actually played over the board. Forfeits
// and byes are not games: they count neither as a meeting nor for colours.
func (r Result) Played() bool {
	if r.Opponent == 0 {
		return false
	}
	switch r.Code {
	case Win, Draw, Loss, WinShort, DrawShort, LossShort:
		return true
	}
	return false
}

// Scoring is the point value of each kind of round result.
type Scoring struct {
	Win, Draw, Loss Points
	// PAB is the value of a pairing-allocated bye (a win unless the event
	// says otherwise); FullBye, HalfBye and ZeroBye the requested byes.
	PAB, FullBye, HalfBye, ZeroBye Points
}

// StandardScoring is 1, ½, 0 with a full point for the pairing-allocated bye.
var StandardScoring = Scoring{Win: 10, Draw: 5, Loss: 0, PAB: 10, FullBye: 10, HalfBye: 5, ZeroBye: 0}

// Points returns the points scored with result code c.
func (s Scoring) Points(c Code) Points {
	switch c {
	case Win, WinShort, ForfeitWin:
		return s.Win
	case Draw, DrawShort:
		return s.Draw
	case Loss, LossShort, ForfeitLoss:
		return s.Loss
	case PAB:
		return s.PAB
	case FullBye:
		return s.FullBye
	case HalfBye:
		return s.HalfBye
	}
	return s.ZeroBye
}

// Player is one participant with their results so far.
type Player struct {
	ID         int // starting rank (pairing number), 1-based
	Name       string
	Title      string
	Sex        string
	Federation string
	FIDEID     string
	BirthDate  string
	Rating     int
	// Declared is the score written in the report (may be zero when unknown);
	// Rank is the declared rank.
	Declared Points
	Rank     int
	Results  []Result
}

// Event is a whole tournament: its players (index i holds ID i+1) and settings.
type Event struct {
	Name string
	// Rounds is the planned number of rounds (0 when unknown).
	Rounds int
	// InitialColor is the colour drawn before round 1 for the odd TPNs
	// (C.04.3 5.2.5; a player absent from round 1 gets its TPN only when it
	// is first paired, C.04.2 2.4); NoColor means White.
	InitialColor Color
	Scoring      Scoring
	Players      []Player
	// Extra keeps header lines a reader did not interpret, in order.
	Extra []string
}

// Player returns the player with starting number id, or nil.
func (e *Event) Player(id int) *Player {
	if id < 1 || id > len(e.Players) || e.Players[id-1].ID != id {
		for i := range e.Players {
			if e.Players[i].ID == id {
				return &e.Players[i]
			}
		}
		return nil
	}
	return &e.Players[id-1]
}

// Score returns the points of p over its first rounds results (all when
// rounds < 0).
func (e *Event) Score(p *Player, rounds int) Points {
	var t Points
	for i, r := range p.Results {
		if rounds >= 0 && i >= rounds {
			break
		}
		t += e.Scoring.Points(r.Code)
	}
	return t
}

// RoundsRecorded returns the largest number of round cells of any player.
func (e *Event) RoundsRecorded() int {
	m := 0
	for _, p := range e.Players {
		if len(p.Results) > m {
			m = len(p.Results)
		}
	}
	return m
}

// Initial returns the initial colour: the colour of the odd TPNs (C.04.3 5.2.5).
func (e *Event) Initial() Color {
	if e.InitialColor == NoColor {
		return White
	}
	return e.InitialColor
}

// Validate checks that every recorded game is consistent from both sides:
// opponents exist, point back, and colours and results are complementary.
func (e *Event) Validate() error {
	for i := range e.Players {
		p := &e.Players[i]
		if p.ID != i+1 {
			return fmt.Errorf("player %d is stored at position %d: starting numbers must be 1..n in order", p.ID, i+1)
		}
	}
	for _, p := range e.Players {
		for r, res := range p.Results {
			if !res.Code.Valid() {
				return fmt.Errorf("player %d round %d: unknown result code %q", p.ID, r+1, res.Code)
			}
			if res.Opponent == 0 {
				continue
			}
			if res.Opponent == p.ID {
				return fmt.Errorf("player %d round %d: paired against themselves", p.ID, r+1)
			}
			o := e.Player(res.Opponent)
			if o == nil {
				return fmt.Errorf("player %d round %d: opponent %d does not exist", p.ID, r+1, res.Opponent)
			}
			if r >= len(o.Results) || o.Results[r].Opponent != p.ID {
				return fmt.Errorf("player %d round %d: opponent %d does not list %d as opponent", p.ID, r+1, res.Opponent, p.ID)
			}
			or := o.Results[r]
			if res.Played() != or.Played() {
				return fmt.Errorf("player %d round %d: game against %d is played on one side only", p.ID, r+1, o.ID)
			}
			if res.Played() && (res.Color == NoColor || res.Color != or.Color.Opposite()) {
				return fmt.Errorf("player %d round %d: colours against %d are not one white and one black", p.ID, r+1, o.ID)
			}
		}
	}
	return nil
}
