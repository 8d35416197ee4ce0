package testrecords

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
)

// FillGames are the games fillStore writes: sampleGames (every field of the record)
// and a game against the engine, in a tournament.
var FillGames = []int{0, 1, 2, 3}

// FillStore writes records of every family into db (which must be empty): each of
// them must survive a copy.
func FillStore(ctx context.Context, t testing.TB, db storage.Store) {
	t.Helper()
	games := SampleGames(t)
	games = append(games, NewGame("100", "999", "c9"))
	games[1].Notes = []storage.Note{{Ply: 2, At: T0, By: storage.Player{ID: "arb", Name: "Arbiter"}, Action: "added 2:00", Reason: "noise"}}
	games[1].Moved, games[1].DrawWithMove = T0.Add(time.Minute), true
	games[2].ChannelID, games[2].Guest = "444444444444444444", true
	for i, g := range games {
		c := &storage.Change{Game: g, Users: []storage.User{{ID: g.White.ID, Name: g.White.Name, Updated: T0}},
			Receipt: &storage.Receipt{RequestID: fmt.Sprint("fill", i), At: T0.Add(time.Duration(i) * time.Minute), Effect: "started"}}
		if err := db.Commit(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	// The game at index 1 moves once more: version 2.
	if err := db.Commit(ctx, &storage.Change{Game: games[1]}); err != nil {
		t.Fatal(err)
	}
	engine := games[3]
	err := db.Update(ctx, func(tx storage.Tx) error {
		if err := tx.PutEngineGame(storage.EngineGame{GameID: engine.ID, Color: chesscore.Black, Level: 4, Engine: storage.EngineBuiltin, Created: T0}); err != nil {
			return err
		}
		// A plan of Black's replies: 1.e4 e5 2.Nf3 Nc6 (its shape only: a store does not
		// check legality).
		e4, e5 := chesscore.NewMove(chesscore.E2, chesscore.E4), chesscore.NewMove(chesscore.E7, chesscore.E5)
		nf3, nc6 := chesscore.NewMove(chesscore.G1, chesscore.F3), chesscore.NewMove(chesscore.B8, chesscore.C6)
		plan := &storage.Plan{GameID: games[0].ID, Color: chesscore.Black, UserID: games[0].Black.ID, Updated: T0,
			Lines: [][]chesscore.Move{{e4, e5, nf3, nc6}}}
		if err := tx.PutPlan(plan); err != nil {
			return err
		}
		// A team voting on its first move of the engine game, one ballot cast.
		vote := &storage.VoteGame{GameID: engine.ID, GuildID: engine.GuildID, ChannelID: engine.ChannelID, TeamID: "team-1",
			Color: chesscore.White, Window: time.Hour, Members: []string{"100", "101"}, Created: T0,
			Round: storage.VoteRound{Open: true, Opened: T0, Closes: T0.Add(time.Hour), Ballots: []storage.Ballot{{UserID: "101", Move: "e2e4", At: T0}}}}
		if err := tx.PutVoteGame(vote); err != nil {
			return err
		}
		// A player on vacation, two days used earlier in the year, auto vacation on.
		vac := &storage.Vacation{GuildID: "g1", UserID: "100", Year: T0.Year(), Used: 2, Start: T0, Until: T0.Add(3 * storage.VacationDay),
			AutoOptIn: true, Taken: 2}
		if err := tx.PutVacation(vac); err != nil {
			return err
		}
		// A user who linked their account for Linked Roles (the grant as the service
		// seals it: opaque bytes).
		if err := tx.PutLinkedAccount(&storage.LinkedAccount{UserID: "100", Tokens: []byte("sealed grant"), Expires: T0.Add(7 * 24 * time.Hour),
			Linked: T0, Pushed: map[string]string{"blitz_rating": "1500"}}); err != nil {
			return err
		}
		s := storage.DefaultGuildSettings("g1")
		s.Puzzle = storage.PuzzleSettings{Channel: "c1", Time: "09:30", Zone: "Europe/Paris", Since: T0}
		if err := tx.PutGuildSettings(s); err != nil {
			return err
		}
		if err := tx.PutUser(storage.User{ID: "pref", Name: "P", Prefs: storage.UserPrefs{DMOnTurn: true, ReminderBefore: time.Hour,
			Digest: true, DigestHour: 7, DigestRefused: true}, DigestSent: "2026-03-01", Updated: T0}); err != nil {
			return err
		}
		if err := tx.PutHeartbeat("bot", T0.Add(time.Hour)); err != nil {
			return err
		}
		if err := tx.PutChallenge(&storage.Challenge{From: storage.Player{ID: "a", Name: "A"}, Control: MustTC(t, "5+3"), Color: storage.ChooseWhite,
			Created: T0, ExpiresAt: T0.Add(time.Hour), Status: storage.ChallengePending}); err != nil {
			return err
		}
		if err := tx.PutChallenge(&storage.Challenge{From: storage.Player{ID: "a", Name: "A"}, To: storage.Player{ID: "b", Name: "B"}, Control: MustTC(t, "3d"),
			Created: T0, Status: storage.ChallengeAccepted, GameID: games[2].ID, Resolved: T0, ResolvedBy: "b"}); err != nil {
			return err
		}
		if err := tx.PutLadderPlayer(LadderPlayer("g1", clock.Blitz, "1001", 1520, 1, 0, 0)); err != nil {
			return err
		}
		if err := tx.PutLadderPlayer(LadderPlayer("g1", clock.Blitz, "1002", 1480, 0, 0, 1)); err != nil {
			return err
		}
		if _, err := tx.AddRatedResult(Result("g1", games[1].ID, "1001", "1002", 1, T0.Add(time.Hour))); err != nil {
			return err
		}
		mined := SamplePuzzle("gm1-5", 1300)
		mined.Source, mined.White, mined.Black = "game:g1:2", "1001", "1002"
		if _, err := tx.AddPuzzles([]*storage.Puzzle{SamplePuzzle("a1", 1500), SamplePuzzle("b2", 1700), mined}); err != nil {
			return err
		}
		if err := tx.PutDaily(&storage.Daily{GuildID: "g1", Date: "2026-03-01", PuzzleID: "a1", State: storage.DailyPosted, MessageID: "m",
			Solvers: []storage.DailySolver{{UserID: "1001", Name: "Ana", At: T0, Clean: true}}}); err != nil {
			return err
		}
		if err := tx.PutPuzzlePlayer(storage.PuzzlePlayer{GuildID: "g1", UserID: "1001", Rating: 1600, RD: 90, Volatility: 0.06, Rated: 1, Solved: 1, Streak: 1, Best: 1}); err != nil {
			return err
		}
		if err := tx.PutPuzzleAttempt(storage.PuzzleAttempt{GuildID: "g1", UserID: "1001", PuzzleID: "a1", Step: 1, Tries: 1, Result: storage.AttemptSolved, Started: T0}); err != nil {
			return err
		}
		tm := &storage.Tournament{GuildID: "g1", ChannelID: "c1", Name: "Spring", Format: "swiss", Status: storage.TournamentRunning, Created: T0, State: []byte(`{"r":1}`)}
		if err := tx.PutTournament(tm); err != nil {
			return err
		}
		if err := tx.PutTournament(tm); err != nil { // version 2
			return err
		}
		return tx.PutTournamentGame(storage.TournamentGame{GameID: engine.ID, TournamentID: tm.ID, Round: 1, Board: 1})
	})
	if err != nil {
		t.Fatal(err)
	}
}
