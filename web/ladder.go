// ladder.go: a server's ladder page (/s/<guild>/<token>/ladder?cat=&sort=&dir=): one
// category's standings, sortable by any column, with the rating histories of the
// leaders drawn as a chart, and a tab per category.

package web

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/service/ladder"
)

// ladderChartPlayers is how many of the leaders the ladder's chart draws.
const ladderChartPlayers = 5

// ladderRow is one player's line of the ladder page.
type ladderRow struct {
	Rank                              int
	Name, Profile                     string
	Rating, Peak                      int
	Games, Wins, Draws, Losses, Score int // Score: percent of the points
	Provisional                       bool
}

// ladderTab is one category's tab.
type ladderTab struct {
	Name, URL string
	Current   bool
}

// ladderColumn is a sortable column's header: its link sorts by it, the other way
// round when it is the current sort.
type ladderColumn struct {
	Key, Label, URL string
	Sorted          string // "ascending", "descending" or ""
	Numeric         bool
}

// ladderPage is the data of templates/ladder.html.
type ladderPage struct {
	Category string
	System   string
	Tabs     []ladderTab
	Columns  []ladderColumn
	Rows     []ladderRow
	Total    int
	Chart    any
}

// ladderColumns are the sortable columns: key, label, numeric, and the default
// direction of a first click (best first).
var ladderColumns = []struct {
	key, label string
	numeric    bool
	desc       bool
}{
	{"rank", "#", true, false}, {"name", "Player", false, false}, {"rating", "Rating", true, true},
	{"peak", "Peak", true, true}, {"games", "Games", true, true}, {"wins", "Won", true, true},
	{"draws", "Drawn", true, true}, {"losses", "Lost", true, true}, {"score", "Score", true, true},
}

// ladderPageHandler serves GET /s/{guild}/{stoken}/ladder.
func (s *Server) ladderPageHandler(w http.ResponseWriter, r *http.Request) {
	guild, ok := s.guildOf(w, r, true)
	if !ok {
		return
	}
	if s.opts.Ladder == nil {
		s.notFound(w)
		return
	}
	q := r.URL.Query()
	cat := clock.NoCategory
	if c := q.Get("cat"); c != "" {
		parsed, err := clock.ParseCategory(c)
		if err != nil || !slices.Contains(ladder.Categories(), parsed) {
			s.errorPage(w, http.StatusBadRequest, "No such ladder", "The ladders are bullet, blitz, rapid, standard and correspondence.")
			return
		}
		cat = parsed
	} else if busiest, any, err := s.opts.Ladder.Busiest(r.Context(), guild); err == nil && any {
		cat = busiest
	} else {
		cat = clock.Blitz
	}
	sortKey, descending, err := ladderSort(q.Get("sort"), q.Get("dir"))
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, "Bad request", err.Error())
		return
	}
	rows, set, total, err := s.opts.Ladder.Leaderboard(r.Context(), guild, cat, 0)
	if err != nil {
		s.log.Error("web: read a ladder", "category", cat.String(), "err", err)
		s.errorPage(w, http.StatusInternalServerError, "Something went wrong", "The ladder could not be read; try again in a moment.")
		return
	}
	base := s.serverPath(guild) + "/ladder"
	p := ladderPage{Category: cat.String(), System: string(set.System), Total: total}
	for _, c := range ladder.Categories() {
		p.Tabs = append(p.Tabs, ladderTab{Name: c.String(), URL: base + "?cat=" + c.String(), Current: c == cat})
	}
	for _, c := range ladderColumns {
		col := ladderColumn{Key: c.key, Label: c.label, Numeric: c.numeric}
		dir := map[bool]string{true: "desc", false: "asc"}[c.desc]
		if c.key == sortKey {
			desc := descending
			col.Sorted = map[bool]string{true: "descending", false: "ascending"}[desc]
			dir = map[bool]string{true: "asc", false: "desc"}[desc]
		}
		col.URL = base + "?" + url.Values{"cat": {cat.String()}, "sort": {c.key}, "dir": {dir}}.Encode()
		p.Columns = append(p.Columns, col)
	}
	for _, st := range rows {
		p.Rows = append(p.Rows, ladderRow{
			Rank: st.Rank, Name: st.Name, Profile: s.serverPath(guild) + "/player/" + url.PathEscape(st.UserID),
			Rating: roundRating(st.Rating), Peak: roundRating(st.Peak), Games: st.Games, Wins: st.Wins, Draws: st.Draws,
			Losses: st.Losses, Score: scorePercent(st.Wins, st.Draws, st.Games), Provisional: st.Provisional(set),
		})
	}
	var lines []series
	for i, st := range rows {
		if i == ladderChartPlayers {
			break
		}
		lines = append(lines, historySeries(st.Name, st.History))
	}
	sortLadder(p.Rows, sortKey, descending)
	p.Chart = lineChart(chartSpec{Title: fmt.Sprintf("Rating history of the %s leaders", cat)}, lines)
	title := fmt.Sprintf("%s ladder", titleCase(cat.String()))
	desc := fmt.Sprintf("%d players", total)
	if len(rows) > 0 {
		desc = fmt.Sprintf("%d players · leader %s (%d)", total, rows[0].Name, roundRating(rows[0].Rating))
	}
	s.render(w, http.StatusOK, "ladder", Page{
		Title: title, Description: desc, URL: s.LadderURL(guild, cat.String()), Image: s.serverBoardURL(guild),
		Data: p,
	})
}

// ladderSort reads the sort query: a column's key and asc or desc. The default is the
// rank, best first.
func ladderSort(key, dir string) (string, bool, error) {
	if key == "" {
		key = "rank"
	}
	found := false
	desc := false
	for _, c := range ladderColumns {
		if c.key == key {
			found, desc = true, c.desc
		}
	}
	if !found {
		return "", false, errors.New("the ladder sorts by rank, name, rating, peak, games, wins, draws, losses or score")
	}
	switch dir {
	case "":
	case "asc":
		desc = false
	case "desc":
		desc = true
	default:
		return "", false, errors.New("the sort direction is asc or desc")
	}
	return key, desc, nil
}

// sortLadder orders rows by key (ties by rank), descending when desc.
func sortLadder(rows []ladderRow, key string, desc bool) {
	field := func(r ladderRow) int {
		switch key {
		case "rating":
			return r.Rating
		case "peak":
			return r.Peak
		case "games":
			return r.Games
		case "wins":
			return r.Wins
		case "draws":
			return r.Draws
		case "losses":
			return r.Losses
		case "score":
			return r.Score
		}
		return r.Rank
	}
	slices.SortStableFunc(rows, func(a, b ladderRow) int {
		var c int
		if key == "name" {
			c = strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
		} else {
			c = cmp.Compare(field(a), field(b))
		}
		if desc {
			c = -c
		}
		if c == 0 {
			c = cmp.Compare(a.Rank, b.Rank)
		}
		return c
	})
}

// historySeries is a rating history as a chart's line (x: Unix seconds).
func historySeries(label string, h []ladder.Point) series {
	l := series{Label: label}
	for _, p := range h {
		l.Points = append(l.Points, chartPoint{X: float64(p.At.Unix()), Y: p.Rating})
	}
	return l
}

func roundRating(r float64) int { return int(math.Round(r)) }

// scorePercent is the share of the points scored, in percent (0 without games).
func scorePercent(wins, draws, games int) int {
	if games == 0 {
		return 0
	}
	return int(math.Round(100 * (float64(wins) + float64(draws)/2) / float64(games)))
}

// titleCase capitalises a category's name for a title.
func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
