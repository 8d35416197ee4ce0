// list.go: the terminal games left open, as `gambit games` lists them.

package terminal

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// WriteOpenGames lists the games recs (open terminal games) as a table: id, players,
// control, both clocks, and the moves (how many, the last one, who is to move). alive
// is the last instant the terminal's game service was known to run (its heartbeat):
// clocks stopped then, and they show as they will read when the game is resumed.
func WriteOpenGames(w io.Writer, recs []*storage.Game, alive time.Time) error {
	if len(recs) == 0 {
		_, err := fmt.Fprintln(w, "No open games: gambit play starts one.")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tWHITE\tBLACK\tCONTROL\tCLOCKS (W | B)\tMOVES")
	for _, g := range recs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", g.ID, g.White.Name, g.Black.Name, DescribeControl(g.Control),
			stoppedClocks(g, alive), movesSummary(g))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("list open games: %w", err)
	}
	_, err := fmt.Fprintln(w, "\ngambit play --resume ID goes on with one.")
	return err
}

// stoppedClocks shows both clocks as they stood when the service stopped: at alive, or
// at the game's last event if that came later.
func stoppedClocks(g *storage.Game, alive time.Time) string {
	c := g.Clock
	if c == nil {
		return "-"
	}
	at := alive
	if c.Since.After(at) {
		at = c.Since
	}
	return render.FormatClock(c.Remaining(chesscore.White, at)) + " | " + render.FormatClock(c.Remaining(chesscore.Black, at))
}

// movesSummary says how far the game went: "7, last 4. Bc4, Black to move".
func movesSummary(g *storage.Game) string {
	chess, err := games.Replay(g)
	if err != nil {
		return fmt.Sprintf("%d (does not replay: %v)", g.Ply(), err)
	}
	turn := colorName(chess.Turn()) + " to move"
	n := chess.Ply()
	if n == 0 {
		return "0, " + turn
	}
	san := chess.SAN()
	return fmt.Sprintf("%d, last %s %s, %s", n, moveLabel(chess.Start(), n-1), san[n-1], turn)
}
