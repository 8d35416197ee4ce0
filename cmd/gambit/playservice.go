// playservice.go: the game service of gambit play, which runs the terminal games' clocks.

package main

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage/bolt"
)

// playService is the game service of a terminal session, running its clocks.
type playService struct {
	*games.Service
	stop func()
}

// startPlayService runs the terminal's game service on db: it runs the clocks of the
// terminal games only (games.LocalScope), under its own heartbeat. over is signalled
// when the game whose ID is in current ends. also, if set, hears every event too (the
// web board of --web).
func startPlayService(db *bolt.DB, stderr io.Writer, also games.Notifier) (svc playService, over chan struct{}, current *atomic.Uint64, err error) {
	over = make(chan struct{}, 1)
	current = new(atomic.Uint64)
	s, err := games.New(db, games.Options{
		Instance: playInstance,
		Scope:    games.LocalScope,
		Notifier: games.NotifierFunc(func(ctx context.Context, e games.Event) {
			if also != nil {
				also.Notify(ctx, e)
			}
			if end, ok := e.(games.GameOver); ok && end.Game.ID == current.Load() {
				select {
				case over <- struct{}{}:
				default:
				}
			}
		}),
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return svc, nil, nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { s.Run(ctx); close(ran) }()
	return playService{Service: s, stop: func() { cancel(); <-ran; s.Close() }}, over, current, nil
}
