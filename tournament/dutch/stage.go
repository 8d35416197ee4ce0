package dutch

import (
	"math/bits"
	"sort"

	"github.com/gambitchess/gambit/tournament"
	"github.com/gambitchess/gambit/tournament/internal/blossom"
)

type wide = blossom.Wide

func newGraph(n, words int) *blossom.Graph { return blossom.New(n, words) }

// layout hands out bit fields of an edge weight, from the least significant.
type layout struct{ pos int }

// add reserves a field wide enough to hold the sum, over a matching of the
// given number of vertices, of per-edge values up to maxPerEdge.
func (l *layout) add(maxPerEdge uint64, vertices int) int {
	p := l.pos
	l.pos += bits.Len64(maxPerEdge*uint64(vertices/2+1)) + 1
	return p
}

func (l *layout) words() int { return (l.pos+2)/64 + 1 }

// levelField is one bit field per score, lowest score in the lowest field.
type levelField map[tournament.Points]int

func (l *layout) addLevels(scores []tournament.Points, maxPerEdge uint64, vertices int) levelField {
	s := append([]tournament.Points(nil), scores...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	f := levelField{}
	for _, x := range s {
		if _, ok := f[x]; !ok {
			f[x] = l.add(maxPerEdge, vertices)
		}
	}
	return f
}

// stage pairs one bracket: the moved-down players (MDPs) and the residents of
// the highest remaining scoregroup, looking ahead at the next scoregroup (C8)
// and at every other player still to pair (C4).
type stage struct {
	e    *engine
	v    []*player
	n    int
	inB  []bool
	mdp  []bool
	inN  []bool
	live []bool
	del  [][]bool
	// forced marks MDPs that must be paired in the bracket (chosen S1).
	forced []bool
	// bsn is the remainder's in-bracket sequence number (1-based, 0 outside).
	bsn   []int
	s1r   int
	rsize int
	gOn   bool
	c9    bool

	base                             [][]wide
	fBonus, fG2, fG1, fD             int
	fC9, fC8, fC6                    int
	fC10, fC11, fC12, fC13           int
	fC14, fC15, fC16, fC17           int
	lC7, lC8, lC18, lC19, lC20, lC21 levelField
	fTop                             int
	words                            int
}

func newStage(e *engine, rem, mdps []*player) *stage {
	n := len(rem)
	st := &stage{e: e, v: rem, n: n}
	st.inB = make([]bool, n)
	st.mdp = make([]bool, n)
	st.inN = make([]bool, n)
	st.live = make([]bool, n)
	st.forced = make([]bool, n)
	st.bsn = make([]int, n)
	st.del = make([][]bool, n)
	for i := range st.del {
		st.del[i] = make([]bool, n)
		st.live[i] = true
	}
	isMDP := map[*player]bool{}
	for _, p := range mdps {
		isMDP[p] = true
	}
	// Residents: the highest score among the non-MDPs.
	var resScore, nextScore tournament.Points
	haveRes, haveNext := false, false
	for _, p := range rem {
		if isMDP[p] {
			continue
		}
		if !haveRes {
			resScore, haveRes = p.score, true
		} else if p.score < resScore && !haveNext {
			nextScore, haveNext = p.score, true
		}
	}
	// Order: MDPs first (score, then pairing number), then residents.
	order := make([]*player, 0, n)
	order = append(order, mdps...)
	for _, p := range rem {
		if !isMDP[p] {
			order = append(order, p)
		}
	}
	st.v = order
	for i, p := range order {
		st.mdp[i] = isMDP[p]
		st.inB[i] = isMDP[p] || p.score == resScore
		st.inN[i] = !st.inB[i] && haveNext && p.score == nextScore
	}
	st.c9 = false
	st.buildBase(false)
	if e.odd && haveRes && resScore <= e.byeScore {
		// C9 applies to a bracket that downfloats exactly one player who then
		// receives the bye. At or below the bye's score that single
		// downfloater is always the bye: everybody below it scores less than
		// the lowest score the bye can go to (C5). Below the bye's scoregroup
		// it is one of the MDPs that came down with the bye candidates, when
		// the bye's scoregroup had to downfloat more than one player (late
		// rounds, where the lowest scorers have all had the bye).
		mate := st.solve(nil)
		if st.bracketSize()-2*st.inBracketPairs(mate) == 1 {
			st.buildBase(true)
		}
	}
	return st
}

func (st *stage) bracketSize() int {
	c := 0
	for i := 0; i < st.n; i++ {
		if st.inB[i] && st.live[i] {
			c++
		}
	}
	return c
}

// inBracket reports whether {i, j} is a pair of this bracket: both in it and
// not two MDPs (MDPs meet residents only).
func (st *stage) inBracket(i, j int) bool {
	return st.inB[i] && st.inB[j] && !(st.mdp[i] && st.mdp[j])
}

func (st *stage) inNext(i, j int) bool {
	return (st.inN[i] && (st.inN[j] || st.inB[j])) || (st.inN[j] && st.inB[i])
}

func (st *stage) buildBase(c9 bool) {
	st.c9 = c9
	n := st.n
	var l layout
	maxUnplayed := uint64(0)
	var bScores, bnScores, mdpScores []tournament.Points
	for i, p := range st.v {
		if uint64(p.unplayed) > maxUnplayed {
			maxUnplayed = uint64(p.unplayed)
		}
		if st.inB[i] {
			bScores = append(bScores, p.score)
			bnScores = append(bnScores, p.score)
		}
		if st.inN[i] {
			bnScores = append(bnScores, p.score)
		}
		if st.mdp[i] {
			mdpScores = append(mdpScores, p.score)
		}
	}
	st.fBonus = l.add(uint64(n+2), n)
	st.fG2 = l.add(uint64(n+1), n)
	st.fG1 = l.add(1, n)
	st.fD = l.add(2, n)
	st.lC21 = l.addLevels(mdpScores, 1, n)
	st.lC20 = l.addLevels(mdpScores, 1, n)
	st.lC19 = l.addLevels(mdpScores, 1, n)
	st.lC18 = l.addLevels(mdpScores, 1, n)
	st.fC17 = l.add(1, n)
	st.fC16 = l.add(2, n)
	st.fC15 = l.add(1, n)
	st.fC14 = l.add(2, n)
	st.fC13 = l.add(2, n)
	st.fC12 = l.add(2, n)
	st.fC11 = l.add(2, n)
	st.fC10 = l.add(2, n)
	st.fC9 = l.add(2*maxUnplayed+1, n)
	st.lC8 = l.addLevels(bnScores, 1, n)
	st.fC8 = l.add(1, n)
	st.lC7 = l.addLevels(bScores, 1, n)
	st.fC6 = l.add(1, n)
	st.fTop = l.add(3, n)
	st.words = l.words()
	if st.words > blossom.MaxWords {
		st.words = blossom.MaxWords // very large brackets: see DESIGN.md
	}
	st.base = make([][]wide, n)
	for i := range st.base {
		st.base[i] = make([]wide, n)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			w := st.edgeWeight(i, j)
			st.base[i][j], st.base[j][i] = w, w
		}
	}
}

func (st *stage) byeCandidate(p *player) bool {
	return p.eligible && p.score <= st.e.byeScore
}

// edgeWeight packs the criteria C4-C21 of pairing vertices i and j.
func (st *stage) edgeWeight(i, j int) wide {
	var w wide
	a, b := st.v[i], st.v[j]
	if !compatible(a, b) || (st.mdp[i] && st.mdp[j]) {
		return w
	}
	top := uint64(1)
	if st.e.odd {
		top += b2u(!st.byeCandidate(a)) + b2u(!st.byeCandidate(b))
	}
	w.SetBits(st.fTop, top)
	if st.c9 {
		var u uint64
		for _, p := range [2]*player{a, b} {
			if st.byeCandidate(p) && p.score == st.e.byeScore {
				u += uint64(p.unplayed)
			}
		}
		w.SetBits(st.fC9, u)
	}
	hi, lo := higher(a, b)
	if st.inNext(i, j) {
		w.SetBits(st.fC8, 1)
		w.SetBits(st.lC8[hi.score], 1)
	}
	if !st.inBracket(i, j) {
		return w
	}
	w.SetBits(st.fC6, 1)
	w.SetBits(st.lC7[hi.score], 1)
	c := allocate(hi, lo, st.e.initial)
	c10, c11, c12, c13 := colourFailures(hi, lo, c)
	w.SetBits(st.fC10, uint64(2-c10))
	w.SetBits(st.fC11, uint64(2-c11))
	w.SetBits(st.fC12, uint64(2-c12))
	w.SetBits(st.fC13, uint64(2-c13))
	// Float criteria. In a pair of this bracket at most one player is an MDP.
	mi, ri := -1, -1 // MDP and resident of an MDP pair
	if st.mdp[i] {
		mi, ri = i, j
	} else if st.mdp[j] {
		mi, ri = j, i
	}
	var c14, c16 uint64
	for _, k := range [2]int{i, j} {
		if !st.mdp[k] {
			c14 += b2u(st.v[k].float1 == floatDown)
			c16 += b2u(st.v[k].float2 == floatDown)
		}
	}
	w.SetBits(st.fC14, c14)
	w.SetBits(st.fC16, c16)
	if mi < 0 {
		w.SetBits(st.fC15, 1)
		w.SetBits(st.fC17, 1)
		return w
	}
	m, r := st.v[mi], st.v[ri]
	w.SetBits(st.fC15, b2u(r.float1 != floatUp))
	w.SetBits(st.fC17, b2u(r.float2 != floatUp))
	w.SetBits(st.lC18[m.score], b2u(m.float1 == floatDown))
	w.SetBits(st.lC19[m.score], b2u(r.float1 != floatUp))
	w.SetBits(st.lC20[m.score], b2u(m.float2 == floatDown))
	w.SetBits(st.lC21[m.score], b2u(r.float2 != floatUp))
	return w
}

// solve returns a maximum-weight matching (mate by stage index, -1 for none)
// of the live vertices, with bonus(i, j) added in the lowest field.
func (st *stage) solve(bonus func(i, j int) uint64) []int {
	idx := make([]int, 0, st.n)
	for i := 0; i < st.n; i++ {
		if st.live[i] {
			idx = append(idx, i)
		}
	}
	g := newGraph(len(idx), st.words)
	for a := 0; a < len(idx); a++ {
		for b := a + 1; b < len(idx); b++ {
			i, j := idx[a], idx[b]
			if st.del[i][j] {
				continue
			}
			w := st.base[i][j]
			if w == (wide{}) {
				continue
			}
			if st.inBracket(i, j) {
				if d := b2u(st.forced[i]) + b2u(st.forced[j]); d > 0 {
					w.AddBits(st.fD, d)
				}
				if st.gOn && st.bsn[i] > 0 && st.bsn[j] > 0 {
					lo := min(st.bsn[i], st.bsn[j])
					w.AddBits(st.fG1, b2u(lo <= st.s1r))
					w.AddBits(st.fG2, uint64(st.rsize+1-lo))
				}
			}
			if bonus != nil {
				if x := bonus(i, j); x > 0 {
					w.AddBits(st.fBonus, x)
				}
			}
			g.AddEdge(a, b, w)
		}
	}
	m := g.Match()
	mate := make([]int, st.n)
	for i := range mate {
		mate[i] = -1
	}
	for a, b := range m {
		if b >= 0 {
			mate[idx[a]] = idx[b]
		}
	}
	return mate
}

func (st *stage) inBracketPairs(mate []int) int {
	c := 0
	for i, j := range mate {
		if j > i && st.inBracket(i, j) {
			c++
		}
	}
	return c
}

func (st *stage) deleteEdge(i, j int) { st.del[i][j], st.del[j][i] = true, true }

func (st *stage) remove(i int) { st.live[i] = false }

// run pairs the bracket and returns its pairs and its downfloaters.
func (st *stage) run() (pairs [][2]*player, floaters []*player) {
	mate := st.solve(nil)
	pairOf := func(i, j int) {
		hi, lo := higher(st.v[i], st.v[j])
		pairs = append(pairs, [2]*player{hi, lo})
		st.remove(i)
		st.remove(j)
	}
	// 1. The set of MDPs to pair (S1), smallest BSNs first (4.4.2).
	var mdps []int
	for i := 0; i < st.n; i++ {
		if st.mdp[i] {
			mdps = append(mdps, i)
		}
	}
	for _, m := range mdps {
		ok := mate[m] >= 0 && st.inBracket(m, mate[m])
		if !ok {
			try := st.solve(func(i, j int) uint64 {
				if (i == m || j == m) && st.inBracket(i, j) {
					return 1
				}
				return 0
			})
			if try[m] >= 0 && st.inBracket(m, try[m]) {
				ok, mate = true, try
			}
		}
		if ok {
			st.forced[m] = true
			continue
		}
		for j := 0; j < st.n; j++ {
			if st.inBracket(m, j) {
				st.deleteEdge(m, j) // the Limbo
			}
		}
	}
	// 2. The MDP-Pairing: each paired MDP in BSN order meets the first
	// resident of the lowest transposition of S2 (4.2).
	residents := []int{}
	for i := 0; i < st.n; i++ {
		if st.inB[i] && !st.mdp[i] {
			residents = append(residents, i)
		}
	}
	rank := map[int]int{}
	for k, r := range residents {
		rank[r] = k
	}
	for _, m := range mdps {
		if !st.forced[m] {
			continue
		}
		first := -1
		for _, o := range residents {
			if st.live[o] && !st.del[m][o] && st.base[m][o] != (wide{}) {
				first = o
				break
			}
		}
		if mate[m] != first {
			mate = st.solve(func(i, j int) uint64 {
				if i == m || j == m {
					o := i + j - m
					if !st.mdp[o] && st.inB[o] {
						return uint64(len(residents) - rank[o])
					}
				}
				return 0
			})
		}
		pairOf(m, mate[m])
	}
	// 3. The remainder: residents not in the MDP-Pairing, fresh BSNs (4.1).
	var rem []int
	for _, r := range residents {
		if st.live[r] {
			rem = append(rem, r)
			st.bsn[r] = len(rem)
		}
	}
	st.rsize = len(rem)
	if len(rem) >= 2 {
		mate = st.solve(nil)
		st.s1r = st.inBracketPairs(mate)
		st.gOn = true
		mate = st.solve(nil)
		byBSN := func(b int) int { return rem[b-1] }
		higherIn := func(i int) []int { // remainder vertices after i
			var out []int
			for b := st.bsn[i] + 1; b <= st.rsize; b++ {
				out = append(out, byBSN(b))
			}
			return out
		}
		// 3a. Exchanges: the players moved from S1R to S2R, largest BSN
		// first (4.3.2 rule 3), among the fewest exchanges with the
		// smallest BSN difference (rules 1, 2; fields G1, G2).
		inX := func(mate []int, i int) bool {
			j := mate[i]
			return j < 0 || st.bsn[j] == 0 || (st.bsn[j] <= st.s1r && st.bsn[j] < st.bsn[i])
		}
		for b := st.s1r; b >= 1; b-- {
			i := byBSN(b)
			ok := inX(mate, i)
			if !ok {
				hs := map[int]bool{}
				for _, h := range higherIn(i) {
					hs[h] = true
				}
				try := st.solve(func(x, y int) uint64 {
					if (x == i && hs[y]) || (y == i && hs[x]) {
						return 0
					}
					return 1
				})
				if inX(try, i) {
					ok, mate = true, try
				}
			}
			if ok {
				for _, h := range higherIn(i) {
					st.deleteEdge(i, h)
				}
				continue
			}
			for j := 0; j < st.n; j++ {
				if j != i && (st.bsn[j] == 0 || st.bsn[j] < b) {
					st.deleteEdge(i, j)
				}
			}
		}
		// 3b. The players moved from S2R to S1R, smallest BSN first (rule 4).
		inY := func(mate []int, i int) bool {
			j := mate[i]
			return j >= 0 && st.bsn[j] > st.bsn[i]
		}
		for b := st.s1r + 1; b <= st.rsize; b++ {
			i := byBSN(b)
			hs := map[int]bool{}
			for _, h := range higherIn(i) {
				hs[h] = true
			}
			ok := inY(mate, i)
			if !ok && len(hs) > 0 {
				try := st.solve(func(x, y int) uint64 {
					if (x == i && hs[y]) || (y == i && hs[x]) {
						return 1
					}
					return 0
				})
				if inY(try, i) {
					ok, mate = true, try
				}
			}
			if ok {
				for j := 0; j < st.n; j++ {
					if j != i && !hs[j] {
						st.deleteEdge(i, j)
					}
				}
				continue
			}
			for h := range hs {
				st.deleteEdge(i, h)
			}
		}
		// 3c. Transposition: each player of the new S1R, in BSN order,
		// meets the lowest possible BSN of the new S2R (4.2).
		for b := 1; b <= st.rsize; b++ {
			i := byBSN(b)
			if !st.live[i] || !inY(mate, i) {
				continue
			}
			// The current optimum already meets the lowest BSN still
			// possible: no solve needed.
			first := -1
			for c := b + 1; c <= st.rsize; c++ {
				if o := byBSN(c); st.live[o] && !st.del[i][o] && st.base[i][o] != (wide{}) {
					first = o
					break
				}
			}
			if mate[i] != first {
				mate = st.solve(func(x, y int) uint64 {
					if x == i || y == i {
						o := x + y - i
						if st.bsn[o] > b {
							return uint64(st.rsize + 1 - st.bsn[o])
						}
					}
					return 0
				})
			}
			j := mate[i]
			if j < 0 || st.bsn[j] <= b {
				continue
			}
			pairOf(i, j)
		}
	}
	for i := 0; i < st.n; i++ {
		if st.inB[i] && st.live[i] {
			floaters = append(floaters, st.v[i])
		}
	}
	sort.SliceStable(floaters, func(a, b int) bool { return floaters[a].rank < floaters[b].rank })
	return pairs, floaters
}
