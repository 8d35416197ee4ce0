// playweb.go: gambit play --web, the terminal game's live board in the browser, served
// on loopback by package web (the same page as the bot's, for gambit play's games).

package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"sync/atomic"
	"time"

	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/web"
)

// localBoard is the web server of gambit play --web, listening before the game service
// starts (the service tells it of every event).
type localBoard struct {
	ln  net.Listener
	srv atomic.Pointer[web.Server]
}

func listenLocalBoard(addr string) (*localBoard, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || !config.LoopbackHost(host) {
		return nil, fmt.Errorf("--web-address %q: want a loopback host:port such as 127.0.0.1:8080 (the board plays for whoever opens it)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--web: listen on %s: %w", addr, err)
	}
	return &localBoard{ln: ln}, nil
}

// Notify implements games.Notifier.
func (b *localBoard) Notify(ctx context.Context, e games.Event) {
	if s := b.srv.Load(); s != nil {
		s.Notify(ctx, e)
	}
}

func (b *localBoard) close() { b.ln.Close() }

// play serves game g's board until the game ends or the user interrupts, and prints
// its link.
func (b *localBoard) play(svc *games.Service, g *games.Game, stdout io.Writer, over <-chan struct{}) error {
	secret := make([]byte, 32) // this run's own: the link works while it runs
	if _, err := rand.Read(secret); err != nil {
		return err
	}
	srv, err := web.New(web.Options{Games: svc, BaseURL: "http://" + b.ln.Addr().String(), Secret: secret, LocalOnly: true,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return err
	}
	b.srv.Store(srv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	served := make(chan error, 1)
	sctx, cancel := context.WithCancel(ctx)
	go func() { served <- srv.Serve(sctx, b.ln, 5*time.Second) }()
	fmt.Fprintf(stdout, "Game %d: %s vs %s. Play it in your browser (both sides at this keyboard):\n%s\nCtrl-C stops serving; gambit play --web --resume %d goes on with it.\n",
		g.ID, g.White.Name, g.Black.Name, srv.GameURL(g.ID), g.ID)
	select {
	case <-over:
		fmt.Fprintln(stdout, "The game is over; its page stays up for a moment.")
		select { // the last state reaches the page before the server stops
		case <-ctx.Done():
		case <-time.After(2 * time.Second):
		}
	case <-ctx.Done():
	case err := <-served:
		cancel()
		return err
	}
	cancel()
	return <-served
}
