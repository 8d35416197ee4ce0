// analysis.go: a finished game's analysis (/g/<id>/<token>/analysis): the evaluation
// graph, each move's judgement and the engine's better move where the move played lost
// ground, and each side's summary. It shows the analysis /analyze made (the engine
// service's cache); a signed-in player of the game may ask for one from the page
// (POST, CSRF), which queues in the server's line exactly as /analyze does.
//
// The page's data is a list of analysisMove (one per move) and a summary per side, so
// the engine's game review (accuracy, move classes) adds fields without reshaping it.

package web

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
)

// analysisTimeout bounds an analysis asked for from the page.
const analysisTimeout = 3 * time.Minute

// evalClamp is the graph's range, in pawns either way; a mate is drawn at its edge.
const evalClamp = 10.0

// analysisMove is one move of the analysis.
type analysisMove struct {
	Ply       int
	Num       string // "1." before White's moves, "1…" for a first move by Black
	SAN       string
	Color     string
	Eval      string // after the move, White's view: "+0.35", "#-3"
	Judgement string // "", inaccuracy, mistake, blunder
	Symbol    string // "", ?!, ?, ??
	Better    string // the engine's choice when the move lost ground ("" otherwise)
	Drop      int    // the loss in winning chances, in percent
}

// analysisSide is one side's summary.
type analysisSide struct {
	Name, Color                      string
	Inaccuracies, Mistakes, Blunders int
	AverageLoss                      string
}

// analysisPage is the data of templates/analysis.html.
type analysisPage struct {
	ID             uint64
	GamePath, Path string
	White, Black   string
	Result         string
	Ready          bool // an analysis is shown
	Engine         string
	Graph          any
	Moves          []analysisMove
	Sides          []analysisSide
	CanAsk         bool // a signed-in player of the game: the form asks for one
	CSRF           string
	Error          string
}

// AnalysisURL returns the link of game id's analysis page.
func (s *Server) AnalysisURL(id uint64) string { return s.GameURL(id) + "/analysis" }

// analysisPageHandler serves GET /g/{id}/{token}/analysis.
func (s *Server) analysisPageHandler(w http.ResponseWriter, r *http.Request) {
	g, ok := s.gameOf(w, r, true)
	if !ok {
		return
	}
	if s.opts.Engine == nil {
		s.notFound(w)
		return
	}
	a, _ := s.opts.Engine.Cached(g.ID)
	s.renderAnalysis(w, r, g, http.StatusOK, a, "")
}

// postAnalysis serves POST /g/{id}/{token}/analysis: a player of the finished game
// asks for its analysis, under the service's limits for them.
func (s *Server) postAnalysis(w http.ResponseWriter, r *http.Request) {
	g, ok := s.gameOf(w, r, true)
	if !ok {
		return
	}
	if s.opts.Engine == nil {
		s.notFound(w)
		return
	}
	user, cookie := s.sessionUser(r)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, http.StatusBadRequest, "Bad request", "The form could not be read.")
		return
	}
	if _, player := g.ColorOf(user); user == "" || !player || !s.keys.validCSRF(cookie, r.PostForm.Get("csrf")) {
		s.errorPage(w, http.StatusForbidden, "Forbidden", "Only the game's players, signed in on its page, may ask for its analysis here; anyone may use /analyze on Discord.")
		return
	}
	if g.Live() {
		s.renderAnalysis(w, r, g, http.StatusConflict, nil, "The game is still being played: it is analysed once it is over.")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), analysisTimeout)
	defer cancel()
	_, err := s.opts.Engine.Analyze(ctx, engineplay.AnalysisRequest{GuildID: g.GuildID, UserID: user, Game: g})
	var cd *engineplay.CooldownError
	switch {
	case err == nil:
		http.Redirect(w, r, s.gamePath(g.ID)+"/analysis", http.StatusSeeOther)
		return
	case errors.As(err, &cd):
		s.renderAnalysis(w, r, g, http.StatusTooManyRequests, nil, fmt.Sprintf("You analysed a game a moment ago; ask again after %s.", cd.Until.UTC().Format("15:04:05 UTC")))
	case errors.Is(err, engineplay.ErrAnalysisPending):
		s.renderAnalysis(w, r, g, http.StatusTooManyRequests, nil, "Your previous analysis is still running; wait for it.")
	case errors.Is(err, engineplay.ErrNoMoves):
		s.renderAnalysis(w, r, g, http.StatusUnprocessableEntity, nil, "The game has no moves to analyse.")
	default:
		s.log.Error("web: analyse a game", "game", g.ID, "err", err)
		s.renderAnalysis(w, r, g, http.StatusServiceUnavailable, nil, "The analysis could not be made now; try again later.")
	}
}

func (s *Server) renderAnalysis(w http.ResponseWriter, r *http.Request, g *games.Game, status int, a *engineplay.Analysis, msg string) {
	user, cookie := s.sessionUser(r)
	_, player := g.ColorOf(user)
	p := analysisPage{
		ID: g.ID, GamePath: s.gamePath(g.ID), Path: s.gamePath(g.ID) + "/analysis", White: g.White.Name, Black: g.Black.Name,
		Result: g.Outcome.Result.String(), CanAsk: user != "" && player && !g.Live() && a == nil, Error: msg,
	}
	if cookie != "" {
		p.CSRF = s.keys.csrfToken(cookie)
	}
	if a != nil {
		p.Ready, p.Engine = true, a.Engine
		p.Moves, p.Graph = analysisMoves(g, a)
		for _, c := range []chesscore.Color{chesscore.White, chesscore.Black} {
			sum := a.Summary(c)
			p.Sides = append(p.Sides, analysisSide{Name: g.Player(c).Name, Color: colorName(c), Inaccuracies: sum.Inaccuracies,
				Mistakes: sum.Mistakes, Blunders: sum.Blunders, AverageLoss: fmt.Sprintf("%.1f%%", sum.AverageLoss)})
		}
	}
	desc := fmt.Sprintf("%s vs %s, %s", g.White.Name, g.Black.Name, p.Result)
	if p.Ready {
		desc += fmt.Sprintf(" · blunders %d–%d, mistakes %d–%d", p.Sides[0].Blunders, p.Sides[1].Blunders, p.Sides[0].Mistakes, p.Sides[1].Mistakes)
	}
	s.render(w, status, "analysis", Page{
		Title: fmt.Sprintf("Analysis of game %d", g.ID), Description: desc, URL: s.GameURL(g.ID) + "/analysis",
		Image: s.GameURL(g.ID) + "/board.png", Data: p,
	})
}

// analysisMoves is the move list of an analysis and its evaluation graph.
func analysisMoves(g *games.Game, a *engineplay.Analysis) ([]analysisMove, any) {
	items := moveItems(g)
	line := series{Label: "evaluation"}
	line.Points = append(line.Points, chartPoint{X: 0, Y: 0.2}) // the start: White's usual edge
	out := make([]analysisMove, 0, len(a.Notes))
	for _, n := range a.Notes {
		m := analysisMove{Ply: n.Ply + 1, SAN: n.SAN, Color: colorName(n.Color), Eval: evalText(n.After), Drop: int(math.Round(100 * n.Drop))}
		if n.Ply < len(items) {
			m.Num = items[n.Ply].Num
		}
		if n.Judgement != engine.Good {
			m.Judgement, m.Symbol = n.Judgement.String(), n.Judgement.Symbol()
			if n.BestSAN != "" && n.BestSAN != n.SAN {
				m.Better = n.BestSAN
			}
		}
		out = append(out, m)
		line.Points = append(line.Points, chartPoint{X: float64(n.Ply + 1), Y: evalPawns(n.After)})
	}
	graph := lineChart(chartSpec{Title: "Evaluation (White's view, in pawns)", Fixed: true, YMin: -evalClamp, YMax: evalClamp, Zero: true,
		XFirst: "start", XLast: fmt.Sprintf("move %d", (len(a.Notes)+1)/2)}, []series{line})
	return out, graph
}

// evalPawns is a score in pawns for the graph, a mate at the graph's edge.
func evalPawns(sc engine.Score) float64 {
	if sc.IsMate() {
		if sc > 0 {
			return evalClamp
		}
		return -evalClamp
	}
	return math.Max(-evalClamp, math.Min(evalClamp, float64(sc)/100))
}

// evalText writes a score as the move list shows it: "+0.35", "-1.20", "#3", "#-2".
func evalText(sc engine.Score) string {
	if sc.IsMate() {
		return sc.String()
	}
	return fmt.Sprintf("%+.2f", float64(sc)/100)
}
