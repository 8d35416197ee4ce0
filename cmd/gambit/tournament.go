// tournament.go: `gambit tournament pair|standings|berger` over the tournament packages.

package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gambitchess/gambit/tournament"
	"github.com/gambitchess/gambit/tournament/berger"
	"github.com/gambitchess/gambit/tournament/dutch"
	"github.com/gambitchess/gambit/tournament/tiebreak"
	"github.com/gambitchess/gambit/tournament/trf"
)

// readTRF reads the --trf file.
func readTRF(path string) (*tournament.Event, error) {
	if path == "" {
		return nil, errors.New("--trf: a file is required")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--trf: %w", err)
	}
	defer f.Close()
	ev, err := trf.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return ev, nil
}

// runTournamentPair prints the next round: one "white black" line per board
// in board order, then "N 0" for the pairing-allocated bye.
func runTournamentPair(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tournament pair", stderr)
	system := fs.String("system", "dutch", "pairing system (dutch)")
	path := fs.String("trf", "", "TRF file of the rounds played so far")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *system != "dutch" {
		return fmt.Errorf("--system %q: only dutch is implemented", *system)
	}
	ev, err := readTRF(*path)
	if err != nil {
		return err
	}
	p, err := dutch.Pair(ev)
	if err != nil {
		return err
	}
	for _, b := range p.Boards {
		fmt.Fprintf(stdout, "%d %d\n", b.White, b.Black)
	}
	if p.Bye != 0 {
		fmt.Fprintf(stdout, "%d 0\n", p.Bye)
	}
	return nil
}

func runTournamentStandings(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tournament standings", stderr)
	path := fs.String("trf", "", "TRF file")
	list := fs.String("tiebreaks", "BH/C1,BH,SB,DE", "tie-break order (C.07 codes)")
	rr := fs.Bool("round-robin", false, "round robin: forfeits count as games (C.07 15.2)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	specs, err := tiebreak.ParseList(*list)
	if err != nil {
		return fmt.Errorf("--tiebreaks: %w", err)
	}
	ev, err := readTRF(*path)
	if err != nil {
		return err
	}
	rows := tiebreak.Standings(ev, specs, tiebreak.Options{RoundRobin: *rr})
	fmt.Fprintf(stdout, "%-4s %-4s %-24s %6s", "rank", "id", "name", "pts")
	for _, s := range specs {
		fmt.Fprintf(stdout, " %8s", s)
	}
	fmt.Fprintln(stdout)
	for _, r := range rows {
		fmt.Fprintf(stdout, "%-4d %-4d %-24s %6s", r.Rank, r.Player, ev.Player(r.Player).Name, r.Points)
		for _, v := range r.Values {
			fmt.Fprintf(stdout, " %8s", tiebreak.Format(v))
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

func runTournamentBerger(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tournament berger", stderr)
	n := fs.Int("players", 0, "number of players (2 to 1000)")
	double := fs.Bool("double", false, "double round robin")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rounds, err := berger.Schedule(*n, *double)
	if err != nil {
		return err
	}
	for r, games := range rounds {
		fmt.Fprintf(stdout, "round %d:", r+1)
		for _, g := range games {
			fmt.Fprintf(stdout, " %d-%d", g.White, g.Black)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}
