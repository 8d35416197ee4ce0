// leaderboard.go: the leaderboard card of a server ladder.

package render

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"github.com/fogleman/gg"
)

// LeaderboardRow is one player on a leaderboard.
type LeaderboardRow struct {
	Rank        int
	Name        string
	Rating      int
	Provisional bool // the rating is shown with a question mark
	Wins        int
	Draws       int
	Losses      int
}

// LeaderboardOptions says how to draw a leaderboard card.
type LeaderboardOptions struct {
	Title    string // e.g. "Blitz ladder"
	Subtitle string // e.g. the server name or the date
	Width    int    // pixels, 320 to 2000; 0 means 640. The height follows the rows.
}

// MaxLeaderboardRows bounds the rows of one card.
const MaxLeaderboardRows = 50

// Medal colours for the first three places.
var medals = [3]color.RGBA{rgb(0xe3, 0xb3, 0x41), rgb(0xc3, 0xc7, 0xcc), rgb(0xc9, 0x8a, 0x5a)}

// LeaderboardCard draws the rows, in the order given, as a card and writes it as a PNG.
func LeaderboardCard(w io.Writer, rows []LeaderboardRow, opt LeaderboardOptions) error {
	width := opt.Width
	if width == 0 {
		width = 640
	}
	if width < 320 || width > 2000 {
		return fmt.Errorf("leaderboard width %d: want 320 to 2000", width)
	}
	if len(rows) > MaxLeaderboardRows {
		return fmt.Errorf("leaderboard of %d rows: at most %d fit on a card", len(rows), MaxLeaderboardRows)
	}
	u := float64(width) / 640
	rowH, headH := 44*u, 96*u
	n := max(1, len(rows))
	height := int(math.Ceil(headH + float64(n)*rowH + 16*u))
	dc := gg.NewContext(width, height)
	dc.SetColor(cardBack)
	dc.Clear()
	fs, err := newFaces(map[string]faceSpec{
		"title": {bold, 26 * u}, "sub": {regular, 14 * u}, "name": {bold, 17 * u},
		"num": {monoBold, 17 * u}, "small": {regular, 14 * u}, "rank": {bold, 15 * u},
	})
	if err != nil {
		return err
	}
	defer fs.close()
	use := func(name string) { dc.SetFontFace(fs[name]) }
	W := float64(width)
	pad := 24 * u
	use("title")
	dc.SetColor(cardText)
	dc.DrawStringAnchored(fitText(fs["title"], cleanName(opt.Title), W-2*pad), pad, 42*u, 0, 0)
	use("sub")
	dc.SetColor(cardDim)
	dc.DrawStringAnchored(fitText(fs["sub"], cleanName(opt.Subtitle), W*0.6), pad, 66*u, 0, 0)
	if len(rows) == 0 {
		dc.DrawStringAnchored("No rated players yet", W/2, headH+rowH/2, 0.5, 0.35)
		return encodePNG(w, dc.Image())
	}
	dc.DrawStringAnchored("rating", W-pad-130*u, 84*u, 1, 0)
	dc.DrawStringAnchored("W–D–L", W-pad, 84*u, 1, 0)
	for i, r := range rows {
		top := headH + float64(i)*rowH
		use("rank")
		mid := drawRankCell(dc, i, r.Rank, top, rowH, W, pad, u, 14*u)
		// Name.
		use("name")
		dc.SetColor(cardText)
		nameX := pad + 44*u
		dc.DrawStringAnchored(fitText(fs["name"], cleanName(r.Name), W-nameX-pad-230*u), nameX, mid, 0, 0.35)
		// Rating and record.
		use("num")
		rating := fmt.Sprint(r.Rating)
		if r.Provisional {
			rating += "?"
		}
		dc.DrawStringAnchored(rating, W-pad-130*u, mid, 1, 0.35)
		use("small")
		dc.SetColor(cardDim)
		dc.DrawStringAnchored(fmt.Sprintf("%d–%d–%d", r.Wins, r.Draws, r.Losses), W-pad, mid, 1, 0.35)
	}
	return encodePNG(w, dc.Image())
}

// drawRankCell starts row i of a card's table at top: the stripe behind every other row,
// then the rank, in a medal of the given radius for the first three, in the current
// font. It returns the row's vertical middle.
func drawRankCell(dc *gg.Context, i, rank int, top, rowH, width, pad, u, medal float64) float64 {
	mid := top + rowH/2
	if i%2 == 0 {
		dc.SetColor(cardStripe)
		dc.DrawRoundedRectangle(pad/2, top+2*u, width-pad, rowH-4*u, 6*u)
		dc.Fill()
	}
	cx := pad + 16*u
	if rank >= 1 && rank <= 3 {
		dc.SetColor(medals[rank-1])
		dc.DrawCircle(cx, mid, medal)
		dc.Fill()
		dc.SetColor(pieceEdge)
	} else {
		dc.SetColor(cardDim)
	}
	dc.DrawStringAnchored(fmt.Sprint(rank), cx, mid, 0.5, 0.35)
	return mid
}
