// tournament.go: a server's tournament page (/s/<guild>/<token>/t/<id>): the standings
// with the tie-breaks, the crosstable (Swiss and round robin), the pairings of a round
// (?round=N, the latest by default), the games under way with links to their live
// boards, and the downloads: the TRF (/trf) and every game in one PGN (/pgn).

package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gambitchess/gambit/service/tournaments"
)

// maxTournamentPGNGames bounds the games of one PGN download.
const maxTournamentPGNGames = 2000

// tournamentPage is the data of templates/tournament.html.
type tournamentPage struct {
	ID                   uint64
	Name, Format, Status string
	Control              string
	Path                 string
	Standings            tournaments.Table
	Cross                *crosstable
	Round, Rounds        int
	RoundTabs            []roundTab
	Pairings             []pairingView
	Live                 []pairingView
	TRF                  bool
	Players              int
}

type roundTab struct {
	N       int
	URL     string
	Current bool
}

// pairingView is one line of the pairings (or of the live games).
type pairingView struct {
	tournaments.Pairing
	URL string // the game's live board ("" without a game)
}

// crosstable is a Swiss's or round robin's grid: a row per player in standings order,
// a cell per round ("12w1": against the player ranked 12, White, won).
type crosstable struct {
	Rounds []int
	Rows   []crossRow
}

type crossRow struct {
	Rank   int
	Name   string
	Points string
	Cells  []string
}

// tournamentOf returns the event a tournament link names, or answers the request:
// 404 for an id that is not one of the link's server's events.
func (s *Server) tournamentOf(w http.ResponseWriter, r *http.Request, page bool) (*tournaments.View, string, bool) {
	guild, ok := s.guildOf(w, r, page)
	if !ok {
		return nil, "", false
	}
	notFound := func() {
		if page {
			s.notFound(w)
		} else {
			http.Error(w, "There is nothing at this address.", http.StatusNotFound)
		}
	}
	id, ok := parseID(r.PathValue("tid"))
	if !ok || s.opts.Tournaments == nil {
		notFound()
		return nil, "", false
	}
	v, err := s.opts.Tournaments.Get(r.Context(), id)
	if errors.Is(err, tournaments.ErrNoSuchEvent) || (err == nil && v.GuildID != guild) {
		notFound() // another server's event is not this link's
		return nil, "", false
	}
	if err != nil {
		s.log.Error("web: read a tournament", "tournament", id, "err", err)
		http.Error(w, "The tournament could not be read; try again in a moment.", http.StatusInternalServerError)
		return nil, "", false
	}
	return v, guild, true
}

// tournamentPageHandler serves GET /s/{guild}/{stoken}/t/{tid}.
func (s *Server) tournamentPageHandler(w http.ResponseWriter, r *http.Request) {
	v, guild, ok := s.tournamentOf(w, r, true)
	if !ok {
		return
	}
	st := v.State
	path := s.serverPath(guild) + "/t/" + formatID(v.ID)
	p := tournamentPage{
		ID: v.ID, Name: v.Name, Format: v.Format().Title(), Status: v.Status, Control: st.Settings.Control,
		Path: path, Standings: v.Standings(), TRF: v.Format() != tournaments.Arena, Players: len(st.Players),
	}
	want := 0
	if q := r.URL.Query().Get("round"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > 1000 || strconv.Itoa(n) != q {
			s.errorPage(w, http.StatusBadRequest, "No such round", "The round is a number, 1 for the first.")
			return
		}
		want = n
	}
	switch v.Format() {
	case tournaments.Knockout:
		p.Rounds = len(st.Brackets)
	case tournaments.Arena:
		p.Rounds = 0
	default:
		p.Rounds = len(st.Rounds)
		p.Cross = buildCrosstable(v, p.Standings)
	}
	if p.Rounds > 0 || v.Format() == tournaments.Arena {
		round, pairs, err := v.Pairings(want)
		if errors.Is(err, tournaments.ErrNoSuchRound) {
			s.errorPage(w, http.StatusNotFound, "No such round", err.Error())
			return
		}
		if err == nil {
			p.Round = round
			for _, pr := range pairs {
				p.Pairings = append(p.Pairings, s.pairingView(pr))
			}
		}
	}
	for n := 1; n <= p.Rounds; n++ {
		p.RoundTabs = append(p.RoundTabs, roundTab{N: n, URL: path + "?round=" + strconv.Itoa(n), Current: n == p.Round})
	}
	image := s.serverBoardURL(guild)
	p.Live = s.liveBoards(v)
	if len(p.Live) > 0 {
		image = p.Live[0].URL + "/board.png"
	}
	desc := fmt.Sprintf("%s · %s · %d players · %s", p.Format, p.Control, p.Players, p.Standings.Caption)
	if len(p.Standings.Rows) > 0 && v.Status != "open" {
		desc += fmt.Sprintf(" · leader %s (%s)", p.Standings.Rows[0].Name, p.Standings.Rows[0].Points)
	}
	s.render(w, http.StatusOK, "tournament", Page{
		Title: v.Name + " · Gambit", Description: desc, URL: s.TournamentURL(guild, v.ID), Image: image, Data: p,
	})
}

func (s *Server) pairingView(pr tournaments.Pairing) pairingView {
	pv := pairingView{Pairing: pr}
	if pr.GameID != 0 {
		pv.URL = s.GameURL(pr.GameID)
	}
	return pv
}

// liveBoards are the event's games under way, in board order.
func (s *Server) liveBoards(v *tournaments.View) []pairingView {
	var out []pairingView
	for _, pr := range allPairings(v) {
		if pr.GameID != 0 && pr.Result == tournaments.Pending.String() {
			out = append(out, s.pairingView(pr))
		}
	}
	return out
}

// allPairings are the pairings of every round (bracket; the arena's games under way).
func allPairings(v *tournaments.View) []tournaments.Pairing {
	st := v.State
	n := len(st.Rounds)
	switch v.Format() {
	case tournaments.Knockout:
		n = len(st.Brackets)
	case tournaments.Arena:
		_, ps, _ := v.Pairings(0)
		return ps
	}
	var out []tournaments.Pairing
	for r := 1; r <= n; r++ {
		if _, ps, err := v.Pairings(r); err == nil {
			out = append(out, ps...)
		}
	}
	return out
}

// buildCrosstable makes the grid of a Swiss or round robin from its rounds, the rows
// in the standings' order and each opponent named by their rank.
func buildCrosstable(v *tournaments.View, t tournaments.Table) *crosstable {
	st := v.State
	if len(st.Rounds) == 0 {
		return nil
	}
	rankOf := map[string]int{}
	for _, row := range t.Rows {
		rankOf[row.UserID] = row.Rank
	}
	// The standings may share a rank; the grid numbers its rows 1..n.
	rowNo := map[string]int{}
	for i, row := range t.Rows {
		rowNo[row.UserID] = i + 1
	}
	ct := &crosstable{}
	for r := range st.Rounds {
		ct.Rounds = append(ct.Rounds, r+1)
	}
	for _, row := range t.Rows {
		me := 0
		for i, p := range st.Players {
			if p.UserID == row.UserID {
				me = i + 1
			}
		}
		cr := crossRow{Rank: row.Rank, Name: row.Name, Points: row.Points}
		for _, round := range st.Rounds {
			cell := "–"
			for _, b := range round.Boards {
				if b.White != me && b.Black != me {
					continue
				}
				cell = crossCell(st, b, me, rowNo)
			}
			cr.Cells = append(cr.Cells, cell)
		}
		ct.Rows = append(ct.Rows, cr)
	}
	return ct
}

// crossCell writes player me's game on board b: the opponent's row, the colour, the
// score ("3w1", "7b½", "bye", "5w+" for a forfeit win).
func crossCell(st *tournaments.State, b tournaments.Board, me int, rowNo map[string]int) string {
	if b.Black == 0 {
		return "bye"
	}
	opp, col := b.Black, "w"
	if b.Black == me {
		opp, col = b.White, "b"
	}
	var score string
	white := b.White == me
	switch b.Result {
	case tournaments.WhiteWins:
		score = pick(white, "1", "0")
	case tournaments.BlackWins:
		score = pick(white, "0", "1")
	case tournaments.Draw:
		score = "½"
	case tournaments.WhiteByForf:
		score = pick(white, "+", "−")
	case tournaments.BlackByForf:
		score = pick(white, "−", "+")
	case tournaments.DoubleForf:
		score = "−"
	case tournaments.Bye:
		return "bye"
	default:
		score = "…"
	}
	return strconv.Itoa(rowNo[st.Players[opp-1].UserID]) + col + score
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// tournamentTRF serves GET /s/{guild}/{stoken}/t/{tid}/trf: the event's TRF.
func (s *Server) tournamentTRF(w http.ResponseWriter, r *http.Request) {
	v, _, ok := s.tournamentOf(w, r, false)
	if !ok {
		return
	}
	b, err := v.TRF()
	if errors.Is(err, tournaments.ErrBadRequest) {
		http.Error(w, "An arena has no TRF: its games do not fall into rounds.", http.StatusNotFound)
		return
	}
	if err != nil {
		s.log.Error("web: write a TRF", "tournament", v.ID, "err", err)
		http.Error(w, "The TRF could not be written.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="gambit-tournament-%d.trf"`, v.ID))
	_, _ = w.Write(b)
}

// tournamentPGN serves GET /s/{guild}/{stoken}/t/{tid}/pgn: every game of the event in
// one PGN, in round and board order.
func (s *Server) tournamentPGN(w http.ResponseWriter, r *http.Request) {
	v, _, ok := s.tournamentOf(w, r, false)
	if !ok {
		return
	}
	var ids []uint64
	if v.Format() == tournaments.Arena { // every game played, not only those under way
		for _, b := range v.State.ArenaGames {
			ids = append(ids, b.GameID)
		}
	} else {
		for _, pr := range allPairings(v) {
			ids = append(ids, pr.GameID)
		}
	}
	var b strings.Builder
	n := 0
	for _, id := range ids {
		if id == 0 || n == maxTournamentPGNGames {
			continue
		}
		g, err := s.opts.Games.Game(r.Context(), id)
		if err != nil {
			s.log.Warn("web: a tournament game for its PGN", "tournament", v.ID, "game", id, "err", err)
			continue
		}
		b.WriteString(g.PGN())
		b.WriteString("\n\n")
		n++
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="gambit-tournament-%d.pgn"`, v.ID))
	_, _ = w.Write([]byte(b.String()))
}
