package dutch

import (
	"os"
	"testing"

	"github.com/gambitchess/gambit/tournament"
	"github.com/gambitchess/gambit/tournament/trf"
)

// Published expected pairings for the 2025 rules: the C5 (lowest-score bye
// even at the cost of a split bracket) and C9 (bye to the player with fewer
// unplayed games) fixtures of the bbpPairings test suite, and round one.
func TestFixtures(t *testing.T) {
	tests := []struct {
		file  string
		round int
		want  []Board
		bye   int
	}{
		{"../trf/testdata/bye_c5.trf", 3, []Board{{1, 5}, {3, 2}}, 6},
		{"../trf/testdata/bye_c9.trf", 2, []Board{{2, 1}, {3, 5}}, 4},
	}
	for _, tt := range tests {
		f, err := os.Open(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := trf.Parse(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		p, err := Pair(ev)
		if err != nil {
			t.Fatal(err)
		}
		if p.Round != tt.round || p.Bye != tt.bye || len(p.Boards) != len(tt.want) {
			t.Fatalf("%s: %+v", tt.file, p)
		}
		for i := range tt.want {
			if p.Boards[i] != tt.want[i] {
				t.Errorf("%s board %d: %v, want %v", tt.file, i+1, p.Boards[i], tt.want[i])
			}
		}
	}
}

// Round one with the whole field present: top half against bottom half, the
// odd pairing numbers taking the initial colour, the lowest-ranked player
// receiving the bye. Round one with absentees: testdata/pairings/r1_*.
func TestRoundOne(t *testing.T) {
	for _, initial := range []tournament.Color{tournament.White, tournament.Black} {
		ev := &tournament.Event{Rounds: 5, Scoring: tournament.StandardScoring, InitialColor: initial}
		for i := 1; i <= 9; i++ {
			ev.Players = append(ev.Players, tournament.Player{ID: i})
		}
		p, err := Pair(ev)
		if err != nil {
			t.Fatal(err)
		}
		want := []Board{{1, 5}, {6, 2}, {3, 7}, {8, 4}}
		if initial == tournament.Black {
			want = []Board{{5, 1}, {2, 6}, {7, 3}, {4, 8}}
		}
		for i := range want {
			if p.Boards[i] != want[i] {
				t.Errorf("initial %v board %d: %v, want %v", initial, i+1, p.Boards[i], want[i])
			}
		}
		if p.Bye != 9 {
			t.Errorf("bye %d, want 9", p.Bye)
		}
	}
}

// Colour allocation rules of Article 5 on hand-made pairs.
func TestAllocate(t *testing.T) {
	W, B := tournament.White, tournament.Black
	mk := func(id, rank int, cols ...tournament.Color) *player {
		p := &player{id: id, tpn: id, rank: rank, colors: cols}
		for _, c := range cols {
			if c == W {
				p.cd++
			} else {
				p.cd--
			}
		}
		p.pref, p.kind = preference(p.colors, p.cd)
		return p
	}
	tests := []struct {
		name   string
		hi, lo *player
		want   tournament.Color
	}{
		{"both preferences", mk(1, 0, W), mk(2, 1, B), B},
		{"stronger preference", mk(1, 0, B, W, W), mk(2, 1, B), B}, // hi absolute black
		{"strong over mild", mk(1, 0, W, B, B), mk(2, 1, W, B), W},
		{"alternate to last difference", mk(1, 0, W, B), mk(2, 1, B, B, W, B), B},
		{"higher-ranked preference", mk(1, 0, W, B), mk(2, 1, W, B), W},
		{"odd pairing number", mk(3, 0), mk(2, 1), W},
		{"even pairing number", mk(2, 0), mk(3, 1), B},
	}
	for _, tt := range tests {
		if got := allocate(tt.hi, tt.lo, W); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func BenchmarkPairRound(b *testing.B) {
	// A 60-player event after four random rounds.
	var ev *tournament.Event
	r := newRand(42)
	ev = simulate(r, 60, 4, nil)
	ev.Rounds = 9
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Pair(ev); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/round")
}
