package puzzles

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/storage"
)

func TestSolveFlowRatingsAndPractice(t *testing.T) {
	f := newFixture(t, sampleCSV(t))
	// 005YX: a two-move line (f7e6, then g7h8 after the reply c6b7).
	sp0, _ := storage.Read(ctx, f.db, func(tx storage.Tx) (*storage.Puzzle, error) { return tx.Puzzle("005YX") })
	plays0 := sp0.Plays
	pr, err := f.svc.Start(ctx, "g1", "alice", "Alice", "005YX")
	if err != nil {
		t.Fatal(err)
	}
	if pr.Step() != 0 || pr.Done || pr.LastMove.UCI() != "c7e6" || pr.Position.Turn() != pr.Line.Solver {
		t.Fatalf("start %+v", pr)
	}
	if _, err := f.svc.Solve(ctx, SolveRequest{RequestID: "r0", Guild: "g1", User: "alice", Move: "Ke2"}); !errors.Is(err, ErrBadMove) {
		t.Errorf("an illegal move: %v, want ErrBadMove", err)
	}
	a, err := f.svc.Solve(ctx, SolveRequest{RequestID: "r1", Guild: "g1", User: "alice", Name: "Alice", Move: "f7e6"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Verdict != puzzle.Correct || a.Reply != "Qb7+" || a.Step() != 1 || a.Rated {
		t.Fatalf("first move: %+v", a)
	}
	// puzzle.Wrong at the second step: the rated try is lost.
	var wrong string
	pos := a.Position
	var ml cc.MoveList
	pos.LegalMoves(&ml)
	for _, m := range ml.Slice() {
		if m.UCI() != "g7h8" {
			after := pos.Play(m)
			if !(after.InCheck() && !after.HasLegalMove()) {
				wrong = m.UCI()
				break
			}
		}
	}
	a, err = f.svc.Solve(ctx, SolveRequest{RequestID: "r2", Guild: "g1", User: "alice", Move: wrong})
	if err != nil {
		t.Fatal(err)
	}
	if a.Verdict != puzzle.Wrong || !a.Rated || a.RatingAfter >= a.RatingBefore || a.Step() != 1 {
		t.Fatalf("wrong move: %+v", a)
	}
	lost := a.RatingAfter
	// The same request again is answered from the record: nothing moves.
	again, err := f.svc.Solve(ctx, SolveRequest{RequestID: "r2", Guild: "g1", User: "alice", Move: wrong})
	if err != nil || !again.Replayed || again.Verdict != puzzle.Wrong || again.Player.Rating != lost || again.Attempt.Misses != 1 {
		t.Errorf("replayed request: %+v, %v", again, err)
	}
	// Practice: the right move now solves it, without rating.
	a, err = f.svc.Solve(ctx, SolveRequest{RequestID: "r3", Guild: "g1", User: "alice", Move: "g7h8"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Verdict != puzzle.Solved || a.Rated || !a.Practice || a.Player.Rating != lost || a.Player.Solved != 0 || a.Player.Rated != 1 || !a.Done {
		t.Errorf("practice solve: %+v (player %+v)", a, a.Player)
	}
	// Bob solves it cleanly: a win against a 1964 puzzle lifts him well above 1500.
	for i, mv := range []string{"f7e6", "g7h8"} {
		a, err = f.svc.Solve(ctx, SolveRequest{RequestID: fmt.Sprint("b", i), Guild: "g1", User: "bob", PuzzleID: "005YX", Move: mv})
		if err != nil {
			t.Fatalf("bob %s: %v", mv, err)
		}
	}
	if a.Verdict != puzzle.Solved || !a.Rated || a.Player.Rating < 1600 || a.Player.Solved != 1 {
		t.Errorf("bob's solve: %+v (player %+v)", a, a.Player)
	}
	sp, _ := storage.Read(ctx, f.db, func(tx storage.Tx) (*storage.Puzzle, error) { return tx.Puzzle("005YX") })
	if sp.Rating == 1964 || sp.Plays != plays0+2 {
		t.Errorf("the puzzle's rating did not move with two rated attempts: %+v", sp)
	}
	// The same puzzle in another guild is a fresh, rated attempt there.
	a, err = f.svc.Solve(ctx, SolveRequest{RequestID: "c1", Guild: "g2", User: "alice", PuzzleID: "005YX", Move: "f7e6"})
	if err != nil || a.Practice || a.Player.Rating != StartRating {
		t.Errorf("other guild: %+v, %v", a, err)
	}
	st, err := f.svc.Stats(ctx, "g1", "bob")
	if err != nil || st.Rank != 1 || st.Of != 2 {
		t.Errorf("bob's stats %+v, %v", st, err)
	}
	lb, err := f.svc.Leaderboard(ctx, "g1", 10)
	if err != nil || len(lb) != 2 || lb[0].UserID != "bob" || lb[1].UserID != "alice" {
		t.Errorf("leaderboard %+v, %v", lb, err)
	}
}

func TestSolveAcceptsAnyMate(t *testing.T) {
	f := newFixture(t, nil)
	if _, err := storage.Write(ctx, f.db, func(tx storage.Tx) (int, error) {
		return tx.AddPuzzles([]*storage.Puzzle{{ID: "two-mates", FEN: "6k1/5ppp/8/8/8/8/5PPP/R2R2K1 b - - 0 1",
			Moves: []string{"g8h8", "d1d8"}, Rating: 800, RD: 80, Source: "test"}})
	}); err != nil {
		t.Fatal(err)
	}
	for user, mv := range map[string]string{"u1": "Rd8#", "u2": "a1a8", "u3": "Rd7"} {
		a, err := f.svc.Solve(ctx, SolveRequest{RequestID: user, Guild: "g1", User: user, PuzzleID: "two-mates", Move: mv})
		if err != nil {
			t.Fatal(err)
		}
		want := puzzle.Solved
		if mv == "Rd7" {
			want = puzzle.Wrong
		}
		if a.Verdict != want {
			t.Errorf("%s: %v, want %v", mv, a.Verdict, want)
		}
	}
}

// solveLine plays the whole solution of the member's current puzzle.
func solveLine(t *testing.T, svc *Service, guild, user, name string, pr *Progress) *Answer {
	t.Helper()
	var a *Answer
	for k := pr.Step(); k < pr.Line.Steps(); k++ {
		var err error
		a, err = svc.Solve(ctx, SolveRequest{RequestID: fmt.Sprintf("%s-%s-%s-%d", guild, user, pr.Puzzle.ID, k), Guild: guild, User: user, Name: name,
			Move: pr.Line.Moves[1+2*k].UCI()})
		if err != nil {
			t.Fatal(err)
		}
	}
	if a.Verdict != puzzle.Solved {
		t.Fatalf("the solution did not solve %s: %+v", pr.Puzzle.ID, a)
	}
	return a
}

func TestStreaks(t *testing.T) {
	f := newFixture(t, sampleCSV(t))
	day := func(n int) { f.clock.Set(day0.Add(time.Duration(n)*24*time.Hour + 2*time.Hour)) }
	solveToday := func() *Answer {
		pr, err := f.svc.Today(ctx, "g1", "alice", "Alice")
		if err != nil {
			t.Fatal(err)
		}
		return solveLine(t, f.svc, "g1", "alice", "Alice", pr)
	}
	for n, want := range []int{1, 2, 3} {
		day(n)
		if a := solveToday(); a.Streak != want {
			t.Errorf("day %d: streak %d, want %d", n, a.Streak, want)
		}
	}
	day(4) // alice skips day 4
	if _, err := f.svc.TodayDaily(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	day(5)
	if st, _ := f.svc.Stats(ctx, "g1", "alice"); st.Streak != 0 || st.Best != 3 {
		t.Errorf("after a missed day: streak %d best %d, want 0 and 3", st.Streak, st.Best)
	}
	if a := solveToday(); a.Streak != 1 {
		t.Errorf("after a missed day, streak %d, want 1", a.Streak)
	}
	// Solving an old daily later is practice for the streak.
	st, _ := f.svc.Stats(ctx, "g1", "alice")
	if st.Streak != 1 || st.Solved != 4 {
		t.Errorf("stats %+v", st)
	}
}

func FuzzDecodeAnswer(f *testing.F) {
	f.Add(encodeAnswer(&Answer{Verdict: puzzle.Solved, Played: "Qxf7#", Rated: true, RatingBefore: 1500, RatingAfter: 1531.25, Streak: 3}))
	f.Add(encodeAnswer(&Answer{Verdict: puzzle.Correct, Played: "Nf3", Reply: "exd5", Practice: true}))
	f.Add("")
	f.Add("9|a|b|c|d|e|f|g")
	f.Fuzz(func(t *testing.T, s string) {
		a := decodeAnswer(s)
		again := decodeAnswer(encodeAnswer(a))
		if again.Verdict != a.Verdict || again.Played != a.Played && !strings.Contains(a.Played, "|") || again.Streak != a.Streak || again.Rated != a.Rated {
			t.Fatalf("%q: %+v then %+v", s, a, again)
		}
	})
}
