package engine

import (
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
)

// benchFENs are middlegame and endgame positions for BenchmarkSearch.
var benchFENs = []string{
	cc.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
	"2r3k1/pp3ppp/4p3/3nP3/3P4/P4N2/1P3PPP/2R3K1 w - - 0 24",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
}

// BenchmarkSearch searches each bench position for a fixed number of nodes and reports
// the search speed in nodes/s.
func BenchmarkSearch(b *testing.B) {
	positions := make([]cc.Position, len(benchFENs))
	for i, f := range benchFENs {
		positions[i] = mustFEN(b, f)
	}
	e := New(Options{HashMB: 16})
	b.ReportAllocs()
	b.ResetTimer()
	var nodes uint64
	for i := 0; i < b.N; i++ {
		e.NewGame()
		for _, p := range positions {
			res, _ := e.Search(p, nil, Limits{Nodes: 200000})
			nodes += res.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// TestSearchDoesNotAllocatePerNode compares the allocations of a short and a ten times
// longer search: they must be the same (reports and the result only).
func TestSearchDoesNotAllocatePerNode(t *testing.T) {
	e := New(Options{HashMB: 4})
	pos := mustFEN(t, benchFENs[2])
	allocs := func(nodes uint64) float64 {
		return testing.AllocsPerRun(2, func() {
			e.NewGame()
			if _, err := e.Search(pos, nil, Limits{Nodes: nodes}); err != nil {
				t.Fatal(err)
			}
		})
	}
	short, long := allocs(2000), allocs(20000)
	// A longer search reaches a few more iterations, each allocating its line's PV.
	if long > short+12 {
		t.Errorf("%v allocations for 2000 nodes, %v for 20000: the search allocates per node", short, long)
	}
}

// BenchmarkSearchVsPerft measures, in one run, the search's nodes per second and the
// move generator's perft speed (leaf nodes per second, bulk-counted at the last ply) on
// the bench positions, and their ratio: how much a search node costs over a bare move
// generation. Speeds are per second of processor time, which a busy machine disturbs
// less than wall time; each round runs both, alternating, so what disturbance is left
// hits them alike.
func BenchmarkSearchVsPerft(b *testing.B) {
	positions := make([]cc.Position, len(benchFENs))
	for i, f := range benchFENs {
		positions[i] = mustFEN(b, f)
	}
	e := New(Options{HashMB: 16})
	var searchNodes, perftNodes uint64
	var searchTime, perftTime time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range positions {
			start := cpuTime()
			e.NewGame()
			res, _ := e.Search(p, nil, Limits{Nodes: 100000})
			searchTime += cpuTime() - start
			searchNodes += res.Nodes
			start = cpuTime()
			perftNodes += cc.Perft(&p, 4)
			perftTime += cpuTime() - start
		}
	}
	sNPS := float64(searchNodes) / searchTime.Seconds()
	pNPS := float64(perftNodes) / perftTime.Seconds()
	b.ReportMetric(sNPS, "search-nodes/cpu-s")
	b.ReportMetric(pNPS, "perft-nodes/cpu-s")
	b.ReportMetric(pNPS/sNPS, "perft/search")
}
