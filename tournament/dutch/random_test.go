package dutch

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/tournament"
	"github.com/gambitchess/gambit/tournament/trf"
)

var (
	sieveEvents    = flag.Int("dutch.sieve", 300, "random small events compared with the exhaustive reference")
	propertyEvents = flag.Int("dutch.events", 500, "random events checked for the absolute criteria")
)

// simulate plays a random event: absences and half-point byes requested
// before pairing, random results, occasional forfeits. pairFn pairs a round
// and check (if not nil) inspects it before results are entered.
func simulate(r *rand.Rand, n, rounds int, check func(ev *tournament.Event, round int, p *Pairing, err error) bool) *tournament.Event {
	ev := &tournament.Event{Rounds: rounds, Scoring: tournament.StandardScoring, InitialColor: tournament.White}
	if r.IntN(2) == 0 {
		ev.InitialColor = tournament.Black
	}
	for i := 1; i <= n; i++ {
		ev.Players = append(ev.Players, tournament.Player{ID: i, Name: fmt.Sprintf("P%02d", i), Rating: 2400 - 10*i})
	}
	absentRate := r.Float64() * 0.15
	forfeitRate := r.Float64() * 0.1
	for round := 1; round <= rounds; round++ {
		for i := range ev.Players {
			if r.Float64() < absentRate {
				code := tournament.ZeroBye
				if r.IntN(2) == 0 {
					code = tournament.HalfBye
				}
				ev.Players[i].Results = append(ev.Players[i].Results, tournament.Result{Code: code})
			}
		}
		// The simulation knows the round: Pair would have to guess it, and a
		// round in which everybody was absent looks like absences entered
		// ahead of the round to pair.
		p, err := PairRound(ev, round)
		if check != nil && !check(ev, round, p, err) {
			return ev
		}
		if err != nil {
			return ev
		}
		for _, b := range p.Boards {
			w, bl := ev.Player(b.White), ev.Player(b.Black)
			var cw, cb tournament.Code
			if r.Float64() < forfeitRate {
				cw, cb = tournament.ForfeitWin, tournament.ForfeitLoss
				if r.IntN(2) == 0 {
					cw, cb = cb, cw
				}
			} else {
				switch x := r.IntN(10); {
				case x < 4:
					cw, cb = tournament.Win, tournament.Loss
				case x < 7:
					cw, cb = tournament.Draw, tournament.Draw
				default:
					cw, cb = tournament.Loss, tournament.Win
				}
			}
			w.Results = append(w.Results, tournament.Result{Opponent: b.Black, Color: tournament.White, Code: cw})
			bl.Results = append(bl.Results, tournament.Result{Opponent: b.White, Color: tournament.Black, Code: cb})
		}
		if p.Bye != 0 {
			pl := ev.Player(p.Bye)
			pl.Results = append(pl.Results, tournament.Result{Code: tournament.PAB})
		}
	}
	return ev
}

func dump(ev *tournament.Event) string {
	var b bytes.Buffer
	trf.Write(&b, ev)
	return b.String()
}

func pairSet(p *Pairing) string {
	var s []string
	for _, b := range p.Boards {
		x, y := min(b.White, b.Black), max(b.White, b.Black)
		s = append(s, fmt.Sprintf("%d-%d", x, y))
	}
	sort.Strings(s)
	return fmt.Sprintf("%s bye %d", strings.Join(s, " "), p.Bye)
}

// TestAgainstSieve compares the engine with the exhaustive reference on
// thousands of random small events, round by round.
func TestAgainstSieve(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 17))
	events := *sieveEvents
	if testing.Short() {
		events /= 5
	}
	if raceEnabled {
		events /= 20
	}
	rounds := 0
	for e := 0; e < events; e++ {
		n := 2 + r.IntN(9)
		simulate(r, n, 3+r.IntN(5), func(ev *tournament.Event, round int, p *Pairing, err error) bool {
			pairs, bye, ok := sieve(ev, round)
			if !ok {
				if err == nil {
					t.Fatalf("event %d round %d: engine paired %v but no legal pairing exists\n%s", e, round, p, dump(ev))
				}
				return false
			}
			if err != nil {
				t.Fatalf("event %d round %d: %v, but the sieve pairs %v bye %d\n%s", e, round, err, pairs, bye, dump(ev))
			}
			want := &Pairing{Bye: bye}
			for _, pr := range pairs {
				want.Boards = append(want.Boards, Board{pr[0], pr[1]})
			}
			if pairSet(p) != pairSet(want) {
				t.Fatalf("event %d round %d: engine %s, sieve %s\n%s", e, round, pairSet(p), pairSet(want), dump(ev))
			}
			rounds++
			return true
		})
	}
	t.Logf("%d rounds identical to the exhaustive reference", rounds)
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed+1)) }
