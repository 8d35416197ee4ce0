// Package trf reads and writes the FIDE Tournament Report File (TRF16) with
// the extension lines used by pairing programs: "XXR n" (number of rounds)
// and "XXC white1|black1" (the initial colour: that of TPN 1 in round 1).
//
// Player lines ("001") use fixed columns: starting rank 5-8, sex 10, title
// 11-13, name 15-47, rating 49-52, federation 54-56, FIDE id 58-68, birth
// date 70-79, points 81-84, rank 86-89, then one 10-column cell per round
// from column 92: opponent (4), colour (column 97), result (column 99).
package trf

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/gambitchess/gambit/tournament"
)

// Parse reads a TRF. Lines it does not interpret are kept in Event.Extra.
func Parse(r io.Reader) (*tournament.Event, error) {
	ev := &tournament.Event{Scoring: tournament.StandardScoring}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	sc.Split(scanLines)
	line := 0
	var players []tournament.Player
	for sc.Scan() {
		line++
		s := strings.TrimRight(sc.Text(), " \t\r")
		if line == 1 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		if len(s) < 3 {
			continue
		}
		code := s[:3]
		rest := ""
		if len(s) > 4 {
			rest = strings.TrimSpace(s[4:])
		}
		switch code {
		case "001":
			p, err := parsePlayer(s)
			if err != nil {
				return nil, fmt.Errorf("trf line %d: %w", line, err)
			}
			players = append(players, p)
		case "012":
			ev.Name = rest
			ev.Extra = append(ev.Extra, s)
		case "XXR", "142":
			f := strings.Fields(rest)
			if len(f) == 0 {
				return nil, fmt.Errorf("trf line %d: %s without a number of rounds", line, code)
			}
			n, err := strconv.Atoi(f[0])
			if err != nil || n < 1 || n > 999 {
				return nil, fmt.Errorf("trf line %d: %s %q: want a number of rounds from 1 to 999", line, code, f[0])
			}
			if code == "XXR" || ev.Rounds == 0 {
				ev.Rounds = n
			}
			if code == "142" {
				ev.Extra = append(ev.Extra, s)
			}
		case "XXC":
			for _, f := range strings.Fields(rest) {
				switch strings.ToLower(f) {
				case "white1":
					ev.InitialColor = tournament.White
				case "black1":
					ev.InitialColor = tournament.Black
				}
			}
		default:
			if strings.HasPrefix(s, "###") {
				continue
			}
			ev.Extra = append(ev.Extra, s)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trf: read: %w", err)
	}
	sort.SliceStable(players, func(i, j int) bool { return players[i].ID < players[j].ID })
	for i, p := range players {
		if p.ID != i+1 {
			return nil, fmt.Errorf("trf: starting ranks must be 1..%d without gaps or repeats; found %d at position %d", len(players), p.ID, i+1)
		}
	}
	ev.Players = players
	if err := ev.Validate(); err != nil {
		return nil, fmt.Errorf("trf: %w", err)
	}
	return ev, nil
}

// scanLines splits on LF, CRLF or a lone CR (some programs write CR only).
func scanLines(data []byte, atEOF bool) (int, []byte, error) {
	for i, b := range data {
		if b == '\n' {
			return i + 1, data[:i], nil
		}
		if b == '\r' {
			if i+1 < len(data) {
				if data[i+1] == '\n' {
					return i + 2, data[:i], nil
				}
				return i + 1, data[:i], nil
			}
			if atEOF {
				return i + 1, data[:i], nil
			}
			return 0, nil, nil
		}
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

func field(s string, from, to int) string {
	if from > len(s) {
		return ""
	}
	if to > len(s) {
		to = len(s)
	}
	return strings.TrimSpace(s[from-1 : to])
}

func parsePlayer(s string) (tournament.Player, error) {
	var p tournament.Player
	id, err := strconv.Atoi(field(s, 5, 8))
	if err != nil || id < 1 {
		return p, fmt.Errorf("starting rank %q in columns 5-8: want a positive number", field(s, 5, 8))
	}
	p.ID = id
	p.Sex = field(s, 10, 10)
	p.Title = field(s, 11, 13)
	p.Name = field(s, 15, 47)
	if r := field(s, 49, 52); r != "" {
		p.Rating, err = strconv.Atoi(r)
		if err != nil || p.Rating < 0 {
			return p, fmt.Errorf("player %d: rating %q in columns 49-52: want a number", id, r)
		}
	}
	p.Federation = field(s, 54, 56)
	p.FIDEID = field(s, 58, 68)
	p.BirthDate = field(s, 70, 79)
	if pt := field(s, 81, 84); pt != "" {
		p.Declared, err = tournament.ParsePoints(pt)
		if err != nil {
			return p, fmt.Errorf("player %d: points in columns 81-84: %w", id, err)
		}
	}
	if rk := field(s, 86, 89); rk != "" {
		p.Rank, err = strconv.Atoi(rk)
		if err != nil {
			return p, fmt.Errorf("player %d: rank %q in columns 86-89: want a number", id, rk)
		}
	}
	for col, round := 92, 1; col <= len(s); col, round = col+10, round+1 {
		cell := s[col-1 : min(col+7, len(s))]
		if strings.TrimSpace(cell) == "" {
			p.Results = append(p.Results, tournament.Result{Code: tournament.None})
			continue
		}
		res, err := parseCell(cell)
		if err != nil {
			return p, fmt.Errorf("player %d round %d (column %d): %w", id, round, col, err)
		}
		p.Results = append(p.Results, res)
	}
	for len(p.Results) > 0 && p.Results[len(p.Results)-1].Code == tournament.None && p.Results[len(p.Results)-1].Opponent == 0 {
		p.Results = p.Results[:len(p.Results)-1]
	}
	return p, nil
}

func parseCell(cell string) (tournament.Result, error) {
	var r tournament.Result
	for len(cell) < 8 {
		cell += " "
	}
	if o := strings.TrimSpace(cell[:4]); o != "" {
		n, err := strconv.Atoi(o)
		if err != nil || n < 0 {
			return r, fmt.Errorf("opponent %q: want a starting rank or 0000", o)
		}
		r.Opponent = n
	}
	switch cell[5] {
	case 'w', 'W':
		r.Color = tournament.White
	case 'b', 'B':
		r.Color = tournament.Black
	case '-', ' ':
	default:
		return r, fmt.Errorf("colour %q: want w, b or -", cell[5])
	}
	c := tournament.Code(cell[7])
	if c == ' ' || !c.Valid() {
		return r, fmt.Errorf("result code %q: want one of 1 = 0 + - W D L H F U Z", cell[7])
	}
	r.Code = c
	if r.Opponent == 0 {
		switch c {
		case tournament.ForfeitWin:
			r.Code = tournament.FullBye
		case tournament.ForfeitLoss:
			r.Code = tournament.ZeroBye
		case tournament.Win, tournament.Draw, tournament.Loss, tournament.WinShort, tournament.DrawShort, tournament.LossShort:
			return r, fmt.Errorf("result %q needs an opponent", c)
		}
	} else {
		switch c {
		case tournament.HalfBye, tournament.FullBye, tournament.PAB, tournament.ZeroBye:
			return r, fmt.Errorf("bye code %q with opponent %d", c, r.Opponent)
		}
	}
	return r, nil
}

// Write writes ev as TRF16 with XXR and XXC lines. Points are recomputed from
// the results; the rank column holds Player.Rank when set.
func Write(w io.Writer, ev *tournament.Event) error {
	bw := bufio.NewWriter(w)
	for _, x := range ev.Extra {
		fmt.Fprintln(bw, x)
	}
	if ev.Name != "" && !hasCode(ev.Extra, "012") {
		fmt.Fprintf(bw, "012 %s\n", ev.Name)
	}
	for _, p := range ev.Players {
		fmt.Fprintln(bw, PlayerLine(ev, &p))
	}
	if ev.Rounds > 0 {
		fmt.Fprintf(bw, "XXR %d\n", ev.Rounds)
	}
	if ev.Initial() == tournament.Black {
		fmt.Fprintln(bw, "XXC black1")
	} else {
		fmt.Fprintln(bw, "XXC white1")
	}
	return bw.Flush()
}

func hasCode(lines []string, code string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, code) {
			return true
		}
	}
	return false
}

// PlayerLine formats the 001 line of p.
func PlayerLine(ev *tournament.Event, p *tournament.Player) string {
	b := []byte(strings.Repeat(" ", 91))
	put := func(col int, s string, width int, right bool) {
		if len(s) > width {
			s = s[:width]
		}
		if right {
			s = strings.Repeat(" ", width-len(s)) + s
		}
		copy(b[col-1:], s)
	}
	put(1, "001", 3, false)
	put(5, strconv.Itoa(p.ID), 4, true)
	put(10, p.Sex, 1, false)
	put(11, p.Title, 3, false)
	put(15, p.Name, 33, false)
	if p.Rating > 0 {
		put(49, strconv.Itoa(p.Rating), 4, true)
	}
	put(54, p.Federation, 3, false)
	put(58, p.FIDEID, 11, true)
	put(70, p.BirthDate, 10, false)
	put(81, ev.Score(p, -1).String(), 4, true)
	if p.Rank > 0 {
		put(86, strconv.Itoa(p.Rank), 4, true)
	}
	out := string(b)
	for _, r := range p.Results {
		opp := "0000"
		if r.Opponent > 0 {
			opp = fmt.Sprintf("%4d", r.Opponent)
		}
		code := r.Code
		if r.Opponent == 0 && code == tournament.None {
			out += "          "
			continue
		}
		out += fmt.Sprintf("%s %s %c  ", opp, r.Color, code)
	}
	return strings.TrimRight(out, " ")
}
