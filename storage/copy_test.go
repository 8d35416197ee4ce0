package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage/internal/pgtest"
)

// fillGames are the games fillStore writes: sampleGames (every field of the record)
// and a game against the engine, in a tournament.
var fillGames = []int{0, 1, 2, 3}

// fillStore writes records of every family into db (which must be empty): each of
// them must survive a copy.
func fillStore(t testing.TB, db Store) {
	t.Helper()
	games := sampleGames(t)
	games = append(games, newGame("100", "999", "c9"))
	games[1].Notes = []Note{{Ply: 2, At: t0, By: Player{"arb", "Arbiter"}, Action: "added 2:00", Reason: "noise"}}
	games[1].Moved, games[1].DrawWithMove = t0.Add(time.Minute), true
	for i, g := range games {
		c := &Change{Game: g, Users: []User{{ID: g.White.ID, Name: g.White.Name, Updated: t0}},
			Receipt: &Receipt{RequestID: fmt.Sprint("fill", i), At: t0.Add(time.Duration(i) * time.Minute), Effect: "started"}}
		if err := db.Commit(c); err != nil {
			t.Fatal(err)
		}
	}
	// The game at index 1 moves once more: version 2.
	if err := db.Commit(&Change{Game: games[1]}); err != nil {
		t.Fatal(err)
	}
	engine := games[3]
	err := db.Update(func(tx Tx) error {
		if err := tx.PutEngineGame(EngineGame{GameID: engine.ID, Color: chesscore.Black, Level: 4, Engine: EngineBuiltin, Created: t0}); err != nil {
			return err
		}
		s := DefaultGuildSettings("g1")
		s.Puzzle = PuzzleSettings{Channel: "c1", Time: "09:30", Zone: "Europe/Paris", Since: t0}
		if err := tx.PutGuildSettings(s); err != nil {
			return err
		}
		if err := tx.PutUser(User{ID: "pref", Name: "P", Prefs: UserPrefs{DMOnTurn: true, ReminderBefore: time.Hour}, Updated: t0}); err != nil {
			return err
		}
		if err := tx.PutHeartbeat("bot", t0.Add(time.Hour)); err != nil {
			return err
		}
		if err := tx.PutChallenge(&Challenge{From: Player{"a", "A"}, Control: mustTC(t, "5+3"), Color: ChooseWhite,
			Created: t0, ExpiresAt: t0.Add(time.Hour), Status: ChallengePending}); err != nil {
			return err
		}
		if err := tx.PutChallenge(&Challenge{From: Player{"a", "A"}, To: Player{"b", "B"}, Control: mustTC(t, "3d"),
			Created: t0, Status: ChallengeAccepted, GameID: games[2].ID, Resolved: t0, ResolvedBy: "b"}); err != nil {
			return err
		}
		if err := tx.PutLadderPlayer(ladderPlayer("g1", clock.Blitz, "1001", 1520, 1, 0, 0)); err != nil {
			return err
		}
		if err := tx.PutLadderPlayer(ladderPlayer("g1", clock.Blitz, "1002", 1480, 0, 0, 1)); err != nil {
			return err
		}
		if _, err := tx.AddRatedResult(result("g1", games[1].ID, "1001", "1002", 1, t0.Add(time.Hour))); err != nil {
			return err
		}
		mined := samplePuzzle("gm1-5", 1300)
		mined.Source, mined.White, mined.Black = "game:g1:2", "1001", "1002"
		if _, err := tx.AddPuzzles([]*Puzzle{samplePuzzle("a1", 1500), samplePuzzle("b2", 1700), mined}); err != nil {
			return err
		}
		if err := tx.PutDaily(&Daily{GuildID: "g1", Date: "2026-03-01", PuzzleID: "a1", State: DailyPosted, MessageID: "m",
			Solvers: []DailySolver{{UserID: "1001", Name: "Ana", At: t0, Clean: true}}}); err != nil {
			return err
		}
		if err := tx.PutPuzzlePlayer(PuzzlePlayer{GuildID: "g1", UserID: "1001", Rating: 1600, RD: 90, Volatility: 0.06, Rated: 1, Solved: 1, Streak: 1, Best: 1}); err != nil {
			return err
		}
		if err := tx.PutPuzzleAttempt(PuzzleAttempt{GuildID: "g1", UserID: "1001", PuzzleID: "a1", Step: 1, Tries: 1, Result: AttemptSolved, Started: t0}); err != nil {
			return err
		}
		tm := &Tournament{GuildID: "g1", ChannelID: "c1", Name: "Spring", Format: "swiss", Status: TournamentRunning, Created: t0, State: []byte(`{"r":1}`)}
		if err := tx.PutTournament(tm); err != nil {
			return err
		}
		if err := tx.PutTournament(tm); err != nil { // version 2
			return err
		}
		return tx.PutTournamentGame(TournamentGame{GameID: engine.ID, TournamentID: tm.ID, Round: 1, Board: 1})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCopyAcrossBackends copies a store of every family from bbolt to PostgreSQL and
// back: counts, games, versions and every record read the same, and new ids continue
// after the copied ones.
func TestCopyAcrossBackends(t *testing.T) {
	dir := t.TempDir()
	src := openTemp(t, &Options{NoSync: true})
	fillStore(t, src)
	pg := openPG(t, pgtest.DSN(t))
	back, err := Open(filepath.Join(dir, "back.db"), &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()

	want, err := CountRecords(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range want {
		if f.N == 0 {
			t.Errorf("the fixture has no %s", f.Family)
		}
	}
	for _, step := range []struct {
		name     string
		dst, src Store
	}{{"bbolt to postgres", pg, src}, {"postgres to bbolt", back, pg}} {
		copied, err := Copy(step.dst, step.src)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if err := SameCounts(want, copied); err != nil {
			t.Errorf("%s: copied %v", step.name, err)
		}
		got, err := CountRecords(step.dst)
		if err != nil {
			t.Fatal(err)
		}
		if err := SameCounts(want, got); err != nil {
			t.Errorf("%s: the copy holds %v", step.name, err)
		}
		checked := 0
		n, err := CompareGames(step.src, step.dst, func(*Game) error { checked++; return nil })
		if err != nil || n != len(fillGames) || checked != n {
			t.Errorf("%s: compared %d games (checked %d), %v", step.name, n, checked, err)
		}
		checkStore(t, step.dst)
	}
	// Every record reads back the same from the round trip, through the typed reads.
	for _, read := range []func(tx Tx) (any, error){
		func(tx Tx) (any, error) { return tx.Game(2) },
		func(tx Tx) (any, error) { return tx.OpenGames() },
		func(tx Tx) (any, error) { return tx.Challenge(2) },
		func(tx Tx) (any, error) { return tx.PendingChallenges() },
		func(tx Tx) (any, error) { return tx.Guilds() },
		func(tx Tx) (any, error) { return tx.User("pref") },
		func(tx Tx) (any, error) { return tx.Receipt("fill1") },
		func(tx Tx) (any, error) { return tx.Heartbeat("bot") },
		func(tx Tx) (any, error) { return tx.GuildLadders("g1") },
		func(tx Tx) (any, error) { return tx.RatedResults("g1") },
		func(tx Tx) (any, error) { return tx.Puzzle("gm1-5") },
		func(tx Tx) (any, error) { return tx.Dailies("g1") },
		func(tx Tx) (any, error) { return tx.PuzzlePlayers("g1") },
		func(tx Tx) (any, error) { return tx.PuzzleAttempt("g1", "1001", "a1") },
		func(tx Tx) (any, error) { return tx.LiveEngineGames() },
		func(tx Tx) (any, error) { return tx.Tournaments("", false) },
		func(tx Tx) (any, error) { return tx.TournamentGame(4) },
		func(tx Tx) (any, error) { return tx.GamesByUser("1001", Query{}) },
	} {
		a, errA := Read(src, read)
		b, errB := Read(back, read)
		if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("source %+v (%v)\nround trip %+v (%v)", a, errA, b, errB)
		}
	}
	// New records take ids after the copied ones, in each backend.
	for _, st := range []Store{pg, back} {
		g := newGame("a", "b", "c")
		if err := st.Commit(&Change{Game: g}); err != nil || g.ID != uint64(len(fillGames)+1) {
			t.Errorf("%T: a new game after the copy got id %d, %v", st, g.ID, err)
		}
		c := &Challenge{From: Player{"a", "A"}, Status: ChallengePending}
		if err := st.Commit(&Change{Challenge: c}); err != nil || c.ID != 3 {
			t.Errorf("%T: a new challenge after the copy got id %d, %v", st, c.ID, err)
		}
		tm := &Tournament{GuildID: "g1", Status: TournamentOpen}
		if err := st.Update(func(tx Tx) error { return tx.PutTournament(tm) }); err != nil || tm.ID != 2 {
			t.Errorf("%T: a new tournament after the copy got id %d, %v", st, tm.ID, err)
		}
	}
	// A store that holds records is not a destination.
	if _, err := Copy(pg, src); err == nil {
		t.Error("copied into a store that is not empty")
	}
	// A store that differs is found out.
	g, _ := Read(back, func(tx Tx) (*Game, error) { return tx.Game(1) })
	g.Moves = append(g.Moves, chesscore.NewMove(chesscore.E2, chesscore.E4))
	if err := back.Commit(&Change{Game: g}); err != nil {
		t.Fatal(err)
	}
	if _, err := CompareGames(src, back, nil); !errors.Is(err, ErrMismatch) {
		t.Errorf("compare with a changed game: %v, want ErrMismatch", err)
	}
}
