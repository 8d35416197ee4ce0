// tournaments.go: tournaments (events run by service/tournaments) and the map from a game to
// the tournament board it was played on.
//
// # Encoding
//
//	tournaments       8-byte tournament id → Tournament (JSON envelope: 'J' and the JSON)
//	tournament_games  8-byte game id → TournamentGame (JSON envelope)
//
// A tournament's State is the service's own encoding of the event (pairings, results,
// the arena's or the knockout's log); the store keeps it whole and never reads it. The
// envelope's fields are the ones the store and the commands look at without the
// service: the guild, the channel, the name, the status.
//
// The service changes a tournament only through UpdateTournament or a *Writer, in the
// transaction that also writes what the change is about: the result of a game is
// written by the games service's OnFinish hook, in the transaction that ends the game,
// so a game's end and its tournament result commit together or not at all.

package storage

import (
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Tournament statuses.
const (
	TournamentOpen     = "open"     // taking entries
	TournamentRunning  = "running"  // started: rounds are being played
	TournamentFinished = "finished" // over: final standings posted
	TournamentCanceled = "canceled" // called off before it started
)

// Tournament is a stored event.
type Tournament struct {
	// ID is assigned by PutTournament when the tournament is new (0 before).
	ID uint64 `json:"-"`
	// GuildID and ChannelID say where the event is run: its games' threads open in the
	// channel.
	GuildID   string `json:"guild"`
	ChannelID string `json:"channel"`
	// Name is the event's name; Format its pairing system ("swiss", "roundrobin",
	// "arena", "knockout").
	Name   string `json:"name"`
	Format string `json:"format"`
	// Status is TournamentOpen, TournamentRunning, TournamentFinished or
	// TournamentCanceled.
	Status string `json:"status"`
	// CreatedBy is the user who created the event; Created when.
	CreatedBy string    `json:"created_by"`
	Created   time.Time `json:"created"`
	// Version counts the changes written; the service uses it to tell a stale copy.
	Version uint64 `json:"version"`
	// State is the service's encoding of the event (JSON), kept whole.
	State []byte `json:"state"`
}

// Live reports whether the event is open or running.
func (t *Tournament) Live() bool {
	return t.Status == TournamentOpen || t.Status == TournamentRunning
}

// TournamentGame names the tournament board a game is played on.
type TournamentGame struct {
	GameID       uint64 `json:"-"`
	TournamentID uint64 `json:"tournament"`
	// Round is the round (1-based; for an arena, the arena's game number); Board the
	// board within it (1-based); Game the game number within a knockout match (0
	// otherwise).
	Round int `json:"round"`
	Board int `json:"board"`
	Game  int `json:"game,omitempty"`
}

// maxTournamentState bounds a tournament's state (a 1000-player event stays far
// below).
const maxTournamentState = 8 << 20

func (t *Tournament) validate() error {
	switch {
	case t.GuildID == "" || len(t.GuildID) > MaxIDLen || len(t.ChannelID) > MaxIDLen || len(t.CreatedBy) > MaxIDLen:
		return fmt.Errorf("tournament %d: guild id of 1 to %d bytes and channel and creator ids of at most %d", t.ID, MaxIDLen, MaxIDLen)
	case len(t.Name) > 200:
		return fmt.Errorf("tournament %d: name of %d bytes (at most 200)", t.ID, len(t.Name))
	case len(t.State) > maxTournamentState:
		return fmt.Errorf("tournament %d: state of %d bytes (at most %d)", t.ID, len(t.State), maxTournamentState)
	}
	switch t.Status {
	case TournamentOpen, TournamentRunning, TournamentFinished, TournamentCanceled:
		return nil
	}
	return fmt.Errorf("tournament %d: status %q: want open, running, finished or canceled", t.ID, t.Status)
}

func getTournament(tx *bolt.Tx, id uint64) (*Tournament, error) {
	v := tx.Bucket([]byte(bucketTournaments)).Get(idKey(id))
	if v == nil {
		return nil, fmt.Errorf("tournament %d: %w", id, ErrNotFound)
	}
	t := new(Tournament)
	if err := decodeJSON(v, t); err != nil {
		return nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	t.ID = id
	return t, nil
}

// putTournament writes t, giving a new one (ID 0) the next id.
func putTournament(tx *bolt.Tx, t *Tournament) error {
	if err := t.validate(); err != nil {
		return err
	}
	b := tx.Bucket([]byte(bucketTournaments))
	if t.ID == 0 {
		id, err := b.NextSequence()
		if err != nil {
			return fmt.Errorf("new tournament id: %w", err)
		}
		t.ID = id
	}
	t.Version++
	v, err := encodeJSON(t)
	if err != nil {
		return fmt.Errorf("encode tournament %d: %w", t.ID, err)
	}
	if err := b.Put(idKey(t.ID), v); err != nil {
		return fmt.Errorf("write tournament %d: %w", t.ID, err)
	}
	return nil
}

func getTournamentGame(tx *bolt.Tx, gameID uint64) (*TournamentGame, error) {
	v := tx.Bucket([]byte(bucketTournamentGames)).Get(idKey(gameID))
	if v == nil {
		return nil, fmt.Errorf("tournament game %d: %w", gameID, ErrNotFound)
	}
	tg := new(TournamentGame)
	if err := decodeJSON(v, tg); err != nil {
		return nil, fmt.Errorf("tournament game %d: %w", gameID, err)
	}
	tg.GameID = gameID
	return tg, nil
}

func putTournamentGame(tx *bolt.Tx, tg TournamentGame) error {
	if tg.GameID == 0 || tg.TournamentID == 0 {
		return fmt.Errorf("tournament game: game %d of tournament %d: both ids are needed", tg.GameID, tg.TournamentID)
	}
	v, err := encodeJSON(tg)
	if err != nil {
		return fmt.Errorf("encode tournament game %d: %w", tg.GameID, err)
	}
	return tx.Bucket([]byte(bucketTournamentGames)).Put(idKey(tg.GameID), v)
}

// PutTournament writes a tournament; a new one (ID 0) gets the next id, written into
// t.ID. Version is incremented.
func (db *DB) PutTournament(t *Tournament) error {
	id, version := t.ID, t.Version
	err := db.update(func(tx *bolt.Tx) error {
		t.ID, t.Version = id, version // a retried batch starts again
		return putTournament(tx, t)
	})
	if err != nil {
		t.ID, t.Version = id, version
	}
	return err
}

// Tournament returns tournament id (ErrNotFound if there is none).
func (db *DB) Tournament(id uint64) (*Tournament, error) {
	var t *Tournament
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		t, err = getTournament(tx, id)
		return err
	})
	return t, err
}

// Tournaments returns a guild's tournaments, newest first; with liveOnly, only the open
// and running ones. An empty guild id lists every guild's.
func (db *DB) Tournaments(guildID string, liveOnly bool) ([]*Tournament, error) {
	var out []*Tournament
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucketTournaments)).ForEach(func(k, _ []byte) error {
			t, err := getTournament(tx, keyID(k))
			if err != nil {
				return err
			}
			if (guildID == "" || t.GuildID == guildID) && (!liveOnly || t.Live()) {
				out = append(out, t)
			}
			return nil
		})
	})
	slices.Reverse(out)
	return out, err
}

// ErrStale is returned by an UpdateTournament function that found nothing to change;
// UpdateTournament then writes nothing and returns nil.
var ErrStale = errors.New("nothing to change")

// UpdateTournament reads tournament id, lets fn change it, and writes it back, in one
// transaction; fn may also write through w (the map of its games). fn may run more
// than once (a retried group commit), each time on a fresh copy: it must not act
// outside the transaction. If fn returns ErrStale nothing is written.
func (db *DB) UpdateTournament(id uint64, fn func(w *Writer, t *Tournament) error) (*Tournament, error) {
	var out *Tournament
	err := db.update(func(tx *bolt.Tx) error {
		t, err := getTournament(tx, id)
		if err != nil {
			return err
		}
		err = fn(&Writer{tx: tx}, t)
		out = t
		if errors.Is(err, ErrStale) {
			return nil
		}
		if err != nil {
			return err
		}
		return putTournament(tx, t)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// TournamentGame returns the tournament board game gameID is played on (ErrNotFound
// for a game outside any tournament).
func (db *DB) TournamentGame(gameID uint64) (*TournamentGame, error) {
	var tg *TournamentGame
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		tg, err = getTournamentGame(tx, gameID)
		return err
	})
	return tg, err
}

// Tournament reads a tournament as the transaction sees it.
func (w *Writer) Tournament(id uint64) (*Tournament, error) { return getTournament(w.tx, id) }

// PutTournament writes a tournament in the transaction (a new one gets an id).
func (w *Writer) PutTournament(t *Tournament) error { return putTournament(w.tx, t) }

// TournamentGame reads the tournament board of a game (ErrNotFound for none).
func (w *Writer) TournamentGame(gameID uint64) (*TournamentGame, error) {
	return getTournamentGame(w.tx, gameID)
}

// PutTournamentGame records the tournament board a game is played on.
func (w *Writer) PutTournamentGame(tg TournamentGame) error { return putTournamentGame(w.tx, tg) }
