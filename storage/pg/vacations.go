// vacations.go: the players' vacations in the PostgreSQL backend (table vacations:
// guild id, user id, whether a vacation is open, the JSON envelope of Vacation).

package pg

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// Vacation reads the vacation record of user in guild.
func (t *pgTx) Vacation(guildID, userID string) (*storage.Vacation, error) {
	if err := storage.CheckMember("vacation", guildID, userID); err != nil {
		return nil, err
	}
	b, err := t.value(`SELECT record FROM vacations WHERE guild_id = $1 AND user_id = $2`, guildID, userID)
	if err != nil {
		return nil, fmt.Errorf("vacation of %s in guild %s: %w", userID, guildID, err)
	}
	if b == nil {
		return &storage.Vacation{GuildID: guildID, UserID: userID},
			fmt.Errorf("vacation of %s in guild %s: %w", userID, guildID, storage.ErrNotFound)
	}
	return codec.DecodeVacation(guildID, userID, b)
}

// PutVacation writes a vacation record from its stored version. The read (FOR UPDATE)
// and the write are one serializable transaction, so of two writers from one version
// one commits and the other finds the new version.
func (t *pgTx) PutVacation(v *storage.Vacation) error {
	if err := v.Validate(); err != nil {
		return err
	}
	var stored *storage.Vacation
	if b, err := t.value(`SELECT record FROM vacations WHERE guild_id = $1 AND user_id = $2 FOR UPDATE`, v.GuildID, v.UserID); err != nil {
		return fmt.Errorf("put vacation of %s in guild %s: %w", v.UserID, v.GuildID, err)
	} else if b != nil {
		if stored, err = codec.DecodeVacation(v.GuildID, v.UserID, b); err != nil {
			return err
		}
	}
	w, err := storage.NextVacationVersion(stored, v)
	if err != nil {
		return err
	}
	b, err := codec.EncodeJSON(w)
	if err == nil {
		_, err = t.exec(`INSERT INTO vacations (guild_id, user_id, open, record) VALUES ($1, $2, $3, $4)
			ON CONFLICT (guild_id, user_id) DO UPDATE SET open = EXCLUDED.open, record = EXCLUDED.record`, w.GuildID, w.UserID, w.Open(), b)
	}
	if err != nil {
		return fmt.Errorf("write vacation of %s in guild %s: %w", v.UserID, v.GuildID, err)
	}
	return nil
}

// OpenVacations reads the records with a vacation not closed.
func (t *pgTx) OpenVacations() ([]*storage.Vacation, error) {
	var out []*storage.Vacation
	err := t.eachVacation(`SELECT guild_id, user_id, record FROM vacations WHERE open ORDER BY guild_id, user_id`, func(v *storage.Vacation) error {
		out = append(out, v)
		return nil
	})
	return out, err
}

// EachVacation calls fn with every vacation record in key order.
func (t *pgTx) EachVacation(fn func(*storage.Vacation) error) error {
	return t.eachVacation(`SELECT guild_id, user_id, record FROM vacations ORDER BY guild_id, user_id`, fn)
}

func (t *pgTx) eachVacation(sql string, fn func(*storage.Vacation) error) error {
	return t.rows(sql, func(r pgx.Rows) error {
		var guild, user string
		var b []byte
		if err := r.Scan(&guild, &user, &b); err != nil {
			return err
		}
		v, err := codec.DecodeVacation(guild, user, b)
		if err != nil {
			return err
		}
		return fn(v)
	})
}
