// profile.go: a player's profile in a server (/s/<guild>/<token>/player/<user>): their
// rating, rank, peak and record in each ladder, a chart of each rating history, their
// puzzle record, and their recent games in that server with links to the games' pages.

package web

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/service/games"
)

// profileRecentGames is how many recent games the profile lists; profileScan how many
// of the player's games (in every server) are read to find them.
const (
	profileRecentGames = 15
	profileScan        = 200
)

// profileEntry is the player's line in one ladder.
type profileEntry struct {
	Category, Ladder           string
	Rank, Of, Rating, Peak     int
	Games, Wins, Draws, Losses int
	Score                      int
	Chart                      any
}

// profileGame is one of the recent games.
type profileGame struct {
	ID                    uint64
	URL                   string
	Opponent, Color       string
	Result, Outcome, When string
	Control               string
	Rated, Live           bool
}

// puzzleRecord is a player's puzzle record as the profile shows it.
type puzzleRecord struct{ Rating, Rated, Solved, Streak, Best int }

// profilePage is the data of templates/profile.html.
type profilePage struct {
	Name                       string
	Ladder                     string // the server's ladder page
	Entries                    []profileEntry
	Games, Wins, Draws, Losses int
	Puzzle                     *puzzleRecord
	Recent                     []profileGame
}

// profilePageHandler serves GET /s/{guild}/{stoken}/player/{user}.
func (s *Server) profilePageHandler(w http.ResponseWriter, r *http.Request) {
	guild, ok := s.guildOf(w, r, true)
	if !ok {
		return
	}
	user := r.PathValue("user")
	if !snowflake(user) || s.opts.Ladder == nil {
		s.notFound(w)
		return
	}
	ctx := r.Context()
	prof, err := s.opts.Ladder.Profile(ctx, guild, user)
	if err != nil {
		s.log.Error("web: read a profile", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "Something went wrong", "The profile could not be read; try again in a moment.")
		return
	}
	mine, err := s.opts.Games.RecentGames(ctx, guild, user, profileRecentGames, profileScan)
	if err != nil {
		s.log.Error("web: read a player's games", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "Something went wrong", "The games could not be read; try again in a moment.")
		return
	}
	var stats *puzzleRecord
	if s.opts.Puzzles != nil {
		if st, err := s.opts.Puzzles.Stats(ctx, guild, user); err == nil && st.Rated > 0 {
			stats = &puzzleRecord{Rating: roundRating(st.Rating), Rated: st.Rated, Solved: st.Solved, Streak: st.Streak, Best: st.Best}
		}
	}
	// A player the server knows nothing of is not a page: the link names nobody.
	if len(prof.Entries) == 0 && len(mine) == 0 && stats == nil {
		s.notFound(w)
		return
	}
	name := prof.Name
	if name == user && len(mine) > 0 {
		name = nameIn(mine[0], user)
	}
	p := profilePage{Name: name, Ladder: s.serverPath(guild) + "/ladder", Puzzle: stats}
	p.Games, p.Wins, p.Draws, p.Losses = prof.Games()
	for _, e := range prof.Entries {
		cat := e.Category.String()
		p.Entries = append(p.Entries, profileEntry{
			Category: cat, Ladder: s.serverPath(guild) + "/ladder?cat=" + cat, Rank: e.Rank, Of: e.Of,
			Rating: roundRating(e.Rating), Peak: roundRating(e.Peak), Games: e.Games, Wins: e.Wins, Draws: e.Draws,
			Losses: e.Losses, Score: scorePercent(e.Wins, e.Draws, e.Games),
			Chart: lineChart(chartSpec{Title: fmt.Sprintf("%s's %s rating", name, cat)}, []series{historySeries(cat, e.History)}),
		})
	}
	for _, g := range mine {
		p.Recent = append(p.Recent, s.profileGame(g, user))
	}
	desc := fmt.Sprintf("%d rated games: %d won, %d drawn, %d lost", p.Games, p.Wins, p.Draws, p.Losses)
	if main, ok := prof.Main(); ok {
		desc = fmt.Sprintf("%s %d (#%d of %d) · ", main.Category, roundRating(main.Rating), main.Rank, main.Of) + desc
	}
	image := s.serverBoardURL(guild)
	if len(mine) > 0 {
		image = s.GameURL(mine[0].ID) + "/board.png"
	}
	s.render(w, http.StatusOK, "profile", Page{
		Title: name + " · Gambit", Description: desc, URL: s.ProfileURL(guild, user), Image: image, Data: p,
	})
}

// nameIn returns the name user played g under.
func nameIn(g *games.Record, user string) string {
	if g.Black.ID == user {
		return g.Black.Name
	}
	return g.White.Name
}

// profileGame is g as the profile of user lists it.
func (s *Server) profileGame(g *games.Record, user string) profileGame {
	opp, color := g.Black, chesscore.White
	if g.Black.ID == user {
		opp, color = g.White, chesscore.Black
	}
	pg := profileGame{ID: g.ID, URL: s.GameURL(g.ID), Opponent: opp.Name, Color: colorName(color),
		Result: g.Outcome.Result.String(), Control: g.Control.String(), Rated: g.Rated, Live: !g.Outcome.Over()}
	switch {
	case !g.Outcome.Over():
		pg.Outcome = "playing"
	case g.Outcome.Result == chesscore.Draw:
		pg.Outcome = "draw"
	case g.Outcome.Result == chesscore.WinFor(color):
		pg.Outcome = "won"
	case g.Outcome.Result == chesscore.NoResult:
		pg.Outcome = "no result"
	default:
		pg.Outcome = "lost"
	}
	when := g.Ended
	if when.IsZero() {
		when = g.Created
	}
	pg.When = when.UTC().Format(time.DateOnly)
	return pg
}
