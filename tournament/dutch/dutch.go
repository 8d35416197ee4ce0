// Package dutch pairs the next round of a Swiss event by the FIDE (Dutch)
// System, C.04.3 in the text in force since 2025/2026 (criteria C1-C21,
// Articles 1-5), with the basic rules of C.04.1 and the handling rules of
// C.04.2.
//
// The pairing of each bracket is the candidate the Handbook's sequential
// procedure would choose: the best one by the quality criteria, the earliest
// in generation order among equals. Instead of enumerating transpositions and
// exchanges, the criteria are packed as bit fields into the edge weights of a
// maximum-weight matching over all players still to pair (which also enforces
// the completion criterion C4 and the bye criteria C2, C5), and the
// generation order (MDP set, MDP-Pairing transposition, resident exchange,
// remainder transposition, Articles 3.6, 3.7 and 4) is then reproduced by
// fixing one decision at a time, each time re-solving with a small bonus for
// the preferred choice. See DESIGN.md in this directory.
package dutch

import (
	"errors"
	"fmt"
	"sort"

	"github.com/gambitchess/gambit/tournament"
)

// ErrNoPairing reports that no pairing satisfies the absolute criteria
// (C.04.3 1.9.3: the Chief Arbiter decides).
var ErrNoPairing = errors.New("no pairing satisfies the absolute criteria")

// Board is one game of the round, by starting number.
type Board struct {
	White, Black int
}

// Pairing is the result of pairing one round.
type Pairing struct {
	Round  int
	Boards []Board // in board order (C.04.2)
	Bye    int     // starting number of the pairing-allocated bye, 0 if none
	Absent []int   // players not paired (requested byes, absences)
}

// Pair pairs the next round of ev: the first round after the recorded ones,
// or the last recorded round when its column only holds absences (players
// with a filled cell for the round to pair sit out).
func Pair(ev *tournament.Event) (*Pairing, error) {
	return PairRound(ev, roundToPair(ev))
}

// PairRound pairs round (1-based) from the results of the rounds before it.
func PairRound(ev *tournament.Event, round int) (*Pairing, error) {
	if round < 1 {
		return nil, fmt.Errorf("pair round %d: rounds start at 1", round)
	}
	if err := ev.Validate(); err != nil {
		return nil, fmt.Errorf("pair round %d: %w", round, err)
	}
	players, absent := buildPlayers(ev, round)
	e := &engine{players: players, initial: ev.Initial()}
	pairs, bye, err := e.pair()
	if err != nil {
		return nil, fmt.Errorf("pair round %d: %w", round, err)
	}
	out := &Pairing{Round: round, Absent: absent}
	if bye != nil {
		out.Bye = bye.id
	}
	sort.SliceStable(pairs, func(i, j int) bool {
		a, b := pairs[i], pairs[j]
		if a[0].score != b[0].score {
			return a[0].score > b[0].score
		}
		if sa, sb := a[0].score+a[1].score, b[0].score+b[1].score; sa != sb {
			return sa > sb
		}
		return a[0].rank < b[0].rank
	})
	for _, pr := range pairs {
		hi, lo := pr[0], pr[1]
		if allocate(hi, lo, e.initial) == tournament.White {
			out.Boards = append(out.Boards, Board{White: hi.id, Black: lo.id})
		} else {
			out.Boards = append(out.Boards, Board{White: lo.id, Black: hi.id})
		}
	}
	return out, nil
}

type engine struct {
	players  []*player
	initial  tournament.Color
	odd      bool
	byeScore tournament.Points
}

// pair returns the pairs (higher-ranked first) and the bye.
func (e *engine) pair() ([][2]*player, *player, error) {
	n := len(e.players)
	e.odd = n%2 == 1
	if n == 0 {
		return nil, nil, nil
	}
	if n == 1 {
		if !e.players[0].eligible {
			return nil, nil, ErrNoPairing
		}
		return nil, e.players[0], nil
	}
	if err := e.byeScoreAndCompletion(); err != nil {
		return nil, nil, err
	}
	rem := append([]*player(nil), e.players...)
	var mdps []*player
	var pairs [][2]*player
	for len(rem) > 1 {
		if len(mdps) == len(rem) {
			return nil, nil, fmt.Errorf("%w: moved-down players left without residents", ErrNoPairing)
		}
		st := newStage(e, rem, mdps)
		ps, floaters := st.run()
		pairs = append(pairs, ps...)
		next := rem[:0:0]
		paired := map[*player]bool{}
		for _, p := range ps {
			paired[p[0]], paired[p[1]] = true, true
		}
		for _, p := range rem {
			if !paired[p] {
				next = append(next, p)
			}
		}
		rem = next
		mdps = floaters
	}
	var bye *player
	if len(rem) == 1 {
		bye = rem[0]
		if !bye.eligible || !e.odd {
			return nil, nil, fmt.Errorf("%w: internal: player %d left unpaired", ErrNoPairing, bye.id)
		}
	}
	return pairs, bye, nil
}

// byeScoreAndCompletion checks C4 for the whole round and finds the lowest
// score the pairing-allocated bye can go to (C5).
func (e *engine) byeScoreAndCompletion() error {
	ps := e.players
	levels := scoreLevels(ps)
	var l layout
	lv := l.add(uint64(2*len(levels)), len(ps))
	top := l.add(3, len(ps))
	g := newGraph(len(ps), l.words())
	for i := 0; i < len(ps); i++ {
		for j := i + 1; j < len(ps); j++ {
			if !compatible(ps[i], ps[j]) {
				continue
			}
			var w wide
			v := uint64(1)
			if e.odd {
				v += b2u(!ps[i].eligible) + b2u(!ps[j].eligible)
			}
			w.SetBits(top, v)
			w.AddBits(lv, uint64(levels[ps[i].score]+levels[ps[j].score]))
			g.AddEdge(i, j, w)
		}
	}
	mate := g.Match()
	unmatched := -1
	for v, m := range mate {
		if m < 0 {
			if unmatched >= 0 || !e.odd || !ps[v].eligible {
				return ErrNoPairing
			}
			unmatched = v
		}
	}
	if unmatched >= 0 {
		e.byeScore = ps[unmatched].score
	}
	return nil
}

// scoreLevels maps each distinct score to its rank from the lowest (0).
func scoreLevels(ps []*player) map[tournament.Points]int {
	var s []tournament.Points
	seen := map[tournament.Points]bool{}
	for _, p := range ps {
		if !seen[p.score] {
			seen[p.score] = true
			s = append(s, p.score)
		}
	}
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	m := map[tournament.Points]int{}
	for i, x := range s {
		m[x] = i
	}
	return m
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
