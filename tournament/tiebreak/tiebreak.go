// Package tiebreak computes standings with the FIDE tie-break regulations
// (C.07, the text applied from 2024 with the 2026 amendments): Buchholz with
// Cut and Median modifiers, Sonneborn-Berger, direct encounter, wins, games
// with Black, progressive score, average rating of opponents, Koya, rounds
// elected to play, standard points, pairing number and rating.
//
// Unplayed rounds follow C.07 Article 16: a participant's requested byes
// followed only by voluntarily unplayed rounds count as draws when seen by
// the opponents (16.3), and each of a participant's own unplayed rounds is a
// game against a dummy whose score is the participant's own, capped at the
// scheduled opponent's adjusted score for forfeits and at a draw per round
// otherwise (16.4). Cuts take the lowest voluntarily-unplayed contribution
// first (16.5). The pre-2023 "virtual opponent" is not used.
//
// Values are in hundredths of a point (or rating points), so that products
// such as Sonneborn-Berger stay exact.
package tiebreak

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gambitchess/gambit/tournament"
)

// Kind names a tie-break (the C.07 acronyms).
type Kind string

// Tie-breaks implemented.
const (
	BH   Kind = "BH"   // Buchholz (8.1)
	SB   Kind = "SB"   // Sonneborn-Berger (9.1)
	DE   Kind = "DE"   // Direct encounter (6)
	WIN  Kind = "WIN"  // rounds with a win's points, played or not (7.1)
	WON  Kind = "WON"  // games won over the board (7.2)
	BPG  Kind = "BPG"  // games played with Black (7.3)
	BWG  Kind = "BWG"  // games won with Black (7.4)
	PS   Kind = "PS"   // progressive scores (7.5)
	REP  Kind = "REP"  // rounds one elected to play (7.6)
	STD  Kind = "STD"  // standard points (7.7)
	TPN  Kind = "TPN"  // pairing number, ascending (7.8)
	KS   Kind = "KS"   // Koya for round robins (9.2)
	ARO  Kind = "ARO"  // average rating of opponents (10.1)
	RTNG Kind = "RTNG" // rating, descending (10.6)
)

var known = map[Kind]bool{BH: true, SB: true, DE: true, WIN: true, WON: true, BPG: true, BWG: true, PS: true, REP: true, STD: true, TPN: true, KS: true, ARO: true, RTNG: true}

// Spec is one entry of the tie-break list: a kind with its modifiers (Cut-n
// drops the n least significant values, Median-n also the n most).
type Spec struct {
	Kind   Kind
	Cut    int
	Median int
}

// String formats s in the TRF-2026 style ("BH/C1", "BH/M1").
func (s Spec) String() string {
	out := string(s.Kind)
	if s.Cut > 0 {
		out += "/C" + strconv.Itoa(s.Cut)
	}
	if s.Median > 0 {
		out += "/M" + strconv.Itoa(s.Median)
	}
	return out
}

// ParseList reads a comma-separated tie-break list such as
// "BH/C1, BH, SB, DE" (also "BH-C1" and "Buchholz Cut 1"-free short forms).
func ParseList(s string) ([]Spec, error) {
	var out []Spec
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		sp, err := ParseSpec(item)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, nil
}

// ParseSpec reads one tie-break code.
func ParseSpec(s string) (Spec, error) {
	parts := strings.FieldsFunc(strings.ToUpper(strings.TrimSpace(s)), func(r rune) bool { return r == '/' || r == '-' })
	if len(parts) == 0 {
		return Spec{}, fmt.Errorf("tie-break %q: empty", s)
	}
	sp := Spec{Kind: Kind(parts[0])}
	if !known[sp.Kind] {
		return Spec{}, fmt.Errorf("tie-break %q: unknown (want one of BH, SB, DE, WIN, WON, BPG, BWG, PS, REP, STD, TPN, KS, ARO, RTNG)", s)
	}
	for _, m := range parts[1:] {
		if len(m) < 2 {
			return Spec{}, fmt.Errorf("tie-break %q: modifier %q: want Cn or Mn", s, m)
		}
		n, err := strconv.Atoi(m[1:])
		if err != nil || n < 1 || n > 9 {
			return Spec{}, fmt.Errorf("tie-break %q: modifier %q: want Cn or Mn with n from 1 to 9", s, m)
		}
		switch m[0] {
		case 'C':
			sp.Cut = n
		case 'M':
			sp.Median = n
		default:
			return Spec{}, fmt.Errorf("tie-break %q: modifier %q: want Cn or Mn", s, m)
		}
	}
	if (sp.Cut > 0 || sp.Median > 0) && sp.Kind != BH && sp.Kind != SB && sp.Kind != ARO && sp.Kind != PS {
		return Spec{}, fmt.Errorf("tie-break %q: modifiers apply to BH, SB, ARO and PS only", s)
	}
	return sp, nil
}

// Options tune the computation.
type Options struct {
	// RoundRobin switches to C.07 15.2: forfeits count as played games
	// (except for ARO), and Buchholz should not be used.
	RoundRobin bool
	// Rounds is the number of rounds the standings cover (0: all recorded).
	Rounds int
}

// Row is one line of the standings.
type Row struct {
	Player int
	Points tournament.Points
	Values []int64 // one per Spec, in hundredths
	Rank   int     // shared by players tied on every value
}

// calc holds the derived per-player data.
type calc struct {
	ev     *tournament.Event
	opts   Options
	rounds int
	final  map[int]tournament.Points // raw final scores
	adj    map[int]tournament.Points // scores as seen by opponents (16.3)
}

// category of an unplayed round (16.2); 0 when the game was played.
func (c *calc) category(p *tournament.Player, r int) int {
	res := c.result(p, r)
	if res.Played() {
		return 0
	}
	switch res.Code {
	case tournament.PAB, tournament.FullBye:
		return 1
	case tournament.ForfeitWin:
		return 2
	case tournament.ForfeitLoss:
		return 4
	}
	// Requested bye (H, Z) or absence: .3 if a non-voluntary round follows.
	for k := r + 1; k < c.rounds; k++ {
		if !c.vur(p, k) {
			return 3
		}
	}
	return 5
}

func (c *calc) result(p *tournament.Player, r int) tournament.Result {
	if r < len(p.Results) {
		return p.Results[r]
	}
	return tournament.Result{Code: tournament.ZeroBye}
}

// vur reports a voluntarily unplayed round: a requested bye or forfeit loss.
func (c *calc) vur(p *tournament.Player, r int) bool {
	res := c.result(p, r)
	if res.Played() {
		return false
	}
	switch res.Code {
	case tournament.HalfBye, tournament.ZeroBye, tournament.None, tournament.ForfeitLoss:
		return true
	}
	return false
}

func (c *calc) unplayedCounts(p *tournament.Player, r int) bool {
	res := c.result(p, r)
	if res.Played() {
		return false
	}
	if c.opts.RoundRobin && res.Opponent != 0 {
		return false // 15.2: forfeits are regular games in round robins
	}
	return true
}

func newCalc(ev *tournament.Event, opts Options) *calc {
	c := &calc{ev: ev, opts: opts, final: map[int]tournament.Points{}, adj: map[int]tournament.Points{}}
	c.rounds = opts.Rounds
	if c.rounds == 0 {
		c.rounds = ev.RoundsRecorded()
	}
	for i := range ev.Players {
		p := &ev.Players[i]
		var raw, adj tournament.Points
		for r := 0; r < c.rounds; r++ {
			pts := ev.Scoring.Points(c.result(p, r).Code)
			raw += pts
			if !c.opts.RoundRobin && c.category(p, r) == 5 {
				adj += ev.Scoring.Draw
			} else {
				adj += pts
			}
		}
		c.final[p.ID], c.adj[p.ID] = raw, adj
	}
	return c
}

type contrib struct {
	oppScore tournament.Points
	value    int64
	vur      bool
}

// contributions lists, per round, the opponent's (or dummy's) score and the
// value for BH (score) or SB (score times points).
func (c *calc) contributions(p *tournament.Player, sb bool) []contrib {
	var out []contrib
	own := c.final[p.ID]
	for r := 0; r < c.rounds; r++ {
		res := c.result(p, r)
		pts := c.ev.Scoring.Points(res.Code)
		var opp tournament.Points
		if !c.unplayedCounts(p, r) {
			opp = c.adj[res.Opponent]
		} else {
			opp = own
			if res.Opponent != 0 {
				if a := c.adj[res.Opponent]; a < opp {
					opp = a // 16.4.1
				}
			} else if cap := c.ev.Scoring.Draw * tournament.Points(c.rounds); cap < opp {
				opp = cap // 16.4.2
			}
		}
		v := int64(opp) * 10
		if sb {
			v = int64(opp) * int64(pts)
		}
		out = append(out, contrib{oppScore: opp, value: v, vur: c.vur(p, r)})
	}
	return out
}

// cutSum sums the contributions after Cut/Median (14.1-14.4, 16.5).
func cutSum(cs []contrib, sp Spec, sb bool) int64 {
	cs = append([]contrib(nil), cs...)
	least := func() int { // index of the least significant value
		best := -1
		for i, x := range cs {
			if best < 0 {
				best = i
				continue
			}
			b := cs[best]
			if sb {
				if x.oppScore < b.oppScore || (x.oppScore == b.oppScore && x.value < b.value) {
					best = i
				}
			} else if x.value < b.value {
				best = i
			}
		}
		return best
	}
	drop := func(i int) { cs = append(cs[:i], cs[i+1:]...) }
	lows := sp.Cut + sp.Median
	for k := 0; k < lows && len(cs) > 0; k++ {
		i := least()
		v := -1
		for j, x := range cs {
			if x.vur && (v < 0 || x.value < cs[v].value) {
				v = j
			}
		}
		if v >= 0 && (!sb || cs[v].value >= cs[i].value) {
			i = v
		}
		drop(i)
	}
	for k := 0; k < sp.Median && len(cs) > 0; k++ {
		hi := 0
		for j, x := range cs {
			if x.value > cs[hi].value {
				hi = j
			}
		}
		drop(hi)
	}
	var t int64
	for _, x := range cs {
		t += x.value
	}
	return t
}

func (c *calc) value(p *tournament.Player, sp Spec, group []int) int64 {
	sc := c.ev.Scoring
	switch sp.Kind {
	case BH:
		return cutSum(c.contributions(p, false), sp, false)
	case SB:
		return cutSum(c.contributions(p, true), sp, true)
	case DE:
		return 0 // computed per group in Standings
	case WIN, WON, BPG, BWG, REP, STD:
		var n int64
		for r := 0; r < c.rounds; r++ {
			res := c.result(p, r)
			played := res.Played() || (c.opts.RoundRobin && res.Opponent != 0 && res.Code != tournament.ForfeitLoss)
			pts := sc.Points(res.Code)
			switch sp.Kind {
			case WIN:
				if pts == sc.Win && (res.Code != tournament.ForfeitLoss) {
					n++
				}
			case WON:
				if played && pts == sc.Win {
					n++
				}
			case BPG:
				if played && res.Color == tournament.Black {
					n++
				}
			case BWG:
				if played && res.Color == tournament.Black && pts == sc.Win {
					n++
				}
			case REP:
				if !(res.Code == tournament.HalfBye || res.Code == tournament.ZeroBye || res.Code == tournament.None || res.Code == tournament.ForfeitLoss) {
					n++
				}
			case STD:
				if res.Opponent != 0 {
					o := c.ev.Player(res.Opponent)
					theirs := sc.Points(c.result(o, r).Code)
					if pts > theirs {
						n += 2
					} else if pts == theirs {
						n++
					}
				} else if pts > sc.Draw {
					n += 2
				} else if pts == sc.Draw {
					n++
				}
			}
		}
		if sp.Kind == STD {
			return n * 50
		}
		return n * 100
	case PS:
		var cum tournament.Points
		var cs []contrib
		for r := 0; r < c.rounds; r++ {
			cum += sc.Points(c.result(p, r).Code)
			cs = append(cs, contrib{value: int64(cum) * 10})
		}
		// Cut-n drops the first rounds' scores (14.1.1).
		if sp.Cut > 0 || sp.Median > 0 {
			k := min(sp.Cut+sp.Median, len(cs))
			cs = cs[k:]
			if sp.Median > 0 && len(cs) > 0 {
				cs = cs[:len(cs)-min(sp.Median, len(cs))]
			}
		}
		var t int64
		for _, x := range cs {
			t += x.value
		}
		return t
	case ARO:
		var rs []int
		for r := 0; r < c.rounds; r++ {
			res := c.result(p, r)
			if res.Played() {
				if o := c.ev.Player(res.Opponent); o != nil && o.Rating > 0 {
					rs = append(rs, o.Rating)
				}
			}
		}
		sort.Ints(rs)
		k := min(sp.Cut+sp.Median, len(rs))
		rs = rs[k:]
		if sp.Median > 0 {
			rs = rs[:len(rs)-min(sp.Median, len(rs))]
		}
		if len(rs) == 0 {
			return 0
		}
		t := 0
		for _, x := range rs {
			t += x
		}
		return int64((2*t+len(rs))/(2*len(rs))) * 100 // rounded, 0.5 up
	case KS:
		limit := int(sc.Win) * c.rounds // 50% of the maximum, in tenths ×2
		var t int64
		for r := 0; r < c.rounds; r++ {
			res := c.result(p, r)
			if res.Opponent != 0 && int(c.final[res.Opponent])*2 >= limit {
				t += int64(sc.Points(res.Code)) * 10
			}
		}
		return t
	case TPN:
		return -int64(p.ID) * 100
	case RTNG:
		return int64(p.Rating) * 100
	}
	return 0
}

// directEncounter returns the DE values of a tied group (Article 6): the
// points scored against each other (average when they met more than once),
// forfeits excluded; when not everybody met, 6.3 ranks a participant first
// only if no outcome of the missing games could change that.
func (c *calc) directEncounter(group []int) map[int]int64 {
	in := map[int]bool{}
	for _, id := range group {
		in[id] = true
	}
	pts := map[int]int64{}
	games := map[[2]int]int{}
	score := map[[2]int]int64{}
	for _, id := range group {
		p := c.ev.Player(id)
		for r := 0; r < c.rounds; r++ {
			res := c.result(p, r)
			if in[res.Opponent] && (res.Played() || c.opts.RoundRobin) {
				k := [2]int{id, res.Opponent}
				games[k]++
				score[k] += int64(c.ev.Scoring.Points(res.Code)) * 10
			}
		}
	}
	allMet := true
	for _, a := range group {
		for _, b := range group {
			if a != b && games[[2]int{a, b}] == 0 {
				allMet = false
			}
		}
	}
	for k, g := range games {
		pts[k[0]] += score[k] / int64(g)
	}
	if allMet {
		return pts
	}
	// 6.3: place participants one by one while a single one is ahead of
	// every other whatever the result of the missing games.
	out := map[int]int64{}
	left := append([]int(nil), group...)
	place := int64(len(group))
	for len(left) > 1 {
		found := -1
		for _, a := range left {
			ok := true
			for _, b := range left {
				if a == b {
					continue
				}
				maxB := pts[b]
				for _, o := range group {
					if o != b && games[[2]int{b, o}] == 0 {
						maxB += int64(c.ev.Scoring.Win) * 10
					}
				}
				if pts[a] <= maxB {
					ok = false
					break
				}
			}
			if ok {
				found = a
				break
			}
		}
		if found < 0 {
			break
		}
		out[found] = place * 1000
		place--
		for i, x := range left {
			if x == found {
				left = append(left[:i], left[i+1:]...)
				break
			}
		}
	}
	return out
}

// Standings ranks the players by points, then by each tie-break in order,
// re-evaluating direct encounter within every subgroup still tied (4.2).
func Standings(ev *tournament.Event, specs []Spec, opts Options) []Row {
	c := newCalc(ev, opts)
	rows := make([]Row, len(ev.Players))
	for i := range ev.Players {
		p := &ev.Players[i]
		rows[i] = Row{Player: p.ID, Points: c.final[p.ID], Values: make([]int64, len(specs))}
		for k, sp := range specs {
			if sp.Kind != DE {
				rows[i].Values[k] = c.value(p, sp, nil)
			}
		}
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].Points > rows[b].Points })
	// Refine groups level by level.
	groups := splitBy(rows, func(r Row) int64 { return int64(r.Points) })
	for k, sp := range specs {
		var next [][]Row
		for _, g := range groups {
			if len(g) > 1 {
				if sp.Kind == DE {
					var ids []int
					for _, r := range g {
						ids = append(ids, r.Player)
					}
					de := c.directEncounter(ids)
					for i := range g {
						g[i].Values[k] = de[g[i].Player]
					}
				}
				sort.SliceStable(g, func(a, b int) bool { return g[a].Values[k] > g[b].Values[k] })
			}
			kk := k
			next = append(next, splitBy(g, func(r Row) int64 { return r.Values[kk] })...)
		}
		groups = next
	}
	var out []Row
	for _, g := range groups {
		rank := len(out) + 1
		for _, r := range g {
			r.Rank = rank
			out = append(out, r)
		}
	}
	return out
}

func splitBy(rows []Row, key func(Row) int64) [][]Row {
	var out [][]Row
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && key(rows[j]) == key(rows[i]) {
			j++
		}
		out = append(out, append([]Row(nil), rows[i:j]...))
		i = j
	}
	return out
}

// Format renders a value in points with two decimals ("12.50").
func Format(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}
