// linkedroles.go: Linked Roles in the running bot: the service and its verification
// page are on when the configuration has the application's client secret and the web
// pages are served (the page is one of theirs); a rated game's end pushes both players'
// metadata again.

package serve

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/gambitchess/gambit/config"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/linkedroles"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/web"
)

// linkedListener pushes the players' metadata when a rated game ends, once the service
// is built (with the web server, which knows the application id).
type linkedListener struct {
	svc atomic.Pointer[linkedroles.Service]
}

// pushTimeout bounds the pushes after one game.
const pushTimeout = 30 * time.Second

// Notify implements games.Notifier: the pushes run beside the other listeners, which a
// slow Discord must not hold up.
func (l *linkedListener) Notify(_ context.Context, e games.Event) {
	over, ok := e.(games.GameOver)
	svc := l.svc.Load()
	if !ok || svc == nil || !over.Game.Rated {
		return
	}
	white, black := over.Game.White.ID, over.Game.Black.ID
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), pushTimeout)
		defer cancel()
		svc.RatingsChanged(ctx, white, black)
	}()
}

// linkedRoles builds the service and the page's options (nil, nil when off).
func linkedRoles(cfg config.Config, db storage.Store, base, appID, authorize string, clk func() time.Time, log *slog.Logger) (*linkedroles.Service, *web.LinkedRolesOptions, error) {
	if cfg.Discord.ClientSecret == "" {
		return nil, nil, nil
	}
	redirect := base + web.LinkedRolesPath + "callback"
	d := &web.LinkedRolesDiscord{ClientID: appID, ClientSecret: cfg.Discord.ClientSecret, RedirectURL: redirect, APIURL: cfg.Discord.RESTURL}
	svc, err := linkedroles.New(db, d, linkedroles.Options{Secret: []byte(cfg.Discord.ClientSecret), Clock: clockFunc(clk), Logger: log})
	if err != nil {
		return nil, nil, err
	}
	return svc, &web.LinkedRolesOptions{Service: svc, ClientID: appID, RedirectURL: redirect, AuthorizeURL: authorize}, nil
}

// clockFunc is a time source as a timers.Clock.
type clockFunc func() time.Time

// Now implements timers.Clock.
func (f clockFunc) Now() time.Time { return f() }
