// Command perftvs measures Gambit's perft against Stockfish's, side by side in one run, and
// prints nodes per second for each and their ratio. Both count the last ply in bulk and run
// on one thread; Stockfish's time is taken from `go perft` to its "Nodes searched" line, so
// its start-up is not counted.
//
//	go run ./tools/perftvs [-rounds 5]
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/internal/stockfish"
)

func main() {
	rounds := flag.Int("rounds", 5, "alternating runs of each side per position; medians are reported")
	flag.Parse()
	if err := run(*rounds); err != nil {
		fmt.Fprintln(os.Stderr, "perftvs:", err)
		os.Exit(1)
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func run(rounds int) error {
	sf, err := stockfish.Start()
	if err != nil {
		return err
	}
	defer sf.Close()
	cases := []struct {
		name, fen string
		depth     int
	}{
		{"start", chesscore.StartFEN, 6},
		{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
	}
	fmt.Printf("%-10s %5s %14s %14s %7s\n", "position", "depth", "gambit n/s", "stockfish n/s", "ratio")
	for _, c := range cases {
		pos, err := chesscore.ParseFEN(c.fen)
		if err != nil {
			return err
		}
		var ours, theirs, ratios []float64
		for r := 0; r < rounds; r++ {
			start := time.Now()
			n := chesscore.Perft(&pos, c.depth)
			g := float64(n) / time.Since(start).Seconds()
			res, err := sf.Perft(c.fen, c.depth)
			if err != nil {
				return err
			}
			if res.Nodes != n {
				return fmt.Errorf("%s depth %d: gambit %d nodes, stockfish %d", c.name, c.depth, n, res.Nodes)
			}
			s := float64(res.Nodes) / res.Elapsed.Seconds()
			ours, theirs, ratios = append(ours, g), append(theirs, s), append(ratios, g/s)
		}
		fmt.Printf("%-10s %5d %14.0f %14.0f %7.2f\n", c.name, c.depth, median(ours), median(theirs), median(ratios))
	}
	return nil
}
