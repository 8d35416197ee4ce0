package dutch

import (
	"sort"

	"github.com/gambitchess/gambit/tournament"
)

// sieve is a literal, exhaustive reference implementation of the Dutch
// procedure for small events, used to check the matching-based engine: it
// enumerates every complete legal pairing of the round and then, bracket by
// bracket, keeps the candidates that are best by C5-C21 as the Handbook
// words them (downfloater score lists, score differences), breaking ties by
// the literal generation order of Article 4 (MDP sets, transpositions, and
// resident exchanges sorted by the four rules of 4.3.2).
func sieve(ev *tournament.Event, round int) ([][2]int, int, bool) {
	ps, _ := buildPlayers(ev, round)
	n := len(ps)
	odd := n%2 == 1
	var all [][]int // mate by rank, -1 for the bye
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -2
	}
	var rec func()
	rec = func() {
		i := 0
		for i < n && mate[i] != -2 {
			i++
		}
		if i == n {
			all = append(all, append([]int(nil), mate...))
			return
		}
		if odd && ps[i].eligible {
			hasBye := false
			for _, m := range mate {
				if m == -1 {
					hasBye = true
				}
			}
			if !hasBye {
				mate[i] = -1
				rec()
				mate[i] = -2
			}
		}
		for j := i + 1; j < n; j++ {
			if mate[j] == -2 && compatible(ps[i], ps[j]) {
				mate[i], mate[j] = j, i
				rec()
				mate[i], mate[j] = -2, -2
			}
		}
	}
	rec()
	if len(all) == 0 {
		return nil, 0, false
	}
	byeOf := func(m []int) int {
		for i, x := range m {
			if x == -1 {
				return i
			}
		}
		return -1
	}
	if odd { // C5
		best := all[0]
		for _, m := range all {
			if ps[byeOf(m)].score < ps[byeOf(best)].score {
				best = m
			}
		}
		var keep [][]int
		for _, m := range all {
			if ps[byeOf(m)].score == ps[byeOf(best)].score {
				keep = append(keep, m)
			}
		}
		all = keep
	}
	initial := ev.Initial()
	const big = 1 << 20
	paired := make([]bool, n)
	var mdps []int
	var pairs [][2]int
	for {
		var rest []int
		for i := 0; i < n; i++ {
			if !paired[i] {
				rest = append(rest, i)
			}
		}
		if len(rest) <= 1 {
			break
		}
		isM := map[int]bool{}
		for _, m := range mdps {
			isM[m] = true
		}
		resScore, nextScore := tournament.Points(-1), tournament.Points(-1)
		for _, i := range rest {
			if isM[i] {
				continue
			}
			if resScore < 0 {
				resScore = ps[i].score
			} else if ps[i].score < resScore && nextScore < 0 {
				nextScore = ps[i].score
			}
		}
		inB := map[int]bool{}
		var B, res []int
		B = append(B, mdps...)
		for _, i := range rest {
			if !isM[i] && ps[i].score == resScore {
				res = append(res, i)
				B = append(B, i)
			}
		}
		for _, i := range B {
			inB[i] = true
		}
		inN := map[int]bool{}
		for _, i := range rest {
			if !inB[i] && ps[i].score == nextScore {
				inN[i] = true
			}
		}
		type cand struct {
			m   []int
			key []int
			bp  [][2]int
			d   []int
		}
		var cands []cand
		minD := 1 << 30
		for _, m := range all {
			var bp [][2]int
			bad := false
			for _, i := range B {
				j := m[i]
				if j >= 0 && inB[j] && i < j {
					if isM[i] && isM[j] {
						bad = true
					}
					bp = append(bp, [2]int{i, j})
				}
			}
			inPair := map[int]bool{}
			for _, p := range bp {
				inPair[p[0]], inPair[p[1]] = true, true
			}
			for _, i := range B {
				if j := m[i]; !inPair[i] && j >= 0 && inB[j] && !inPair[j] {
					bad = true // two downfloaters would meet as MDPs later
				}
			}
			if bad {
				continue
			}
			cands = append(cands, cand{m: m, bp: bp})
			if d := len(B) - 2*len(bp); d < minD {
				minD = d
			}
		}
		c9 := odd && resScore <= ps[byeOf(all[0])].score && minD == 1
		for ci := range cands {
			c := &cands[ci]
			m := c.m
			in := map[int]bool{}
			for _, p := range c.bp {
				in[p[0]], in[p[1]] = true, true
			}
			var D []int
			for _, i := range B {
				if !in[i] {
					D = append(D, i)
				}
			}
			c.d = D
			k := []int{len(D)}
			k = append(k, descScores(ps, D)...)
			// C8: the following bracket (downfloaters and next scoregroup).
			nb := map[int]bool{}
			for _, i := range D {
				nb[i] = true
			}
			for i := range inN {
				nb[i] = true
			}
			var nf []int
			for i := range nb {
				j := m[i]
				if !(j >= 0 && nb[j] && (inN[i] || inN[j])) {
					nf = append(nf, i)
				}
			}
			k = append(k, len(nf))
			k = append(k, descScores(ps, nf)...)
			if c9 {
				k = append(k, ps[byeOf(m)].unplayed)
			}
			var f [4]int
			var c14, c15, c16, c17 int
			var d18, d19, d20, d21 []int
			for _, p := range c.bp {
				hi, lo := p[0], p[1]
				if ps[lo].rank < ps[hi].rank {
					hi, lo = lo, hi
				}
				col := allocate(ps[hi], ps[lo], initial)
				a, b, cc, d := colourFailures(ps[hi], ps[lo], col)
				f[0] += a
				f[1] += b
				f[2] += cc
				f[3] += d
				for _, x := range []int{hi, lo} {
					if !isM[x] {
						continue
					}
					r := hi + lo - x
					diff := int(ps[x].score - ps[r].score)
					if ps[r].float1 == floatUp {
						c15++
						d19 = append(d19, diff)
					}
					if ps[r].float2 == floatUp {
						c17++
						d21 = append(d21, diff)
					}
					if ps[x].float1 == floatDown {
						d18 = append(d18, diff)
					}
					if ps[x].float2 == floatDown {
						d20 = append(d20, diff)
					}
				}
			}
			for _, x := range D {
				if isM[x] {
					if ps[x].float1 == floatDown {
						d18 = append(d18, big+int(ps[x].score))
					}
					if ps[x].float2 == floatDown {
						d20 = append(d20, big+int(ps[x].score))
					}
				} else {
					if ps[x].float1 == floatDown {
						c14++
					}
					if ps[x].float2 == floatDown {
						c16++
					}
				}
			}
			k = append(k, f[0], f[1], f[2], f[3], c14, c15, c16, c17)
			for _, d := range [][]int{d18, d19, d20, d21} {
				sort.Sort(sort.Reverse(sort.IntSlice(d)))
				k = append(k, len(d))
				k = append(k, d...)
			}
			// Generation order: MDP set, MDP partners, then the remainder.
			bsn := map[int]int{}
			for x, i := range B {
				bsn[i] = x + 1
			}
			var set, partners []int
			for _, i := range mdps {
				if in[i] {
					set = append(set, bsn[i])
					partners = append(partners, bsn[m[i]])
				}
			}
			k = append(k, set...)
			k = append(k, partners...)
			var remR []int
			for _, r := range res {
				if !(in[r] && isM[m[r]]) {
					remR = append(remR, r)
				}
			}
			k = append(k, remainderOrder(remR, m, in)...)
			c.key = k
		}
		sort.SliceStable(cands, func(a, b int) bool { return lessInts(cands[a].key, cands[b].key) })
		best := cands[0]
		var keep [][]int
		for _, c := range cands {
			if equalPairs(c.bp, best.bp) {
				keep = append(keep, c.m)
			}
		}
		all = keep
		for _, p := range best.bp {
			paired[p[0]], paired[p[1]] = true, true
			pairs = append(pairs, [2]int{ps[p[0]].id, ps[p[1]].id})
		}
		mdps = best.d
	}
	bye := 0
	for i := 0; i < n; i++ {
		if !paired[i] {
			bye = ps[i].id
		}
	}
	return pairs, bye, true
}

func descScores(ps []*player, xs []int) []int {
	var s []int
	for _, x := range xs {
		s = append(s, int(ps[x].score))
	}
	sort.Sort(sort.Reverse(sort.IntSlice(s)))
	return s
}

// remainderOrder returns the generation-order key of the remainder's part of
// a candidate: the index of the first resident exchange (4.3.2) that
// generates it, then the transposition (partners of the new S1 in order).
func remainderOrder(rem []int, m []int, in map[int]bool) []int {
	R := len(rem)
	bsn := map[int]int{}
	for i, r := range rem {
		bsn[r] = i + 1
	}
	var prs [][2]int
	for _, r := range rem {
		j := m[r]
		if in[r] && bsn[j] > bsn[r] {
			prs = append(prs, [2]int{bsn[r], bsn[j]})
		}
	}
	p := len(prs)
	floats := map[int]bool{}
	for _, r := range rem {
		if !in[r] {
			floats[bsn[r]] = true
		}
	}
	type exch struct{ x, y []int }
	var ex []exch
	s1 := seq(1, p)
	s2 := seq(p+1, R)
	for k := 0; k <= min(p, R-p); k++ {
		for _, x := range combos(s1, k) {
			for _, y := range combos(s2, k) {
				ex = append(ex, exch{x, y})
			}
		}
	}
	sort.SliceStable(ex, func(a, b int) bool {
		ea, eb := ex[a], ex[b]
		if len(ea.x) != len(eb.x) {
			return len(ea.x) < len(eb.x)
		}
		da, db := sum(ea.y)-sum(ea.x), sum(eb.y)-sum(eb.x)
		if da != db {
			return da < db
		}
		xa, xb := rev(ea.x), rev(eb.x)
		for i := range xa {
			if xa[i] != xb[i] {
				return xa[i] > xb[i]
			}
		}
		for i := range ea.y {
			if ea.y[i] != eb.y[i] {
				return ea.y[i] < eb.y[i]
			}
		}
		return false
	})
	for idx, e := range ex {
		s1n := map[int]bool{}
		for _, b := range s1 {
			s1n[b] = true
		}
		for _, b := range e.x {
			delete(s1n, b)
		}
		for _, b := range e.y {
			s1n[b] = true
		}
		ok := true
		for b := range floats {
			if s1n[b] {
				ok = false
			}
		}
		var t []int
		partner := map[int]int{}
		for _, pr := range prs {
			if s1n[pr[0]] == s1n[pr[1]] {
				ok = false
			}
			partner[pr[0]], partner[pr[1]] = pr[1], pr[0]
		}
		if !ok {
			continue
		}
		var keys []int
		for b := range s1n {
			keys = append(keys, b)
		}
		sort.Ints(keys)
		for _, b := range keys {
			t = append(t, partner[b])
		}
		return append([]int{idx}, t...)
	}
	return []int{1 << 30}
}

func seq(a, b int) []int {
	var s []int
	for i := a; i <= b; i++ {
		s = append(s, i)
	}
	return s
}

func combos(s []int, k int) [][]int {
	if k == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for i := 0; i+k <= len(s); i++ {
		for _, c := range combos(s[i+1:], k-1) {
			out = append(out, append([]int{s[i]}, c...))
		}
	}
	return out
}

func sum(s []int) int {
	t := 0
	for _, x := range s {
		t += x
	}
	return t
}

func rev(s []int) []int {
	r := append([]int(nil), s...)
	sort.Sort(sort.Reverse(sort.IntSlice(r)))
	return r
}

func lessInts(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

func equalPairs(a, b [][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
