// state.go: an event's settings and its stored state (pairings, results, the arena's
// log, the knockout brackets), and the pure steps that change it.

package tournaments

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/tournament/tiebreak"
)

// Format is a pairing system.
type Format string

// The formats.
const (
	Swiss      Format = "swiss"      // FIDE Dutch system (tournament/dutch)
	RoundRobin Format = "roundrobin" // Berger tables (tournament/berger), single or double
	Arena      Format = "arena"      // fixed duration, re-paired at once (tournament/arena)
	Knockout   Format = "knockout"   // matches with a rapid, blitz, Armageddon ladder
)

// Title is the format's name for people ("Swiss", "Round robin", "Arena", "Knockout").
func (f Format) Title() string {
	switch f {
	case Swiss:
		return "Swiss"
	case RoundRobin:
		return "Round robin"
	case Arena:
		return "Arena"
	case Knockout:
		return "Knockout"
	}
	return string(f)
}

// ParseFormat reads a format name ("swiss", "round robin", "rr", "arena", "knockout").
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.NewReplacer(" ", "", "-", "", "_", "").Replace(s)) {
	case "swiss", "dutch":
		return Swiss, nil
	case "roundrobin", "rr", "berger":
		return RoundRobin, nil
	case "arena":
		return Arena, nil
	case "knockout", "ko", "cup":
		return Knockout, nil
	}
	return "", fmt.Errorf("%w: format %q: want swiss, roundrobin, arena or knockout", ErrBadRequest, s)
}

// Settings are an event's rules, fixed when it is created.
type Settings struct {
	Format Format `json:"format"`
	// Control is the time control of the games (a live control, "5+3").
	Control string `json:"control"`
	// Rounds: a Swiss's number of rounds; a round robin's cycles (1 single, 2 double).
	Rounds int `json:"rounds,omitempty"`
	// Duration is an arena's length.
	Duration time.Duration `json:"duration,omitempty"`
	// Rated games count for the server's ladder.
	Rated bool `json:"rated"`
	// Chess960 makes every game Chess960, each from a start position drawn for it;
	// events stored before it existed are standard chess.
	Chess960 bool `json:"chess960,omitempty"`
	// NoShow is the forfeit time: a player who has not made their first move this long
	// after their turn began loses the game by forfeit.
	NoShow time.Duration `json:"no_show"`
	// TieBreaks is the tie-break list in C.07 codes ("BH/C1, BH, SB"); empty for the
	// format's default.
	TieBreaks string `json:"tiebreaks,omitempty"`
	// MaxPlayers bounds the entries (default 64).
	MaxPlayers int `json:"max_players,omitempty"`
	// Knockout: games of each match, and the tie-break ladder's mini-matches (0 skips
	// a stage).
	// NoBerserk turns an arena's berserk off (players may halve their clock for a bonus
	// point on a win unless it is set).
	NoBerserk  bool `json:"no_berserk,omitempty"`
	MatchGames int  `json:"match_games,omitempty"`
	RapidGames int  `json:"rapid_games,omitempty"`
	BlitzGames int  `json:"blitz_games,omitempty"`
	// ArmageddonWhite and ArmageddonBlack are the main times of the Armageddon game,
	// without increment: White must have more (0: the defaults, 5 and 4 minutes).
	ArmageddonWhite time.Duration `json:"arm_white,omitempty"`
	ArmageddonBlack time.Duration `json:"arm_black,omitempty"`
}

// Limits of the settings.
const (
	MaxSwissRounds = 20
	MinDuration    = time.Minute
	MaxDuration    = 24 * time.Hour
	MinNoShow      = 10 * time.Second
	MaxNoShow      = time.Hour
	MaxPlayers     = 256
	MaxMatchGames  = 10
)

// Default tie-break lists (C.07: Buchholz is not for round robins, 15.2).
const (
	DefaultSwissTieBreaks = "BH/C1, BH, SB, DE"
	DefaultRRTieBreaks    = "DE, SB, KS, WON"
)

// Knockout tie-break controls: rapid and blitz, and the default Armageddon times
// (White 5 minutes, Black 4, no increment; an event may set others).
var (
	koRapid = mustControl("10+10")
	koBlitz = mustControl("5+3")
)

// Default Armageddon times, and the longest White may have.
const (
	DefaultArmageddonWhite = 5 * time.Minute
	DefaultArmageddonBlack = 4 * time.Minute
	MaxArmageddon          = time.Hour
)

// armageddon returns the Armageddon main times of White and Black (the defaults for an
// event stored before they could be set).
func (s *Settings) armageddon() (white, black time.Duration) {
	if s.ArmageddonWhite == 0 {
		return DefaultArmageddonWhite, DefaultArmageddonBlack
	}
	return s.ArmageddonWhite, s.ArmageddonBlack
}

func mustControl(s string) clock.TimeControl {
	tc, err := clock.Parse(s)
	if err != nil {
		panic(err)
	}
	return tc
}

// normalize fills the defaults and checks the settings.
func (s *Settings) normalize() error {
	f, err := ParseFormat(string(s.Format))
	if err != nil {
		return err
	}
	s.Format = f
	if s.Control == "" {
		s.Control = "5+3"
	}
	tc, err := clock.Parse(s.Control)
	if err != nil {
		return fmt.Errorf("%w: time control: %w", ErrBadRequest, err)
	}
	if tc.Kind() != clock.KindLive {
		return fmt.Errorf("%w: time control %q: tournaments are played with a live clock (e.g. 5+3)", ErrBadRequest, s.Control)
	}
	s.Control = tc.String()
	if s.NoShow == 0 {
		s.NoShow = 5 * time.Minute
	}
	if s.NoShow < MinNoShow || s.NoShow > MaxNoShow {
		return fmt.Errorf("%w: forfeit time %v: want %v to %v", ErrBadRequest, s.NoShow, MinNoShow, MaxNoShow)
	}
	if s.MaxPlayers == 0 {
		s.MaxPlayers = 64
	}
	if s.MaxPlayers < 2 || s.MaxPlayers > MaxPlayers {
		return fmt.Errorf("%w: at most %d players: want 2 to %d", ErrBadRequest, s.MaxPlayers, MaxPlayers)
	}
	switch s.Format {
	case Swiss:
		if s.Rounds < 1 || s.Rounds > MaxSwissRounds {
			return fmt.Errorf("%w: %d rounds: a Swiss has 1 to %d", ErrBadRequest, s.Rounds, MaxSwissRounds)
		}
	case RoundRobin:
		if s.Rounds == 0 {
			s.Rounds = 1
		}
		if s.Rounds != 1 && s.Rounds != 2 {
			return fmt.Errorf("%w: %d cycles: a round robin is single (1) or double (2)", ErrBadRequest, s.Rounds)
		}
	case Arena:
		if s.Duration < MinDuration || s.Duration > MaxDuration {
			return fmt.Errorf("%w: duration %v: an arena lasts %v to %v", ErrBadRequest, s.Duration, MinDuration, MaxDuration)
		}
		s.Rounds = 0
	case Knockout:
		if s.MatchGames == 0 {
			s.MatchGames = 2
		}
		if s.MatchGames < 1 || s.MatchGames > MaxMatchGames || s.RapidGames < 0 || s.RapidGames > MaxMatchGames || s.BlitzGames < 0 || s.BlitzGames > MaxMatchGames {
			return fmt.Errorf("%w: match of %d games, %d rapid, %d blitz: want 1 to %d main games and 0 to %d of each tie-break", ErrBadRequest, s.MatchGames, s.RapidGames, s.BlitzGames, MaxMatchGames, MaxMatchGames)
		}
		if s.ArmageddonWhite == 0 && s.ArmageddonBlack == 0 {
			s.ArmageddonWhite, s.ArmageddonBlack = DefaultArmageddonWhite, DefaultArmageddonBlack
		}
		w, b := s.ArmageddonWhite, s.ArmageddonBlack
		if b < 10*time.Second || w <= b || w > MaxArmageddon || w%time.Second != 0 || b%time.Second != 0 {
			return fmt.Errorf("%w: Armageddon White %v, Black %v: White must have more time than Black, Black at least 10s, White at most %v, in whole seconds", ErrBadRequest, w, b, MaxArmageddon)
		}
		s.Rounds = 0
	}
	if s.Format == Swiss || s.Format == RoundRobin {
		if s.TieBreaks == "" {
			s.TieBreaks = DefaultSwissTieBreaks
			if s.Format == RoundRobin {
				s.TieBreaks = DefaultRRTieBreaks
			}
		}
		specs, err := tiebreak.ParseList(s.TieBreaks)
		if err != nil {
			return fmt.Errorf("%w: tie-breaks: %w", ErrBadRequest, err)
		}
		var names []string
		for _, sp := range specs {
			names = append(names, sp.String())
		}
		s.TieBreaks = strings.Join(names, ", ")
	} else {
		s.TieBreaks = ""
	}
	return nil
}

// Entrant is a player of the event. Its pairing number is its index + 1 once the event
// has started (entrants are then ordered by rating).
type Entrant struct {
	UserID string `json:"user"`
	Name   string `json:"name"`
	Rating int    `json:"rating,omitempty"`
	// Withdrawn players are not paired again (Swiss, arena); their remaining round-robin
	// games are forfeited; a knockout match is conceded.
	Withdrawn bool `json:"withdrawn,omitempty"`
}

// Result of a board.
type Result int8

// Results of a board. A bye board's player scores as the format says.
const (
	Pending     Result = iota
	WhiteWins          // over the board
	BlackWins          // over the board
	Draw               // over the board
	WhiteByForf        // Black did not show (or withdrew): White wins by forfeit
	BlackByForf        // White did not show (or withdrew)
	DoubleForf         // neither played
	Bye                // the player had no opponent
)

// String is the result as the pairings show it.
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "½-½"
	case WhiteByForf:
		return "+/-"
	case BlackByForf:
		return "-/+"
	case DoubleForf:
		return "-/-"
	case Bye:
		return "bye"
	}
	return "…"
}

// Board is one game of a round (or of a knockout match, or an arena pairing), by
// pairing number. Black is 0 for a bye.
type Board struct {
	White  int    `json:"w"`
	Black  int    `json:"b"`
	GameID uint64 `json:"game,omitempty"`
	Result Result `json:"r,omitempty"`
	// Control is the board's time control when it differs from the event's (knockout
	// tie-break games); Stage names the knockout stage ("rapid", "Armageddon").
	Control string `json:"tc,omitempty"`
	Stage   string `json:"stage,omitempty"`
	// BlackTime is Black's main time when it differs from the control's (Armageddon).
	BlackTime time.Duration `json:"bt,omitempty"`
	// BerserkWhite and BerserkBlack mark an arena game's berserk players.
	BerserkWhite bool `json:"bw,omitempty"`
	BerserkBlack bool `json:"bb,omitempty"`
}

// Round is one round of a Swiss or round robin: its boards in board order, and the
// players who sat out (withdrawn).
type Round struct {
	Boards []Board `json:"boards"`
	Absent []int   `json:"absent,omitempty"`
}

// Match is one knockout match: two players (B 0 for a bye), its games in order, and
// the winner once decided.
type Match struct {
	A      int     `json:"a"`
	B      int     `json:"b"`
	Games  []Board `json:"games,omitempty"`
	Winner int     `json:"winner,omitempty"`
	// Armageddon says which side has White in the Armageddon game (0 A, 1 B), drawn
	// by lot when the match is made.
	Armageddon int `json:"arm,omitempty"`
}

// arenaOp is one call made to the arena model, in order: the arena's state is the
// replay of its log, which the model makes deterministic.
type arenaOp struct {
	Op     string    `json:"op"` // "join", "pause", "pair", "berserk", "report"
	Player int       `json:"p,omitempty"`
	At     time.Time `json:"at,omitempty"`
	Game   int       `json:"g,omitempty"`
	Result Result    `json:"r,omitempty"`
}

// State is a tournament's stored state.
type State struct {
	Settings  Settings  `json:"settings"`
	RequestID string    `json:"request,omitempty"`
	Players   []Entrant `json:"players"`
	Started   time.Time `json:"started,omitempty"`
	// Starts is when the organiser means to start the event (zero: not said); it is
	// announced as the server's scheduled event, and the organiser still starts it.
	Starts time.Time `json:"starts,omitempty"`
	// Ends is the end of an arena.
	Ends time.Time `json:"ends,omitempty"`
	// Rounds are a Swiss's or a round robin's rounds, in order.
	Rounds []Round `json:"rounds,omitempty"`
	// Brackets are a knockout's rounds of matches.
	Brackets [][]Match `json:"brackets,omitempty"`
	// ArenaLog and ArenaGames are an arena's calls and pairings (game i+1 is
	// ArenaGames[i]).
	ArenaLog   []arenaOp `json:"arena_log,omitempty"`
	ArenaGames []Board   `json:"arena_games,omitempty"`
	// Announced is how many round announcements were posted (Swiss, round robin,
	// knockout brackets); Closed that the final standings were posted.
	Announced int  `json:"announced,omitempty"`
	Closed    bool `json:"closed,omitempty"`
}

func decodeState(b []byte) (*State, error) {
	st := new(State)
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("decode tournament state: %w", err)
	}
	return st, nil
}

func (st *State) encode() []byte {
	b, err := json.Marshal(st)
	if err != nil {
		panic(err) // plain data: never fails
	}
	return b
}

// player returns the index of userID among the entrants, or -1.
func (st *State) player(userID string) int {
	for i, p := range st.Players {
		if p.UserID == userID {
			return i
		}
	}
	return -1
}

// boardOf finds the board a game is on.
func (st *State) boardOf(gameID uint64) *Board {
	for r := range st.Rounds {
		for b := range st.Rounds[r].Boards {
			if st.Rounds[r].Boards[b].GameID == gameID {
				return &st.Rounds[r].Boards[b]
			}
		}
	}
	for r := range st.Brackets {
		for m := range st.Brackets[r] {
			for g := range st.Brackets[r][m].Games {
				if st.Brackets[r][m].Games[g].GameID == gameID {
					return &st.Brackets[r][m].Games[g]
				}
			}
		}
	}
	for i := range st.ArenaGames {
		if st.ArenaGames[i].GameID == gameID {
			return &st.ArenaGames[i]
		}
	}
	return nil
}
