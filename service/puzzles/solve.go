// solve.go: judging a member's move, the rated first try, the daily streak a solve
// extends, and answering a repeated request again.

package puzzles

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/storage"
)

// SolveRequest is a member's answer: a move (SAN or UCI) in their current puzzle.
type SolveRequest struct {
	// RequestID is the interaction id: a repeated request is answered again without
	// acting.
	RequestID   string
	Guild, User string
	Name        string
	// PuzzleID names the puzzle ("" for the member's current one, or today's).
	PuzzleID string
	Move     string
}

// Answer is the service's judgement of a move.
type Answer struct {
	// Progress is where the member stands after the answer (and the opponent's reply).
	*Progress
	Verdict puzzle.Verdict
	// Played is the member's move in SAN; Reply the opponent's answer ("" when the line
	// is complete or the move was wrong); Correct the move the line wanted, for a wrong
	// answer.
	Played, Reply string
	// Rated reports that this answer decided the rated first try (a wrong move, or the
	// solve); RatingBefore and RatingAfter are the member's rating around it.
	Rated                     bool
	RatingBefore, RatingAfter float64
	// Practice reports that the rated try was decided before: nothing counts.
	Practice bool
	// Streak is the member's daily streak after a solve of the puzzle of the day (0
	// otherwise).
	Streak int
	// Replayed reports a repeated request: nothing was done again.
	Replayed bool
}

// Solve judges a member's move. A wrong move ends the rated try as a loss against the
// puzzle's rating (the member may go on trying: practice); finding the whole line at the
// first try is a win. In a mate-in-one, any mate is right. After a right move that does
// not end the line, the opponent's reply is played and the member faces the next move.
// Solving the guild's puzzle of the day while it is the puzzle of the day adds the
// member to its solvers and to their daily streak.
func (s *Service) Solve(ctx context.Context, req SolveRequest) (*Answer, error) {
	done, err := s.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := checkMember(req.Guild, req.User); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Move) == "" {
		return nil, fmt.Errorf("%w: no move given", ErrBadMove)
	}
	if req.PuzzleID == "" {
		cur, err := s.Current(ctx, req.Guild, req.User, "")
		if err != nil {
			return nil, err
		}
		req.PuzzleID = cur.Puzzle.ID
	}
	unlock := s.lock(req.Guild, req.User)
	defer unlock()
	now := s.clock.Now()
	var out *Answer
	err = s.db.Update(ctx, func(w storage.Tx) error {
		out = nil
		a, err := s.solve(w, req, now)
		out = a
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// solveTx is what an answer reads and writes: the puzzle and its rating, the day's
// puzzle, the member's record and attempt.
type solveTx interface {
	storage.PuzzlesTx
	storage.DailiesTx
	storage.PuzzlePlayersTx
	storage.AttemptsTx
}

// solve is Solve inside the transaction.
func (s *Service) solve(w solveTx, req SolveRequest, now time.Time) (*Answer, error) {
	p, l, err := s.loadPuzzle(w, req.PuzzleID)
	if err != nil {
		return nil, err
	}
	sp, err := w.Puzzle(req.PuzzleID)
	if err != nil {
		return nil, err
	}
	if g := sp.SourceGuild(); g != "" && g != req.Guild {
		return nil, fmt.Errorf("puzzle %s: %w", req.PuzzleID, ErrNoSuchPuzzle)
	}
	pl, err := w.PuzzlePlayer(req.Guild, req.User)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	pl = newPlayer(pl)
	a, err := w.PuzzleAttempt(req.Guild, req.User, req.PuzzleID)
	fresh := errors.Is(err, storage.ErrNotFound)
	if err != nil && !fresh {
		return nil, err
	}
	day, err := currentDaily(w, req.Guild)
	if err != nil {
		return nil, err
	}
	daily := ""
	if day != nil && day.PuzzleID == req.PuzzleID {
		daily = day.Date
	}
	if fresh {
		a.Tries, a.Started, a.Daily = 1, now, daily
	}
	if req.RequestID != "" && a.LastRequest == req.RequestID {
		ans := decodeAnswer(a.LastAnswer)
		ans.Progress, ans.Replayed = progress(p, l, a, pl, daily), true
		return ans, nil
	}
	if a.Step >= l.Steps() { // the try in progress is complete: a new one (practice)
		a.Step = 0
		a.Tries++
	}
	pos, _ := l.PositionAt(a.Step)
	m, err := pos.ParseSAN(req.Move)
	if err != nil {
		var me *cc.MoveError
		if errors.As(err, &me) {
			return nil, fmt.Errorf("%w: %s", ErrBadMove, me.Reason)
		}
		return nil, fmt.Errorf("%w: %v", ErrBadMove, err)
	}
	verdict, err := puzzle.Check(l, a.Step, m)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadMove, err)
	}
	ans := &Answer{Verdict: verdict, Played: pos.SAN(m), RatingBefore: pl.Rating, RatingAfter: pl.Rating}
	first := a.Result == storage.AttemptOpen
	ans.Practice = !first
	switch verdict {
	case puzzle.Wrong:
		a.Misses++
		if first {
			a.Result, a.RatingBefore = storage.AttemptFailed, pl.Rating
			if err := rate(w, &pl, sp, 0); err != nil {
				return nil, err
			}
			a.RatingAfter, ans.Rated, ans.RatingAfter = pl.Rating, true, pl.Rating
		}
	case puzzle.Correct:
		a.Step++
		reply := l.Moves[2*a.Step]
		after := pos.Play(m)
		ans.Reply = after.SAN(reply)
	case puzzle.Solved:
		a.Step = l.Steps()
		a.Finished = now
		if first {
			a.Result, a.RatingBefore = storage.AttemptSolved, pl.Rating
			if err := rate(w, &pl, sp, 1); err != nil {
				return nil, err
			}
			a.RatingAfter, ans.Rated, ans.RatingAfter = pl.Rating, true, pl.Rating
		}
		if daily != "" { // solved while it is the puzzle of the day
			streak, err := s.solvedDaily(w, day, &pl, req, now, first && a.Misses == 0 && a.Hints == 0)
			if err != nil {
				return nil, err
			}
			ans.Streak = streak
		}
	}
	if req.Name != "" {
		pl.Name = truncateName(req.Name)
	}
	pl.Current, pl.Updated = req.PuzzleID, now
	a.LastRequest, a.LastAnswer = req.RequestID, encodeAnswer(ans)
	if err := w.PutPuzzleAttempt(a); err != nil {
		return nil, err
	}
	if err := w.PutPuzzlePlayer(pl); err != nil {
		return nil, err
	}
	ans.Progress = progress(p, l, a, pl, daily)
	return ans, nil
}

// solvedDaily adds a solve of the puzzle of the day: the member joins the day's
// solvers and their streak goes on (when they solved the day before too) or restarts.
func (s *Service) solvedDaily(w storage.DailiesTx, day *storage.Daily, pl *storage.PuzzlePlayer, req SolveRequest, now time.Time, clean bool) (int, error) {
	if pl.StreakDay != day.Date {
		if day.Prev != "" && pl.StreakDay == day.Prev {
			pl.Streak++
		} else {
			pl.Streak = 1
		}
		pl.StreakDay = day.Date
		pl.Best = max(pl.Best, pl.Streak)
	}
	for _, sv := range day.Solvers {
		if sv.UserID == req.User {
			return pl.Streak, nil
		}
	}
	if len(day.Solvers) < storage.MaxDailySolvers {
		day.Solvers = append(day.Solvers, storage.DailySolver{UserID: req.User, Name: truncateName(req.Name), At: now, Clean: clean})
		if err := w.PutDaily(day); err != nil {
			return 0, err
		}
	}
	return pl.Streak, nil
}

// encodeAnswer keeps what a repeated request needs to be answered again.
func encodeAnswer(a *Answer) string {
	return strings.Join([]string{strconv.Itoa(int(a.Verdict)), a.Played, a.Reply, strconv.FormatBool(a.Rated),
		strconv.FormatFloat(a.RatingBefore, 'f', 3, 64), strconv.FormatFloat(a.RatingAfter, 'f', 3, 64),
		strconv.FormatBool(a.Practice), strconv.Itoa(a.Streak)}, "|")
}

func decodeAnswer(s string) *Answer {
	f := strings.Split(s, "|")
	a := &Answer{}
	if len(f) != 8 {
		return a
	}
	v, _ := strconv.Atoi(f[0])
	a.Verdict, a.Played, a.Reply = puzzle.Verdict(v), f[1], f[2]
	a.Rated, _ = strconv.ParseBool(f[3])
	a.RatingBefore, _ = strconv.ParseFloat(f[4], 64)
	a.RatingAfter, _ = strconv.ParseFloat(f[5], 64)
	a.Practice, _ = strconv.ParseBool(f[6])
	a.Streak, _ = strconv.Atoi(f[7])
	return a
}
