package commands

import (
	"context"
	"sync"
	"time"

	"github.com/gambitchess/gambit/internal/lru"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/ladder"
	"github.com/gambitchess/gambit/service/puzzles"
	"github.com/gambitchess/gambit/service/settings"
	"github.com/gambitchess/gambit/service/tournaments"
	"github.com/gambitchess/gambit/service/votechess"
)

// Deps is what the commands work with: the services and the outbox for messages that
// are not answers to an interaction.
type Deps struct {
	// Games runs challenges and games.
	Games *games.Service
	// Settings owns the servers' settings and the users' preferences (nil: the one
	// Games was built with).
	Settings *settings.Service
	// Ladder keeps the servers' rating ladders (nil: /ladder and /rating say they are
	// not available).
	Ladder *ladder.Service
	// Puzzles runs the puzzles and the daily post (nil: /puzzle says it is not
	// available).
	Puzzles *puzzles.Service
	// Tournaments runs the tournaments (nil: /tournament says it is not available).
	Tournaments *tournaments.Service
	// Engine plays games against the engine and analyses games (nil: /play and
	// /analyze say they are not available).
	Engine *engineplay.Service
	// Votes runs vote chess (nil: /vote says it is not available).
	Votes *votechess.Service
	// Outbox takes every post that is not the answer to an interaction (package bot's
	// Notifier implements it; nil: nothing is posted).
	Outbox Outbox
	// Calendar keeps the servers' scheduled events that announce tournaments (package
	// bot's Notifier; nil: none are made).
	Calendar Calendar
	// Web makes the links of the games' web pages (nil: no web buttons).
	Web WebLinks
	// Ledger records the posts an interaction's answer stands for (see PostLedger).
	Ledger *PostLedger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// ChallengeExpiry is how long a challenge waits (0: the service's default).
	ChallengeExpiry time.Duration
	// Draining reports that the bot is shutting down: no new challenges.
	Draining func() bool
	// Activity: the Activity is on (docs/activity.md), so a game's board carries the
	// "Play in Discord" button that opens it.
	Activity bool

	// threads maps a game's thread ID to the game's ID, learnt as threads are opened
	// and found, so a command typed in a thread finds its game without a search.
	threads sync.Map
	// threadsLearnt: the threads of the games live at start-up have been learnt (see
	// learnThreads); threadsMu serialises the learning.
	threadsMu     sync.Mutex
	threadsLearnt bool

	// placed holds the vote games whose place StartOnDiscord has settled in this
	// process (see VoteEvent).
	placed sync.Map

	picturesOnce sync.Once
	pictureCache *lru.Cache[string, []byte]
}

// now returns the time.
func (d *Deps) now() time.Time {
	if d.Now == nil {
		return time.Now()
	}
	return d.Now()
}

// settingsOwner returns the owner of the settings and preferences: Settings, or the
// one of the game service; nil without either.
func (d *Deps) settingsOwner() *settings.Service {
	switch {
	case d.Settings != nil:
		return d.Settings
	case d.Games != nil:
		return d.Games.Settings()
	}
	return nil
}

func (d *Deps) draining() bool { return d.Draining != nil && d.Draining() }

// Outbox takes the posts that are not answers to an interaction: a new game's thread
// and first board, a round's pairings, the final standings, the puzzle of the day.
// Package bot's Notifier implements it, so every such post leaves through one place
// (where the service events' posts leave too): commands never reach Discord themselves.
type Outbox interface {
	// Post sends m to a channel or thread and returns the message's ID.
	Post(ctx context.Context, channelID string, m *Response) (string, error)
	// StartThread opens a public thread in a channel, from a message when messageID
	// is set, and returns the thread's ID.
	StartThread(ctx context.Context, channelID, messageID, name string) (string, error)
}
