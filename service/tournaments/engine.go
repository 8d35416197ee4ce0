// engine.go: the pure steps of an event: seeding, pairing the next round (Dutch, Berger,
// knockout brackets, arena), recording a game's result, and telling when it is over.
// Nothing here does I/O; the service runs these steps inside store transactions.

package tournaments

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/tournament"
	"github.com/gambitchess/gambit/tournament/arena"
	"github.com/gambitchess/gambit/tournament/berger"
	"github.com/gambitchess/gambit/tournament/dutch"
	"github.com/gambitchess/gambit/tournament/knockout"
)

// seed orders the entrants for the start: by rating, highest first, then in the order
// they joined. Their index + 1 becomes their pairing number.
func (st *State) seed() {
	slices.SortStableFunc(st.Players, func(a, b Entrant) int { return b.Rating - a.Rating })
}

// resultOf reads a finished game's result for its board.
func resultOf(g *storage.Game) Result {
	o := g.Outcome
	if o.Termination == chesscore.NoShow {
		if o.Result == chesscore.WhiteWins {
			return WhiteByForf
		}
		return BlackByForf
	}
	switch o.Result {
	case chesscore.WhiteWins:
		return WhiteWins
	case chesscore.BlackWins:
		return BlackWins
	case chesscore.Draw:
		return Draw
	}
	return DoubleForf // an aborted game: neither played it
}

// record enters a finished game's result on its board; it reports whether anything
// changed (false for a game already recorded or not awaited).
func (st *State) record(g *storage.Game) bool {
	b := st.boardOf(g.ID)
	if b == nil || b.Result != Pending || g.Live() {
		return false
	}
	b.Result = resultOf(g)
	if st.Settings.Format == Arena {
		for i := range st.ArenaGames {
			if &st.ArenaGames[i] == b {
				st.ArenaLog = append(st.ArenaLog, arenaOp{Op: "report", Game: i + 1, Result: b.Result})
			}
		}
	}
	return true
}

// complete reports whether every board of a round has a result.
func complete(boards []Board) bool {
	for _, b := range boards {
		if b.Result == Pending {
			return false
		}
	}
	return true
}

// toStart returns the boards whose game is still to be started.
func (st *State) toStart() []*Board {
	var out []*Board
	add := func(bs []Board) {
		for i := range bs {
			if b := &bs[i]; b.GameID == 0 && b.Result == Pending && b.Black != 0 {
				out = append(out, b)
			}
		}
	}
	if n := len(st.Rounds); n > 0 {
		add(st.Rounds[n-1].Boards)
	}
	if n := len(st.Brackets); n > 0 {
		for m := range st.Brackets[n-1] {
			add(st.Brackets[n-1][m].Games)
		}
	}
	add(st.ArenaGames)
	return out
}

// live reports whether any game of the event is being played.
func (st *State) live() bool {
	for _, bs := range st.allBoards() {
		for _, b := range bs {
			if b.Result == Pending && b.Black != 0 {
				return true
			}
		}
	}
	return false
}

func (st *State) allBoards() [][]Board {
	var out [][]Board
	for _, r := range st.Rounds {
		out = append(out, r.Boards)
	}
	for _, br := range st.Brackets {
		for _, m := range br {
			out = append(out, m.Games)
		}
	}
	return append(out, st.ArenaGames)
}

// step makes the next move of a running event at now: pair the next round when the
// last is complete, make the next knockout game, re-pair an arena. It reports whether
// the state changed and whether the event is over.
func (st *State) step(now time.Time, lot uint64) (changed, over bool, err error) {
	switch st.Settings.Format {
	case Swiss, RoundRobin:
		if n := len(st.Rounds); n > 0 && !complete(st.Rounds[n-1].Boards) {
			return false, false, nil
		}
		if len(st.Rounds) >= st.plannedRounds() {
			return false, true, nil
		}
		if st.Settings.Format == Swiss && st.active() < 2 {
			return false, true, nil // withdrawals left nobody to pair: the event ends early
		}
		if err := st.pairRound(); errors.Is(err, dutch.ErrNoPairing) {
			return false, true, nil // no pairing meets the absolute criteria: it ends here
		} else if err != nil {
			return false, false, err
		}
		return true, false, nil
	case Knockout:
		return st.knockoutStep(lot)
	case Arena:
		return st.arenaStep(now)
	}
	return false, false, fmt.Errorf("unknown format %q", st.Settings.Format)
}

// active counts the players who have not withdrawn.
func (st *State) active() int {
	n := 0
	for _, p := range st.Players {
		if !p.Withdrawn {
			n++
		}
	}
	return n
}

// plannedRounds is the number of rounds of a Swiss or round robin.
func (st *State) plannedRounds() int {
	if st.Settings.Format == Swiss {
		return st.Settings.Rounds
	}
	n := len(st.Players)
	if n%2 == 1 {
		n++
	}
	return (n - 1) * st.Settings.Rounds
}

// pairRound adds the next round of a Swiss (Dutch) or round robin (Berger).
func (st *State) pairRound() error {
	next := len(st.Rounds) + 1
	var r Round
	for i, p := range st.Players {
		if p.Withdrawn {
			r.Absent = append(r.Absent, i+1)
		}
	}
	if st.Settings.Format == RoundRobin {
		sched, err := berger.Schedule(len(st.Players), st.Settings.Rounds == 2)
		if err != nil {
			return fmt.Errorf("round robin of %d: %w", len(st.Players), err)
		}
		for _, g := range sched[next-1] {
			b := Board{White: g.White, Black: g.Black}
			switch {
			case g.Black == 0:
				b.Result = Bye
			case st.Players[g.White-1].Withdrawn && st.Players[g.Black-1].Withdrawn:
				b.Result = DoubleForf
			case st.Players[g.White-1].Withdrawn:
				b.Result = BlackByForf
			case st.Players[g.Black-1].Withdrawn:
				b.Result = WhiteByForf
			}
			r.Boards = append(r.Boards, b)
		}
		r.Absent = nil // withdrawn round-robin players forfeit their games instead
		st.Rounds = append(st.Rounds, r)
		return nil
	}
	ev := st.event("", true)
	for _, id := range r.Absent {
		p := ev.Player(id)
		p.Results = append(p.Results, tournament.Result{Code: tournament.ZeroBye})
	}
	pr, err := dutch.PairRound(ev, next)
	if err != nil {
		return fmt.Errorf("pair round %d: %w", next, err)
	}
	for _, b := range pr.Boards {
		r.Boards = append(r.Boards, Board{White: b.White, Black: b.Black})
	}
	if pr.Bye != 0 {
		r.Boards = append(r.Boards, Board{White: pr.Bye, Result: Bye})
	}
	st.Rounds = append(st.Rounds, r)
	return nil
}

// cells returns the TRF codes of White and Black for a result.
func cells(r Result) (w, b tournament.Code) {
	switch r {
	case WhiteWins:
		return tournament.Win, tournament.Loss
	case BlackWins:
		return tournament.Loss, tournament.Win
	case Draw:
		return tournament.Draw, tournament.Draw
	case WhiteByForf:
		return tournament.ForfeitWin, tournament.ForfeitLoss
	case BlackByForf:
		return tournament.ForfeitLoss, tournament.ForfeitWin
	case DoubleForf:
		return tournament.ForfeitLoss, tournament.ForfeitLoss
	}
	return tournament.None, tournament.None
}

// event builds the tournament model of a Swiss or round robin (or of a knockout, one
// round per game slot) from the recorded rounds; with finishedOnly, the rounds still
// being played are left out.
func (st *State) event(name string, finishedOnly bool) *tournament.Event {
	ev := &tournament.Event{Name: name, Rounds: st.plannedRounds(), Scoring: tournament.StandardScoring}
	if st.Settings.Format == Knockout || st.Settings.Format == Arena {
		ev.Rounds = 0
	}
	for i, p := range st.Players {
		ev.Players = append(ev.Players, tournament.Player{ID: i + 1, Name: p.Name, Rating: p.Rating})
	}
	put := func(col int, bs []Board) {
		for _, b := range bs {
			set := func(id int, c tournament.Result) {
				p := &ev.Players[id-1]
				for len(p.Results) < col {
					p.Results = append(p.Results, tournament.Result{Code: tournament.None})
				}
				p.Results = append(p.Results, c)
			}
			if b.Black == 0 {
				code := tournament.PAB
				if st.Settings.Format == RoundRobin {
					code = tournament.ZeroBye // the round-robin dummy: no game, no point
				}
				set(b.White, tournament.Result{Code: code})
				continue
			}
			w, bl := cells(b.Result)
			set(b.White, tournament.Result{Opponent: b.Black, Color: tournament.White, Code: w})
			set(b.Black, tournament.Result{Opponent: b.White, Color: tournament.Black, Code: bl})
		}
	}
	pad := func(col int) {
		for i := range ev.Players {
			p := &ev.Players[i]
			for len(p.Results) < col {
				p.Results = append(p.Results, tournament.Result{Code: tournament.ZeroBye})
			}
		}
	}
	col := 0
	for _, r := range st.Rounds {
		if finishedOnly && !complete(r.Boards) {
			break
		}
		put(col, r.Boards)
		col++
		pad(col)
	}
	for _, br := range st.Brackets {
		width := 0
		for _, m := range br {
			for g := range m.Games {
				if finishedOnly && m.Games[g].Result == Pending {
					continue
				}
				put(col+g, m.Games[g:g+1])
			}
			width = max(width, len(m.Games))
			if m.B == 0 {
				put(col, []Board{{White: m.A, Result: Bye}})
				width = max(width, 1)
			}
		}
		col += width
		pad(col)
	}
	return ev
}

// knockout bracket order: seeds placed so that 1 and 2 can meet only in the final.
func bracketOrder(size int) []int {
	order := []int{1}
	for n := 1; n < size; n *= 2 {
		next := make([]int, 0, 2*n)
		for _, s := range order {
			next = append(next, s, 2*n+1-s)
		}
		order = next
	}
	return order
}

func (st *State) koConfig(m *Match) knockout.Config {
	tc := func(c clock.TimeControl) knockout.TimeControl {
		p := c.Periods[0]
		return knockout.TimeControl{Base: p.Base, Increment: p.Increment}
	}
	main, _ := clock.Parse(st.Settings.Control)
	aw, ab := st.Settings.armageddon()
	return knockout.Config{
		Games: st.Settings.MatchGames, Main: tc(main),
		RapidGames: st.Settings.RapidGames, Rapid: tc(koRapid),
		BlitzGames: st.Settings.BlitzGames, Blitz: tc(koBlitz), BlitzRounds: 1,
		ArmageddonWhite: knockout.TimeControl{Base: aw}, ArmageddonBlack: knockout.TimeControl{Base: ab},
		ArmageddonWhiteSide: knockout.Side(m.Armageddon),
	}
}

// replayMatch rebuilds the knockout model of a match from its finished games.
func (st *State) replayMatch(m *Match) (*knockout.Match, error) {
	km, err := knockout.New(st.koConfig(m))
	if err != nil {
		return nil, err
	}
	for _, g := range m.Games {
		var r knockout.Result
		switch g.Result {
		case Pending:
			return km, nil
		case WhiteWins, WhiteByForf:
			r = knockout.WhiteWins
		case BlackWins, BlackByForf:
			r = knockout.BlackWins
		default:
			r = knockout.Draw
		}
		if _, err := km.Record(r); err != nil {
			return nil, err
		}
	}
	return km, nil
}

// knockoutStep makes the brackets move: the first bracket, the next game of every
// undecided match, the next bracket once all matches are decided.
func (st *State) knockoutStep(lot uint64) (changed, over bool, err error) {
	if len(st.Brackets) == 0 {
		size := 1
		for size < len(st.Players) {
			size *= 2
		}
		order := bracketOrder(size)
		var br []Match
		for i := 0; i < len(order); i += 2 {
			a, b := order[i], order[i+1]
			if b > len(st.Players) {
				b = 0
			}
			br = append(br, Match{A: a, B: b})
		}
		st.Brackets = append(st.Brackets, br)
		changed = true
	}
	br := st.Brackets[len(st.Brackets)-1]
	decided := true
	for i := range br {
		m := &br[i]
		if m.Winner != 0 {
			continue
		}
		switch {
		case m.B == 0:
			m.Winner, changed = m.A, true
			continue
		case st.Players[m.A-1].Withdrawn && st.Players[m.B-1].Withdrawn:
			m.Winner, changed = m.B, true // both withdrew: the lower seed goes on to forfeit
			continue
		case st.Players[m.A-1].Withdrawn:
			m.Winner, changed = m.B, true
			continue
		case st.Players[m.B-1].Withdrawn:
			m.Winner, changed = m.A, true
			continue
		}
		if len(m.Games) == 0 {
			m.Armageddon = int((lot + uint64(len(st.Brackets))*31 + uint64(i)) % 2)
		}
		if n := len(m.Games); n > 0 && m.Games[n-1].Result == Pending {
			decided = false
			continue
		}
		km, err := st.replayMatch(m)
		if err != nil {
			return changed, false, fmt.Errorf("knockout match %d-%d: %w", m.A, m.B, err)
		}
		if side, ok := km.Winner(); ok {
			m.Winner, changed = m.A, true
			if side == knockout.B {
				m.Winner = m.B
			}
			continue
		}
		g, _ := km.Next()
		white, black := m.A, m.B
		if g.White == knockout.B {
			white, black = m.B, m.A
		}
		b := Board{White: white, Black: black}
		switch g.Stage {
		case knockout.Rapid:
			b.Control, b.Stage = koRapid.String(), "rapid"
		case knockout.Blitz:
			b.Control, b.Stage = koBlitz.String(), "blitz"
		case knockout.Armageddon:
			aw, ab := st.Settings.armageddon()
			b.Control, b.Stage, b.BlackTime = armageddonControl(aw), "Armageddon", ab
		}
		m.Games = append(m.Games, b)
		changed, decided = true, false
	}
	if !decided {
		return changed, false, nil
	}
	var winners []int
	for _, m := range br {
		winners = append(winners, m.Winner)
	}
	if len(winners) == 1 {
		return changed, true, nil
	}
	var next []Match
	for i := 0; i+1 < len(winners); i += 2 {
		next = append(next, Match{A: winners[i], B: winners[i+1]})
	}
	st.Brackets = append(st.Brackets, next)
	_, over, err = st.knockoutStep(lot) // start the new bracket's games (or walk its byes)
	return true, over, err
}

// arenaModel replays the arena's log.
func (st *State) arenaModel() (*arena.Arena, error) {
	cfg := arena.DefaultConfig(st.Started, st.Ends.Sub(st.Started))
	cfg.Berserk = !st.Settings.NoBerserk
	a, err := arena.New(cfg)
	if err != nil {
		return nil, err
	}
	for _, op := range st.ArenaLog {
		id := strconv.Itoa(op.Player)
		switch op.Op {
		case "join":
			if err := a.Join(id, st.Players[op.Player-1].Rating, op.At); err != nil {
				return nil, err
			}
		case "pause":
			a.Pause(id)
		case "pair":
			a.Pair(op.At)
		case "berserk":
			if _, err := a.Berserk(op.Game, id, 0); err != nil {
				return nil, err
			}
		case "report":
			r := arena.Draw
			switch op.Result {
			case WhiteWins, WhiteByForf:
				r = arena.WhiteWins
			case BlackWins, BlackByForf:
				r = arena.BlackWins
			}
			if _, _, err := a.Report(op.Game, r); err != nil {
				return nil, err
			}
		}
	}
	return a, nil
}

// arenaStep pairs the players waiting, until the end; after it, the arena is over once
// its last games are finished (games under way at the end are played out and count).
func (st *State) arenaStep(now time.Time) (changed, over bool, err error) {
	if !now.Before(st.Ends) {
		return false, !st.live(), nil
	}
	a, err := st.arenaModel()
	if err != nil {
		return false, false, err
	}
	games := a.Pair(now)
	if len(games) == 0 {
		return false, false, nil
	}
	st.ArenaLog = append(st.ArenaLog, arenaOp{Op: "pair", At: now})
	for _, g := range games {
		w, _ := strconv.Atoi(g.White)
		b, _ := strconv.Atoi(g.Black)
		st.ArenaGames = append(st.ArenaGames, Board{White: w, Black: b})
	}
	return true, false, nil
}

// armageddonControl is the control of an Armageddon game with White's main time w and
// no increment ("5+0"); Black's shorter time is the board's BlackTime.
func armageddonControl(w time.Duration) string {
	return strconv.FormatFloat(w.Minutes(), 'f', -1, 64) + "+0"
}
