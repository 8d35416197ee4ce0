package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/commands"
)

// Sender delivers the answers to interactions. REST implements it over discordgo;
// router tests record what it is given.
type Sender interface {
	// Respond sends the first answer to an interaction (the callback).
	Respond(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse, files []commands.File) error
	// EditOriginal edits the original response (after a deferral, the message it
	// stands for).
	EditOriginal(ctx context.Context, i *discordgo.Interaction, edit *discordgo.WebhookEdit, files []commands.File) error
	// DeleteOriginal deletes the original response.
	DeleteOriginal(ctx context.Context, i *discordgo.Interaction) error
	// Followup posts a followup message.
	Followup(ctx context.Context, i *discordgo.Interaction, params *discordgo.WebhookParams, files []commands.File) error
}

// REST is the bot's Discord REST client: discordgo calls made with a context, and
// 429 answers retried after their retry_after only while that fits before the
// context's deadline (an interaction's 3 seconds, or a message's own bound), never
// by sleeping past it.
type REST struct {
	s       *discordgo.Session
	metrics *Metrics
}

// NewREST returns a REST client over a session (any shard's: REST is not sharded).
func NewREST(s *discordgo.Session, m *Metrics) *REST { return &REST{s: s, metrics: m} }

// ErrRateLimited is wrapped by errors of calls that stayed rate limited until their
// deadline.
var ErrRateLimited = errors.New("rate limited past the deadline")

// call makes a request, retrying on 429 after retry_after while the context allows.
func (c *REST) call(ctx context.Context, what string, f func(opts ...discordgo.RequestOption) error) error {
	for {
		err := f(discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false))
		var rl *discordgo.RateLimitError
		if !errors.As(err, &rl) {
			if err != nil {
				return fmt.Errorf("%s: %w", what, err)
			}
			return nil
		}
		c.metrics.rateLimited(what)
		wait := rl.RetryAfter
		if wait <= 0 {
			wait = 10 * time.Millisecond
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return fmt.Errorf("%s: retry after %v would pass the deadline: %w", what, wait, ErrRateLimited)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%s: waiting out a rate limit: %w", what, ctx.Err())
		case <-t.C:
		}
	}
}

func discordFiles(files []commands.File) []*discordgo.File {
	if len(files) == 0 {
		return nil
	}
	out := make([]*discordgo.File, len(files))
	for i, f := range files {
		out[i] = &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: bytes.NewReader(f.Data)}
	}
	return out
}

// Respond implements Sender.
func (c *REST) Respond(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse, files []commands.File) error {
	return c.call(ctx, "interaction callback", func(opts ...discordgo.RequestOption) error {
		r := *resp
		if r.Data != nil {
			d := *r.Data
			d.Files = discordFiles(files)
			r.Data = &d
		}
		return c.s.InteractionRespond(i, &r, opts...)
	})
}

// EditOriginal implements Sender.
func (c *REST) EditOriginal(ctx context.Context, i *discordgo.Interaction, edit *discordgo.WebhookEdit, files []commands.File) error {
	return c.call(ctx, "edit original response", func(opts ...discordgo.RequestOption) error {
		e := *edit
		e.Files = discordFiles(files)
		_, err := c.s.InteractionResponseEdit(i, &e, opts...)
		return err
	})
}

// DeleteOriginal implements Sender.
func (c *REST) DeleteOriginal(ctx context.Context, i *discordgo.Interaction) error {
	return c.call(ctx, "delete original response", func(opts ...discordgo.RequestOption) error {
		return c.s.InteractionResponseDelete(i, opts...)
	})
}

// Followup implements Sender.
func (c *REST) Followup(ctx context.Context, i *discordgo.Interaction, params *discordgo.WebhookParams, files []commands.File) error {
	return c.call(ctx, "followup", func(opts ...discordgo.RequestOption) error {
		p := *params
		p.Files = discordFiles(files)
		_, err := c.s.FollowupMessageCreate(i, true, &p, opts...)
		return err
	})
}

// Send posts a message in a channel or thread.
func (c *REST) Send(ctx context.Context, channelID string, msg *discordgo.MessageSend, files []commands.File) (*discordgo.Message, error) {
	var out *discordgo.Message
	err := c.call(ctx, "send message to "+channelID, func(opts ...discordgo.RequestOption) error {
		m := *msg
		m.Files = discordFiles(files)
		var err error
		out, err = c.s.ChannelMessageSendComplex(channelID, &m, opts...)
		return err
	})
	return out, err
}

// StartThread starts a public thread from a message, or in the channel when
// messageID is "".
func (c *REST) StartThread(ctx context.Context, channelID, messageID, name string) (*discordgo.Channel, error) {
	var out *discordgo.Channel
	err := c.call(ctx, "start thread in "+channelID, func(opts ...discordgo.RequestOption) error {
		var err error
		if messageID != "" {
			out, err = c.s.MessageThreadStartComplex(channelID, messageID, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: 1440}, opts...)
		} else {
			out, err = c.s.ThreadStartComplex(channelID, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: 1440, Type: discordgo.ChannelTypeGuildPublicThread}, opts...)
		}
		return err
	})
	return out, err
}

// OpenDM opens the direct-message channel with a user.
func (c *REST) OpenDM(ctx context.Context, userID string) (string, error) {
	var id string
	err := c.call(ctx, "open DM", func(opts ...discordgo.RequestOption) error {
		ch, err := c.s.UserChannelCreate(userID, opts...)
		if err == nil {
			id = ch.ID
		}
		return err
	})
	return id, err
}

// BulkOverwrite replaces every command of the application, globally (guildID "")
// or in one guild, with defs: one request, whatever the number of commands.
func (c *REST) BulkOverwrite(ctx context.Context, appID, guildID string, defs []*discordgo.ApplicationCommand) error {
	return c.call(ctx, "register commands", func(opts ...discordgo.RequestOption) error {
		_, err := c.s.ApplicationCommandBulkOverwrite(appID, guildID, defs, opts...)
		return err
	})
}
