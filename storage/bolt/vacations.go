// vacations.go: the players' vacations in the bbolt backend.
//
// Layout: len(guild)·guild·user → JSON envelope of Vacation.

package bolt

import (
	"errors"
	"fmt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

func decodeVacation(k, v []byte) (*storage.Vacation, error) {
	if len(k) < 2 || int(k[0])+2 > len(k) {
		return nil, fmt.Errorf("%w: vacation key %x", storage.ErrCorrupt, k)
	}
	return codec.DecodeVacation(string(k[1:1+int(k[0])]), string(k[1+int(k[0]):]), v)
}

// Vacation reads the vacation record of user in guild.
func (t boltTx) Vacation(guildID, userID string) (*storage.Vacation, error) {
	if err := storage.CheckMember("vacation", guildID, userID); err != nil {
		return nil, err
	}
	k := playerKey(guildID, userID)
	v := t.tx.Bucket([]byte(bucketVacations)).Get(k)
	if v == nil {
		return &storage.Vacation{GuildID: guildID, UserID: userID},
			fmt.Errorf("vacation of %s in guild %s: %w", userID, guildID, storage.ErrNotFound)
	}
	return decodeVacation(k, v)
}

// PutVacation writes a vacation record from its stored version.
func (t boltTx) PutVacation(v *storage.Vacation) error {
	if err := v.Validate(); err != nil {
		return err
	}
	stored, err := t.Vacation(v.GuildID, v.UserID)
	if errors.Is(err, storage.ErrNotFound) {
		stored, err = nil, nil
	}
	if err != nil {
		return err
	}
	w, err := storage.NextVacationVersion(stored, v)
	if err != nil {
		return err
	}
	b, err := codec.EncodeJSON(w)
	if err == nil {
		err = t.tx.Bucket([]byte(bucketVacations)).Put(playerKey(w.GuildID, w.UserID), b)
	}
	if err != nil {
		return fmt.Errorf("write vacation of %s in guild %s: %w", v.UserID, v.GuildID, err)
	}
	return nil
}

// OpenVacations reads the records with a vacation not closed.
func (t boltTx) OpenVacations() ([]*storage.Vacation, error) {
	var out []*storage.Vacation
	err := t.EachVacation(func(v *storage.Vacation) error {
		if v.Open() {
			out = append(out, v)
		}
		return nil
	})
	return out, err
}

// EachVacation calls fn with every vacation record in key order.
func (t boltTx) EachVacation(fn func(*storage.Vacation) error) error {
	return t.records(bucketVacations, func(k, v []byte) error {
		rec, err := decodeVacation(k, v)
		if err != nil {
			return err
		}
		return fn(rec)
	})
}
