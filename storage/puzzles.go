// puzzles.go: puzzles, each guild's puzzle of the day, and each member's puzzle record
// and attempts.
//
// # Encoding
//
//	puzzles          puzzle id → puzzle record (binary, below)
//	                 0x00 'r' · 2-byte rating · id → 0x01     (puzzles by rating)
//	                 0x00 'g' · len(guild)·guild · id → 0x01  (puzzles mined from a guild's games)
//	                 0x00 'n' → 8-byte count of puzzles
//	puzzle_daily     len(guild)·guild · date (YYYY-MM-DD) → Daily (JSON envelope)
//	puzzle_users     len(guild)·guild · user → PuzzlePlayer (JSON envelope)
//	puzzle_attempts  len(guild)·guild · len(user)·user · puzzle id → PuzzleAttempt (JSON)
//
// A puzzle id is 1 to MaxPuzzleIDLen printable ASCII bytes and never starts with 0x00,
// so the index family under 0x00 never mixes with the records. Dates are ISO days in
// the guild's time zone, so a guild's days sort in order.
//
// A puzzle record is the byte 1, then (strings as a uvarint length and the bytes,
// integers as uvarints, popularity as a zig-zag varint):
//
//	string   FEN
//	string   moves, UCI, separated by spaces
//	uvarint  rating, rating deviation, volatility × 10⁶
//	varint   popularity
//	uvarint  plays
//	string   themes, separated by spaces
//	string   game URL, opening tags (separated by spaces), source, description
//	varint   added (unix ns, 0 for none), played (unix ns: when the source game ended)
//
// A lichess puzzle takes about 120 bytes, so the five million of the full database
// take under a gigabyte with the index.
//
// # Transactions
//
// Imports go through AddPuzzles (one transaction per batch, not grouped); everything a
// member's answer changes (the attempt, the player's rating and streak, the puzzle's
// rating, the day's solvers) goes through UpdatePuzzles, so it commits at once.

package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// MaxPuzzleIDLen bounds a puzzle id in bytes.
const MaxPuzzleIDLen = 64

// puzzleFormat is the first byte of an encoded puzzle record.
const puzzleFormat = 1

// Keys of the index family of the puzzles bucket.
var (
	puzzleIdxRating = []byte{0, 'r'}
	puzzleIdxGuild  = []byte{0, 'g'}
	puzzleCountKey  = []byte{0, 'n'}
)

// Puzzle is a stored puzzle, in the lichess conventions (the first move is the
// opponent's; see package service/puzzles).
type Puzzle struct {
	ID         string
	FEN        string
	Moves      []string // UCI
	Rating     int
	RD         int
	Volatility float64 // Glicko-2 σ (0: not known yet)
	Popularity int
	Plays      int
	Themes     []string
	GameURL    string
	Openings   []string
	// Source is "lichess", "generated", or "game:<guild>:<game id>" for a puzzle mined
	// from a finished game of a guild (such a puzzle is only shown in that guild).
	Source string
	// Description says where the puzzle comes from, e.g. "<@1> vs <@2>".
	Description string
	// Added is when the puzzle was stored; Played when its source game ended.
	Added, Played time.Time
}

// SourceGuild returns the guild a puzzle was mined for ("" for one from elsewhere).
func (p *Puzzle) SourceGuild() string {
	rest, ok := strings.CutPrefix(p.Source, "game:")
	if !ok {
		return ""
	}
	guild, _, _ := strings.Cut(rest, ":")
	return guild
}

// validPuzzleID reports whether id can be a puzzle key.
func validPuzzleID(id string) bool {
	if id == "" || len(id) > MaxPuzzleIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= ' ' || id[i] > '~' {
			return false
		}
	}
	return true
}

func (p *Puzzle) validate() error {
	if !validPuzzleID(p.ID) {
		return fmt.Errorf("puzzle id %q: want 1 to %d printable characters without spaces", p.ID, MaxPuzzleIDLen)
	}
	if p.FEN == "" || len(p.FEN) > 120 {
		return fmt.Errorf("puzzle %s: FEN of %d bytes", p.ID, len(p.FEN))
	}
	if len(p.Moves) < 2 || len(p.Moves) > 64 {
		return fmt.Errorf("puzzle %s: %d moves, want 2 to 64", p.ID, len(p.Moves))
	}
	for _, m := range p.Moves {
		if len(m) < 4 || len(m) > 5 || strings.ContainsAny(m, " \t") {
			return fmt.Errorf("puzzle %s: move %q is not UCI", p.ID, m)
		}
	}
	if p.Rating < 0 || p.Rating > 4000 || p.RD < 0 || p.RD > 5000 {
		return fmt.Errorf("puzzle %s: rating %d (RD %d) out of range", p.ID, p.Rating, p.RD)
	}
	if math.IsNaN(p.Volatility) || p.Volatility < 0 || p.Volatility > 10 {
		return fmt.Errorf("puzzle %s: volatility %v out of range", p.ID, p.Volatility)
	}
	if p.Plays < 0 {
		return fmt.Errorf("puzzle %s: %d plays", p.ID, p.Plays)
	}
	n := len(p.GameURL) + len(p.Source) + len(p.Description)
	for _, l := range [][]string{p.Themes, p.Openings} {
		for _, s := range l {
			n += len(s) + 1
			if strings.ContainsAny(s, " \t") {
				return fmt.Errorf("puzzle %s: tag %q has a space", p.ID, s)
			}
		}
	}
	if n > 4096 {
		return fmt.Errorf("puzzle %s: %d bytes of tags, URL and description (at most 4096)", p.ID, n)
	}
	return nil
}

func encodePuzzle(p *Puzzle) []byte {
	e := encoder{b: make([]byte, 0, 96+len(p.FEN)+6*len(p.Moves)+len(p.GameURL)+len(p.Description))}
	e.byte(puzzleFormat)
	e.str(p.FEN)
	e.str(strings.Join(p.Moves, " "))
	e.int(p.Rating)
	e.int(p.RD)
	e.uvarint(uint64(math.Round(p.Volatility * 1e6)))
	e.varint(int64(p.Popularity))
	e.int(p.Plays)
	e.str(strings.Join(p.Themes, " "))
	e.str(p.GameURL)
	e.str(strings.Join(p.Openings, " "))
	e.str(p.Source)
	e.str(p.Description)
	e.time(p.Added)
	e.time(p.Played)
	return e.b
}

func fields(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ")
}

func decodePuzzle(id string, b []byte) (*Puzzle, error) {
	d := decoder{b: b}
	if f := d.byte("format"); d.err == nil && f != puzzleFormat {
		d.fail("puzzle format %d", f)
	}
	p := &Puzzle{ID: id}
	p.FEN = d.str("FEN")
	p.Moves = fields(d.str("moves"))
	p.Rating = d.int("rating", 4000)
	p.RD = d.int("rating deviation", 5000)
	p.Volatility = float64(d.int("volatility", 10_000_000)) / 1e6
	pop := d.varint("popularity")
	if pop < math.MinInt32 || pop > math.MaxInt32 {
		d.fail("popularity %d", pop)
	}
	p.Popularity = int(pop)
	p.Plays = d.int("plays", math.MaxInt32)
	p.Themes = fields(d.str("themes"))
	p.GameURL = d.str("game URL")
	p.Openings = fields(d.str("openings"))
	p.Source = d.str("source")
	p.Description = d.str("description")
	p.Added = d.time("added")
	p.Played = d.time("played")
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes after the record", len(d.b))
	}
	if d.err != nil {
		return nil, fmt.Errorf("puzzle %s: %w", id, d.err)
	}
	return p, nil
}

func puzzleRatingKey(rating int, id string) []byte {
	k := append(bytes.Clone(puzzleIdxRating), byte(rating>>8), byte(rating))
	return append(k, id...)
}

func puzzleGuildKey(guild, id string) []byte {
	k := append(bytes.Clone(puzzleIdxGuild), byte(len(guild)))
	k = append(k, guild...)
	return append(k, id...)
}

func getPuzzle(tx *bolt.Tx, id string) (*Puzzle, error) {
	if !validPuzzleID(id) {
		return nil, fmt.Errorf("puzzle %q: %w", id, ErrNotFound)
	}
	v := tx.Bucket([]byte(bucketPuzzles)).Get([]byte(id))
	if v == nil {
		return nil, fmt.Errorf("puzzle %s: %w", id, ErrNotFound)
	}
	return decodePuzzle(id, v)
}

func puzzleCount(b *bolt.Bucket) uint64 {
	if v := b.Get(puzzleCountKey); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

// putPuzzle writes p, keeping the indexes in step with the record it replaces (if
// any), and reports whether p is new.
func putPuzzle(tx *bolt.Tx, p *Puzzle) (bool, error) {
	if err := p.validate(); err != nil {
		return false, err
	}
	b := tx.Bucket([]byte(bucketPuzzles))
	key := []byte(p.ID)
	isNew := true
	if v := b.Get(key); v != nil {
		old, err := decodePuzzle(p.ID, v)
		if err != nil {
			return false, err
		}
		isNew = false
		if err := b.Delete(puzzleRatingKey(old.Rating, old.ID)); err != nil {
			return false, err
		}
		if g := old.SourceGuild(); g != "" {
			if err := b.Delete(puzzleGuildKey(g, old.ID)); err != nil {
				return false, err
			}
		}
	}
	if err := b.Put(key, encodePuzzle(p)); err != nil {
		return false, fmt.Errorf("write puzzle %s: %w", p.ID, err)
	}
	if err := b.Put(puzzleRatingKey(p.Rating, p.ID), present); err != nil {
		return false, err
	}
	if g := p.SourceGuild(); g != "" && len(g) <= MaxIDLen {
		if err := b.Put(puzzleGuildKey(g, p.ID), present); err != nil {
			return false, err
		}
	}
	if isNew {
		if err := b.Put(puzzleCountKey, binary.BigEndian.AppendUint64(nil, puzzleCount(b)+1)); err != nil {
			return false, err
		}
	}
	return isNew, nil
}

// AddPuzzles stores the puzzles that are not stored yet, in one transaction (not
// grouped with other commits: for imports, in batches of a few thousand), and returns
// how many were added. A puzzle whose id is already stored is left as it is (its rating
// has moved with the attempts of the members). A puzzle that does not validate fails the
// whole batch.
func (db *DB) AddPuzzles(ps []*Puzzle) (added int, err error) {
	if db.readOnly {
		return 0, ErrReadOnly
	}
	for _, p := range ps {
		if err := p.validate(); err != nil {
			return 0, err
		}
	}
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		added = 0
		b := tx.Bucket([]byte(bucketPuzzles))
		// Imports mostly append (the lichess file is sorted by id; each rating's ids come
		// in order): fuller pages halve the file.
		b.FillPercent = 0.9
		for _, p := range ps {
			if b.Get([]byte(p.ID)) != nil {
				continue
			}
			if _, err := putPuzzle(tx, p); err != nil {
				return err
			}
			added++
		}
		return nil
	})
	return added, err
}

// Puzzle returns a stored puzzle (ErrNotFound if there is none).
func (db *DB) Puzzle(id string) (*Puzzle, error) {
	var p *Puzzle
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		p, err = getPuzzle(tx, id)
		return err
	})
	return p, err
}

// CountPuzzles returns the number of stored puzzles.
func (db *DB) CountPuzzles() (int, error) {
	var n uint64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		n = puzzleCount(tx.Bucket([]byte(bucketPuzzles)))
		return nil
	})
	return int(n), err
}

// EachPuzzle calls fn with every stored puzzle in id order, from one read transaction
// (a consistent view while writers go on), until fn returns an error.
func (db *DB) EachPuzzle(fn func(*Puzzle) error) error {
	return db.bolt.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketPuzzles)).Cursor()
		for k, v := c.Seek([]byte{1}); k != nil; k, v = c.Next() {
			p, err := decodePuzzle(string(k), v)
			if err != nil {
				return err
			}
			if err := fn(p); err != nil {
				return err
			}
		}
		return nil
	})
}

// PuzzlePick says which puzzle PickPuzzle may choose.
type PuzzlePick struct {
	// GuildID is the guild the puzzle is for: puzzles mined from other guilds' games
	// are never picked.
	GuildID string
	// MinRating and MaxRating bound the puzzle's rating (0: no bound).
	MinRating, MaxRating int
	// Seed chooses where the search starts (a random number: the choice is uniform
	// enough over ratings and ids).
	Seed uint64
	// PreferOwn picks an eligible puzzle mined from the guild's own games first.
	PreferOwn bool
	// NotDailyIn skips the puzzles that were a daily puzzle of this guild.
	NotDailyIn string
	// NotTriedBy skips the puzzles this member of GuildID has attempted.
	NotTriedBy string
	// MaxScan bounds the index entries looked at (default 5000).
	MaxScan int
}

// ErrNoPuzzle: no stored puzzle fits a PuzzlePick.
var ErrNoPuzzle = errors.New("no puzzle fits")

func pickPuzzle(tx *bolt.Tx, q PuzzlePick) (*Puzzle, error) {
	b := tx.Bucket([]byte(bucketPuzzles))
	used := map[string]bool{}
	if q.NotDailyIn != "" {
		ds, err := guildDailies(tx, q.NotDailyIn)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			used[d.PuzzleID] = true
		}
	}
	lo, hi := max(q.MinRating, 0), q.MaxRating
	if hi <= 0 || hi > 4000 {
		hi = 4000
	}
	if lo > hi {
		return nil, fmt.Errorf("pick a puzzle: rating range %d-%d is empty: %w", lo, hi, ErrNoPuzzle)
	}
	budget := q.MaxScan
	if budget <= 0 {
		budget = 5000
	}
	var attempts *bolt.Bucket
	var triedPrefix []byte
	if q.NotTriedBy != "" {
		attempts = tx.Bucket([]byte(bucketPuzzleAttempts))
		triedPrefix = attemptPrefix(q.GuildID, q.NotTriedBy)
	}
	// fits decodes and checks the puzzle with the given id.
	fits := func(id []byte) (*Puzzle, error) {
		if used[string(id)] {
			return nil, nil
		}
		if attempts != nil && attempts.Get(append(bytes.Clone(triedPrefix), id...)) != nil {
			return nil, nil
		}
		v := b.Get(id)
		if v == nil {
			return nil, fmt.Errorf("%w: puzzle index names %q, which is not stored", ErrCorrupt, id)
		}
		p, err := decodePuzzle(string(id), v)
		if err != nil {
			return nil, err
		}
		if g := p.SourceGuild(); g != "" && g != q.GuildID {
			return nil, nil
		}
		if p.Rating < lo || p.Rating > hi {
			return nil, nil
		}
		return p, nil
	}
	c := b.Cursor()
	if q.PreferOwn && q.GuildID != "" {
		prefix := puzzleGuildKey(q.GuildID, "")
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && budget > 0; k, _ = c.Next() {
			budget--
			p, err := fits(k[len(prefix):])
			if p != nil || err != nil {
				return p, err
			}
		}
	}
	// From a random rating in the range and a random id within it, walk the rating index
	// up to hi, then from lo back to the start.
	r0 := lo + int(q.Seed%uint64(hi-lo+1))
	start := append(puzzleRatingKey(r0, ""), binary.BigEndian.AppendUint64(nil, q.Seed*0x9E3779B97F4A7C15)...)
	first := puzzleRatingKey(lo, "")
	end := puzzleRatingKey(hi+1, "")
	wrapped := false
	k, _ := c.Seek(start)
	for budget > 0 {
		if k == nil || bytes.Compare(k, end) >= 0 || !bytes.HasPrefix(k, puzzleIdxRating) {
			if wrapped {
				break
			}
			wrapped = true
			k, _ = c.Seek(first)
			continue
		}
		if wrapped && bytes.Compare(k, start) >= 0 {
			break
		}
		budget--
		p, err := fits(k[len(puzzleIdxRating)+2:])
		if p != nil || err != nil {
			return p, err
		}
		k, _ = c.Next()
	}
	return nil, fmt.Errorf("pick a puzzle rated %d-%d for guild %s: %w", lo, hi, q.GuildID, ErrNoPuzzle)
}

// PickPuzzle chooses a stored puzzle that fits q (ErrNoPuzzle when none does).
func (db *DB) PickPuzzle(q PuzzlePick) (*Puzzle, error) {
	var p *Puzzle
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		p, err = pickPuzzle(tx, q)
		return err
	})
	return p, err
}

// DailyState is where a day's puzzle is in its life.
type DailyState string

// The daily states. A planned post is made (once) and becomes posted; a planned post
// that a later day replaced before it could be made is abandoned. A silent day is a
// guild's puzzle of the day without a post (no channel is set).
const (
	DailyPlanned   DailyState = "planned"
	DailyPosted    DailyState = "posted"
	DailySilent    DailyState = "silent"
	DailyAbandoned DailyState = "abandoned"
)

// Daily is a guild's puzzle of one day.
type Daily struct {
	GuildID string `json:"-"`
	// Date is the day in the guild's time zone, YYYY-MM-DD.
	Date     string     `json:"-"`
	PuzzleID string     `json:"puzzle"`
	State    DailyState `json:"state"`
	// ChannelID is where the post goes; MessageID the post once made.
	ChannelID string `json:"channel,omitempty"`
	MessageID string `json:"message,omitempty"`
	// Planned is when the day's puzzle was chosen; Posted when the post was made.
	Planned time.Time `json:"planned"`
	Posted  time.Time `json:"posted,omitzero"`
	// Prev is the date of the guild's puzzle of the day before this one ("" for the
	// first): its solution and solvers go with this day's post.
	Prev string `json:"prev,omitempty"`
	// Solvers are the members who solved the puzzle while it was the puzzle of the day.
	Solvers []DailySolver `json:"solvers,omitempty"`
}

// DailySolver is one member who solved a day's puzzle.
type DailySolver struct {
	UserID string    `json:"user"`
	Name   string    `json:"name,omitempty"`
	At     time.Time `json:"at"`
	// Clean is true when the member solved it at the first try without a hint.
	Clean bool `json:"clean,omitempty"`
}

// MaxDailySolvers bounds the solvers a day keeps by name (the rest are counted).
const MaxDailySolvers = 1000

// validDate reports whether s is a YYYY-MM-DD date.
func validDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && len(s) == 10
}

func checkGuild(what, guildID string) error {
	if guildID == "" || len(guildID) > MaxIDLen {
		return fmt.Errorf("%s: guild id %q: want 1 to %d bytes", what, guildID, MaxIDLen)
	}
	return nil
}

func puzzleGuildPrefix(guildID string) []byte {
	return append([]byte{byte(len(guildID))}, guildID...)
}

func dailyKey(guildID, date string) []byte { return append(puzzleGuildPrefix(guildID), date...) }

func decodeDaily(k, v []byte) (*Daily, error) {
	if len(k) < 1 || int(k[0])+1+10 != len(k) {
		return nil, fmt.Errorf("%w: daily key %x", ErrCorrupt, k)
	}
	d := &Daily{GuildID: string(k[1 : 1+int(k[0])]), Date: string(k[1+int(k[0]):])}
	if err := decodeJSON(v, d); err != nil {
		return nil, fmt.Errorf("daily puzzle %s of guild %s: %w", d.Date, d.GuildID, err)
	}
	return d, nil
}

func getDaily(tx *bolt.Tx, guildID, date string) (*Daily, error) {
	if err := checkGuild("daily puzzle", guildID); err != nil {
		return nil, err
	}
	k := dailyKey(guildID, date)
	v := tx.Bucket([]byte(bucketPuzzleDaily)).Get(k)
	if v == nil {
		return nil, fmt.Errorf("daily puzzle %s of guild %s: %w", date, guildID, ErrNotFound)
	}
	return decodeDaily(k, v)
}

func putDaily(tx *bolt.Tx, d *Daily) error {
	if err := checkGuild("daily puzzle", d.GuildID); err != nil {
		return err
	}
	if !validDate(d.Date) || (d.Prev != "" && !validDate(d.Prev)) {
		return fmt.Errorf("daily puzzle of guild %s: date %q (previous %q): want YYYY-MM-DD", d.GuildID, d.Date, d.Prev)
	}
	if !validPuzzleID(d.PuzzleID) {
		return fmt.Errorf("daily puzzle %s of guild %s: puzzle id %q", d.Date, d.GuildID, d.PuzzleID)
	}
	switch d.State {
	case DailyPlanned, DailyPosted, DailySilent, DailyAbandoned:
	default:
		return fmt.Errorf("daily puzzle %s of guild %s: state %q", d.Date, d.GuildID, d.State)
	}
	if len(d.Solvers) > MaxDailySolvers {
		return fmt.Errorf("daily puzzle %s of guild %s: %d solvers, at most %d", d.Date, d.GuildID, len(d.Solvers), MaxDailySolvers)
	}
	v, err := encodeJSON(d)
	if err != nil {
		return fmt.Errorf("encode daily puzzle %s of guild %s: %w", d.Date, d.GuildID, err)
	}
	return tx.Bucket([]byte(bucketPuzzleDaily)).Put(dailyKey(d.GuildID, d.Date), v)
}

// guildDailies returns a guild's days, oldest first.
func guildDailies(tx *bolt.Tx, guildID string) ([]*Daily, error) {
	if err := checkGuild("daily puzzles", guildID); err != nil {
		return nil, err
	}
	prefix := puzzleGuildPrefix(guildID)
	var out []*Daily
	c := tx.Bucket([]byte(bucketPuzzleDaily)).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		d, err := decodeDaily(k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// latestDaily returns a guild's latest day that is not abandoned, at or before date
// ("" for no bound).
func latestDaily(tx *bolt.Tx, guildID, date string) (*Daily, error) {
	if err := checkGuild("daily puzzle", guildID); err != nil {
		return nil, err
	}
	prefix := puzzleGuildPrefix(guildID)
	c := tx.Bucket([]byte(bucketPuzzleDaily)).Cursor()
	bound := append(bytes.Clone(prefix), 0xff)
	if date != "" {
		bound = append(dailyKey(guildID, date), 0)
	}
	k, v := c.Seek(bound)
	if k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
		d, err := decodeDaily(k, v)
		if err != nil {
			return nil, err
		}
		if d.State != DailyAbandoned {
			return d, nil
		}
	}
	return nil, fmt.Errorf("daily puzzle of guild %s: %w", guildID, ErrNotFound)
}

// Daily returns a guild's puzzle of a day (ErrNotFound if there is none).
func (db *DB) Daily(guildID, date string) (*Daily, error) {
	var d *Daily
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		d, err = getDaily(tx, guildID, date)
		return err
	})
	return d, err
}

// LatestDaily returns a guild's latest day that is not abandoned, at or before date
// ("" for the latest of all), or ErrNotFound.
func (db *DB) LatestDaily(guildID, date string) (*Daily, error) {
	var d *Daily
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		d, err = latestDaily(tx, guildID, date)
		return err
	})
	return d, err
}

// Dailies returns a guild's days, oldest first.
func (db *DB) Dailies(guildID string) ([]*Daily, error) {
	var out []*Daily
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		out, err = guildDailies(tx, guildID)
		return err
	})
	return out, err
}

// PuzzlePlayer is a member's puzzle record in a guild: a Glicko-2 rating (each first
// attempt of a puzzle is a game against the puzzle), counts, and the daily streak.
type PuzzlePlayer struct {
	GuildID string `json:"-"`
	UserID  string `json:"-"`
	// Name is the display name last seen.
	Name       string  `json:"name,omitempty"`
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
	// Rated counts the rated attempts (first attempts), Solved those solved.
	Rated  int `json:"rated"`
	Solved int `json:"solved"`
	// Streak is the number of consecutive daily puzzles solved, the last on StreakDay;
	// Best is the longest streak.
	Streak    int    `json:"streak"`
	Best      int    `json:"best"`
	StreakDay string `json:"streak_day,omitempty"`
	// Current is the puzzle the member is solving.
	Current string    `json:"current,omitempty"`
	Updated time.Time `json:"updated,omitzero"`
}

func playerKey(guildID, userID string) []byte { return append(puzzleGuildPrefix(guildID), userID...) }

func checkMember(what, guildID, userID string) error {
	if err := checkGuild(what, guildID); err != nil {
		return err
	}
	if userID == "" || len(userID) > MaxIDLen {
		return fmt.Errorf("%s in guild %s: user id %q: want 1 to %d bytes", what, guildID, userID, MaxIDLen)
	}
	return nil
}

func decodePuzzlePlayer(k, v []byte) (PuzzlePlayer, error) {
	var p PuzzlePlayer
	if len(k) < 2 || int(k[0])+2 > len(k) {
		return p, fmt.Errorf("%w: puzzle player key %x", ErrCorrupt, k)
	}
	p.GuildID, p.UserID = string(k[1:1+int(k[0])]), string(k[1+int(k[0]):])
	if err := decodeJSON(v, &p); err != nil {
		return p, fmt.Errorf("puzzle player %s in guild %s: %w", p.UserID, p.GuildID, err)
	}
	return p, nil
}

func getPuzzlePlayer(tx *bolt.Tx, guildID, userID string) (PuzzlePlayer, error) {
	if err := checkMember("puzzle player", guildID, userID); err != nil {
		return PuzzlePlayer{}, err
	}
	k := playerKey(guildID, userID)
	v := tx.Bucket([]byte(bucketPuzzleUsers)).Get(k)
	if v == nil {
		return PuzzlePlayer{GuildID: guildID, UserID: userID}, fmt.Errorf("puzzle player %s in guild %s: %w", userID, guildID, ErrNotFound)
	}
	return decodePuzzlePlayer(k, v)
}

func putPuzzlePlayer(tx *bolt.Tx, p PuzzlePlayer) error {
	if err := checkMember("puzzle player", p.GuildID, p.UserID); err != nil {
		return err
	}
	for _, f := range []float64{p.Rating, p.RD, p.Volatility} {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return fmt.Errorf("puzzle player %s in guild %s: rating fields must be finite and not negative", p.UserID, p.GuildID)
		}
	}
	if p.Rated < 0 || p.Solved < 0 || p.Solved > p.Rated || p.Streak < 0 || p.Best < p.Streak {
		return fmt.Errorf("puzzle player %s in guild %s: counts %d solved of %d, streak %d best %d do not add up",
			p.UserID, p.GuildID, p.Solved, p.Rated, p.Streak, p.Best)
	}
	if len(p.Name) > MaxNameLen {
		return fmt.Errorf("puzzle player %s in guild %s: name longer than %d bytes", p.UserID, p.GuildID, MaxNameLen)
	}
	v, err := encodeJSON(p)
	if err != nil {
		return fmt.Errorf("encode puzzle player %s in guild %s: %w", p.UserID, p.GuildID, err)
	}
	return tx.Bucket([]byte(bucketPuzzleUsers)).Put(playerKey(p.GuildID, p.UserID), v)
}

// PuzzlePlayer returns a member's puzzle record (ErrNotFound, with the key fields set,
// for a member who never tried one).
func (db *DB) PuzzlePlayer(guildID, userID string) (PuzzlePlayer, error) {
	var p PuzzlePlayer
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		p, err = getPuzzlePlayer(tx, guildID, userID)
		return err
	})
	return p, err
}

// PuzzleLeaderboard returns the guild's members with at least one rated attempt, by
// rating (highest first; then more puzzles solved; then user id), at most limit of them
// (0: all).
func (db *DB) PuzzleLeaderboard(guildID string, limit int) ([]PuzzlePlayer, error) {
	if err := checkGuild("puzzle leaderboard", guildID); err != nil {
		return nil, err
	}
	var out []PuzzlePlayer
	err := db.bolt.View(func(tx *bolt.Tx) error {
		prefix := puzzleGuildPrefix(guildID)
		c := tx.Bucket([]byte(bucketPuzzleUsers)).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			p, err := decodePuzzlePlayer(k, v)
			if err != nil {
				return err
			}
			if p.Rated > 0 {
				out = append(out, p)
			}
		}
		return nil
	})
	slices.SortStableFunc(out, func(a, b PuzzlePlayer) int {
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Solved, a.Solved); c != 0 {
			return c
		}
		return cmp.Compare(a.UserID, b.UserID)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, err
}

// AttemptResult is the outcome of the rated (first) try of a puzzle.
type AttemptResult string

// The attempt results: none yet, solved, failed (a wrong move or a hint first).
const (
	AttemptOpen   AttemptResult = ""
	AttemptSolved AttemptResult = "solved"
	AttemptFailed AttemptResult = "failed"
)

// PuzzleAttempt is a member's work on one puzzle: the rated first try and the
// position of the try in progress (later tries are practice).
type PuzzleAttempt struct {
	GuildID  string `json:"-"`
	UserID   string `json:"-"`
	PuzzleID string `json:"-"`
	// Step is the number of solver moves found in the try in progress (the line's
	// length once it is complete).
	Step int `json:"step"`
	// Tries counts the tries begun (1 for the first).
	Tries int `json:"tries"`
	// Result is that of the first try; RatingBefore and RatingAfter the member's rating
	// around it.
	Result       AttemptResult `json:"result,omitempty"`
	RatingBefore float64       `json:"rating_before,omitempty"`
	RatingAfter  float64       `json:"rating_after,omitempty"`
	// Misses counts wrong moves, Hints the hints asked for.
	Misses int `json:"misses,omitempty"`
	Hints  int `json:"hints,omitempty"`
	// Daily is the date of the guild's day this puzzle was the puzzle of, when the member
	// began while it was.
	Daily string `json:"daily,omitempty"`
	// LastRequest and LastAnswer are the last request that changed the attempt and what
	// it was answered, so a repeated request is answered again without acting.
	LastRequest string    `json:"last_request,omitempty"`
	LastAnswer  string    `json:"last_answer,omitempty"`
	Started     time.Time `json:"started"`
	Finished    time.Time `json:"finished,omitzero"`
}

func attemptPrefix(guildID, userID string) []byte {
	k := puzzleGuildPrefix(guildID)
	k = append(k, byte(len(userID)))
	return append(k, userID...)
}

func attemptKey(guildID, userID, puzzleID string) []byte {
	return append(attemptPrefix(guildID, userID), puzzleID...)
}

func getAttempt(tx *bolt.Tx, guildID, userID, puzzleID string) (PuzzleAttempt, error) {
	a := PuzzleAttempt{GuildID: guildID, UserID: userID, PuzzleID: puzzleID}
	if err := checkMember("puzzle attempt", guildID, userID); err != nil {
		return a, err
	}
	if !validPuzzleID(puzzleID) {
		return a, fmt.Errorf("puzzle attempt: puzzle id %q: %w", puzzleID, ErrNotFound)
	}
	v := tx.Bucket([]byte(bucketPuzzleAttempts)).Get(attemptKey(guildID, userID, puzzleID))
	if v == nil {
		return a, fmt.Errorf("attempt of %s at puzzle %s in guild %s: %w", userID, puzzleID, guildID, ErrNotFound)
	}
	if err := decodeJSON(v, &a); err != nil {
		return a, fmt.Errorf("attempt of %s at puzzle %s in guild %s: %w", userID, puzzleID, guildID, err)
	}
	a.GuildID, a.UserID, a.PuzzleID = guildID, userID, puzzleID
	return a, nil
}

func putAttempt(tx *bolt.Tx, a PuzzleAttempt) error {
	if err := checkMember("puzzle attempt", a.GuildID, a.UserID); err != nil {
		return err
	}
	if !validPuzzleID(a.PuzzleID) {
		return fmt.Errorf("puzzle attempt: puzzle id %q", a.PuzzleID)
	}
	if a.Step < 0 || a.Tries < 0 || a.Misses < 0 || a.Hints < 0 || (a.Daily != "" && !validDate(a.Daily)) || len(a.LastAnswer) > 4000 {
		return fmt.Errorf("attempt of %s at puzzle %s in guild %s: bad fields", a.UserID, a.PuzzleID, a.GuildID)
	}
	switch a.Result {
	case AttemptOpen, AttemptSolved, AttemptFailed:
	default:
		return fmt.Errorf("attempt of %s at puzzle %s: result %q", a.UserID, a.PuzzleID, a.Result)
	}
	v, err := encodeJSON(a)
	if err != nil {
		return fmt.Errorf("encode attempt of %s at puzzle %s: %w", a.UserID, a.PuzzleID, err)
	}
	return tx.Bucket([]byte(bucketPuzzleAttempts)).Put(attemptKey(a.GuildID, a.UserID, a.PuzzleID), v)
}

// PuzzleAttempt returns a member's attempt at a puzzle (ErrNotFound, with the key
// fields set, for none).
func (db *DB) PuzzleAttempt(guildID, userID, puzzleID string) (PuzzleAttempt, error) {
	var a PuzzleAttempt
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		a, err = getAttempt(tx, guildID, userID, puzzleID)
		return err
	})
	return a, err
}

// PuzzleGuilds returns the settings of every guild that has a channel for the daily
// puzzle.
func (db *DB) PuzzleGuilds() ([]GuildSettings, error) {
	var out []GuildSettings
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketGuilds)).ForEach(func(k, _ []byte) error {
			s, err := getGuildSettings(tx, string(k))
			if err != nil {
				return err
			}
			if s.Puzzle.Channel != "" {
				out = append(out, s)
			}
			return nil
		})
	})
	return out, err
}

// UpdatePuzzles runs fn in one write transaction (grouped with other commits) with typed
// access to the puzzle records, for changes that must be atomic: a member's answer with
// its rating, streak and the day's solvers; the choice of a day's puzzle. An error from
// fn writes nothing. fn may run more than once (a retried group commit), each time in a
// fresh transaction: it must not act outside it.
func (db *DB) UpdatePuzzles(fn func(w *Writer) error) error {
	return db.update(func(tx *bolt.Tx) error { return fn(&Writer{tx: tx}) })
}

// Puzzle reads a puzzle as the transaction sees it.
func (w *Writer) Puzzle(id string) (*Puzzle, error) { return getPuzzle(w.tx, id) }

// PutPuzzle writes a puzzle (new, or replacing the stored one: a rating moved by an
// attempt) and reports whether it is new.
func (w *Writer) PutPuzzle(p *Puzzle) (bool, error) { return putPuzzle(w.tx, p) }

// PickPuzzle chooses a puzzle that fits q, as the transaction sees the store.
func (w *Writer) PickPuzzle(q PuzzlePick) (*Puzzle, error) { return pickPuzzle(w.tx, q) }

// Daily reads a guild's day (ErrNotFound for none).
func (w *Writer) Daily(guildID, date string) (*Daily, error) { return getDaily(w.tx, guildID, date) }

// LatestDaily reads a guild's latest day that is not abandoned, at or before date.
func (w *Writer) LatestDaily(guildID, date string) (*Daily, error) {
	return latestDaily(w.tx, guildID, date)
}

// Dailies reads a guild's days, oldest first.
func (w *Writer) Dailies(guildID string) ([]*Daily, error) { return guildDailies(w.tx, guildID) }

// PutDaily writes a guild's day.
func (w *Writer) PutDaily(d *Daily) error { return putDaily(w.tx, d) }

// PuzzlePlayer reads a member's puzzle record (ErrNotFound, with the key fields set,
// for none).
func (w *Writer) PuzzlePlayer(guildID, userID string) (PuzzlePlayer, error) {
	return getPuzzlePlayer(w.tx, guildID, userID)
}

// PutPuzzlePlayer writes a member's puzzle record.
func (w *Writer) PutPuzzlePlayer(p PuzzlePlayer) error { return putPuzzlePlayer(w.tx, p) }

// PuzzleAttempt reads a member's attempt at a puzzle (ErrNotFound, with the key fields
// set, for none).
func (w *Writer) PuzzleAttempt(guildID, userID, puzzleID string) (PuzzleAttempt, error) {
	return getAttempt(w.tx, guildID, userID, puzzleID)
}

// PutPuzzleAttempt writes a member's attempt at a puzzle.
func (w *Writer) PutPuzzleAttempt(a PuzzleAttempt) error { return putAttempt(w.tx, a) }

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

// ParseTimeOfDay reads "HH:MM" (or "H:MM") and returns the minutes after midnight.
func ParseTimeOfDay(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, fmt.Errorf("time of day %q: want HH:MM, 00:00 to 23:59", s)
	}
	return t.Hour()*60 + t.Minute(), nil
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
	if _, err := ParseTimeOfDay(s.Time); err != nil {
		return err
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
