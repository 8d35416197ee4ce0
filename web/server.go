// Package web is Gambit's web front end: every game's page (the live board) served by
// `gambit serve`, live over WebSocket, and play on the web. It sits beside package bot:
// both call the same services (service/games for every rule, service/settings for the
// servers' choices) and neither reaches the store around them; serve builds both.
//
// The pages are server-rendered html/template with one small script (static/game.js)
// for the board and the socket; everything is embedded (go:embed), nothing is fetched
// from another host, and the Content-Security-Policy allows no inline script.
package web

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/service/ladder"
	"github.com/gambitchess/gambit/service/puzzles"
	"github.com/gambitchess/gambit/service/settings"
	"github.com/gambitchess/gambit/service/tournaments"
)

// Options configure a Server. Games and Secret are required.
type Options struct {
	// Games runs the games: every page reads them and every action on the web is one of
	// its calls, as on Discord.
	Games *games.Service
	// Settings owns the servers' settings: the board theme and the web view switch
	// (nil: the one Games was built with).
	Settings *settings.Service
	// Ladder, Tournaments, Puzzles and Engine are the other services the pages show
	// (each may be nil: its pages are then absent).
	Ladder      *ladder.Service
	Tournaments *tournaments.Service
	Puzzles     *puzzles.Service
	Engine      *engineplay.Service
	// BaseURL is what people open (config web.public_url, or http:// and the address),
	// without a trailing slash. Every link starts with it; with https the cookies are
	// Secure and the socket's origin must be its https origin.
	BaseURL string
	// Secret is the key the links, sign-in tokens and sessions are signed with (at
	// least 32 bytes).
	Secret []byte
	// Logger receives the logs (default slog.Default()); no token ever reaches it.
	Logger *slog.Logger
	// Now is the clock (default time.Now): the games' clock, so the page's clocks and
	// the service's agree.
	Now func() time.Time
	// Fanout carries the games' events to the other processes sharing the store and
	// back (nil: one process, as with bbolt).
	Fanout Fanout
	// Limits bound what one address and one user may do (zero fields: the defaults).
	Limits Limits
	// Activity turns on the board as a Discord Activity (activity.go; nil: none).
	Activity *ActivityOptions
	// LinkedRoles turns on the Linked Roles verification page (linkedroles.go; nil:
	// none).
	LinkedRoles *LinkedRolesOptions
	// LocalOnly serves the games of gambit play (games.LocalScope) rather than the
	// bot's: `gambit play --web`.
	LocalOnly bool
}

// Fanout carries game events between the processes sharing a PostgreSQL store: Publish
// tells the others that a game changed, and Listen calls changed for each game another
// process (or this one) published, until ctx ends.
type Fanout interface {
	Publish(ctx context.Context, gameID uint64) error
	Listen(ctx context.Context, changed func(gameID uint64)) error
}

// Server serves the web pages. Its Handler may be mounted on any listener; Serve runs
// it on one. It is also a games.Notifier: serve tells it of every game event, and it
// pushes them to the pages watching.
type Server struct {
	opts   Options
	log    *slog.Logger
	keys   keys
	secure bool   // BaseURL is https
	origin string // scheme://host of BaseURL, the only origin a socket may come from
	mux    *http.ServeMux
	pages  *pages
	assets *assets
	hub    *hub
	limits *limiter
	// activity is the Activity's state (nil without Options.Activity).
	activity *activityState

	mu       sync.Mutex
	draining bool
}

// MinSecretLength is the shortest Options.Secret accepted.
const MinSecretLength = 32

// New returns a Server for opts, its routes registered.
func New(opts Options) (*Server, error) {
	if opts.Games == nil {
		return nil, errors.New("web: no game service")
	}
	if len(opts.Secret) < MinSecretLength {
		return nil, fmt.Errorf("web: the secret has %d bytes, want at least %d", len(opts.Secret), MinSecretLength)
	}
	if opts.Settings == nil {
		opts.Settings = opts.Games.Settings()
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	scheme, rest, ok := strings.Cut(opts.BaseURL, "://")
	host, _, _ := strings.Cut(rest, "/")
	if !ok || (scheme != "http" && scheme != "https") || host == "" {
		return nil, fmt.Errorf("web: base URL %q: want http://host or https://host", opts.BaseURL)
	}
	as, err := loadAssets()
	if err != nil {
		return nil, err
	}
	pg, err := loadPages(as)
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts: opts, log: opts.Logger.With("component", "web"), keys: deriveKeys(opts.Secret),
		secure: scheme == "https", origin: scheme + "://" + host,
		mux: http.NewServeMux(), pages: pg, assets: as,
		limits: newLimiter(opts.Limits.withDefaults(), opts.Now),
	}
	s.hub = newHub(s)
	if err := s.setupActivity(); err != nil {
		return nil, err
	}
	s.routes()
	return s, nil
}

// Handler returns the server's handler: the routes behind the security middleware.
func (s *Server) Handler() http.Handler { return s.protect(s.mux) }

// BaseURL returns the address every link starts with.
func (s *Server) BaseURL() string { return s.opts.BaseURL }

// Serve serves on ln until ctx ends, then closes the sockets and waits (up to grace)
// for the requests in flight. With a Fanout it listens to the other processes too.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	srv := &http.Server{
		Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10,
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	listenCtx, stopListen := context.WithCancel(ctx)
	defer stopListen()
	var wg sync.WaitGroup
	if f := s.opts.Fanout; f != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.listenFanout(listenCtx, f)
		}()
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		stopListen()
		wg.Wait()
		return fmt.Errorf("web: serve: %w", err)
	case <-ctx.Done():
	}
	s.mu.Lock()
	s.draining = true
	s.mu.Unlock()
	s.hub.closeAll()
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(sctx)
	stopListen()
	wg.Wait()
	if err != nil {
		_ = srv.Close()
		return fmt.Errorf("web: shut down: %w", err)
	}
	return nil
}

// listenFanout hears the other processes' game changes, retrying after a lost
// connection until ctx ends.
func (s *Server) listenFanout(ctx context.Context, f Fanout) {
	for ctx.Err() == nil {
		err := f.Listen(ctx, func(id uint64) { s.hub.changedElsewhere(ctx, id) })
		if ctx.Err() != nil {
			return
		}
		s.log.Warn("web: listen for the other processes' moves", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// DeriveSecret returns a web key derived from another secret (the Discord token) for
// a configuration that sets no web.secret: HMAC-SHA-256 under a fixed label, so the key
// reveals nothing of the token.
func DeriveSecret(from string) []byte {
	m := hmac.New(sha256.New, []byte(from))
	m.Write([]byte("gambit web secret v1"))
	return m.Sum(nil)
}
