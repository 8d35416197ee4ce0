// puzzle.go: a server's puzzle of the day (/s/<guild>/<token>/puzzle), solvable on the
// board. A signed-in player's moves go through the same service calls as /puzzle solve
// on Discord (puzzles.Solve), so their streak and puzzle rating are kept; the board
// shows where they stand. /puzzle today gives a personal link that signs them in
// (/s/<guild>/<token>/puzzle/signin/<token>), as "Play on the web" does for a game.

package web

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/puzzles"
)

// puzzlePage is the data of templates/puzzle.html.
type puzzlePage struct {
	Path     string // the puzzle page's path (the form posts to Path/move)
	Date     string
	PuzzleID string
	Rating   int
	Themes   string
	Board    boardView
	Pieces   any
	Solver   string // white or black
	Step     int    // the solver move faced, 1-based
	// GuestStep is the step a visitor without a session faces, 0-based (their form
	// carries it: nothing of their try is stored).
	GuestStep int
	Steps     int
	Signed    bool
	CSRF      string
	FormID    string
	Done      bool
	Practice  bool
	// The player's record (signed in).
	PuzzleRating         int
	Streak, Best, Solved int
	// Answer is what the last move posted got ("" on a first look); Outcome its class
	// (right, wrong, solved, error).
	Answer, Outcome string
	Solution        string // shown once solved
}

// PuzzleSignInURL returns userID's personal link that signs them in and opens the
// server's puzzle of the day; it works for signInTTL.
func (s *Server) PuzzleSignInURL(guildID, userID string) string {
	exp := strconv.FormatInt(s.opts.Now().Add(signInTTL).Unix(), 10)
	body := userID + "." + exp
	return s.opts.BaseURL + s.serverPath(guildID) + "/puzzle/signin/" + body + "." + s.puzzleSignInMAC(guildID, body)
}

func (s *Server) puzzleSignInMAC(guildID, body string) string {
	m := hmac.New(sha256.New, s.opts.Secret)
	m.Write([]byte("gambit web key: server sign-in"))
	return mac(m.Sum(nil), guildID+"."+body, 18)
}

// parsePuzzleSignIn reads and checks a puzzle sign-in token of guildID at now.
func (s *Server) parsePuzzleSignIn(guildID, tok string, now time.Time) (string, error) {
	parts := strings.Split(tok, ".")
	if len(tok) > 96 || len(parts) != 3 || !snowflake(parts[0]) {
		return "", errTokenForm
	}
	exp, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || exp <= 0 || parts[1] != strconv.FormatInt(exp, 10) {
		return "", errTokenForm
	}
	if !hmac.Equal([]byte(s.puzzleSignInMAC(guildID, parts[0]+"."+parts[1])), []byte(parts[2])) {
		return "", errTokenMAC
	}
	if !now.Before(time.Unix(exp, 0)) {
		return "", errTokenExpired
	}
	return parts[0], nil
}

// puzzleSignIn serves GET /s/{guild}/{stoken}/puzzle/signin/{token}: the session cookie
// of a valid token, then the puzzle page.
func (s *Server) puzzleSignIn(w http.ResponseWriter, r *http.Request) {
	guild, ok := s.guildOf(w, r, true)
	if !ok {
		return
	}
	user, err := s.parsePuzzleSignIn(guild, r.PathValue("token"), s.opts.Now())
	if err != nil {
		text := "This sign-in link is not valid. Use /puzzle today on Discord for a new one."
		if errors.Is(err, errTokenExpired) {
			text = "This sign-in link has expired (they work for ten minutes). Use /puzzle today on Discord for a new one."
		}
		s.errorPage(w, http.StatusForbidden, "Sign-in link not valid", text)
		return
	}
	s.setSession(w, user)
	http.Redirect(w, r, s.serverPath(guild)+"/puzzle", http.StatusSeeOther)
}

// setSession signs user in on this browser, as session.go's sign-in does.
func (s *Server) setSession(w http.ResponseWriter, user string) {
	now := s.opts.Now()
	val := s.keys.sessionToken(session{UserID: user, Expires: now.Add(sessionTTL)})
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: val, Path: "/", Expires: now.Add(sessionTTL), MaxAge: int(sessionTTL / time.Second),
		HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode,
	})
	w.Header().Set("Cache-Control", "no-store")
}

// puzzlePageHandler serves GET /s/{guild}/{stoken}/puzzle.
func (s *Server) puzzlePageHandler(w http.ResponseWriter, r *http.Request) {
	guild, ok := s.guildOf(w, r, true)
	if !ok {
		return
	}
	s.renderPuzzle(w, r, guild, http.StatusOK, nil, nil, nil)
}

// guestTry is a visitor's try without a session: the step they face, and the answer
// to their last move. Nothing of it is stored.
type guestTry struct {
	Step            int
	Answer, Outcome string
}

// renderPuzzle shows the puzzle of the day: for a signed-in player where they stand
// (after ans, the answer to their move, or the error err), for anyone else their try
// (guest; nil: its start).
func (s *Server) renderPuzzle(w http.ResponseWriter, r *http.Request, guild string, status int, ans *puzzles.Answer, moveErr error, guest *guestTry) {
	if s.opts.Puzzles == nil {
		s.notFound(w)
		return
	}
	ctx := r.Context()
	day, err := s.opts.Puzzles.TodayDaily(ctx, guild)
	if errors.Is(err, puzzles.ErrNoPuzzles) {
		s.errorPage(w, http.StatusNotFound, "No puzzle today", "This server has no puzzles yet.")
		return
	}
	if err != nil {
		s.log.Error("web: read the puzzle of the day", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "Something went wrong", "The puzzle could not be read; try again in a moment.")
		return
	}
	user, cookie := s.sessionUser(r)
	var pr *puzzles.Progress
	if ans != nil {
		pr = ans.Progress
	} else if user != "" {
		pr, err = s.opts.Puzzles.Current(ctx, guild, user, day.PuzzleID)
	} else {
		var p *puzzle.Puzzle
		var l puzzle.Line
		if p, l, err = s.opts.Puzzles.Puzzle(ctx, day.PuzzleID); err == nil {
			pr = &puzzles.Progress{Puzzle: p, Line: l, Position: l.Shown, LastMove: l.Moves[0], Daily: day.Date}
			if guest != nil && guest.Step > 0 {
				pr.Attempt.Step = guest.Step
				pr.Position, pr.LastMove = l.PositionAt(guest.Step)
				if guest.Step >= l.Steps() { // the final position, after the solver's last move
					pr.Done, pr.Position, pr.LastMove = true, l.Start, l.Moves[len(l.Moves)-1]
					for _, m := range l.Moves {
						pr.Position = pr.Position.Play(m)
					}
				}
			}
		}
	}
	if err != nil {
		s.log.Error("web: read a puzzle", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "Something went wrong", "The puzzle could not be read; try again in a moment.")
		return
	}
	p := puzzlePage{
		Path: s.serverPath(guild) + "/puzzle", Date: day.Date, PuzzleID: pr.Puzzle.ID, Rating: pr.Puzzle.Rating,
		Themes: strings.Join(pr.Puzzle.Themes, ", "), Pieces: pieceSymbols, Solver: colorName(pr.Line.Solver),
		Step: pr.Step() + 1, Steps: pr.Line.Steps(), Signed: user != "", FormID: newFormID(), Done: pr.Done,
		Practice: user != "" && pr.Attempt.Result != "" /* storage.AttemptOpen */ && !pr.Done,
	}
	p.GuestStep = pr.Step()
	pos := pr.Position
	p.Board = newBoardView(&pos, pr.LastMove, pr.Line.Solver, chesscore.NoResult)
	if user != "" {
		p.CSRF = s.keys.csrfToken(cookie)
		p.PuzzleRating = roundRating(pr.Player.Rating)
		p.Streak, p.Best, p.Solved = pr.Player.Streak, pr.Player.Best, pr.Player.Solved
	}
	if pr.Done {
		p.Solution = pr.Line.SolutionSAN()
	}
	switch {
	case moveErr != nil:
		p.Answer, p.Outcome = moveErr.Error(), "error"
	case ans != nil:
		p.Answer, p.Outcome = answerText(ans)
	case guest != nil:
		p.Answer, p.Outcome = guest.Answer, guest.Outcome
	}
	s.render(w, status, "puzzle", Page{
		Title:       fmt.Sprintf("Puzzle of the day %s", day.Date),
		Description: fmt.Sprintf("%s to move and win · rated %d", titleCase(p.Solver), pr.Puzzle.Rating),
		URL:         s.PuzzleURL(guild), Image: s.serverBoardURL(guild), Data: p,
	})
}

// answerText says what a move got, and its class for the page.
func answerText(a *puzzles.Answer) (string, string) {
	var b strings.Builder
	outcome := "right"
	switch a.Verdict {
	case puzzle.Wrong:
		outcome = "wrong"
		fmt.Fprintf(&b, "%s is not the move.", a.Played)
	case puzzle.Correct:
		fmt.Fprintf(&b, "%s is right. The reply: %s. Your move.", a.Played, a.Reply)
	case puzzle.Solved:
		outcome = "solved"
		fmt.Fprintf(&b, "%s: solved!", a.Played)
		if a.Streak > 0 {
			fmt.Fprintf(&b, " Daily streak: %d.", a.Streak)
		}
	}
	if a.Rated {
		fmt.Fprintf(&b, " Puzzle rating %d → %d.", roundRating(a.RatingBefore), roundRating(a.RatingAfter))
	} else if a.Practice {
		b.WriteString(" (Practice: your first try already counted.)")
	}
	return b.String(), outcome
}

// postPuzzleMove serves POST /s/{guild}/{stoken}/puzzle/move: a signed-in player's
// move (the board's script fills the form's move in UCI; without script it is typed),
// judged by puzzles.Solve.
func (s *Server) postPuzzleMove(w http.ResponseWriter, r *http.Request) {
	guild, ok := s.guildOf(w, r, true)
	if !ok {
		return
	}
	if s.opts.Puzzles == nil {
		s.notFound(w)
		return
	}
	user, cookie := s.sessionUser(r)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, http.StatusBadRequest, "Bad request", "The form could not be read.")
		return
	}
	if user == "" {
		s.guestMove(w, r, guild)
		return
	}
	if !s.keys.validCSRF(cookie, r.PostForm.Get("csrf")) {
		s.errorPage(w, http.StatusForbidden, "Forbidden", "This form is not from your own page of the puzzle: sign in with /puzzle today on Discord and try again.")
		return
	}
	if !s.limits.action(user) {
		s.errorPage(w, http.StatusTooManyRequests, "Slow down", "Too many moves; wait a few seconds.")
		return
	}
	move, id, pid := r.PostForm.Get("move"), r.PostForm.Get("id"), r.PostForm.Get("puzzle")
	if !validID(id) || pid == "" || len(pid) > 64 || !printable(pid) {
		s.errorPage(w, http.StatusBadRequest, "Bad request", "The form is missing the puzzle or its id: reload the page.")
		return
	}
	if move == "" || len(move) > maxMoveLen || !printable(move) {
		s.renderPuzzle(w, r, guild, http.StatusBadRequest, nil, errors.New("play a move on the board, or type one such as Qxf7+ or e7e8q"), nil)
		return
	}
	ans, err := s.opts.Puzzles.Solve(r.Context(), puzzles.SolveRequest{RequestID: "web:" + id, Guild: guild, User: user, PuzzleID: pid, Move: move})
	switch {
	case errors.Is(err, puzzles.ErrBadMove):
		s.renderPuzzle(w, r, guild, http.StatusUnprocessableEntity, nil, fmt.Errorf("%s: %w", move, err), nil)
		return
	case errors.Is(err, puzzles.ErrNoSuchPuzzle):
		s.notFound(w)
		return
	case err != nil:
		s.log.Error("web: solve a puzzle", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "Something went wrong", "The move could not be judged; try again in a moment.")
		return
	}
	s.renderPuzzle(w, r, guild, http.StatusOK, ans, nil, nil)
}

// guestMove judges a visitor's move without a session: practice, judged against the
// puzzle's line as Solve judges it, and nothing stored (no rating, no streak). The form
// carries the step the visitor faces. It changes nothing, so it needs no CSRF token;
// guildOf has counted it against the address's limit.
func (s *Server) guestMove(w http.ResponseWriter, r *http.Request, guild string) {
	day, err := s.opts.Puzzles.TodayDaily(r.Context(), guild)
	if err != nil {
		s.notFound(w)
		return
	}
	_, l, err := s.opts.Puzzles.Puzzle(r.Context(), day.PuzzleID)
	if err != nil || r.PostForm.Get("puzzle") != day.PuzzleID {
		s.errorPage(w, http.StatusConflict, "A new puzzle", "The puzzle of the day has changed: reload the page.")
		return
	}
	step, err := strconv.Atoi(r.PostForm.Get("step"))
	if err != nil || step < 0 || step >= l.Steps() || strconv.Itoa(step) != r.PostForm.Get("step") {
		s.errorPage(w, http.StatusBadRequest, "Bad request", "The form is missing the step of the puzzle: reload the page.")
		return
	}
	move := r.PostForm.Get("move")
	try := &guestTry{Step: step}
	pos, _ := l.PositionAt(step)
	m, err := pos.ParseSAN(move)
	if move == "" || len(move) > maxMoveLen || !printable(move) || err != nil {
		try.Answer, try.Outcome = "Not a legal move here: play one on the board, or type one such as Qxf7+ or e7e8q.", "error"
		s.renderPuzzle(w, r, guild, http.StatusUnprocessableEntity, nil, nil, try)
		return
	}
	v, err := puzzle.Check(l, step, m)
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, "Bad request", "The form's step is not one of the puzzle's: reload the page.")
		return
	}
	switch v {
	case puzzle.Wrong:
		try.Answer, try.Outcome = pos.SAN(m)+" is not the move. Try again (practice: sign in with /puzzle today on Discord to keep your streak).", "wrong"
	case puzzle.Correct:
		after := pos.Play(m)
		try.Step++
		try.Answer, try.Outcome = fmt.Sprintf("%s is right. The reply: %s. Your move.", pos.SAN(m), after.SAN(l.Moves[2*try.Step])), "right"
	case puzzle.Solved:
		try.Step = l.Steps()
		try.Answer, try.Outcome = pos.SAN(m)+": solved! (Practice: sign in with /puzzle today on Discord to keep your streak.)", "solved"
	}
	s.renderPuzzle(w, r, guild, http.StatusOK, nil, nil, try)
}

// serverBoardURL is the picture a server page unfurls with: its puzzle of the day.
func (s *Server) serverBoardURL(guild string) string {
	return s.opts.BaseURL + s.serverPath(guild) + "/board.png"
}

// serverBoardPNG serves GET /s/{guild}/{stoken}/board.png: the puzzle of the day as
// its solver faces it, or the start position for a server without puzzles.
func (s *Server) serverBoardPNG(w http.ResponseWriter, r *http.Request) {
	guild, ok := s.guildOf(w, r, false)
	if !ok {
		return
	}
	pos := chesscore.StartPosition()
	opt := render.BoardOptions{Coordinates: true, Size: 400}
	if s.opts.Puzzles != nil {
		if day, err := s.opts.Puzzles.TodayDaily(r.Context(), guild); err == nil {
			if _, l, err := s.opts.Puzzles.Puzzle(r.Context(), day.PuzzleID); err == nil {
				pos, opt.LastMove, opt.Flip = l.Shown, l.Moves[0], l.Solver == chesscore.Black
			}
		}
	}
	if gs, err := s.opts.Settings.Guild(r.Context(), guild); err == nil {
		if _, err := render.Theme(gs.BoardTheme); err == nil {
			opt.Theme = gs.BoardTheme
		}
	}
	var buf bytes.Buffer
	if err := render.PNG(&buf, &pos, opt); err != nil {
		s.log.Error("web: draw a board", "err", err)
		http.Error(w, "The board could not be drawn.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(buf.Bytes())
}
