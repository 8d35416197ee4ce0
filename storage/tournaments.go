// tournaments.go: tournaments (events run by service/tournaments) and the map from a game to
// the tournament board it was played on.
//
// A tournament's State is the service's own encoding of the event (pairings, results,
// the arena's or the knockout's log); the store keeps it whole and never reads it. The
// envelope's fields are the ones the store and the commands look at without the
// service: the guild, the channel, the name, the status.
//
// The service changes a tournament only through UpdateTournament or a Tx, in the
// transaction that also writes what the change is about: the result of a game is
// written by the games service's OnFinish hook, in the transaction that ends the game,
// so a game's end and its tournament result commit together or not at all.

package storage

import (
	"context"
	"errors"
	"fmt"
	"time"
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
	// NoVacation is the organiser's choice that the event's games are not paused by a
	// player's vacation (the zero value allows vacations).
	NoVacation bool `json:"no_vacation,omitempty"`
	// ScheduledEvent is the id of the server's scheduled event that announces the
	// tournament on Discord ("" when it has none: no start time, or the bot could not
	// create it).
	ScheduledEvent string `json:"scheduled_event,omitempty"`
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

func (t *Tournament) Validate() error {
	switch {
	case t.GuildID == "" || len(t.GuildID) > MaxIDLen || len(t.ChannelID) > MaxIDLen || len(t.CreatedBy) > MaxIDLen ||
		len(t.ScheduledEvent) > MaxIDLen:
		return fmt.Errorf("tournament %d: guild id of 1 to %d bytes and channel, creator and scheduled event ids of at most %d", t.ID, MaxIDLen, MaxIDLen)
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

// UpdateTournament reads tournament id, lets fn change it, and writes it back, in one
// transaction of st (Store.Update); fn may also write through tx (the map of its
// games). fn may run more than once (a retried group commit), each time on a fresh
// copy: it must not act outside the transaction. If fn returns ErrStale nothing is
// written and UpdateTournament returns the tournament as fn left it.
func UpdateTournament(ctx context.Context, st Store, id uint64, fn func(tx Tx, t *Tournament) error) (*Tournament, error) {
	var out *Tournament
	err := st.Update(ctx, func(tx Tx) error {
		t, err := tx.Tournament(id)
		if err != nil {
			return err
		}
		err = fn(tx, t)
		out = t
		if errors.Is(err, ErrStale) {
			return nil
		}
		if err != nil {
			return err
		}
		return tx.PutTournament(t)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
