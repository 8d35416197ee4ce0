// web.go: the web server beside the Discord runtime, when web.address is set: built on
// the same services, told of the same game events, stopped before the services close.

package serve

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/web"
)

// webListener hands the games' events to the web server once it is built (the game
// service is built first, with its listeners).
type webListener struct{ srv atomic.Pointer[web.Server] }

// Notify implements games.Notifier.
func (l *webListener) Notify(ctx context.Context, e games.Event) {
	if s := l.srv.Load(); s != nil {
		s.Notify(ctx, e)
	}
}

// webSecret is the key of the web's links: web.secret, or one derived from the
// Discord token.
func webSecret(cfg config.Config) []byte {
	if cfg.Web.Secret != "" {
		return []byte(cfg.Web.Secret)
	}
	return web.DeriveSecret(cfg.Discord.Token)
}

// activityOptions turn the Activity on when the configuration has the application's
// client secret (nil: off).
func activityOptions(cfg config.Config, appID string) *web.ActivityOptions {
	if cfg.Discord.ClientSecret == "" {
		return nil
	}
	return &web.ActivityOptions{ClientID: appID, ClientSecret: cfg.Discord.ClientSecret, BotToken: cfg.Discord.Token,
		APIURL: cfg.Discord.RESTURL}
}

// runningWeb is the web server started by startWeb.
type runningWeb struct {
	srv  *web.Server
	addr string
	stop func()
}

// startWeb builds the web server on the services, listens on web.address and serves
// until stop (which waits for it, up to timeout). fanout is nil with bbolt.
// appID is the application's id, which the Activity (on with discord.client_secret)
// needs; authorize is Discord's authorization page ("": Discord's own).
func startWeb(cfg config.Config, db storage.Store, svcs *services, clk func() time.Time, fanout web.Fanout, timeout time.Duration, appID, authorize string, log *slog.Logger) (*runningWeb, error) {
	ln, err := net.Listen("tcp", cfg.Web.Address)
	if err != nil {
		return nil, fmt.Errorf("web: listen on %s: %w", cfg.Web.Address, err)
	}
	base := cfg.Web.BaseURL()
	if cfg.Web.PublicURL == "" {
		base = "http://" + ln.Addr().String() // the port bound, when web.address asks for any
	}
	linked, linkedPage, err := linkedRoles(cfg, db, base, appID, authorize, clk, log)
	if err != nil {
		ln.Close()
		return nil, err
	}
	srv, err := web.New(web.Options{
		Games: svcs.games, Settings: svcs.settings, Ladder: svcs.ladder, Tournaments: svcs.tournaments,
		Puzzles: svcs.puzzles, Engine: svcs.engine, BaseURL: base, Secret: webSecret(cfg),
		Logger: log, Now: clk, Fanout: fanout, Activity: activityOptions(cfg, appID), LinkedRoles: linkedPage,
	})
	if err != nil {
		ln.Close()
		return nil, err
	}
	if linked != nil {
		svcs.linked.svc.Store(linked)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := srv.Serve(ctx, ln, timeout); err != nil {
			log.Error("web server", "err", err)
		}
	}()
	svcs.web.srv.Store(srv)
	return &runningWeb{srv: srv, addr: ln.Addr().String(), stop: func() {
		cancel()
		wg.Wait()
	}}, nil
}
