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
	"net/http"

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

// SendDigest implements digest.Sender: the digest as one direct message. Before
// Connect nothing leaves, and the error wraps digest.ErrNotSent.
func (n *Notifier) SendDigest(ctx context.Context, d *digest.Digest) error {
	t, err := n.transport()
	if err != nil {
		return fmt.Errorf("%w: %w", digest.ErrNotSent, err)
	}
	if err := t.DM(ctx, d.UserID, commands.DigestDM(d)); err != nil {
		return fmt.Errorf("send the digest of %s: %w", d.Day, err)
	}
	return nil
}
