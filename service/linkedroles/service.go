// service.go: the Service: linking an account, and pushing a user's metadata.

package linkedroles

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/storage"
)

// Keys of the role-connection metadata (at most 5 records; keys of a-z, 0-9 and _).
const (
	KeyBullet    = "bullet_rating"
	KeyBlitz     = "blitz_rating"
	KeyRapid     = "rapid_rating"
	KeyClassical = "classical_rating"
	KeyGames     = "rated_games"
)

// ratingKeys maps the rated categories to their keys.
var ratingKeys = map[clock.Category]string{
	clock.Bullet: KeyBullet, clock.Blitz: KeyBlitz, clock.Rapid: KeyRapid, clock.Standard: KeyClassical,
}

// Scope is the OAuth2 scope the link needs (with identify, to know whose it is).
const Scope = "role_connections.write"

// PlatformName is the name Discord shows beside the linked account.
const PlatformName = "Gambit"

// Errors of the service.
var (
	// ErrRefused wraps Discord's refusal of a code or a token (the user's word, or a
	// grant they revoked).
	ErrRefused = errors.New("discord refused the authorization")
	// ErrNoScope: the user authorized without role_connections.write.
	ErrNoScope = errors.New("the authorization lacks the role_connections.write scope")
)

// Grant is an OAuth2 grant.
type Grant struct {
	AccessToken, RefreshToken string
	// ExpiresIn is how long the access token is good for, from the answer.
	ExpiresIn time.Duration
	Scopes    []string
}

// Connection is a user's role connection as pushed.
type Connection struct {
	PlatformName, PlatformUsername string
	Metadata                       map[string]string
}

// Discord is what the service needs of Discord: package web implements it over HTTP.
// Errors for a code or token Discord refuses wrap ErrRefused.
type Discord interface {
	// Exchange trades an authorization code for a grant.
	Exchange(ctx context.Context, code string) (Grant, error)
	// Refresh trades a refresh token for a new grant.
	Refresh(ctx context.Context, refreshToken string) (Grant, error)
	// User returns the id and name of an access token's user.
	User(ctx context.Context, accessToken string) (id, name string, err error)
	// PushConnection sets the access token's user's role connection.
	PushConnection(ctx context.Context, accessToken string, c Connection) error
}

// Options configure a Service.
type Options struct {
	// Secret derives the sealing key of the stored grants (the client secret).
	Secret []byte
	// Clock is the time source (default the system clock).
	Clock timers.Clock
	// Logger receives the logs (default slog.Default()).
	Logger *slog.Logger
}

// Service keeps the Linked Roles connections. Its methods are safe for concurrent use.
type Service struct {
	db      storage.Store
	discord Discord
	seal    *sealer
	clock   timers.Clock
	log     *slog.Logger
}

// New returns the service on db, speaking to Discord through d.
func New(db storage.Store, d Discord, opts Options) (*Service, error) {
	s, err := newSealer(opts.Secret)
	if err != nil {
		return nil, err
	}
	if opts.Clock == nil {
		opts.Clock = timers.SystemClock{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Service{db: db, discord: d, seal: s, clock: opts.Clock, log: opts.Logger}, nil
}

// refreshMargin is how long before its expiry an access token is refreshed.
const refreshMargin = time.Minute

// Link completes the verification page's authorization: it trades the code, learns the
// user, stores the sealed grant and pushes the user's metadata. It returns the user's
// id and name.
func (s *Service) Link(ctx context.Context, code string) (userID, name string, err error) {
	g, err := s.discord.Exchange(ctx, code)
	if err != nil {
		return "", "", fmt.Errorf("link: %w", err)
	}
	if !slices.Contains(g.Scopes, Scope) {
		return "", "", ErrNoScope
	}
	userID, name, err = s.discord.User(ctx, g.AccessToken)
	if err != nil {
		return "", "", fmt.Errorf("link: %w", err)
	}
	sealed, err := s.seal.seal(userID, g)
	if err != nil {
		return "", "", err
	}
	now := s.clock.Now()
	err = s.db.Update(ctx, func(tx storage.Tx) error {
		a, err := tx.LinkedAccount(userID)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		if a.Linked.IsZero() {
			a.Linked = now
		}
		a.Tokens, a.Expires, a.Pushed = sealed, now.Add(g.ExpiresIn), nil // a new grant: push again
		return tx.PutLinkedAccount(a)
	})
	if err != nil {
		return "", "", fmt.Errorf("link %s: %w", userID, err)
	}
	if err := s.Push(ctx, userID); err != nil {
		return userID, name, err
	}
	return userID, name, nil
}

// RatingsChanged pushes the metadata of users whose ratings moved (a rated game ended);
// failures are logged.
func (s *Service) RatingsChanged(ctx context.Context, userIDs ...string) {
	for _, u := range userIDs {
		if err := s.Push(ctx, u); err != nil {
			s.log.Warn("linked roles: push after a rating change", "user", u, "err", err)
		}
	}
}

// Push pushes a user's metadata if they linked their account and it changed since the
// last push; a user who never linked is no error.
func (s *Service) Push(ctx context.Context, userID string) error {
	a, err := storage.Read(ctx, s.db, func(tx storage.Tx) (*storage.LinkedAccount, error) { return tx.LinkedAccount(userID) })
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("push %s: %w", userID, err)
	}
	md, err := s.metadata(ctx, userID)
	if err != nil {
		return err
	}
	if a.Pushed != nil && maps.Equal(a.Pushed, md) {
		return nil
	}
	access, a, err := s.accessToken(ctx, a, false)
	if errors.Is(err, errRefreshing) {
		return nil // the process refreshing the grant pushes
	}
	if err != nil {
		return err
	}
	c := Connection{PlatformName: PlatformName, Metadata: md}
	err = s.discord.PushConnection(ctx, access, c)
	if errors.Is(err, ErrRefused) { // expired sooner than said: refresh once
		if access, a, err = s.accessToken(ctx, a, true); errors.Is(err, errRefreshing) {
			return nil
		} else if err != nil {
			return err
		}
		err = s.discord.PushConnection(ctx, access, c)
		if errors.Is(err, ErrRefused) {
			s.unlink(ctx, a)
		}
	}
	if err != nil {
		return fmt.Errorf("push %s: %w", userID, err)
	}
	err = s.db.Update(ctx, func(tx storage.Tx) error {
		cur, err := tx.LinkedAccount(userID)
		if err != nil {
			return err
		}
		cur.Pushed = md
		return tx.PutLinkedAccount(cur)
	})
	if err != nil {
		return fmt.Errorf("record the push of %s: %w", userID, err)
	}
	return nil
}

// errRefreshing: another process holds the claim on the grant's refresh (and pushes).
var errRefreshing = errors.New("another process is refreshing the grant")

// refreshClaimTTL is how long a claim on a refresh holds: past it, the process that
// took it is taken to have died.
const refreshClaimTTL = time.Minute

// accessToken returns a's access token, refreshed first when it expires (or when force
// says Discord refused it). A refresh token is good once, so the refresh is claimed in
// the store first (the record written from its stored version): a process that loses
// the claim, or finds one held, gets errRefreshing. It returns the record as stored.
func (s *Service) accessToken(ctx context.Context, a *storage.LinkedAccount, force bool) (string, *storage.LinkedAccount, error) {
	g, err := s.seal.open(a.UserID, a.Tokens)
	if err != nil {
		s.unlink(ctx, a)
		return "", nil, fmt.Errorf("linked account of %s: %w", a.UserID, err)
	}
	now := s.clock.Now()
	if !force && now.Before(a.Expires.Add(-refreshMargin)) {
		return g.Access, a, nil
	}
	if !a.Refreshing.IsZero() && now.Sub(a.Refreshing) < refreshClaimTTL {
		return "", nil, errRefreshing
	}
	claim := a.Clone()
	claim.Refreshing = now
	err = s.db.Update(ctx, func(tx storage.Tx) error { return tx.PutLinkedAccount(claim) })
	if errors.Is(err, storage.ErrConflict) {
		return "", nil, errRefreshing
	}
	if err != nil {
		return "", nil, fmt.Errorf("claim the refresh of %s: %w", a.UserID, err)
	}
	claim.Version++
	fresh, err := s.discord.Refresh(ctx, g.Refresh)
	if err != nil {
		if errors.Is(err, ErrRefused) {
			s.unlink(ctx, claim)
		} else {
			release := claim.Clone()
			release.Refreshing = time.Time{}
			if rerr := s.db.Update(ctx, func(tx storage.Tx) error { return tx.PutLinkedAccount(release) }); rerr != nil {
				s.log.Warn("linked roles: release the refresh claim", "user", a.UserID, "err", rerr)
			}
		}
		return "", nil, fmt.Errorf("refresh the grant of %s: %w", a.UserID, err)
	}
	sealed, err := s.seal.seal(a.UserID, fresh)
	if err != nil {
		return "", nil, err
	}
	w := claim.Clone()
	w.Tokens, w.Expires, w.Refreshing = sealed, s.clock.Now().Add(fresh.ExpiresIn), time.Time{}
	if err := s.db.Update(ctx, func(tx storage.Tx) error { return tx.PutLinkedAccount(w) }); err != nil {
		return "", nil, fmt.Errorf("record the refreshed grant of %s: %w", a.UserID, err)
	}
	w.Version++
	return fresh.AccessToken, w, nil
}

// unlink removes a link whose grant no longer works (revoked, or sealed with another
// secret): the user links again on the verification page.
func (s *Service) unlink(ctx context.Context, a *storage.LinkedAccount) {
	if err := s.db.Update(ctx, func(tx storage.Tx) error { return tx.DeleteLinkedAccount(a.UserID) }); err != nil {
		s.log.Error("linked roles: remove a dead link", "user", a.UserID, "err", err)
		return
	}
	s.log.Info("linked roles: the grant no longer works; the link is removed", "user", a.UserID)
}

// metadata computes a user's values: the best rating per category across the servers'
// ladders (categories they have played rated games in), and their rated games.
func (s *Service) metadata(ctx context.Context, userID string) (map[string]string, error) {
	ps, err := storage.Read(ctx, s.db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.UserLadders(userID) })
	if err != nil {
		return nil, fmt.Errorf("ratings of %s: %w", userID, err)
	}
	return Metadata(ps), nil
}

// Metadata returns the metadata of a user's ladder records.
func Metadata(ps []storage.LadderPlayer) map[string]string {
	best := map[string]int{}
	games := 0
	for _, p := range ps {
		games += p.Games
		key, ok := ratingKeys[p.Category]
		if !ok || p.Games == 0 {
			continue
		}
		if r := int(math.Round(p.Rating)); r > best[key] {
			best[key] = r
		}
	}
	md := map[string]string{KeyGames: strconv.Itoa(games)}
	for k, r := range best {
		md[k] = strconv.Itoa(r)
	}
	return md
}
