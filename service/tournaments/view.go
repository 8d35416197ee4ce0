// view.go: an event as the commands show it: its pairings, its standings with the
// tie-breaks, its TRF; and the events the service emits.

package tournaments

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/tournament"
	"github.com/gambitchess/gambit/tournament/tiebreak"
	"github.com/gambitchess/gambit/tournament/trf"
)

// Notifier receives the service's events; the bot posts them.
type Notifier interface {
	Notify(ctx context.Context, e Event)
}

// NotifierFunc adapts a function to Notifier.
type NotifierFunc func(ctx context.Context, e Event)

// Notify calls f.
func (f NotifierFunc) Notify(ctx context.Context, e Event) { f(ctx, e) }

// Event is RoundStarted or Finished.
type Event interface{ event() }

// RoundStarted: the games of a round (a knockout bracket; an arena's start) have
// started in their threads. It may be delivered again after a crash.
type RoundStarted struct {
	Tournament *View
	Round      int
}

// Finished: the event is over; the final standings are due. It may be delivered again
// after a crash.
type Finished struct{ Tournament *View }

func (RoundStarted) event() {}
func (Finished) event()     {}

// View is a snapshot of an event.
type View struct {
	ID                 uint64
	GuildID, ChannelID string
	Name               string
	Status             string
	CreatedBy          string
	Created            time.Time
	Version            uint64
	// ScheduledEvent is the id of the server's scheduled event announcing it ("" for
	// none).
	ScheduledEvent string
	State          *State
}

func newView(t *storage.Tournament, st *State) *View {
	return &View{ID: t.ID, GuildID: t.GuildID, ChannelID: t.ChannelID, Name: t.Name, Status: t.Status,
		CreatedBy: t.CreatedBy, Created: t.Created, Version: t.Version, ScheduledEvent: t.ScheduledEvent, State: st}
}

// Format returns the event's format.
func (v *View) Format() Format { return v.State.Settings.Format }

// rounds is the number of rounds to announce: a Swiss's or round robin's rounds, a
// knockout's brackets, 1 for a started arena.
func (st *State) rounds() int {
	switch st.Settings.Format {
	case Knockout:
		return len(st.Brackets)
	case Arena:
		if st.Started.IsZero() {
			return 0
		}
		return 1
	}
	return len(st.Rounds)
}

// boardPlace returns the round (bracket; arena game), board (match) and game number of
// a board.
func (st *State) boardPlace(b *Board) (round, board, game int) {
	for r := range st.Rounds {
		for i := range st.Rounds[r].Boards {
			if &st.Rounds[r].Boards[i] == b {
				return r + 1, i + 1, 0
			}
		}
	}
	for r := range st.Brackets {
		for m := range st.Brackets[r] {
			for g := range st.Brackets[r][m].Games {
				if &st.Brackets[r][m].Games[g] == b {
					return r + 1, m + 1, g + 1
				}
			}
		}
	}
	for i := range st.ArenaGames {
		if &st.ArenaGames[i] == b {
			return i + 1, 1, 0
		}
	}
	return 0, 0, 0
}

// boardKey names a board stably ("r2b1", "k1m2g3", "a7").
func (st *State) boardKey(b *Board) string {
	round, board, game := st.boardPlace(b)
	switch {
	case st.Settings.Format == Arena:
		return fmt.Sprintf("a%d", round)
	case game > 0:
		return fmt.Sprintf("k%dm%dg%d", round, board, game)
	}
	return fmt.Sprintf("r%db%d", round, board)
}

func (st *State) boardByKey(key string) *Board {
	for _, bs := range st.allBoardPtrs() {
		for _, b := range bs {
			if st.boardKey(b) == key {
				return b
			}
		}
	}
	return nil
}

func (st *State) allBoardPtrs() [][]*Board {
	var out [][]*Board
	ptrs := func(bs []Board) []*Board {
		var p []*Board
		for i := range bs {
			p = append(p, &bs[i])
		}
		return p
	}
	for r := range st.Rounds {
		out = append(out, ptrs(st.Rounds[r].Boards))
	}
	for r := range st.Brackets {
		for m := range st.Brackets[r] {
			out = append(out, ptrs(st.Brackets[r][m].Games))
		}
	}
	return append(out, ptrs(st.ArenaGames))
}

// Pairing is one line of a round's pairings.
type Pairing struct {
	Board        int
	White, Black string // names; Black is "" for a bye
	Result       string
	GameID       uint64
	Stage        string // knockout: "", "rapid", "blitz", "Armageddon"
}

// Pairings returns a round's pairings (0: the latest). For a knockout, a round is a
// bracket and every game of its matches is listed; for an arena, the games under way.
func (v *View) Pairings(round int) (int, []Pairing, error) {
	st := v.State
	name := func(n int) string {
		if n == 0 {
			return ""
		}
		return st.Players[n-1].Name
	}
	line := func(i int, b Board) Pairing {
		return Pairing{Board: i, White: name(b.White), Black: name(b.Black), Result: b.Result.String(), GameID: b.GameID, Stage: b.Stage}
	}
	var out []Pairing
	switch st.Settings.Format {
	case Arena:
		for i, b := range st.ArenaGames {
			if b.Result == Pending {
				out = append(out, line(i+1, b))
			}
		}
		return 1, out, nil
	case Knockout:
		if round == 0 {
			round = len(st.Brackets)
		}
		if round < 1 || round > len(st.Brackets) {
			return 0, nil, fmt.Errorf("%w: %d (the event has %d so far)", ErrNoSuchRound, round, len(st.Brackets))
		}
		for m, match := range st.Brackets[round-1] {
			if match.B == 0 {
				out = append(out, Pairing{Board: m + 1, White: name(match.A), Result: "bye"})
			}
			for _, g := range match.Games {
				out = append(out, line(m+1, g))
			}
		}
		return round, out, nil
	}
	if round == 0 {
		round = len(st.Rounds)
	}
	if round < 1 || round > len(st.Rounds) {
		return 0, nil, fmt.Errorf("%w: %d (the event has %d so far)", ErrNoSuchRound, round, len(st.Rounds))
	}
	for i, b := range st.Rounds[round-1].Boards {
		out = append(out, line(i+1, b))
	}
	return round, out, nil
}

// Table is the standings: a row per player, best first, with the tie-break columns.
type Table struct {
	// Caption says what the table covers ("after round 3 of 5", "final").
	Caption string
	// Ends is when a running arena ends (zero otherwise): the caller shows it beside
	// the caption.
	Ends time.Time
	// Columns name the tie-breaks (C.07 codes) or, for an arena, "Games".
	Columns []string
	Rows    []Row
}

// Row is one player's line.
type Row struct {
	Rank   int
	UserID string
	Name   string
	Points string
	Values []string
	// Note marks a withdrawn player, a player on fire in an arena, a knockout's stage.
	Note string
}

// Standings returns the standings: Swiss and round robin by points then the event's
// tie-breaks over the completed rounds; an arena by its scores; a knockout by the
// round each player reached.
func (v *View) Standings() Table {
	st := v.State
	switch st.Settings.Format {
	case Arena:
		return v.arenaTable()
	case Knockout:
		return v.knockoutTable()
	}
	specs, _ := tiebreak.ParseList(st.Settings.TieBreaks)
	ev := st.event(v.Name, true)
	done := ev.RoundsRecorded()
	rows := tiebreak.Standings(ev, specs, tiebreak.Options{RoundRobin: st.Settings.Format == RoundRobin, Rounds: done})
	t := Table{Caption: fmt.Sprintf("after round %d of %d", done, st.plannedRounds())}
	if v.Status == storage.TournamentFinished {
		t.Caption = fmt.Sprintf("final, %d rounds", done)
	}
	if v.Status == storage.TournamentOpen {
		t.Caption = "not started"
	}
	for _, sp := range specs {
		t.Columns = append(t.Columns, sp.String())
	}
	for _, r := range rows {
		p := st.Players[r.Player-1]
		row := Row{Rank: r.Rank, UserID: p.UserID, Name: p.Name, Points: r.Points.String()}
		for _, x := range r.Values {
			row.Values = append(row.Values, tiebreak.Format(x))
		}
		if p.Withdrawn {
			row.Note = "withdrawn"
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (v *View) arenaTable() Table {
	st := v.State
	t := Table{Caption: "arena", Columns: []string{"Games"}}
	if v.Status == storage.TournamentFinished {
		t.Caption = "final"
	} else {
		t.Ends = st.Ends
	}
	a, err := st.arenaModel()
	if err != nil || st.Started.IsZero() {
		for i, p := range st.Players {
			t.Rows = append(t.Rows, Row{Rank: i + 1, UserID: p.UserID, Name: p.Name, Points: "0", Values: []string{"0"}})
		}
		return t
	}
	prev, rank := -1, 0
	for i, s := range a.Standings() {
		n, _ := strconv.Atoi(s.Player)
		p := st.Players[n-1]
		if s.Score != prev {
			rank, prev = i+1, s.Score
		}
		row := Row{Rank: rank, UserID: p.UserID, Name: p.Name, Points: strconv.Itoa(s.Score), Values: []string{strconv.Itoa(s.Games)}}
		switch {
		case p.Withdrawn:
			row.Note = "withdrawn"
		case s.OnFire:
			row.Note = "on fire"
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// knockoutTable ranks by the bracket a player reached (the winner first), then by
// seed; points are the games' points.
func (v *View) knockoutTable() Table {
	st := v.State
	t := Table{Caption: "knockout", Columns: []string{"Reached"}}
	if v.Status == storage.TournamentFinished {
		t.Caption = "final"
	}
	reached := make([]int, len(st.Players)) // brackets entered
	out := make([]bool, len(st.Players))
	points := make([]int, len(st.Players)) // half-points
	champion := 0
	for r, br := range st.Brackets {
		for _, m := range br {
			for _, p := range []int{m.A, m.B} {
				if p > 0 {
					reached[p-1] = r + 1
				}
			}
			if m.Winner != 0 && m.B != 0 {
				loser := m.A
				if m.Winner == m.A {
					loser = m.B
				}
				out[loser-1] = true
			}
			if m.Winner != 0 && len(br) == 1 && r == len(st.Brackets)-1 {
				champion = m.Winner
			}
			for _, g := range m.Games {
				w, b := cells(g.Result)
				points[g.White-1] += half(w)
				points[g.Black-1] += half(b)
			}
		}
	}
	order := make([]int, len(st.Players))
	for i := range order {
		order[i] = i
	}
	score := func(i int) int {
		s := 2 * reached[i]
		if !out[i] {
			s++
		}
		if champion == i+1 {
			s += 10
		}
		return s
	}
	slices.SortStableFunc(order, func(a, b int) int { return score(b) - score(a) })
	rank, prev := 0, -1
	for k, i := range order {
		if score(i) != prev {
			rank, prev = k+1, score(i)
		}
		p := st.Players[i]
		label := stageName(reached[i], len(st.Brackets), len(st.Players))
		switch {
		case champion == i+1:
			label = "winner"
		case !out[i] && reached[i] > 0 && v.Status != storage.TournamentFinished:
			label += " (in play)"
		}
		row := Row{Rank: rank, UserID: p.UserID, Name: p.Name, Points: fmt.Sprintf("%d.%d", points[i]/2, 5*(points[i]%2)), Values: []string{label}}
		if p.Withdrawn {
			row.Note = "withdrawn"
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func half(c tournament.Code) int {
	switch c {
	case '1', '+':
		return 2
	case '=':
		return 1
	}
	return 0
}

// stageName names the bracket a player reached ("final", "semi-final", "round 1").
func stageName(reached, brackets, players int) string {
	total := 0
	for n := 1; n < players; n *= 2 {
		total++
	}
	switch total - reached {
	case 0:
		return "final"
	case 1:
		return "semi-final"
	case 2:
		return "quarter-final"
	}
	return fmt.Sprintf("round %d", reached)
}

// TRF returns the event's Tournament Report File: for a Swiss or a round robin its
// rounds; for a knockout one round per game slot of each bracket. An arena has none
// (its games do not fall into rounds).
func (v *View) TRF() ([]byte, error) {
	if v.State.Settings.Format == Arena {
		return nil, fmt.Errorf("%w: an arena has no TRF", ErrBadRequest)
	}
	ev := v.State.event(v.Name, false)
	ranks := map[int]int{}
	if f := v.State.Settings.Format; f == Swiss || f == RoundRobin {
		specs, _ := tiebreak.ParseList(v.State.Settings.TieBreaks)
		for _, r := range tiebreak.Standings(ev, specs, tiebreak.Options{RoundRobin: f == RoundRobin}) {
			ranks[r.Player] = r.Rank
		}
	}
	for i := range ev.Players {
		ev.Players[i].Rank = ranks[ev.Players[i].ID]
	}
	kind := map[Format]string{Swiss: "Swiss System (FIDE Dutch)", RoundRobin: "Round robin (Berger)", Knockout: "Knockout"}[v.State.Settings.Format]
	if v.State.Settings.Format == RoundRobin && v.State.Settings.Rounds == 2 {
		kind = "Double round robin (Berger)"
	}
	ev.Extra = []string{"012 " + v.Name}
	if !v.State.Started.IsZero() {
		ev.Extra = append(ev.Extra, "042 "+v.State.Started.UTC().Format("2006/01/02"))
	}
	ev.Extra = append(ev.Extra, fmt.Sprintf("062 %d", len(ev.Players)), "092 "+kind, "122 "+v.State.Settings.Control)
	var buf bytes.Buffer
	if err := trf.Write(&buf, ev); err != nil {
		return nil, fmt.Errorf("write the TRF of tournament %d: %w", v.ID, err)
	}
	return buf.Bytes(), nil
}
