// Package blossom computes maximum-weight matchings in general graphs with
// Edmonds' blossom algorithm in its O(n³) primal-dual form (Gabow/Galil).
// Weights are wide unsigned integers so that callers can pack several
// lexicographically ordered criteria into one weight.
package blossom

import "math/bits"

// Graph is an undirected graph with wide, non-negative edge weights.
type Graph struct {
	n     int
	words int
	ei    []int32
	ej    []int32
	ew    []Wide
}

// New returns an empty graph on n vertices whose weights use the given number
// of 64-bit words (1 to MaxWords). Weights must stay below 2^(64*words-2).
func New(n, words int) *Graph {
	if words < 1 {
		words = 1
	}
	if words > MaxWords {
		words = MaxWords
	}
	return &Graph{n: n, words: words}
}

// AddEdge adds the edge {i, j} with weight w. Zero-weight edges are ignored.
func (g *Graph) AddEdge(i, j int, w Wide) {
	if i == j || isZero(w, g.words) {
		return
	}
	g.ei = append(g.ei, int32(i))
	g.ej = append(g.ej, int32(j))
	g.ew = append(g.ew, w)
}

// Match returns mate[v] for every vertex (-1 when unmatched) of a matching of
// maximum total weight.
func (g *Graph) Match() []int {
	s := newSolver(g)
	s.run()
	out := make([]int, g.n)
	for v := 0; v < g.n; v++ {
		if s.mate[v] >= 0 {
			out[v] = s.endpoint[s.mate[v]]
		} else {
			out[v] = -1
		}
	}
	return out
}

// Weight returns the total weight of the given matching.
func (g *Graph) Weight(mate []int) Wide {
	var t Wide
	for k := range g.ei {
		i, j := int(g.ei[k]), int(g.ej[k])
		if mate[i] == j {
			t = add(t, g.ew[k], MaxWords)
		}
	}
	return t
}

type solver struct {
	g                *Graph
	n, nw            int
	endpoint         []int
	neighbend        [][]int
	mate             []int
	label            []int
	labelend         []int
	inblossom        []int
	blossomparent    []int
	blossomchilds    [][]int
	blossombase      []int
	blossomendps     [][]int
	bestedge         []int
	blossombestedges [][]int
	hasBestEdges     []bool
	unused           []int
	dual             []Wide
	allowedge        []bool
	queue            []int
}

func newSolver(g *Graph) *solver {
	n := g.n
	s := &solver{g: g, n: n, nw: g.words}
	ne := len(g.ei)
	s.endpoint = make([]int, 2*ne)
	s.neighbend = make([][]int, n)
	var maxw Wide
	for k := 0; k < ne; k++ {
		i, j := int(g.ei[k]), int(g.ej[k])
		s.endpoint[2*k] = i
		s.endpoint[2*k+1] = j
		s.neighbend[i] = append(s.neighbend[i], 2*k+1)
		s.neighbend[j] = append(s.neighbend[j], 2*k)
		if cmp(g.ew[k], maxw, s.nw) > 0 {
			maxw = g.ew[k]
		}
	}
	s.mate = fill(n, -1)
	s.label = make([]int, 2*n)
	s.labelend = fill(2*n, -1)
	s.inblossom = make([]int, n)
	for i := range s.inblossom {
		s.inblossom[i] = i
	}
	s.blossomparent = fill(2*n, -1)
	s.blossomchilds = make([][]int, 2*n)
	s.blossombase = fill(2*n, -1)
	for i := 0; i < n; i++ {
		s.blossombase[i] = i
	}
	s.blossomendps = make([][]int, 2*n)
	s.bestedge = fill(2*n, -1)
	s.blossombestedges = make([][]int, 2*n)
	s.hasBestEdges = make([]bool, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		s.unused = append(s.unused, b)
	}
	s.dual = make([]Wide, 2*n)
	for i := 0; i < n; i++ {
		s.dual[i] = maxw
	}
	s.allowedge = make([]bool, ne)
	return s
}

func fill(n, v int) []int {
	x := make([]int, n)
	for i := range x {
		x[i] = v
	}
	return x
}

func (s *solver) slack(k int) Wide {
	var out Wide
	s.slackInto(k, &out)
	return out
}

// slackInto stores dual[i] + dual[j] - 2*w(k) in out, word by word.
func (s *solver) slackInto(k int, out *Wide) {
	i, j := int(s.g.ei[k]), int(s.g.ej[k])
	w := &s.g.ew[k]
	a, b := &s.dual[i], &s.dual[j]
	var carry, borrow, wcarry uint64
	for x := 0; x < s.nw; x++ {
		sum, c1 := bits.Add64(a[x], b[x], carry)
		carry = c1
		w2 := w[x]<<1 | wcarry
		wcarry = w[x] >> 63
		d, b1 := bits.Sub64(sum, w2, borrow)
		borrow = b1
		out[x] = d
	}
}

// slackLess reports whether the slack of edge k is below that of edge l.
func (s *solver) slackLess(k, l int) bool {
	var a, b Wide
	s.slackInto(k, &a)
	s.slackInto(l, &b)
	return cmpP(&a, &b, s.nw) < 0
}

func (s *solver) leaves(b int, out []int) []int {
	if b < s.n {
		return append(out, b)
	}
	for _, t := range s.blossomchilds[b] {
		out = s.leaves(t, out)
	}
	return out
}

func (s *solver) assignLabel(w, t, p int) {
	for {
		b := s.inblossom[w]
		s.label[w], s.label[b] = t, t
		s.labelend[w], s.labelend[b] = p, p
		s.bestedge[w], s.bestedge[b] = -1, -1
		if t == 1 {
			s.queue = s.leaves(b, s.queue)
			return
		}
		base := s.blossombase[b]
		mb := s.mate[base]
		w, t, p = s.endpoint[mb], 1, mb^1
	}
}

func (s *solver) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := s.inblossom[v]
		if s.label[b]&4 != 0 {
			base = s.blossombase[b]
			break
		}
		path = append(path, b)
		s.label[b] = 5
		if s.labelend[b] == -1 {
			v = -1
		} else {
			v = s.endpoint[s.labelend[b]]
			b = s.inblossom[v]
			v = s.endpoint[s.labelend[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		s.label[b] = 1
	}
	return base
}

func (s *solver) addBlossom(base, k int) {
	v, w := int(s.g.ei[k]), int(s.g.ej[k])
	bb := s.inblossom[base]
	bv := s.inblossom[v]
	bw := s.inblossom[w]
	b := s.unused[len(s.unused)-1]
	s.unused = s.unused[:len(s.unused)-1]
	s.blossombase[b] = base
	s.blossomparent[b] = -1
	s.blossomparent[bb] = b
	var path, endps []int
	for bv != bb {
		s.blossomparent[bv] = b
		path = append(path, bv)
		endps = append(endps, s.labelend[bv])
		v = s.endpoint[s.labelend[bv]]
		bv = s.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		s.blossomparent[bw] = b
		path = append(path, bw)
		endps = append(endps, s.labelend[bw]^1)
		w = s.endpoint[s.labelend[bw]]
		bw = s.inblossom[w]
	}
	s.blossomchilds[b] = path
	s.blossomendps[b] = endps
	s.label[b] = 1
	s.labelend[b] = s.labelend[bb]
	s.dual[b] = Wide{}
	for _, lv := range s.leaves(b, nil) {
		if s.label[s.inblossom[lv]] == 2 {
			s.queue = append(s.queue, lv)
		}
		s.inblossom[lv] = b
	}
	bestedgeto := fill(2*s.n, -1)
	for _, cb := range path {
		var lists [][]int
		if !s.hasBestEdges[cb] {
			for _, lv := range s.leaves(cb, nil) {
				var l []int
				for _, p := range s.neighbend[lv] {
					l = append(l, p/2)
				}
				lists = append(lists, l)
			}
		} else {
			lists = [][]int{s.blossombestedges[cb]}
		}
		for _, l := range lists {
			for _, ek := range l {
				i, j := int(s.g.ei[ek]), int(s.g.ej[ek])
				if s.inblossom[j] == b {
					i, j = j, i
				}
				_ = i
				bj := s.inblossom[j]
				if bj != b && s.label[bj] == 1 && (bestedgeto[bj] == -1 || s.slackLess(ek, bestedgeto[bj])) {
					bestedgeto[bj] = ek
				}
			}
		}
		s.blossombestedges[cb] = nil
		s.hasBestEdges[cb] = false
		s.bestedge[cb] = -1
	}
	var best []int
	for _, ek := range bestedgeto {
		if ek != -1 {
			best = append(best, ek)
		}
	}
	s.blossombestedges[b] = best
	s.hasBestEdges[b] = true
	s.bestedge[b] = -1
	for _, ek := range best {
		if s.bestedge[b] == -1 || s.slackLess(ek, s.bestedge[b]) {
			s.bestedge[b] = ek
		}
	}
}

func reverse(x []int) {
	for i, j := 0, len(x)-1; i < j; i, j = i+1, j-1 {
		x[i], x[j] = x[j], x[i]
	}
}

func indexOf(x []int, v int) int {
	for i, y := range x {
		if y == v {
			return i
		}
	}
	return -1
}

func (s *solver) expandBlossom(b int, endstage bool) {
	for _, c := range s.blossomchilds[b] {
		s.blossomparent[c] = -1
		if c < s.n {
			s.inblossom[c] = c
		} else if endstage && isZero(s.dual[c], s.nw) {
			s.expandBlossom(c, endstage)
		} else {
			for _, lv := range s.leaves(c, nil) {
				s.inblossom[lv] = c
			}
		}
	}
	if !endstage && s.label[b] == 2 {
		childs := s.blossomchilds[b]
		endps := s.blossomendps[b]
		l := len(childs)
		at := func(j int) int { return ((j % l) + l) % l }
		entry := s.inblossom[s.endpoint[s.labelend[b]^1]]
		j := indexOf(childs, entry)
		var jstep, trick int
		if j&1 != 0 {
			j -= l
			jstep, trick = 1, 0
		} else {
			jstep, trick = -1, 1
		}
		p := s.labelend[b]
		for j != 0 {
			s.label[s.endpoint[p^1]] = 0
			s.label[s.endpoint[endps[at(j-trick)]^trick^1]] = 0
			s.assignLabel(s.endpoint[p^1], 2, p)
			s.allowedge[endps[at(j-trick)]/2] = true
			j += jstep
			p = endps[at(j-trick)] ^ trick
			s.allowedge[p/2] = true
			j += jstep
		}
		bv := childs[at(j)]
		s.label[s.endpoint[p^1]], s.label[bv] = 2, 2
		s.labelend[s.endpoint[p^1]], s.labelend[bv] = p, p
		s.bestedge[bv] = -1
		j += jstep
		for childs[at(j)] != entry {
			bv = childs[at(j)]
			if s.label[bv] == 1 {
				j += jstep
				continue
			}
			found := -1
			for _, lv := range s.leaves(bv, nil) {
				if s.label[lv] != 0 {
					found = lv
					break
				}
			}
			if found >= 0 {
				s.label[found] = 0
				s.label[s.endpoint[s.mate[s.blossombase[bv]]]] = 0
				s.assignLabel(found, 2, s.labelend[found])
			}
			j += jstep
		}
	}
	s.label[b], s.labelend[b] = -1, -1
	s.blossomchilds[b], s.blossomendps[b] = nil, nil
	s.blossombase[b] = -1
	s.blossombestedges[b] = nil
	s.hasBestEdges[b] = false
	s.bestedge[b] = -1
	s.unused = append(s.unused, b)
}

func (s *solver) augmentBlossom(b, v int) {
	t := v
	for s.blossomparent[t] != b {
		t = s.blossomparent[t]
	}
	if t >= s.n {
		s.augmentBlossom(t, v)
	}
	childs := s.blossomchilds[b]
	endps := s.blossomendps[b]
	l := len(childs)
	at := func(j int) int { return ((j % l) + l) % l }
	i := indexOf(childs, t)
	j := i
	var jstep, trick int
	if i&1 != 0 {
		j -= l
		jstep, trick = 1, 0
	} else {
		jstep, trick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = childs[at(j)]
		p := endps[at(j-trick)] ^ trick
		if t >= s.n {
			s.augmentBlossom(t, s.endpoint[p])
		}
		j += jstep
		t = childs[at(j)]
		if t >= s.n {
			s.augmentBlossom(t, s.endpoint[p^1])
		}
		s.mate[s.endpoint[p]] = p ^ 1
		s.mate[s.endpoint[p^1]] = p
	}
	nc := append(append([]int{}, childs[i:]...), childs[:i]...)
	ne := append(append([]int{}, endps[i:]...), endps[:i]...)
	s.blossomchilds[b] = nc
	s.blossomendps[b] = ne
	s.blossombase[b] = s.blossombase[nc[0]]
}

func (s *solver) augmentMatching(k int) {
	v, w := int(s.g.ei[k]), int(s.g.ej[k])
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		x, p := sp[0], sp[1]
		for {
			bs := s.inblossom[x]
			if bs >= s.n {
				s.augmentBlossom(bs, x)
			}
			s.mate[x] = p
			if s.labelend[bs] == -1 {
				break
			}
			t := s.endpoint[s.labelend[bs]]
			bt := s.inblossom[t]
			x = s.endpoint[s.labelend[bt]]
			j := s.endpoint[s.labelend[bt]^1]
			if bt >= s.n {
				s.augmentBlossom(bt, j)
			}
			s.mate[j] = s.labelend[bt]
			p = s.labelend[bt] ^ 1
		}
	}
}

func (s *solver) run() {
	n := s.n
	nw := s.nw
	for stage := 0; stage < n; stage++ {
		for i := range s.label {
			s.label[i] = 0
			s.bestedge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			s.blossombestedges[b] = nil
			s.hasBestEdges[b] = false
		}
		for i := range s.allowedge {
			s.allowedge[i] = false
		}
		s.queue = s.queue[:0]
		for v := 0; v < n; v++ {
			if s.mate[v] == -1 && s.label[s.inblossom[v]] == 0 {
				s.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(s.queue) > 0 && !augmented {
				v := s.queue[len(s.queue)-1]
				s.queue = s.queue[:len(s.queue)-1]
				for _, p := range s.neighbend[v] {
					k := p / 2
					w := s.endpoint[p]
					if s.inblossom[v] == s.inblossom[w] {
						continue
					}
					var ks Wide
					if !s.allowedge[k] {
						s.slackInto(k, &ks)
						if isZero(ks, nw) {
							s.allowedge[k] = true
						}
					}
					if s.allowedge[k] {
						switch {
						case s.label[s.inblossom[w]] == 0:
							s.assignLabel(w, 2, p^1)
						case s.label[s.inblossom[w]] == 1:
							base := s.scanBlossom(v, w)
							if base >= 0 {
								s.addBlossom(base, k)
							} else {
								s.augmentMatching(k)
								augmented = true
							}
						case s.label[w] == 0:
							s.label[w] = 2
							s.labelend[w] = p ^ 1
						}
						if augmented {
							break
						}
					} else if s.label[s.inblossom[w]] == 1 {
						b := s.inblossom[v]
						if s.bestedge[b] == -1 || s.lessThanSlack(&ks, s.bestedge[b]) {
							s.bestedge[b] = k
						}
					} else if s.label[w] == 0 {
						if s.bestedge[w] == -1 || s.lessThanSlack(&ks, s.bestedge[w]) {
							s.bestedge[w] = k
						}
					}
				}
			}
			if augmented {
				break
			}
			deltatype := 1
			delta := s.dual[0]
			for v := 1; v < n; v++ {
				if cmp(s.dual[v], delta, nw) < 0 {
					delta = s.dual[v]
				}
			}
			deltaedge, deltablossom := -1, -1
			for v := 0; v < n; v++ {
				if s.label[s.inblossom[v]] == 0 && s.bestedge[v] != -1 {
					d := s.slack(s.bestedge[v])
					if cmp(d, delta, nw) < 0 {
						delta, deltatype, deltaedge = d, 2, s.bestedge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if s.blossomparent[b] == -1 && s.label[b] == 1 && s.bestedge[b] != -1 {
					d := half(s.slack(s.bestedge[b]), nw)
					if cmp(d, delta, nw) < 0 {
						delta, deltatype, deltaedge = d, 3, s.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if s.blossombase[b] >= 0 && s.blossomparent[b] == -1 && s.label[b] == 2 && cmp(s.dual[b], delta, nw) < 0 {
					delta, deltatype, deltablossom = s.dual[b], 4, b
				}
			}
			for v := 0; v < n; v++ {
				switch s.label[s.inblossom[v]] {
				case 1:
					s.dual[v] = sub(s.dual[v], delta, nw)
				case 2:
					s.dual[v] = add(s.dual[v], delta, nw)
				}
			}
			for b := n; b < 2*n; b++ {
				if s.blossombase[b] >= 0 && s.blossomparent[b] == -1 {
					switch s.label[b] {
					case 1:
						s.dual[b] = add(s.dual[b], delta, nw)
					case 2:
						s.dual[b] = sub(s.dual[b], delta, nw)
					}
				}
			}
			if deltatype == 1 {
				break
			}
			switch deltatype {
			case 2:
				s.allowedge[deltaedge] = true
				i, j := int(s.g.ei[deltaedge]), int(s.g.ej[deltaedge])
				if s.label[s.inblossom[i]] == 0 {
					i, j = j, i
				}
				_ = j
				s.queue = append(s.queue, i)
			case 3:
				s.allowedge[deltaedge] = true
				s.queue = append(s.queue, int(s.g.ei[deltaedge]))
			case 4:
				s.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if s.blossomparent[b] == -1 && s.blossombase[b] >= 0 && s.label[b] == 1 && isZero(s.dual[b], nw) {
				s.expandBlossom(b, true)
			}
		}
	}
}

func (s *solver) lessThanSlack(a *Wide, l int) bool {
	var b Wide
	s.slackInto(l, &b)
	return cmpP(a, &b, s.nw) < 0
}

func cmpP(a, b *Wide, n int) int {
	for i := n - 1; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
