// wdl.go: a score as win, draw and loss chances, for UCI's "wdl" (UCI_ShowWDL).

package engine

import "math"

// The win-draw-loss model: the chance of a win is a logistic curve of the score shifted
// by wdlShift centipawns (a side needs about that edge before winning is as likely as
// not winning), with wdlScale centipawns per factor of ten in the odds; a loss is the
// same curve seen from the other side, and a draw the rest. At 0 it gives 15% win, 70%
// draw, 15% loss; at +300, 85% win.
const (
	wdlShift = 150
	wdlScale = 200
)

// WDL returns the side to move's chances of winning, drawing and losing, in permille
// (they add up to 1000), for the score s. A mate for the side to move is a sure win, a
// mate against it a sure loss.
func (s Score) WDL() (win, draw, loss int) {
	switch {
	case s >= mateBound:
		return 1000, 0, 0
	case s <= -mateBound:
		return 0, 0, 1000
	}
	curve := func(cp float64) float64 { return 1 / (1 + math.Pow(10, -(cp-wdlShift)/wdlScale)) }
	win = int(math.Round(1000 * curve(float64(s))))
	loss = int(math.Round(1000 * curve(-float64(s))))
	return win, 1000 - win - loss, loss
}
