// puzzles.go: puzzles, the puzzles of the day, the members' puzzle records and
// their attempts in the PostgreSQL backend.

package pg

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// sourceGuild is the puzzles row's source_guild: the guild whose games the puzzle was
// mined from, NULL for none.
func sourceGuild(p *storage.Puzzle) any {
	if g := p.SourceGuild(); g != "" && len(g) <= storage.MaxIDLen {
		return g
	}
	return nil
}

// Puzzle reads a stored puzzle.
func (t *pgTx) Puzzle(id string) (*storage.Puzzle, error) {
	if !storage.ValidPuzzleID(id) {
		return nil, fmt.Errorf("puzzle %q: %w", id, storage.ErrNotFound)
	}
	v, err := t.value(`SELECT record FROM puzzles WHERE id = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("puzzle %s: %w", id, err)
	}
	if v == nil {
		return nil, fmt.Errorf("puzzle %s: %w", id, storage.ErrNotFound)
	}
	return codec.DecodePuzzle(id, v)
}

// PutPuzzle writes p and reports whether it is new.
func (t *pgTx) PutPuzzle(p *storage.Puzzle) (bool, error) {
	if err := storage.ValidatePuzzle(p); err != nil {
		return false, err
	}
	rec := codec.EncodePuzzle(p)
	n, err := t.exec(`UPDATE puzzles SET rating = $2, source_guild = $3, record = $4 WHERE id = $1`,
		p.ID, p.Rating, sourceGuild(p), rec)
	if err == nil && n == 0 {
		_, err = t.exec(`INSERT INTO puzzles (id, rating, source_guild, record) VALUES ($1, $2, $3, $4)`,
			p.ID, p.Rating, sourceGuild(p), rec)
	}
	if err != nil {
		return false, fmt.Errorf("write puzzle %s: %w", p.ID, err)
	}
	return n == 0, nil
}

// AddPuzzles stores the puzzles whose ids are not stored yet, in one statement, and
// returns how many.
func (t *pgTx) AddPuzzles(ps []*storage.Puzzle) (added int, err error) {
	for _, p := range ps {
		if err := storage.ValidatePuzzle(p); err != nil {
			return 0, err
		}
	}
	if len(ps) == 0 {
		return 0, nil
	}
	ids := make([]string, len(ps))
	ratings := make([]int32, len(ps))
	guilds := make([]*string, len(ps))
	recs := make([][]byte, len(ps))
	for i, p := range ps {
		ids[i], ratings[i], recs[i] = p.ID, int32(p.Rating), codec.EncodePuzzle(p)
		if g, ok := sourceGuild(p).(string); ok {
			guilds[i] = &g
		}
	}
	// A batch that names an id twice keeps its first (as one by one would).
	n, err := t.exec(`INSERT INTO puzzles (id, rating, source_guild, record)
		SELECT DISTINCT ON (id) id, rating, guild, rec
		FROM unnest($1::text[], $2::int[], $3::text[], $4::bytea[]) WITH ORDINALITY AS b(id, rating, guild, rec, n)
		ORDER BY id, n
		ON CONFLICT (id) DO NOTHING`, ids, ratings, guilds, recs)
	if err != nil {
		return 0, fmt.Errorf("add %d puzzles: %w", len(ps), err)
	}
	return int(n), nil
}

// CountPuzzles reads the number of stored puzzles.
func (t *pgTx) CountPuzzles() (int, error) {
	var n int64
	if _, err := t.scanOne(`SELECT count(*) FROM puzzles`, nil, &n); err != nil {
		return 0, fmt.Errorf("count puzzles: %w", err)
	}
	return int(n), nil
}

// scanPuzzles reads (id, record) rows into puzzles.
func (t *pgTx) scanPuzzles(sql string, args ...any) ([]*storage.Puzzle, error) {
	var out []*storage.Puzzle
	err := t.Each(sql, args, func(r pgx.Rows) error {
		var id string
		var v []byte
		if err := r.Scan(&id, &v); err != nil {
			return err
		}
		p, err := codec.DecodePuzzle(id, v)
		if err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	return out, err
}

// EachPuzzle calls fn with every stored puzzle in id order until fn returns an error,
// a page at a time (fn may use the transaction).
func (t *pgTx) EachPuzzle(fn func(*storage.Puzzle) error) error {
	last := ""
	for {
		page, err := t.scanPuzzles(`SELECT id, record FROM puzzles WHERE id > $1 ORDER BY id LIMIT 1000`, last)
		if err != nil {
			return fmt.Errorf("puzzles after %q: %w", last, err)
		}
		for _, p := range page {
			if err := fn(p); err != nil {
				return err
			}
		}
		if len(page) < 1000 {
			return nil
		}
		last = page[len(page)-1].ID
	}
}

// PickPuzzle chooses a stored puzzle that fits q: from a rating and an id drawn from
// q.Seed, the first fitting puzzle in (rating, id) order up to q.MaxRating, else from
// q.MinRating on, looking at most at q.MaxScan puzzles, as the bbolt backend does.
func (t *pgTx) PickPuzzle(q storage.PuzzlePick) (*storage.Puzzle, error) {
	used := []string{} // not nil: a NULL array would match nothing
	if q.NotDailyIn != "" {
		ds, err := t.Dailies(q.NotDailyIn)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			used = append(used, d.PuzzleID)
		}
	}
	lo, hi, budget, err := q.Bounds()
	if err != nil {
		return nil, err
	}
	// Each scan looks at up to budget puzzles of an index range (the inner query) and
	// keeps the first that fits: mined from no guild or q's, never a day's puzzle of
	// q.NotDailyIn, never tried by q.NotTriedBy.
	const fitting = ` AS p WHERE (source_guild IS NULL OR source_guild = $1)
		AND NOT (id = ANY ($2::text[]))
		AND ($3 = '' OR NOT EXISTS (SELECT 1 FROM puzzle_attempts a
			WHERE a.guild_id = $1 AND a.user_id = $3 AND a.puzzle_id = p.id))`
	pick := func(scan, order string, args ...any) (*storage.Puzzle, error) {
		args = append([]any{q.GuildID, used, q.NotTriedBy, budget}, args...)
		ps, err := t.scanPuzzles(`SELECT id, record FROM (SELECT id, source_guild, record, rating FROM puzzles WHERE `+
			scan+` ORDER BY `+order+` LIMIT $4)`+fitting+` ORDER BY `+order+` LIMIT 1`, args...)
		if err != nil || len(ps) == 0 {
			return nil, err
		}
		return ps[0], nil
	}
	if q.PreferOwn && q.GuildID != "" {
		p, err := pick(`source_guild = $1 AND rating BETWEEN $5 AND $6`, `id`, lo, hi)
		if p != nil || err != nil {
			return p, err
		}
	}
	// From a random rating in the range and a random id within it, walk the rating
	// index up to hi, then from lo back to the start.
	r0 := lo + int(q.Seed%uint64(hi-lo+1))
	start := seedID(q.Seed * 0x9E3779B97F4A7C15)
	p, err := pick(`(rating, id) >= ($5, $6) AND rating <= $7`, `rating, id`, r0, start, hi)
	if p != nil || err != nil {
		return p, err
	}
	p, err = pick(`rating >= $5 AND (rating, id) < ($6, $7)`, `rating, id`, lo, r0, start)
	if p != nil || err != nil {
		return p, err
	}
	return nil, fmt.Errorf("pick a puzzle rated %d-%d for guild %s: %w", lo, hi, q.GuildID, storage.ErrNoPuzzle)
}

// seedID is a puzzle id drawn from a seed: eight printable characters, so the
// search starts anywhere among a rating's puzzles.
func seedID(seed uint64) string {
	b := make([]byte, 8)
	for i := range b {
		b[i] = '!' + byte(seed%94)
		seed /= 94
	}
	return string(b)
}
