// games.go: games and their indexes in the bbolt backend.

package bolt

import (
	"bytes"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/internal/codec"
)

// present is the value of an index entry (the key says everything).
var present = []byte{1}

// indexKey returns len(s)·s·id, the key of an index by a string (user, channel, guild).
func indexKey(s string, id uint64) []byte {
	k := make([]byte, 0, 1+len(s)+8)
	k = append(k, byte(len(s)))
	k = append(k, s...)
	return append(k, codec.IDKey(id)...)
}

// indexGame writes the index entries of g. created says the game is new (its user,
// channel and guild entries are written; they never change afterwards).
func indexGame(tx *bbolt.Tx, g *storage.Game, created bool) error {
	key := codec.IDKey(g.ID)
	live := tx.Bucket([]byte(bucketLiveGames))
	var err error
	if g.Live() {
		err = live.Put(key, present)
	} else {
		err = live.Delete(key)
	}
	if err != nil || !created {
		return err
	}
	users := tx.Bucket([]byte(bucketUserGames))
	if err := users.Put(indexKey(g.White.ID, g.ID), present); err != nil {
		return err
	}
	if g.Black.ID != g.White.ID {
		if err := users.Put(indexKey(g.Black.ID, g.ID), present); err != nil {
			return err
		}
	}
	if g.ChannelID != "" {
		if err := tx.Bucket([]byte(bucketChannelGames)).Put(indexKey(g.ChannelID, g.ID), present); err != nil {
			return err
		}
	}
	if g.GuildID != "" {
		if err := tx.Bucket([]byte(bucketGuildGames)).Put(indexKey(g.GuildID, g.ID), present); err != nil {
			return err
		}
	}
	return nil
}

// Game reads game id.
func (t boltTx) Game(id uint64) (*storage.Game, error) {
	v := t.tx.Bucket([]byte(bucketGames)).Get(codec.IDKey(id))
	if v == nil {
		return nil, fmt.Errorf("game %d: %w", id, storage.ErrNotFound)
	}
	return codec.DecodeGame(id, v)
}

// PutGame writes a game, giving a new one (ID 0) the next id.
func (t boltTx) PutGame(g *storage.Game) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("put game %d: %w", g.ID, err)
	}
	b := t.tx.Bucket([]byte(bucketGames))
	created := g.ID == 0
	if created {
		id, err := b.NextSequence()
		if err != nil {
			return fmt.Errorf("new game id: %w", err)
		}
		g.ID = id
	} else if v := b.Get(codec.IDKey(g.ID)); v != nil {
		stored, err := codec.DecodeGame(g.ID, v)
		if err != nil {
			return fmt.Errorf("put game %d: %w", g.ID, err)
		}
		if stored.Version != g.Version {
			return fmt.Errorf("put game %d: version %d, stored %d: %w", g.ID, g.Version, stored.Version, storage.ErrConflict)
		}
	} else {
		created = true // an id that is not stored yet (a copy): indexed as new
		if err := keepSequence(b, g.ID); err != nil {
			return fmt.Errorf("put game %d: %w", g.ID, err)
		}
	}
	g.Version++
	if err := b.Put(codec.IDKey(g.ID), codec.EncodeGame(g)); err != nil {
		g.Version--
		return fmt.Errorf("write game %d: %w", g.ID, err)
	}
	if err := indexGame(t.tx, g, created); err != nil {
		return fmt.Errorf("index game %d: %w", g.ID, err)
	}
	return nil
}

// OpenGames reads every game that is not over, in id order.
func (t boltTx) OpenGames() ([]*storage.Game, error) {
	var out []*storage.Game
	games := t.tx.Bucket([]byte(bucketGames))
	err := t.tx.Bucket([]byte(bucketLiveGames)).ForEach(func(k, _ []byte) error {
		v := games.Get(k)
		if v == nil {
			return fmt.Errorf("%w: live index names game %d, which is not stored", storage.ErrCorrupt, codec.KeyID(k))
		}
		g, err := codec.DecodeGame(codec.KeyID(k), v)
		if err != nil {
			return err
		}
		out = append(out, g)
		return nil
	})
	return out, err
}

// CountGames counts the stored games and the live ones.
func (t boltTx) CountGames() (total, live int, err error) {
	return t.tx.Bucket([]byte(bucketGames)).Stats().KeyN, t.tx.Bucket([]byte(bucketLiveGames)).Stats().KeyN, nil
}

// GamesByUser reads the games userID plays, newest first.
func (t boltTx) GamesByUser(userID string, q storage.Query) ([]*storage.Game, error) {
	return t.indexed(bucketUserGames, userID, q)
}

// GamesInChannel reads the games created in a channel, newest first.
func (t boltTx) GamesInChannel(channelID string, q storage.Query) ([]*storage.Game, error) {
	return t.indexed(bucketChannelGames, channelID, q)
}

// GamesInGuild reads a server's games from its index, newest first.
func (t boltTx) GamesInGuild(guildID string, q storage.Query) ([]*storage.Game, error) {
	if guildID == "" {
		return nil, nil
	}
	return t.indexed(bucketGuildGames, guildID, q)
}

// indexed walks an index by a string backwards from BeforeID.
func (t boltTx) indexed(bucket, s string, q storage.Query) ([]*storage.Game, error) {
	if len(s) > storage.MaxIDLen {
		return nil, nil
	}
	var out []*storage.Game
	games := t.tx.Bucket([]byte(bucketGames))
	var live *bbolt.Bucket
	if q.LiveOnly {
		live = t.tx.Bucket([]byte(bucketLiveGames))
	}
	prefix := indexKey(s, 0)[:1+len(s)]
	start := q.BeforeID
	if start == 0 {
		start = ^uint64(0)
	} else {
		start--
	}
	c := t.tx.Bucket([]byte(bucket)).Cursor()
	target := indexKey(s, start)
	k, _ := c.Seek(target)
	switch {
	case k == nil:
		k, _ = c.Last()
	case !bytes.Equal(k, target):
		k, _ = c.Prev()
	}
	for ; k != nil && bytes.HasPrefix(k, prefix) && len(k) == len(prefix)+8; k, _ = c.Prev() {
		key := k[len(prefix):]
		if live != nil && live.Get(key) == nil {
			continue
		}
		v := games.Get(key)
		if v == nil {
			return nil, fmt.Errorf("%w: index %s names game %d, which is not stored", storage.ErrCorrupt, bucket, codec.KeyID(key))
		}
		g, err := codec.DecodeGame(codec.KeyID(key), v)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
		if q.Limit > 0 && len(out) >= q.Limit {
			break
		}
	}
	return out, nil
}
