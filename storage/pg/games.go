// games.go: games in the PostgreSQL backend: one row per game, with the columns its
// lookups use beside the binary record.

package pg

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// Game reads game id.
func (t *pgTx) Game(id uint64) (*storage.Game, error) {
	v, err := t.value(`SELECT record FROM games WHERE id = $1`, int64(id))
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", id, err)
	}
	if v == nil {
		return nil, fmt.Errorf("game %d: %w", id, storage.ErrNotFound)
	}
	return codec.DecodeGame(id, v)
}

// PutGame writes a game: a new one (ID 0) takes the next id of the sequence; a stored
// one is written only from its stored version (the UPDATE checks it), else
// ErrConflict; an id that is not stored (a copy) is inserted as it is.
func (t *pgTx) PutGame(g *storage.Game) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("put game %d: %w", g.ID, err)
	}
	old := g.Version
	g.Version++
	rec := codec.EncodeGame(g)
	if g.ID == 0 {
		var id int64
		if _, err := t.scanOne(`INSERT INTO games (guild_id, channel_id, white_id, black_id, live, version, record)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			[]any{g.GuildID, g.ChannelID, g.White.ID, g.Black.ID, g.Live(), int64(g.Version), rec}, &id); err != nil {
			g.Version = old
			return fmt.Errorf("new game: %w", err)
		}
		g.ID = uint64(id)
		return nil
	}
	n, err := t.exec(`UPDATE games SET guild_id = $2, channel_id = $3, white_id = $4, black_id = $5, live = $6,
		version = $7, record = $8 WHERE id = $1 AND version = $9`,
		int64(g.ID), g.GuildID, g.ChannelID, g.White.ID, g.Black.ID, g.Live(), int64(g.Version), rec, int64(old))
	if err == nil && n == 0 {
		var stored int64
		var found bool
		found, err = t.scanOne(`SELECT version FROM games WHERE id = $1`, []any{int64(g.ID)}, &stored)
		switch {
		case err != nil:
		case found:
			err = fmt.Errorf("version %d, stored %d: %w", old, stored, storage.ErrConflict)
		default:
			err = t.insertWithID("games", `INSERT INTO games (id, guild_id, channel_id, white_id, black_id, live, version, record)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
				int64(g.ID), g.GuildID, g.ChannelID, g.White.ID, g.Black.ID, g.Live(), int64(g.Version), rec)
		}
	}
	if err != nil {
		g.Version = old
		return fmt.Errorf("put game %d: %w", g.ID, err)
	}
	return nil
}

// insertWithID inserts a row whose id was given (a copied record) and moves the table's
// id sequence (an identity column's, named table_id_seq) past it, so the ids it gives
// later do not collide. A fresh sequence's last_value is its first value, not yet
// given: an id equal to it is moved past too.
func (t *pgTx) insertWithID(table, sql string, args ...any) error {
	if _, err := t.exec(sql, args...); err != nil {
		return err
	}
	seq := table + "_id_seq"
	_, err := t.exec(`SELECT setval('`+seq+`', $1) WHERE $1 >= (SELECT last_value FROM `+seq+`)`, args[0])
	return err
}

// scanGames reads (id, record) rows into games.
func (t *pgTx) scanGames(sql string, args ...any) ([]*storage.Game, error) {
	type row struct {
		id  int64
		rec []byte
	}
	var rows []row
	err := t.Each(sql, args, func(r pgx.Rows) error {
		var x row
		if err := r.Scan(&x.id, &x.rec); err != nil {
			return err
		}
		rows = append(rows, x)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]*storage.Game, 0, len(rows))
	for _, r := range rows {
		g, err := codec.DecodeGame(uint64(r.id), r.rec)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// OpenGames reads every game that is not over, in id order.
func (t *pgTx) OpenGames() ([]*storage.Game, error) {
	gs, err := t.scanGames(`SELECT id, record FROM games WHERE live ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("open games: %w", err)
	}
	return gs, nil
}

// CountGames counts the stored games and the live ones.
func (t *pgTx) CountGames() (total, live int, err error) {
	var n, l int64
	if _, err := t.scanOne(`SELECT count(*), count(*) FILTER (WHERE live) FROM games`, nil, &n, &l); err != nil {
		return 0, 0, fmt.Errorf("count games: %w", err)
	}
	return int(n), int(l), nil
}

// GamesByUser reads the games userID plays, newest first: the newest of its games as
// White and of its games as Black, each from its index.
func (t *pgTx) GamesByUser(userID string, q storage.Query) ([]*storage.Game, error) {
	if userID == "" || len(userID) > storage.MaxIDLen {
		return nil, nil
	}
	cond, args := gameQuery(q, userID)
	sub := func(col string) string {
		return "(SELECT id FROM games WHERE " + col + " = $1" + cond + " ORDER BY id DESC" + limitClause(q) + ")"
	}
	gs, err := t.scanGames(`SELECT id, record FROM games WHERE id IN (`+sub("white_id")+" UNION "+sub("black_id")+
		`) ORDER BY id DESC`+limitClause(q), args...)
	if err != nil {
		return nil, fmt.Errorf("games of %s: %w", userID, err)
	}
	return gs, nil
}

// GamesInChannel reads the games created in a channel, newest first. Games without a
// channel are in no channel's list, as in the bbolt index.
func (t *pgTx) GamesInChannel(channelID string, q storage.Query) ([]*storage.Game, error) {
	if channelID == "" || len(channelID) > storage.MaxIDLen {
		return nil, nil
	}
	cond, args := gameQuery(q, channelID)
	gs, err := t.scanGames(`SELECT id, record FROM games WHERE channel_id = $1`+cond+` ORDER BY id DESC`+limitClause(q), args...)
	if err != nil {
		return nil, fmt.Errorf("games in channel %s: %w", channelID, err)
	}
	return gs, nil
}

// GamesInGuild reads a server's games, newest first (the index games_guild).
func (t *pgTx) GamesInGuild(guildID string, q storage.Query) ([]*storage.Game, error) {
	if guildID == "" || len(guildID) > storage.MaxIDLen {
		return nil, nil
	}
	cond, args := gameQuery(q, guildID)
	gs, err := t.scanGames(`SELECT id, record FROM games WHERE guild_id = $1`+cond+` ORDER BY id DESC`+limitClause(q), args...)
	if err != nil {
		return nil, fmt.Errorf("games in guild %s: %w", guildID, err)
	}
	return gs, nil
}

// gameQuery returns the conditions of q after the key's ($1), and the arguments.
func gameQuery(q storage.Query, key string) (string, []any) {
	cond, args := "", []any{key}
	if q.BeforeID != 0 {
		args = append(args, int64(q.BeforeID))
		cond += fmt.Sprintf(" AND id < $%d", len(args))
	}
	if q.LiveOnly {
		cond += " AND live"
	}
	return cond, args
}

// limitClause is q's LIMIT (none for 0). It is a number, not user text.
func limitClause(q storage.Query) string {
	if q.Limit <= 0 {
		return ""
	}
	return fmt.Sprintf(" LIMIT %d", q.Limit)
}
