package blossom

import (
	"math/rand/v2"
	"testing"
)

// bruteMax returns the maximum total weight of a matching by exhaustive search.
func bruteMax(n int, w [][]Wide, words int) Wide {
	used := make([]bool, n)
	var best Wide
	var rec func(v int, acc Wide)
	rec = func(v int, acc Wide) {
		for v < n && used[v] {
			v++
		}
		if v == n {
			if cmp(acc, best, words) > 0 {
				best = acc
			}
			return
		}
		used[v] = true
		rec(v+1, acc)
		for u := v + 1; u < n; u++ {
			if !used[u] && !isZero(w[v][u], words) {
				used[u] = true
				rec(v+1, add(acc, w[v][u], words))
				used[u] = false
			}
		}
		used[v] = false
	}
	rec(0, Wide{})
	return best
}

func TestMatchAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 3000; iter++ {
		n := 1 + r.IntN(10)
		words := 1 + r.IntN(3)
		g := New(n, words)
		w := make([][]Wide, n)
		for i := range w {
			w[i] = make([]Wide, n)
		}
		density := r.Float64()
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if r.Float64() > density {
					continue
				}
				var x Wide
				switch r.IntN(3) {
				case 0:
					x[0] = uint64(1 + r.IntN(5))
				case 1:
					x[0] = uint64(1 + r.IntN(1000))
				default:
					for k := 0; k < words; k++ {
						x[k] = r.Uint64() >> 3
					}
				}
				w[i][j], w[j][i] = x, x
				g.AddEdge(i, j, x)
			}
		}
		mate := g.Match()
		for v, m := range mate {
			if m >= 0 && (mate[m] != v || isZero(w[v][m], words)) {
				t.Fatalf("iter %d: inconsistent matching %v", iter, mate)
			}
		}
		got := g.Weight(mate)
		want := bruteMax(n, w, words)
		if cmp(got, want, MaxWords) != 0 {
			t.Fatalf("iter %d n=%d: weight %v, want %v", iter, n, got[:words], want[:words])
		}
	}
}

func TestBits(t *testing.T) {
	var w Wide
	w.SetBits(60, 0xff)
	if got := w.Bits(60, 8); got != 0xff {
		t.Fatalf("Bits = %x", got)
	}
	w.AddBits(60, 1)
	if got := w.Bits(60, 9); got != 0x100 {
		t.Fatalf("after add Bits = %x", got)
	}
}

func BenchmarkMatch60(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	g := New(60, 6)
	for i := 0; i < 60; i++ {
		for j := i + 1; j < 60; j++ {
			if r.IntN(4) > 0 {
				var x Wide
				for k := 0; k < 6; k++ {
					x[k] = r.Uint64() >> 4
				}
				g.AddEdge(i, j, x)
			}
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Match()
	}
}
