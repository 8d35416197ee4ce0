// records.go: the records the store keeps: games, challenges, guild settings (with the
// puzzle settings), users and request receipts.

package storage

import (
	"fmt"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
)

// MaxIDLen bounds the length of a user, guild, channel or thread id in bytes. Discord
// snowflakes are at most 20 digits; the bound leaves room for other id schemes
// ("local:white") and keeps index keys short.
const MaxIDLen = 100

// MaxNameLen bounds a stored display name in bytes (Discord allows 32 characters; a
// UTF-8 character takes up to 4 bytes).
const MaxNameLen = 128

// Player is one side of a game: a user id (a Discord snowflake as a string, or
// "local:white" for a terminal game) and the display name the user had when the game
// started.
type Player struct {
	ID   string
	Name string
}

// Offer is a pending draw offer or takeback request.
type Offer struct {
	// Pending reports whether an offer is waiting for an answer; the other fields are
	// meaningful only when it is.
	Pending bool
	// By is the side that made the offer.
	By chesscore.Color
	// Ply is the number of half-moves played when the offer was made (after the move it
	// was made with, if any).
	Ply int
}

// Game is a stored game: who plays it and where, its time control, the moves, the state
// of the clock, the pending offers and the result. The chess itself (position, SAN,
// legality) is not stored: it is replayed from StartFEN and Moves.
type Game struct {
	// ID is the game's number, assigned by Commit when the game is created (0 before).
	ID uint64
	// GuildID, ChannelID and ThreadID say where the game is played; ThreadID is set
	// after creation when the bot opens a thread for the game. All may be empty (a game
	// played in the terminal).
	GuildID, ChannelID, ThreadID string
	// White and Black are the players.
	White, Black Player
	// Rated marks a game that counts for the ladder.
	Rated bool
	// Control is the time control (Untimed for a game without clock).
	Control clock.TimeControl
	// StartFEN is the start position in FEN (castling in X-FEN); empty means the
	// standard start position.
	StartFEN string
	// Variant is the kind of chess played: chesscore.Standard, or chesscore.Chess960 (its
	// start position in StartFEN). Records written before it existed read as Standard.
	Variant chesscore.Variant
	// ChallengeID is the challenge the game came from, or 0.
	ChallengeID uint64
	// Created is when the game was created; Ended when it ended (zero while live).
	Created, Ended time.Time
	// Moves are the moves played, in order.
	Moves []chesscore.Move
	// MoveClocks holds, for a timed game, the mover's remaining time at the instant of
	// each move, before any increment (millisecond precision). It is used for takebacks
	// and for the [%clk] comments of an exported PGN. It is empty for an untimed game.
	MoveClocks []time.Duration
	// Clock is the clock state as of the last event; nil for an untimed game. Its
	// Control always equals the game's Control.
	Clock *clock.Clock
	// Outcome is the result; the zero Outcome while the game is live.
	Outcome chesscore.Outcome
	// DrawOffer is the pending draw offer, if any.
	DrawOffer Offer
	// DrawOffers counts the draw offers each side has made in this game.
	DrawOffers [2]int
	// LastDrawOffer is the ply at which each side last offered a draw (0: never; a
	// draw can not be offered at ply 0).
	LastDrawOffer [2]int
	// Takeback is the pending takeback request, if any.
	Takeback Offer
	// LastTakeback is the ply at which each side last asked for a takeback (0: never).
	LastTakeback [2]int
	// AbortAt is when the game is aborted if the side to move has not yet made its
	// first move (zero when no such deadline runs).
	AbortAt time.Time
	// ReminderPly is 1 + the ply whose turn the last deadline reminder was sent for
	// (0: none sent), so a reminder is sent once per turn, even across restarts.
	ReminderPly int
	// NoShow, when positive, is a tournament game's forfeit time: AbortAt is set this
	// long after each side's turn to make its first move begins, and when it passes the
	// side that has not moved loses by forfeit (chesscore.NoShow) instead of the game
	// being aborted.
	NoShow time.Duration
	// DrawWithMove is a draw offer the player to move has made before moving: it goes
	// with their next move (FIDE 9.1.2.1) and becomes DrawOffer then; the opponent does
	// not see it before.
	DrawWithMove bool
	// Moved is when the last move was made (zero before the first move, after a
	// takeback, and in records written before it existed): a draw may be offered
	// right after one's move, within the game service's window.
	Moved time.Time
	// Notes are the arbiter's decisions about the game, in order.
	Notes []Note
	// Version counts the writes of the game, so a stale copy cannot overwrite a newer
	// record: Tx.PutGame writes a stored game only if Version is the stored one
	// (ErrConflict otherwise) and increments it. Records written before it existed read
	// as 0.
	Version uint64
	// Mates is what the game service knew, when it wrote a live game, of who can still
	// checkmate in its current position (chesscore.Game.MateKnowledge): the game
	// rebuilt from the record takes it back, so a flag fall or a resignation there
	// needs no search. Empty (nothing known) or for exactly len(Moves) plies; records
	// written before it existed have none.
	Mates chesscore.MateKnowledge
	// Guest marks a game played where the bot is not a member (a group DM, a DM
	// between users, a server that never added the bot), started by a user who
	// installed Gambit on their account: the bot cannot post there, so every board and
	// answer goes through an interaction, and GuildID is empty (the game belongs to its
	// players, never to a server). Records written before it existed read as false.
	Guest bool
}

// MaxNotes bounds the arbiter's notes in one game; MaxNoteText bounds a note's action
// and its reason, each in bytes.
const (
	MaxNotes    = 50
	MaxNoteText = 512
)

// Note is an arbiter's decision recorded in a game (FIDE 12): what was done, why, by
// whom, when, and after how many half-moves. The PGN export carries it as a comment.
type Note struct {
	// Ply is the number of half-moves played when the decision was made.
	Ply int
	// At is when it was made.
	At time.Time
	// By is the arbiter.
	By Player
	// Action says what was done ("added 2:00 to White's clock"); Reason why.
	Action, Reason string
}

// Live reports whether the game is still being played.
func (g *Game) Live() bool { return !g.Outcome.Over() }

// Ply returns the number of half-moves played.
func (g *Game) Ply() int { return len(g.Moves) }

// Player returns the player of colour c.
func (g *Game) Player(c chesscore.Color) Player {
	if c == chesscore.White {
		return g.White
	}
	return g.Black
}

// ColorOf returns the colour userID plays, and false when the user is not a player of
// the game. A user playing both sides (a terminal game) is reported as White.
func (g *Game) ColorOf(userID string) (chesscore.Color, bool) {
	switch userID {
	case g.White.ID:
		return chesscore.White, true
	case g.Black.ID:
		return chesscore.Black, true
	}
	return chesscore.White, false
}

// Clone returns a deep copy of the game record.
func (g *Game) Clone() *Game {
	c := *g
	c.Moves = append([]chesscore.Move(nil), g.Moves...)
	c.MoveClocks = append([]time.Duration(nil), g.MoveClocks...)
	c.Notes = append([]Note(nil), g.Notes...)
	for i, l := range g.Mates.Line {
		c.Mates.Line[i] = append([]chesscore.Move(nil), l...)
	}
	if g.Clock != nil {
		ck := *g.Clock
		c.Clock = &ck
	}
	return &c
}

// Validate checks what the encoding and the indexes rely on.
func (g *Game) Validate() error {
	for _, f := range []struct{ what, v string }{
		{"guild id", g.GuildID}, {"channel id", g.ChannelID}, {"thread id", g.ThreadID},
		{"white id", g.White.ID}, {"black id", g.Black.ID},
	} {
		if len(f.v) > MaxIDLen {
			return fmt.Errorf("%s is %d bytes long (at most %d)", f.what, len(f.v), MaxIDLen)
		}
	}
	if g.White.ID == "" || g.Black.ID == "" {
		return fmt.Errorf("a game needs two players (white %q, black %q)", g.White.ID, g.Black.ID)
	}
	switch {
	case g.Variant > chesscore.Chess960:
		return fmt.Errorf("variant %d is not known", g.Variant)
	case g.Variant == chesscore.Chess960 && g.StartFEN == "":
		return fmt.Errorf("a Chess960 game needs its start position (StartFEN)")
	}
	if len(g.White.Name) > MaxNameLen || len(g.Black.Name) > MaxNameLen {
		return fmt.Errorf("a player name is longer than %d bytes", MaxNameLen)
	}
	if g.Clock != nil && len(g.MoveClocks) != 0 && len(g.MoveClocks) != len(g.Moves) {
		return fmt.Errorf("game has %d moves but %d move clocks", len(g.Moves), len(g.MoveClocks))
	}
	if len(g.Notes) > MaxNotes {
		return fmt.Errorf("game has %d arbiter notes (at most %d)", len(g.Notes), MaxNotes)
	}
	for i, n := range g.Notes {
		switch {
		case n.Ply < 0 || n.Ply > len(g.Moves):
			return fmt.Errorf("arbiter note %d: ply %d of a game of %d plies", i+1, n.Ply, len(g.Moves))
		case len(n.By.ID) > MaxIDLen || len(n.By.Name) > MaxNameLen:
			return fmt.Errorf("arbiter note %d: the arbiter's id or name is too long", i+1)
		case len(n.Action) > MaxNoteText || len(n.Reason) > MaxNoteText:
			return fmt.Errorf("arbiter note %d: longer than %d bytes", i+1, MaxNoteText)
		}
	}
	return g.validateMates()
}

// validateMates checks what the record knows of who can still mate: nothing, or for
// the game's ply, each colour Unknown, No, or Yes with a line of at most
// chesscore.MaxKnownLine moves (whether the line mates is checked when a game takes it).
func (g *Game) validateMates() error {
	k := g.Mates
	if !k.Known() {
		if len(k.Line[0])+len(k.Line[1]) != 0 {
			return fmt.Errorf("mate knowledge: lines without a verdict")
		}
		return nil
	}
	if !g.Live() {
		return fmt.Errorf("mate knowledge in a finished game")
	}
	if k.Ply != len(g.Moves) {
		return fmt.Errorf("mate knowledge for ply %d in a game of %d plies", k.Ply, len(g.Moves))
	}
	for c, v := range k.Verdict {
		switch {
		case v > chesscore.No:
			return fmt.Errorf("mate knowledge: verdict %d", v)
		case v == chesscore.Yes && (len(k.Line[c]) == 0 || len(k.Line[c]) > chesscore.MaxKnownLine):
			return fmt.Errorf("mate knowledge: a line of %d moves (1 to %d)", len(k.Line[c]), chesscore.MaxKnownLine)
		case v != chesscore.Yes && len(k.Line[c]) != 0:
			return fmt.Errorf("mate knowledge: a line with the verdict %s", v)
		}
	}
	return nil
}

// ColorChoice is the colour a challenger asks for.
type ColorChoice string

// The colour choices of a challenge.
const (
	ChooseRandom ColorChoice = "random"
	ChooseWhite  ColorChoice = "white"
	ChooseBlack  ColorChoice = "black"
)

// ParseColorChoice reads "white", "black" or "random" ("" is random).
func ParseColorChoice(s string) (ColorChoice, error) {
	switch ColorChoice(s) {
	case "", ChooseRandom:
		return ChooseRandom, nil
	case ChooseWhite, ChooseBlack:
		return ColorChoice(s), nil
	}
	return "", fmt.Errorf("colour %q: want white, black or random", s)
}

// ChallengeStatus is where a challenge is in its life.
type ChallengeStatus string

// The challenge statuses. Only a pending challenge can change.
const (
	ChallengePending   ChallengeStatus = "pending"
	ChallengeAccepted  ChallengeStatus = "accepted"
	ChallengeDeclined  ChallengeStatus = "declined"
	ChallengeCancelled ChallengeStatus = "cancelled"
	ChallengeExpired   ChallengeStatus = "expired"
)

// Challenge is an invitation to play: direct (To.ID set: only that user may accept) or
// open (To.ID empty: anyone but the challenger may accept).
type Challenge struct {
	ID        uint64            `json:"id"`
	GuildID   string            `json:"guild,omitempty"`
	ChannelID string            `json:"channel,omitempty"`
	From      Player            `json:"from"`
	To        Player            `json:"to"`
	Control   clock.TimeControl `json:"control"`
	Color     ColorChoice       `json:"color"`
	Rated     bool              `json:"rated,omitempty"`
	StartFEN  string            `json:"fen,omitempty"`
	// Variant is the kind of chess the game will be (StartFEN holds a Chess960 start
	// position); records written before it existed read as standard chess.
	Variant   chesscore.Variant `json:"variant,omitempty"`
	Created   time.Time         `json:"created"`
	ExpiresAt time.Time         `json:"expires"`
	Status    ChallengeStatus   `json:"status"`
	// GameID is the game an accepted challenge started.
	GameID uint64 `json:"game,omitempty"`
	// Resolved is when the challenge stopped being pending; ResolvedBy who did it (empty
	// for an expiry).
	Resolved   time.Time `json:"resolved,omitzero"`
	ResolvedBy string    `json:"resolved_by,omitempty"`
	// Quiet marks a direct challenge posted without mentioning its addressee: they
	// turned challenge pings off (UserPrefs.PingOnChallenge), or the cap on challenge
	// pings was reached. Records written before it existed read as not quiet.
	Quiet bool `json:"quiet,omitempty"`
	// Guest marks a challenge made where the bot is not a member (see Game.Guest): the
	// game it starts is a guest game. Records written before it existed read as false.
	Guest bool `json:"guest,omitempty"`
}

// Validate checks what the store relies on: ids short enough to be keys.
func (c *Challenge) Validate() error {
	if len(c.From.ID) > MaxIDLen || len(c.To.ID) > MaxIDLen || len(c.GuildID) > MaxIDLen || len(c.ChannelID) > MaxIDLen {
		return fmt.Errorf("challenge %d: an id is longer than %d bytes", c.ID, MaxIDLen)
	}
	return nil
}

// Open reports whether anyone (but the challenger) may accept the challenge.
func (c *Challenge) Open() bool { return c.To.ID == "" }

// Pending reports whether the challenge still waits for an answer.
func (c *Challenge) Pending() bool { return c.Status == ChallengePending }

// Clone returns a copy of the challenge.
func (c *Challenge) Clone() *Challenge { d := *c; return &d }

// RatingSystem names the rating system of a guild's ladder.
type RatingSystem string

// The rating systems.
const (
	RatingFIDE    RatingSystem = "fide"
	RatingGlicko2 RatingSystem = "glicko2"
)

// GuildSettings are a guild's choices. The zero value is not valid; start from
// DefaultGuildSettings.
type GuildSettings struct {
	GuildID string `json:"guild"`
	// DefaultControl is the time control of a challenge that names none; the zero value
	// (unknown, "?") means the guild has not chosen one, and the game service applies the
	// configured default (games.default_time_control).
	DefaultControl clock.TimeControl `json:"default_control"`
	// GamesChannel is the channel games are played in ("" for the channel of the
	// challenge).
	GamesChannel string `json:"games_channel,omitempty"`
	// ThreadPerGame opens a thread for each game.
	ThreadPerGame bool `json:"thread_per_game"`
	// BoardTheme names the board colours the renderer uses ("": its default).
	BoardTheme string `json:"board_theme,omitempty"`
	// ChallengeRole, when set, is the role a member needs to challenge; empty means
	// everyone may.
	ChallengeRole string `json:"challenge_role,omitempty"`
	// PingOnTurn mentions the player whose turn it is; PingOnGameOver mentions both
	// players when a game ends.
	PingOnTurn     bool `json:"ping_on_turn"`
	PingOnGameOver bool `json:"ping_on_game_over"`
	// RatingSystem is the ladder's rating system and StartRating a newcomer's rating.
	RatingSystem RatingSystem `json:"rating_system"`
	StartRating  int          `json:"start_rating"`
	// Puzzle holds the choices for the puzzle of the day (puzzles.go).
	Puzzle PuzzleSettings `json:"puzzle,omitzero"`
	// TournamentRole, when set, is the role a member needs to create tournaments;
	// empty means only members with the Manage Server permission may.
	TournamentRole string `json:"tournament_role,omitempty"`
	// ArbiterRole, when set, is a role whose members may use /arbiter besides those
	// with the Manage Server permission.
	ArbiterRole string `json:"arbiter_role,omitempty"`
	// RatedTakebacks allows takebacks (with the opponent's consent) in rated games;
	// casual games always allow them and tournament games never do (FIDE 4.7).
	RatedTakebacks bool `json:"rated_takebacks,omitempty"`
	// WebViewOff turns the web pages of the guild's games off: every page of them is
	// refused, and the board posts carry no web buttons. The zero value keeps them on.
	WebViewOff bool `json:"web_view_off,omitempty"`
	// ConditionalMoves says in which games players may queue conditional moves.
	ConditionalMoves ConditionalScope `json:"conditional_moves,omitempty"`
	// VacationDays is each player's vacation days a year in the guild (vacations.go):
	// 0 takes the bot's default (games.vacation_days), VacationNone allows none, 1 to
	// MaxVacationDays is the guild's own number.
	VacationDays int `json:"vacation_days,omitempty"`
}

// VacationNone is GuildSettings.VacationDays of a guild that allows no vacations.
const VacationNone = -1

// VacationAllowance returns the vacation days a year of a player in the guild, given
// the bot's default.
func (s *GuildSettings) VacationAllowance(def int) int {
	switch {
	case s.VacationDays == VacationNone:
		return 0
	case s.VacationDays > 0:
		return s.VacationDays
	}
	return def
}

// ConditionalScope is where a guild allows conditional moves.
type ConditionalScope string

// The scopes of conditional moves. The zero value is ConditionalCorrespondence.
const (
	// ConditionalCorrespondence allows them in every correspondence game (an allowance
	// per move, in hours or days).
	ConditionalCorrespondence ConditionalScope = ""
	// ConditionalDaily allows them in daily games only: at least a day per move.
	ConditionalDaily ConditionalScope = "daily"
	// ConditionalOff allows them nowhere.
	ConditionalOff ConditionalScope = "off"
)

// ParseConditionalScope reads "correspondence", "daily" or "off".
func ParseConditionalScope(s string) (ConditionalScope, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "correspondence", "":
		return ConditionalCorrespondence, nil
	case "daily":
		return ConditionalDaily, nil
	case "off":
		return ConditionalOff, nil
	}
	return "", fmt.Errorf("conditional moves %q: want correspondence, daily or off", s)
}

// String names the scope as ParseConditionalScope reads it.
func (c ConditionalScope) String() string {
	if c == ConditionalCorrespondence {
		return "correspondence"
	}
	return string(c)
}

// Allows reports whether the scope allows conditional moves in a game of control tc.
func (c ConditionalScope) Allows(tc clock.TimeControl) bool {
	if tc.Kind() != clock.KindCorrespondence {
		return false
	}
	switch c {
	case ConditionalCorrespondence:
		return true
	case ConditionalDaily:
		return tc.PerMove >= 24*time.Hour
	}
	return false
}

// DefaultGuildSettings returns the settings of a guild that has not changed any: no
// time control of its own (the configured default applies), a thread per game,
// everyone may challenge, pings on turns, FIDE ratings from 1500.
func DefaultGuildSettings(guildID string) GuildSettings {
	return GuildSettings{
		GuildID:        guildID,
		ThreadPerGame:  true,
		PingOnTurn:     true,
		PingOnGameOver: true,
		RatingSystem:   RatingFIDE,
		StartRating:    1500,
	}
}

// Validate checks the settings.
func (s *GuildSettings) Validate() error {
	if len(s.GuildID) > MaxIDLen || len(s.GamesChannel) > MaxIDLen || len(s.ChallengeRole) > MaxIDLen || len(s.TournamentRole) > MaxIDLen ||
		len(s.ArbiterRole) > MaxIDLen {
		return fmt.Errorf("guild settings: an id is longer than %d bytes", MaxIDLen)
	}
	if err := s.DefaultControl.Validate(); err != nil {
		return fmt.Errorf("guild settings: default time control: %w", err)
	}
	switch s.RatingSystem {
	case RatingFIDE, RatingGlicko2:
	default:
		return fmt.Errorf("guild settings: rating system %q: want fide or glicko2", s.RatingSystem)
	}
	if s.StartRating < 100 || s.StartRating > 3000 {
		return fmt.Errorf("guild settings: start rating %d: want 100 to 3000", s.StartRating)
	}
	if err := s.Puzzle.Validate(); err != nil {
		return fmt.Errorf("guild settings: %w", err)
	}
	if _, err := ParseConditionalScope(s.ConditionalMoves.String()); err != nil {
		return fmt.Errorf("guild settings: %w", err)
	}
	if s.VacationDays < VacationNone || s.VacationDays > MaxVacationDays {
		return fmt.Errorf("guild settings: vacation days %d: want %d (none), 0 (the default) or 1 to %d", s.VacationDays, VacationNone, MaxVacationDays)
	}
	return nil
}

// PuzzleSettings are a guild's choices for the puzzle of the day.
type PuzzleSettings struct {
	// Channel is where the daily puzzle is posted ("" for no post: members still have a
	// puzzle of the day with /puzzle).
	Channel string `json:"channel,omitempty"`
	// Time is the time of day of the post, "HH:MM" in Zone ("" is 00:00); the puzzle of
	// the day changes then.
	Time string `json:"time,omitempty"`
	// Zone is the IANA time zone of Time and of the days ("" is UTC).
	Zone string `json:"zone,omitempty"`
	// MinRating and MaxRating bound the rating of the daily puzzles (0: no bound).
	MinRating int `json:"min_rating,omitempty"`
	MaxRating int `json:"max_rating,omitempty"`
	// Since is when the channel, time or zone were last set: a day whose posting time
	// came before it is not posted late.
	Since time.Time `json:"since,omitzero"`
}

// Location returns the settings' time zone.
func (s PuzzleSettings) Location() (*time.Location, error) {
	if s.Zone == "" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(s.Zone)
	if err != nil {
		return nil, fmt.Errorf("time zone %q: want an IANA name such as Europe/Paris or America/New_York", s.Zone)
	}
	return loc, nil
}

// Validate checks the settings.
func (s PuzzleSettings) Validate() error {
	if len(s.Channel) > MaxIDLen {
		return fmt.Errorf("puzzle channel id is longer than %d bytes", MaxIDLen)
	}
	if !canonicalTimeOfDay(s.Time) {
		return fmt.Errorf("time of day %q: want HH:MM, 00:00 to 23:59", s.Time)
	}
	if len(s.Zone) > 64 || strings.Contains(s.Zone, "..") {
		return fmt.Errorf("time zone %q: want an IANA name such as Europe/Paris", s.Zone)
	}
	if _, err := s.Location(); err != nil {
		return err
	}
	if s.MinRating < 0 || s.MinRating > 4000 || s.MaxRating < 0 || s.MaxRating > 4000 {
		return fmt.Errorf("puzzle ratings %d-%d: want 0 to 4000", s.MinRating, s.MaxRating)
	}
	if s.MaxRating > 0 && s.MinRating > s.MaxRating {
		return fmt.Errorf("puzzle ratings %d-%d: the lowest is above the highest", s.MinRating, s.MaxRating)
	}
	return nil
}

// canonicalTimeOfDay reports whether s is "" or a time of day as the store keeps it:
// "HH:MM", 00:00 to 23:59. Reading what members type is the puzzles service's
// (puzzles.ParseTimeOfDay).
func canonicalTimeOfDay(s string) bool {
	if s == "" {
		return true
	}
	if len(s) != 5 || s[2] != ':' {
		return false
	}
	for _, i := range []int{0, 1, 3, 4} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return (s[0]-'0')*10+s[1]-'0' < 24 && s[3] < '6'
}

// UserPrefs are a user's notification choices.
type UserPrefs struct {
	// PingOnTurn mentions the user when it is their turn (where the guild allows pings).
	PingOnTurn bool `json:"ping_on_turn"`
	// DMOnTurn sends a direct message when it is their turn in a correspondence game.
	DMOnTurn bool `json:"dm_on_turn"`
	// Reminders asks for a reminder before a correspondence deadline.
	Reminders bool `json:"reminders"`
	// ReminderBefore is how long before the deadline the reminder comes; zero means the
	// service's default (a quarter of the allowance).
	ReminderBefore time.Duration `json:"reminder_before,omitempty"`
	// PingOnChallenge mentions the user in a challenge addressed to them (within the
	// game service's cap on challenge pings); off, the challenge is posted without the
	// mention. Records written before it existed read as on (the default), so it is
	// always written, false included.
	PingOnChallenge bool `json:"ping_on_challenge"`
	// Digest asks for the daily digest: one direct message a day, at DigestHour, listing
	// the games where it is the user's move (service/digest).
	Digest bool `json:"digest,omitempty"`
	// DigestHour is the hour of the digest, 0 to 23, in UTC.
	DigestHour int `json:"digest_hour,omitempty"`
	// DigestRefused is not a choice but a pending note: the digest turned itself off
	// because Discord refused the direct message (the user's DMs are closed). The next
	// answer to the user says so, once, and clears it.
	DigestRefused bool `json:"digest_refused,omitempty"`
}

// DefaultUserPrefs returns the preferences of a user who has chosen none: pings on turns
// and challenges, reminders on, no direct messages.
func DefaultUserPrefs() UserPrefs {
	return UserPrefs{PingOnTurn: true, Reminders: true, PingOnChallenge: true}
}

// User is what the store knows of a user: the last display name seen, the notification
// preferences, and the recent challenges the game service's caps count.
type User struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Prefs   UserPrefs `json:"prefs"`
	Updated time.Time `json:"updated"`
	// Sent marks the user's challenges that the caps on challenges may still count:
	// those pending and those made within the caps' window. The game service keeps it,
	// in the transaction that stores each new challenge.
	Sent []ChallengeMark `json:"sent,omitempty"`
	// Pinged marks the challenges, made within the caps' window, that mentioned the user.
	Pinged []ChallengeMark `json:"pinged,omitempty"`
	// DigestSent is the last UTC day (YYYY-MM-DD) whose digest was claimed for sending
	// (service/digest): written before the direct message leaves, so a day's digest is
	// sent at most once across processes and restarts.
	DigestSent string `json:"digest_sent,omitempty"`
}

// ChallengeMark points at a challenge from a user's record: its id, its addressee (""
// for an open challenge, or in User.Pinged) and when it was made. The challenge record
// itself says whether it is pending or was accepted.
type ChallengeMark struct {
	ID uint64    `json:"id"`
	To string    `json:"to,omitempty"`
	At time.Time `json:"at"`
}

// MaxChallengeMarks bounds each list of challenge marks in a user's record.
const MaxChallengeMarks = 100

// Validate checks the user's key, preferences and challenge marks.
func (u *User) Validate() error {
	if u.ID == "" || len(u.ID) > MaxIDLen {
		return fmt.Errorf("user %q: want an id of 1 to %d bytes", u.ID, MaxIDLen)
	}
	if u.Prefs.ReminderBefore < 0 {
		return fmt.Errorf("user %s: reminder before %v is negative", u.ID, u.Prefs.ReminderBefore)
	}
	if u.Prefs.DigestHour < 0 || u.Prefs.DigestHour > 23 {
		return fmt.Errorf("user %s: digest hour %d: want 0 to 23", u.ID, u.Prefs.DigestHour)
	}
	if u.DigestSent != "" && !validDate(u.DigestSent) {
		return fmt.Errorf("user %s: digest day %q: want YYYY-MM-DD", u.ID, u.DigestSent)
	}
	for _, l := range []struct {
		what  string
		marks []ChallengeMark
	}{{"sent", u.Sent}, {"pinged", u.Pinged}} {
		if len(l.marks) > MaxChallengeMarks {
			return fmt.Errorf("user %s: %d %s challenge marks (at most %d)", u.ID, len(l.marks), l.what, MaxChallengeMarks)
		}
		for _, m := range l.marks {
			if m.ID == 0 || len(m.To) > MaxIDLen {
				return fmt.Errorf("user %s: %s challenge mark %+v: want a challenge id and an addressee id of at most %d bytes", u.ID, l.what, m, MaxIDLen)
			}
		}
	}
	return nil
}

// Receipt records the effect of a request, stored under its request id (the Discord
// interaction id) in the same transaction as the effect, so a repeated request is
// answered from the receipt instead of acting twice.
type Receipt struct {
	RequestID   string            `json:"-"`
	At          time.Time         `json:"at"`
	Effect      string            `json:"effect"`
	GameID      uint64            `json:"game,omitempty"`
	ChallengeID uint64            `json:"challenge,omitempty"`
	Ply         int               `json:"ply,omitempty"`
	SAN         string            `json:"san,omitempty"`
	Outcome     chesscore.Outcome `json:"outcome,omitzero"`
}

// maxRequestIDLen bounds a receipt's request id in bytes.
const maxRequestIDLen = 200

// Validate checks the receipt's key.
func (r *Receipt) Validate() error {
	if r.RequestID == "" || len(r.RequestID) > maxRequestIDLen {
		return fmt.Errorf("receipt: request id %q: want 1 to %d bytes", r.RequestID, maxRequestIDLen)
	}
	return nil
}

// Query selects games from an index (Tx.GamesByUser, Tx.GamesInChannel).
type Query struct {
	// LiveOnly keeps the games that are not over.
	LiveOnly bool
	// Limit is the most games returned (0: no limit).
	Limit int
	// BeforeID keeps games with a smaller id (0: no bound), to page through a list.
	BeforeID uint64
}
