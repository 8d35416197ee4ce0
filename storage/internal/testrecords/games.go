// Package testrecords makes the records the storage tests share: sample games of every
// field, ladder players, rated results, puzzles, and a store filled with every family.
// It imports only storage, so the tests of the codecs and of each backend can use it as
// well as the conformance suite.
package testrecords

import (
	"context"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

// T0 is the instant the sample records start from.
var T0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// CountGames counts the stored games and the live ones.
func CountGames(ctx context.Context, db storage.Store) (total, live int, err error) {
	err = db.View(ctx, func(tx storage.Tx) (err error) {
		total, live, err = tx.CountGames()
		return err
	})
	return total, live, err
}

// MustTC parses a time control; an error fails the test.
func MustTC(t testing.TB, s string) clock.TimeControl {
	t.Helper()
	tc, err := clock.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

// SampleGames are records exercising every field of the encoding.
func SampleGames(t testing.TB) []*storage.Game {
	live := MustTC(t, "5+3")
	ck, err := clock.New(live)
	if err != nil {
		t.Fatal(err)
	}
	ck.FreeFirstMoves = true
	if err := ck.Start(T0); err != nil {
		t.Fatal(err)
	}
	ck.Press(T0.Add(time.Second))
	ck.Press(T0.Add(3 * time.Second))
	ck.Press(T0.Add(7*time.Second + 123456789))
	corr := MustTC(t, "3d")
	cc, _ := clock.New(corr)
	cc.Start(T0)
	return []*storage.Game{
		{
			White: storage.Player{ID: "local:white", Name: "White"}, Black: storage.Player{ID: "local:black", Name: "Black"},
			Control: MustTC(t, "-"), Created: T0,
		},
		{
			GuildID: "111111111111111111", ChannelID: "222222222222222222", ThreadID: "333",
			White: storage.Player{ID: "1001", Name: "Ana ♞"}, Black: storage.Player{ID: "1002", Name: "Bo"}, Rated: true,
			Control: live, ChallengeID: 77, Created: T0,
			Moves:      []chesscore.Move{chesscore.NewMove(chesscore.E2, chesscore.E4), chesscore.NewMove(chesscore.E7, chesscore.E5), chesscore.NewMove(chesscore.G1, chesscore.F3)},
			MoveClocks: []time.Duration{5 * time.Minute, 5 * time.Minute, 4*time.Minute + 56*time.Second},
			Clock:      &ck,
			DrawOffer:  storage.Offer{Pending: true, By: chesscore.White, Ply: 3}, DrawOffers: [2]int{1, 0}, LastDrawOffer: [2]int{3, 0},
			Takeback: storage.Offer{Pending: true, By: chesscore.White, Ply: 3}, LastTakeback: [2]int{3, 0},
			AbortAt: T0.Add(5 * time.Minute),
		},
		{
			White: storage.Player{ID: "1", Name: "a"}, Black: storage.Player{ID: "2", Name: "b"}, Control: corr, Clock: &cc,
			StartFEN: "8/8/8/8/8/5k2/8/4K2R w K - 0 1", Created: T0, Ended: T0.Add(time.Hour),
			Outcome:     chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.Resignation},
			ReminderPly: 1,
		},
	}
}

// Chess960Game is a live Chess960 game from start position 0 (BBQNNRKR) in which both
// sides have castled king side, the king staying on g1 and g8.
func Chess960Game() *storage.Game {
	g := NewGame("w960", "b960", "c960")
	g.Variant = chesscore.Chess960
	g.StartFEN = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
	g.Moves = []chesscore.Move{chesscore.NewCastling(chesscore.G1, chesscore.G1), chesscore.NewCastling(chesscore.G8, chesscore.G8)}
	return g
}

// NewGame is a new casual game of white and black in channel, created at T0.
func NewGame(white, black, channel string) *storage.Game {
	return &storage.Game{
		GuildID: "g1", ChannelID: channel,
		White: storage.Player{ID: white, Name: "W " + white}, Black: storage.Player{ID: black, Name: "B " + black},
		Control: clock.TimeControl{Untimed: true}, Created: T0,
	}
}

// IDs returns the ids of games, in order.
func IDs(gs []*storage.Game) []uint64 {
	var out []uint64
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}
