package dutch

import (
	"sort"

	"github.com/gambitchess/gambit/tournament"
)

// prefKind is the strength of a colour preference (C.04.3 1.7).
type prefKind int8

const (
	prefNone prefKind = iota
	prefMild
	prefStrong
	prefAbsolute
)

// float is the direction of a player's float in one round (C.04.3 1.4).
type float int8

const (
	floatNone float = iota
	floatDown
	floatUp
)

// player is the pairing state of one participant before the round.
type player struct {
	id       int
	score    tournament.Points
	rank     int // position in pairing order (score, then pairing number)
	tpn      int // TPN for colours (C.04.3 5.2.5): counts arrived players only
	met      map[int]bool
	colors   []tournament.Color // colours of played games, oldest first
	cd       int                // games with white minus games with black
	pref     tournament.Color
	kind     prefKind
	eligible bool // may receive the pairing-allocated bye (C2)
	float1   float
	float2   float
	unplayed int // rounds so far without a played game
	top      bool
}

// roundToPair returns the 1-based round to pair and whether the last recorded
// round column only holds absences for it (then those players sit out).
func roundToPair(ev *tournament.Event) int {
	last := ev.RoundsRecorded()
	if last == 0 {
		return 1
	}
	for _, p := range ev.Players {
		if len(p.Results) >= last {
			r := p.Results[last-1]
			if r.Opponent != 0 || r.Code == tournament.PAB {
				return last + 1
			}
		}
	}
	return last
}

// buildPlayers derives the pairing state of every player present in round.
func buildPlayers(ev *tournament.Event, round int) (present []*player, absent []int) {
	prev := round - 1
	sc := ev.Scoring
	tpns := arrivedTPNs(ev, round)
	scoreBefore := func(p *tournament.Player, k int) tournament.Points { return ev.Score(p, k) }
	final := ev.Rounds > 0 && round >= ev.Rounds
	for i := range ev.Players {
		tp := &ev.Players[i]
		if len(tp.Results) >= round {
			absent = append(absent, tp.ID)
			continue
		}
		p := &player{id: tp.ID, tpn: tpns[i], met: map[int]bool{}, eligible: true}
		p.score = scoreBefore(tp, prev)
		for k := 0; k < prev; k++ {
			var r tournament.Result
			if k < len(tp.Results) {
				r = tp.Results[k]
			} else {
				r = tournament.Result{Code: tournament.ZeroBye}
			}
			if r.Played() {
				p.met[r.Opponent] = true
				p.colors = append(p.colors, r.Color)
				if r.Color == tournament.White {
					p.cd++
				} else {
					p.cd--
				}
			} else {
				p.unplayed++
				if r.Code == tournament.PAB || sc.Points(r.Code) >= sc.Win {
					p.eligible = false
				}
			}
			// Floats of the last two rounds.
			back := prev - k
			if back > 2 {
				continue
			}
			f := floatNone
			if !r.Played() {
				if sc.Points(r.Code) > sc.Loss {
					f = floatDown
				}
			} else if o := ev.Player(r.Opponent); o != nil {
				mine, theirs := scoreBefore(tp, k), scoreBefore(o, k)
				if mine > theirs {
					f = floatDown
				} else if mine < theirs {
					f = floatUp
				}
			}
			if back == 1 {
				p.float1 = f
			} else {
				p.float2 = f
			}
		}
		p.pref, p.kind = preference(p.colors, p.cd)
		if final && prev > 0 {
			p.top = int(p.score)*2 > prev*int(sc.Win)
		}
		present = append(present, p)
	}
	sort.SliceStable(present, func(a, b int) bool {
		if present[a].score != present[b].score {
			return present[a].score > present[b].score
		}
		return present[a].id < present[b].id
	})
	for i, p := range present {
		p.rank = i
	}
	return present, absent
}

// arrivedTPNs returns, by index in ev.Players, the Tournament Pairing Number
// each player holds when round is paired, 0 for a player who has not arrived.
//
// C.04.2 Article 2.4 calls a participant who is only taken into account for
// the pairing of rounds after the first a late entry, and gives a late entry
// its TPN (its place in the initial order) and a pairing only when it
// actually arrives. A registered player who is absent from round 1 (a
// requested bye or zero-point absence in the report) is such a late entry:
// until its first pairing it holds no TPN and everybody below it moves up
// one. A player has arrived when it is to be paired in this round or was
// entered in the pairing of an earlier one (a game, a forfeit, or the
// pairing-allocated bye); requested byes and absences are no arrival. With
// the whole field present the TPN is the starting number.
func arrivedTPNs(ev *tournament.Event, round int) []int {
	tpns := make([]int, len(ev.Players))
	n := 0
	for i := range ev.Players {
		if arrived(&ev.Players[i], round) {
			n++
			tpns[i] = n
		}
	}
	return tpns
}

// arrived reports whether p is paired in round or was paired before it.
func arrived(p *tournament.Player, round int) bool {
	if len(p.Results) < round {
		return true
	}
	for _, r := range p.Results[:round-1] {
		if r.Opponent != 0 || r.Code == tournament.PAB {
			return true
		}
	}
	return false
}

// preference computes the colour preference from the played colours (1.7).
func preference(colors []tournament.Color, cd int) (tournament.Color, prefKind) {
	n := len(colors)
	if n == 0 {
		return tournament.NoColor, prefNone
	}
	switch {
	case cd < -1:
		return tournament.White, prefAbsolute
	case cd > 1:
		return tournament.Black, prefAbsolute
	case n >= 2 && colors[n-1] == colors[n-2]:
		return colors[n-1].Opposite(), prefAbsolute
	case cd == -1:
		return tournament.White, prefStrong
	case cd == 1:
		return tournament.Black, prefStrong
	}
	return colors[n-1].Opposite(), prefMild
}

// compatible reports whether a and b may meet under C1 and C3.
func compatible(a, b *player) bool {
	if a.met[b.id] || b.met[a.id] {
		return false
	}
	if a.kind == prefAbsolute && b.kind == prefAbsolute && a.pref == b.pref && !a.top && !b.top {
		return false
	}
	return true
}

// higher returns the higher-ranked of a and b first.
func higher(a, b *player) (*player, *player) {
	if a.rank < b.rank {
		return a, b
	}
	return b, a
}

// allocate returns the colour of the higher-ranked player hi against lo by
// the colour allocation rules of C.04.3 Article 5.
func allocate(hi, lo *player, initial tournament.Color) tournament.Color {
	switch {
	case hi.pref != tournament.NoColor && lo.pref != tournament.NoColor && hi.pref != lo.pref:
		return hi.pref // 5.2.1
	case hi.pref != tournament.NoColor && lo.pref == tournament.NoColor:
		return hi.pref
	case hi.pref == tournament.NoColor && lo.pref != tournament.NoColor:
		return lo.pref.Opposite()
	case hi.pref != tournament.NoColor:
		// Same colour wanted. 5.2.2: the stronger preference.
		if hi.kind != lo.kind {
			if hi.kind > lo.kind {
				return hi.pref
			}
			return hi.pref.Opposite()
		}
		if hi.kind == prefAbsolute && abs(hi.cd) != abs(lo.cd) {
			if abs(hi.cd) > abs(lo.cd) {
				return hi.pref
			}
			return hi.pref.Opposite()
		}
	}
	// 5.2.3: alternate to the most recent round with different colours,
	// unplayed rounds counting as the earliest (C.04.2 3.4).
	for i := 1; i <= len(hi.colors) && i <= len(lo.colors); i++ {
		a, b := hi.colors[len(hi.colors)-i], lo.colors[len(lo.colors)-i]
		if a != b {
			return a.Opposite()
		}
	}
	if hi.pref != tournament.NoColor {
		return hi.pref // 5.2.4
	}
	if hi.tpn%2 == 1 { // 5.2.5
		return initial
	}
	return initial.Opposite()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// colourFailures counts, for the pair (hi gets c), the players who would get a
// colour difference beyond ±2 (C10), a third colour in a row (C11), miss their
// preference (C12) or miss a strong preference (C13).
func colourFailures(hi, lo *player, c tournament.Color) (c10, c11, c12, c13 int) {
	for _, side := range [2]struct {
		p *player
		c tournament.Color
	}{{hi, c}, {lo, c.Opposite()}} {
		p, col := side.p, side.c
		d := p.cd + 1
		if col == tournament.Black {
			d = p.cd - 1
		}
		if abs(d) > 2 {
			c10++
		}
		if n := len(p.colors); n >= 2 && p.colors[n-1] == col && p.colors[n-2] == col {
			c11++
		}
		if p.pref != tournament.NoColor && col != p.pref {
			c12++
			if p.kind == prefStrong {
				c13++
			}
		}
	}
	return
}
