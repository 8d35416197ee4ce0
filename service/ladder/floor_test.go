package ladder

import (
	"context"
	"testing"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/chesscore/rating"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// streakGames is the length of the streaks played through the game service.
const streakGames = 50

// lose plays one rated blitz game that loser loses to winner, through the game service,
// and fails the test unless the game ends with winner's win: even games are fool's mate
// with the loser as White, odd games the loser's resignation as Black after 1. e4.
func (r *rig) lose(i int, loser, winner storage.Player) {
	r.t.Helper()
	ctx := context.Background()
	var g *games.Game
	want := chesscore.BlackWins
	if i%2 == 0 {
		g = r.start(loser, winner, "3+2", true)
		r.play(g, foolsMate)
	} else {
		g = r.start(winner, loser, "3+2", true)
		r.play(g, "e4 e5") // both sides move: a game resigned before is aborted
		if _, err := r.games.Resign(ctx, games.Action{RequestID: r.rid(), GameID: g.ID, UserID: loser.ID}); err != nil {
			r.t.Fatalf("game %d: %s resigns: %v", i+1, loser.Name, err)
		}
		want = chesscore.WhiteWins
	}
	end, err := r.games.Game(ctx, g.ID)
	if err != nil {
		r.t.Fatal(err)
	}
	if end.Live() || end.Outcome.Result != want {
		r.t.Fatalf("game %d did not end with %s's win: %+v", i+1, winner.Name, end.Outcome)
	}
}

// entry returns a user's standing in guild g's blitz ladder.
func (r *rig) entry(userID string) Entry {
	r.t.Helper()
	pr, err := r.lad.Profile(context.Background(), "g", userID)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, e := range pr.Entries {
		if e.Category == clock.Blitz {
			return e
		}
	}
	r.t.Fatalf("%s is not in the blitz ladder: %+v", userID, pr)
	return Entry{}
}

// checkResults fails the test unless guild g has n rated results, all within the
// ladder bounds.
func (r *rig) checkResults(n int) {
	r.t.Helper()
	rs := r.results()
	if len(rs) != n {
		r.t.Fatalf("%d rated results, want %d", len(rs), n)
	}
	for _, res := range rs {
		for _, v := range []float64{res.WhiteBefore, res.WhiteAfter, res.BlackBefore, res.BlackAfter} {
			if v < rating.LadderFloor || v > rating.LadderCeiling {
				r.t.Fatalf("rated result out of bounds: %+v", res)
			}
		}
	}
}

// A player at the lowest start rating loses 50 rated games in a row, by mate and by
// resignation: every game ends and is rated, and the rating stops at the floor.
func TestLosingStreakFromTheLowestStart(t *testing.T) {
	for _, sys := range []System{FIDE, Glicko2} {
		t.Run(string(sys), func(t *testing.T) {
			r := newRig(t)
			if _, err := r.lad.SetSettings(context.Background(), "g", Settings{System: sys, StartRating: MinStartRating}); err != nil {
				t.Fatal(err)
			}
			prev := float64(MinStartRating)
			for i := range streakGames {
				r.lose(i, alice, bob)
				a, b := r.rating(clock.Blitz, alice.ID), r.rating(clock.Blitz, bob.ID)
				if a != rating.LadderFloor {
					t.Fatalf("%s, after %d losses from %d: alice at %v, want the floor %d", sys, i+1, MinStartRating, a, rating.LadderFloor)
				}
				if b < prev || b > rating.LadderCeiling {
					t.Fatalf("%s, after %d wins: bob at %v, was %v", sys, i+1, b, prev)
				}
				prev = b
			}
			r.checkResults(streakGames)
			if e := r.entry(alice.ID); e.Games != streakGames || e.Losses != streakGames || e.Rating != rating.LadderFloor {
				t.Errorf("%s: alice %+v, want %d losses at %d", sys, e.Player, streakGames, rating.LadderFloor)
			}
			if e := r.entry(bob.ID); e.Wins != streakGames || e.Rating <= MinStartRating {
				t.Errorf("%s: bob %+v, want %d wins and a rating above %d", sys, e.Player, streakGames, MinStartRating)
			}
		})
	}
}

// Losses stop at the floor step by step under FIDE (K 40): from 100 a loss to an equal
// player would cost 20 and costs nothing; a player above the floor drops by the full
// change until the next one would take them below it.
func TestLossesStopAtTheFloor(t *testing.T) {
	r := newRig(t)
	if _, err := r.lad.SetSettings(context.Background(), "g", Settings{System: FIDE, StartRating: MinStartRating}); err != nil {
		t.Fatal(err)
	}
	r.lose(0, alice, bob)
	if a, b := r.rating(clock.Blitz, alice.ID), r.rating(clock.Blitz, bob.ID); a != 100 || b != 120 {
		t.Fatalf("after one loss from 100: alice %v, bob %v; want 100 and 120", a, b)
	}
	// carol beats dave twice: 100 → 120, then 120 against 100 (PD 0.53): +18.8 → 139.
	dave := storage.Player{ID: "400", Name: "Dave"}
	r.lose(0, dave, carol)
	r.lose(1, dave, carol)
	// carol (139) loses to bob (120, PD 0.53): −21.2 → 118, and bob goes to 141.
	r.lose(2, carol, bob)
	if c, b := r.rating(clock.Blitz, carol.ID), r.rating(clock.Blitz, bob.ID); c != 118 || b != 141 {
		t.Fatalf("after carol's loss from 139: carol %v, bob %v; want 118 and 141", c, b)
	}
	// carol (118) loses to bob (141, PD 0.47): −18.8 → −19 would make 99; she stops at 100.
	r.lose(3, carol, bob)
	if c := r.rating(clock.Blitz, carol.ID); c != rating.LadderFloor {
		t.Fatalf("carol after a loss from 118 (−19): %v, want the floor %d", c, rating.LadderFloor)
	}
	rs := r.results()
	last := rs[len(rs)-1]
	if last.BlackBefore != 118 || last.BlackAfter != rating.LadderFloor || last.WhiteAfter != 141+19 {
		t.Errorf("last result %+v: want carol (Black) from 118 to %d and bob from 141 to 160", last, rating.LadderFloor)
	}
}

// Players seeded at the ceiling play 50 rated games, one winning them all, and players
// at the highest start rating do the same: every game ends and is rated, and no rating
// passes the ceiling.
func TestWinningStreakAtTheTop(t *testing.T) {
	for _, sys := range []System{FIDE, Glicko2} {
		for _, seeded := range []bool{true, false} {
			name := string(sys) + "/start"
			if seeded {
				name = string(sys) + "/seeded"
			}
			t.Run(name, func(t *testing.T) {
				r := newRig(t)
				ctx := context.Background()
				if _, err := r.lad.SetSettings(ctx, "g", Settings{System: sys, StartRating: MaxStartRating}); err != nil {
					t.Fatal(err)
				}
				prev := float64(MaxStartRating)
				if seeded {
					for _, p := range []storage.Player{alice, bob} {
						if _, err := r.lad.Seed(ctx, "g", clock.Blitz, p, rating.LadderCeiling); err != nil {
							t.Fatal(err)
						}
					}
					prev = rating.LadderCeiling
				}
				for i := range streakGames {
					r.lose(i, bob, alice)
					a := r.rating(clock.Blitz, alice.ID)
					if a < prev || a > rating.LadderCeiling {
						t.Fatalf("%s, after %d wins: alice at %v, was %v", name, i+1, a, prev)
					}
					prev = a
				}
				r.checkResults(streakGames)
				e := r.entry(alice.ID)
				if e.Wins != streakGames || (seeded && e.Rating != rating.LadderCeiling) {
					t.Errorf("%s: alice %+v, want %d wins (at %d if seeded there)", name, e.Player, streakGames, rating.LadderCeiling)
				}
				if l := r.entry(bob.ID); l.Losses != streakGames || l.Rating >= e.Rating {
					t.Errorf("%s: bob %+v, alice at %v", name, l.Player, e.Rating)
				}
			})
		}
	}
}
