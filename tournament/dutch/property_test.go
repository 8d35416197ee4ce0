package dutch

import (
	"math/rand/v2"
	"testing"

	"github.com/gambitchess/gambit/tournament"
	"github.com/gambitchess/gambit/tournament/internal/blossom"
)

// legalPairingExists decides C1-C3 completability independently of the
// engine's weights: a maximum-cardinality matching on the compatibility graph
// with an extra vertex standing for the bye.
func legalPairingExists(ps []*player) bool {
	n := len(ps)
	nv := n
	if n%2 == 1 {
		nv++
	}
	g := blossom.New(nv, 1)
	var one blossom.Wide
	one[0] = 1
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if compatible(ps[i], ps[j]) {
				g.AddEdge(i, j, one)
			}
		}
		if nv > n && ps[i].eligible {
			g.AddEdge(i, n, one)
		}
	}
	for _, m := range g.Match() {
		if m < 0 {
			return false
		}
	}
	return true
}

// TestAbsoluteCriteriaRandomEvents pairs thousands of random events and
// checks every round: no rematch, no second pairing-allocated bye and no bye
// after a win without playing, colour difference within ±2 and no third
// colour in a row except for topscorers in the last round, everyone present
// paired exactly once, and a pairing whenever a legal one exists.
func TestAbsoluteCriteriaRandomEvents(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	events := *propertyEvents
	if testing.Short() {
		events /= 5
	}
	if raceEnabled {
		events /= 20
	}
	rounds, failures := 0, 0
	for e := 0; e < events; e++ {
		n := 4 + r.IntN(37)
		nr := 3 + r.IntN(7)
		simulate(r, n, nr, func(ev *tournament.Event, round int, p *Pairing, err error) bool {
			ps, absent := buildPlayers(ev, round)
			if err != nil {
				if legalPairingExists(ps) {
					t.Fatalf("event %d round %d: %v but a legal pairing exists\n%s", e, round, err, dump(ev))
				}
				failures++
				return false
			}
			rounds++
			byID := map[int]*player{}
			for _, x := range ps {
				byID[x.id] = x
			}
			seen := map[int]bool{}
			for _, a := range absent {
				seen[a] = true
			}
			mark := func(id int) {
				if seen[id] {
					t.Fatalf("event %d round %d: player %d paired twice or while absent\n%s", e, round, id, dump(ev))
				}
				seen[id] = true
			}
			for _, b := range p.Boards {
				mark(b.White)
				mark(b.Black)
				w, bl := byID[b.White], byID[b.Black]
				if w.met[bl.id] {
					t.Fatalf("event %d round %d: rematch %d-%d\n%s", e, round, w.id, bl.id, dump(ev))
				}
				for _, side := range []struct {
					p *player
					c tournament.Color
				}{{w, tournament.White}, {bl, tournament.Black}} {
					x := side.p
					d := x.cd + 1
					if side.c == tournament.Black {
						d = x.cd - 1
					}
					k := len(x.colors)
					three := k >= 2 && x.colors[k-1] == side.c && x.colors[k-2] == side.c
					if (abs(d) > 2 || three) && !w.top && !bl.top {
						t.Fatalf("event %d round %d: player %d gets %v: colour difference %d, three in a row %v\n%s", e, round, x.id, side.c, d, three, dump(ev))
					}
				}
			}
			if p.Bye != 0 {
				mark(p.Bye)
				if !byID[p.Bye].eligible {
					t.Fatalf("event %d round %d: bye to %d, who already had one or won without playing\n%s", e, round, p.Bye, dump(ev))
				}
			}
			if len(seen) != len(ev.Players) {
				t.Fatalf("event %d round %d: %d of %d players accounted for\n%s", e, round, len(seen), len(ev.Players), dump(ev))
			}
			return true
		})
	}
	t.Logf("%d rounds paired, %d rounds with no legal pairing (confirmed)", rounds, failures)
}
