package bot

// dmrefusal.go: the direct messages Discord refuses, and the daily digest they carry:
// Discord opens the DM channel with anyone but refuses each message to a user whose
// privacy settings close their DMs to the bot (or who shares no server with it any
// more) with 403 Forbidden and JSON code 50007; the bot maps that to
// digest.ErrDMRefused, so the digest turns itself off.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/commands"
	"github.com/gambitchess/gambit/service/digest"
)

// codeCannotSendToUser is Discord's JSON error code "Cannot send messages to this
// user".
const codeCannotSendToUser = 50007

// dmRefused wraps digest.ErrDMRefused around err when it is Discord's refusal of a
// direct message; other errors (and nil) pass unchanged.
func dmRefused(err error) error {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusForbidden &&
		re.Message != nil && re.Message.Code == codeCannotSendToUser {
		return fmt.Errorf("%w: %w", digest.ErrDMRefused, err)
	}
	return err
}

var _ digest.Sender = (*Notifier)(nil)

// SendDigest implements digest.Sender: the digest as one direct message, each game
// under its server's name (read from Discord, remembered for guildNameTTL; a server
// whose name cannot be read goes by its link alone). Before Connect nothing leaves,
// and the error wraps digest.ErrNotSent.
func (n *Notifier) SendDigest(ctx context.Context, d *digest.Digest) error {
	t, err := n.transport()
	if err != nil {
		return fmt.Errorf("%w: %w", digest.ErrNotSent, err)
	}
	names := map[string]string{}
	if namer, ok := t.(guildNamer); ok {
		for _, g := range d.Games {
			if _, done := names[g.GuildID]; !done && g.GuildID != "" {
				names[g.GuildID] = n.guildNames.name(ctx, namer, g.GuildID, time.Now(), n.log)
			}
		}
	}
	if err := t.DM(ctx, d.UserID, commands.DigestDM(d, names)); err != nil {
		return fmt.Errorf("send the digest of %s: %w", d.Day, err)
	}
	return nil
}

// guildNamer reads servers' names: the REST transport does; a transport that does not
// leaves the digest's servers to their links.
type guildNamer interface {
	GuildName(ctx context.Context, guildID string) (string, error)
}

// guildNameTTL is how long a server's name is remembered; maxGuildNames how many are.
const (
	guildNameTTL  = time.Hour
	maxGuildNames = 10000
)

// guildNames remembers servers' names for a while, so a sweep of many digests asks
// Discord once per server.
type guildNames struct {
	mu sync.Mutex
	m  map[string]guildName
}

type guildName struct {
	name string
	at   time.Time
}

// name returns a server's name, "" when Discord does not give it (the error logged).
func (c *guildNames) name(ctx context.Context, namer guildNamer, guildID string, now time.Time, log *slog.Logger) string {
	c.mu.Lock()
	if e, ok := c.m[guildID]; ok && now.Sub(e.at) < guildNameTTL {
		c.mu.Unlock()
		return e.name
	}
	c.mu.Unlock()
	name, err := namer.GuildName(ctx, guildID)
	if err != nil {
		log.Warn("digest: the server's name is not known; the digest links it without a name", "guild", guildID, "err", err)
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxGuildNames {
		c.m = map[string]guildName{}
	}
	c.m[guildID] = guildName{name: name, at: now}
	return name
}
