package engineplay

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// BenchmarkEngineReply measures a level-1 engine's opening move from the game's
// creation to its commit, through the game service and the queue (ms/reply).
func BenchmarkEngineReply(b *testing.B) {
	r := newRig(b, Options{})
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		res, err := r.eng.Start(context.Background(), StartRequest{RequestID: fmt.Sprint("bench", i), Human: ana, Level: 1, Color: storage.ChooseBlack, Control: "-"})
		if err != nil {
			b.Fatal(err)
		}
		for {
			g, err := r.svc.Game(context.Background(), res.Game.ID)
			if err != nil {
				b.Fatal(err)
			}
			if g.Ply() == 1 {
				break
			}
			time.Sleep(200 * time.Microsecond)
		}
		if _, err := r.svc.Resign(context.Background(), games.Action{GameID: res.Game.ID, UserID: ana.ID}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/reply")
}
