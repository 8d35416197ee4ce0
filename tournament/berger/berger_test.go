package berger

import (
	"reflect"
	"testing"
)

// The FIDE Berger tables for 4 and 6 players (C.05 Annex 1).
func TestPublishedTables(t *testing.T) {
	tests := []struct {
		n    int
		want [][]Game
	}{
		{4, [][]Game{
			{{1, 4}, {2, 3}},
			{{4, 3}, {1, 2}},
			{{2, 4}, {3, 1}},
		}},
		{6, [][]Game{
			{{1, 6}, {2, 5}, {3, 4}},
			{{6, 4}, {5, 3}, {1, 2}},
			{{2, 6}, {3, 1}, {4, 5}},
			{{6, 5}, {1, 4}, {2, 3}},
			{{3, 6}, {4, 2}, {5, 1}},
		}},
	}
	for _, tt := range tests {
		got, err := Schedule(tt.n, false)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("n=%d:\n got %v\nwant %v", tt.n, got, tt.want)
		}
	}
}

func TestEveryoneMeetsOnce(t *testing.T) {
	for n := 2; n <= 24; n++ {
		for _, double := range []bool{false, true} {
			rounds, err := Schedule(n, double)
			if err != nil {
				t.Fatal(err)
			}
			met := map[[2]int]int{}
			whites := map[int]int{}
			for _, games := range rounds {
				seen := map[int]bool{}
				for _, g := range games {
					for _, p := range []int{g.White, g.Black} {
						if p == 0 {
							continue
						}
						if seen[p] {
							t.Fatalf("n=%d: player %d twice in a round", n, p)
						}
						seen[p] = true
					}
					if g.Black != 0 {
						met[[2]int{min(g.White, g.Black), max(g.White, g.Black)}]++
						whites[g.White]++
					}
				}
				if len(seen) != n {
					t.Fatalf("n=%d: %d players in a round", n, len(seen))
				}
			}
			want := 1
			if double {
				want = 2
			}
			for a := 1; a <= n; a++ {
				for b := a + 1; b <= n; b++ {
					if met[[2]int{a, b}] != want {
						t.Fatalf("n=%d double=%v: %d-%d meet %d times", n, double, a, b, met[[2]int{a, b}])
					}
				}
			}
			if double {
				for p := 1; p <= n; p++ {
					if whites[p] != n-1 {
						t.Fatalf("n=%d: player %d has %d whites in a double round robin", n, p, whites[p])
					}
				}
			}
		}
	}
}

func TestBadSize(t *testing.T) {
	if _, err := Schedule(1, false); err == nil {
		t.Fatal("1 player accepted")
	}
}
