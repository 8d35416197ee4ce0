package testrecords

import (
	"testing"
	"time"

	"github.com/gambitchess/gambit/storage"
)

// Arbitrated is SampleGames(t)[1] with every later field set.
func Arbitrated(t testing.TB) *storage.Game {
	g := SampleGames(t)[1]
	g.ID = 4
	g.DrawOffer = storage.Offer{}
	g.DrawWithMove = true
	g.Moved = T0.Add(7 * time.Second)
	g.Notes = []storage.Note{
		{Ply: 2, At: T0.Add(5 * time.Second), By: storage.Player{ID: "900", Name: "Arbiter ♜"}, Action: "added 2:00 to Black's clock", Reason: "a disturbance"},
		{Ply: 3, At: T0.Add(9 * time.Second), By: storage.Player{ID: "901", Name: "Second"}, Action: "adjudicated 1-0", Reason: "Black {left} the server"},
	}
	return g
}
