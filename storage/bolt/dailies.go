// dailies.go: the puzzles of the day in the bbolt backend.
//
//	puzzle_daily  len(guild)·guild · date (YYYY-MM-DD) → Daily (JSON envelope)

package bolt

import (
	"bytes"
	"fmt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

func dailyKey(guildID, date string) []byte { return append(guildPrefix(guildID), date...) }

func decodeDaily(k, v []byte) (*storage.Daily, error) {
	if len(k) < 1 || int(k[0])+1+10 != len(k) {
		return nil, fmt.Errorf("%w: daily key %x", storage.ErrCorrupt, k)
	}
	d := &storage.Daily{GuildID: string(k[1 : 1+int(k[0])]), Date: string(k[1+int(k[0]):])}
	if err := codec.DecodeJSON(v, d); err != nil {
		return nil, fmt.Errorf("daily puzzle %s of guild %s: %w", d.Date, d.GuildID, err)
	}
	return d, nil
}

// Daily reads a guild's puzzle of a day.
func (t boltTx) Daily(guildID, date string) (*storage.Daily, error) {
	if err := storage.CheckGuild("daily puzzle", guildID); err != nil {
		return nil, err
	}
	k := dailyKey(guildID, date)
	v := t.tx.Bucket([]byte(bucketPuzzleDaily)).Get(k)
	if v == nil {
		return nil, fmt.Errorf("daily puzzle %s of guild %s: %w", date, guildID, storage.ErrNotFound)
	}
	return decodeDaily(k, v)
}

// PutDaily writes a guild's day.
func (t boltTx) PutDaily(d *storage.Daily) error {
	if err := d.Validate(); err != nil {
		return err
	}
	v, err := codec.EncodeJSON(d)
	if err != nil {
		return fmt.Errorf("encode daily puzzle %s of guild %s: %w", d.Date, d.GuildID, err)
	}
	return t.tx.Bucket([]byte(bucketPuzzleDaily)).Put(dailyKey(d.GuildID, d.Date), v)
}

// Dailies reads a guild's days, oldest first.
func (t boltTx) Dailies(guildID string) ([]*storage.Daily, error) {
	if err := storage.CheckGuild("daily puzzles", guildID); err != nil {
		return nil, err
	}
	prefix := guildPrefix(guildID)
	var out []*storage.Daily
	c := t.tx.Bucket([]byte(bucketPuzzleDaily)).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		d, err := decodeDaily(k, v)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// LatestDaily reads a guild's latest day that is not abandoned, at or before date ("" for
// no bound).
func (t boltTx) LatestDaily(guildID, date string) (*storage.Daily, error) {
	if err := storage.CheckGuild("daily puzzle", guildID); err != nil {
		return nil, err
	}
	prefix := guildPrefix(guildID)
	c := t.tx.Bucket([]byte(bucketPuzzleDaily)).Cursor()
	bound := append(bytes.Clone(prefix), 0xff)
	if date != "" {
		bound = append(dailyKey(guildID, date), 0)
	}
	// The last key before bound: the guild's latest day at or before date.
	k, _ := c.Seek(bound)
	var v []byte
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
		if d.State != storage.DailyAbandoned {
			return d, nil
		}
	}
	return nil, fmt.Errorf("daily puzzle of guild %s: %w", guildID, storage.ErrNotFound)
}
