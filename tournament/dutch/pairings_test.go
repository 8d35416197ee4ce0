// Golden pairings: TRF fixtures in testdata/pairings with the expected next round beside them.
package dutch

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitchess/gambit/tournament"
	"github.com/gambitchess/gambit/tournament/trf"
)

var update = flag.Bool("update", false, "rewrite testdata/pairings/*.want from the engine (check every change by hand against the derivation in the .trf header)")

// TestPairingFixtures pairs the next round of every testdata/pairings/*.trf
// and compares it with the .want file of the same name. Each TRF's ### header
// derives the expected pairing from the rules by hand; the .want file is that
// derivation in the format of formatPairing.
func TestPairingFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "pairings", "*.trf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found %d fixtures in testdata/pairings, want at least 10", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".trf")
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := trf.Parse(f)
			f.Close()
			if err != nil {
				t.Fatalf("parse %s: %v", file, err)
			}
			p, err := Pair(ev)
			if err != nil {
				t.Fatalf("pair %s: %v", file, err)
			}
			got := formatPairing(p)
			wantFile := strings.TrimSuffix(file, ".trf") + ".want"
			if *update {
				if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatalf("read expected pairing: %v", err)
			}
			if got != string(want) {
				t.Errorf("%s:\ngot\n%s\nwant\n%s", name, got, want)
			}
		})
	}
}

// formatPairing writes a pairing as "round N", one "white black" line per
// board in board order, then "bye N" and "absent a b ..." when there are any.
func formatPairing(p *Pairing) string {
	var b strings.Builder
	fmt.Fprintf(&b, "round %d\n", p.Round)
	for _, bd := range p.Boards {
		fmt.Fprintf(&b, "%d %d\n", bd.White, bd.Black)
	}
	if p.Bye != 0 {
		fmt.Fprintf(&b, "bye %d\n", p.Bye)
	}
	if len(p.Absent) > 0 {
		b.WriteString("absent")
		for _, a := range p.Absent {
			fmt.Fprintf(&b, " %d", a)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// The TPN used for colours counts only the players who have arrived
// (C.04.2 2.4): present in the round being paired, or entered in the pairing
// of an earlier round by a game, a forfeit or the pairing-allocated bye.
func TestArrivedTPNs(t *testing.T) {
	bye := func(c tournament.Code) tournament.Result { return tournament.Result{Code: c} }
	vs := func(o int, c tournament.Code) tournament.Result {
		return tournament.Result{Opponent: o, Color: tournament.White, Code: c}
	}
	ev := &tournament.Event{Scoring: tournament.StandardScoring}
	results := [][]tournament.Result{
		1: {vs(2, tournament.Win), bye(tournament.ZeroBye)},                            // played, absent now: keeps its number
		2: {vs(1, tournament.Loss)},                                                    // present
		3: {bye(tournament.ZeroBye), bye(tournament.HalfBye)},                          // never paired, absent: no TPN
		4: {bye(tournament.HalfBye)},                                                   // requested bye before, present now
		5: {bye(tournament.PAB), bye(tournament.ZeroBye)},                              // the pairing-allocated bye is a pairing
		6: {vs(7, tournament.ForfeitLoss), bye(tournament.ZeroBye)},                    // forfeited, but was paired
		7: {vs(6, tournament.ForfeitWin), bye(tournament.FullBye)},                     // won by forfeit, now a requested bye
		8: {bye(tournament.FullBye), bye(tournament.ZeroBye)},                          // requested byes only: not arrived
		9: {bye(tournament.ZeroBye), bye(tournament.ZeroBye), bye(tournament.ZeroBye)}, // absent in round 3 too
	}
	for id := 1; id <= 9; id++ {
		ev.Players = append(ev.Players, tournament.Player{ID: id, Results: results[id]})
	}
	ev.Players[1].Results[0].Color = tournament.Black
	ev.Players[6].Results[0].Color = tournament.Black
	got := arrivedTPNs(ev, 2)
	want := []int{1, 2, 0, 3, 4, 5, 6, 0, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("round 2: player %d TPN %d, want %d (all %v)", i+1, got[i], want[i], got)
		}
	}
}
