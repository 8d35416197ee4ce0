package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
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
// label names the kind of call in the metrics, one of a fixed few (never an id: a
// label per channel would grow the metrics without bound); what describes this call
// in its errors.
func (c *REST) call(ctx context.Context, label, what string, f func(opts ...discordgo.RequestOption) error) error {
	for {
		err := f(discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false))
		var rl *discordgo.RateLimitError
		if !errors.As(err, &rl) {
			if err != nil {
				return fmt.Errorf("%s: %w", what, redactRequestError(err))
			}
			return nil
		}
		c.metrics.rateLimited(label)
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
	_, err := c.interactionCall(ctx, "interaction callback", http.MethodPost, discordgo.EndpointInteractionResponse(i.ID, i.Token), resp, files)
	return err
}

// EditOriginal implements Sender.
func (c *REST) EditOriginal(ctx context.Context, i *discordgo.Interaction, edit *discordgo.WebhookEdit, files []commands.File) error {
	_, err := c.interactionCall(ctx, "edit original response", http.MethodPatch, discordgo.EndpointInteractionResponseActions(i.AppID, i.Token), edit, files)
	return err
}

// DeleteOriginal implements Sender.
func (c *REST) DeleteOriginal(ctx context.Context, i *discordgo.Interaction) error {
	_, err := c.interactionCall(ctx, "delete original response", http.MethodDelete, discordgo.EndpointInteractionResponseActions(i.AppID, i.Token), nil, nil)
	return err
}

// Followup implements Sender.
func (c *REST) Followup(ctx context.Context, i *discordgo.Interaction, params *discordgo.WebhookParams, files []commands.File) error {
	_, err := c.interactionCall(ctx, "followup", http.MethodPost, discordgo.EndpointFollowupMessage(i.AppID, i.Token)+"?wait=true", params, files)
	return err
}

// ErrTokenRefused is wrapped by the error of a start-up whose first call Discord answered
// 401 Unauthorized: the token is wrong, reset, or not a bot token.
var ErrTokenRefused error = tokenRefusedError{}

// tokenRefusedError is ErrTokenRefused's type: its message names Discord first.
type tokenRefusedError struct{}

func (tokenRefusedError) Error() string {
	return "Discord refused the bot token (401 Unauthorized): check discord.token / GAMBIT_DISCORD_TOKEN (or DISCORD_TOKEN)"
}

// tokenRefused turns a 401 answer into ErrTokenRefused, keeping the call that got it;
// other errors pass unchanged.
func tokenRefused(call string, err error) error {
	var re *discordgo.RESTError
	var he *HTTPError
	switch {
	case errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized,
		errors.As(err, &he) && he.Status == http.StatusUnauthorized:
		return fmt.Errorf("%w (%s)", ErrTokenRefused, call)
	}
	return err
}

// HTTPError is an error answer from Discord to a request the bot made itself.
type HTTPError struct {
	Call   string
	Status int
	Body   string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("%s: HTTP %d: %.300s", e.Call, e.Status, e.Body)
}

// interactionCall makes a request to an interaction's own endpoints (the callback,
// the original response, followups). They are authorised by the interaction's token
// (not the bot token, which they are not sent) and not bound by the bot's rate
// limits, so the bot sends them itself instead of
// through discordgo's limiter, which would serialise all followups behind one bucket
// and keep a bucket per interaction for ever. A 429 is retried after its retry_after
// only if that ends before the context's deadline; a 502 to 504 once or twice. Its
// errors never carry the token of the URL (redactRequestError).
func (c *REST) interactionCall(ctx context.Context, what, method, url string, payload any, files []commands.File) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		var body []byte
		contentType := ""
		var err error
		switch {
		case payload != nil && len(files) > 0:
			contentType, body, err = discordgo.MultipartBodyWithJSON(payload, discordFiles(files))
		case payload != nil:
			contentType = "application/json"
			body, err = json.Marshal(payload)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: encode: %w", what, err)
		}
		req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, redactRequestError(err))
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		// No Authorization header: the token in the URL authorizes the call, and the
		// bot token has no business on a route that does not need it.
		req.Header.Set("User-Agent", c.s.UserAgent)
		resp, err := c.s.Client.Do(req)
		if err != nil {
			// The URL carries the interaction's token: net/http quotes it in the error.
			return nil, fmt.Errorf("%s: %w", what, redactRequestError(err))
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: read answer: %w", what, err)
		}
		var wait time.Duration
		switch {
		case resp.StatusCode == http.StatusTooManyRequests:
			c.metrics.rateLimited(what)
			wait = retryAfter(resp.Header, data)
		case resp.StatusCode >= 502 && resp.StatusCode <= 504 && attempt < 2:
			wait = 100 * time.Millisecond
		case resp.StatusCode >= 300:
			return nil, &HTTPError{Call: what, Status: resp.StatusCode, Body: string(data)}
		default:
			return data, nil
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return nil, fmt.Errorf("%s: HTTP %d, retry after %v would pass the deadline: %w", what, resp.StatusCode, wait, ErrRateLimited)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%s: waiting to retry: %w", what, ctx.Err())
		case <-t.C:
		}
	}
}

// retryAfter reads how long a 429 asks to wait: the body's retry_after (seconds, with
// a fraction), else the Retry-After header, else a second.
func retryAfter(h http.Header, body []byte) time.Duration {
	var rl struct {
		RetryAfter float64 `json:"retry_after"`
	}
	if json.Unmarshal(body, &rl) == nil && rl.RetryAfter > 0 && rl.RetryAfter < 3600 {
		return time.Duration(rl.RetryAfter * float64(time.Second))
	}
	if s, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil && s > 0 && s < 3600 {
		return time.Duration(s * float64(time.Second))
	}
	return time.Second
}

// Send posts a message in a channel or thread.
func (c *REST) Send(ctx context.Context, channelID string, msg *discordgo.MessageSend, files []commands.File) (*discordgo.Message, error) {
	var out *discordgo.Message
	err := c.call(ctx, "send message", "send message to "+channelID, func(opts ...discordgo.RequestOption) error {
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
	err := c.call(ctx, "start thread", "start thread in "+channelID, func(opts ...discordgo.RequestOption) error {
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
	err := c.call(ctx, "open DM", "open DM", func(opts ...discordgo.RequestOption) error {
		ch, err := c.s.UserChannelCreate(userID, opts...)
		if err == nil {
			id = ch.ID
		}
		return err
	})
	return id, err
}

// GuildName reads a guild's name (the bot must be in the guild).
func (c *REST) GuildName(ctx context.Context, guildID string) (string, error) {
	var name string
	err := c.call(ctx, "get guild", "get guild "+guildID, func(opts ...discordgo.RequestOption) error {
		g, err := c.s.Guild(guildID, opts...)
		if err == nil {
			name = g.Name
		}
		return err
	})
	return name, err
}

// BulkOverwrite replaces every command of the application, globally (guildID "")
// or in one guild, with defs: one request, whatever the number of commands. It sends
// the request itself (discordgo's takes no entry point handler), through discordgo's
// rate limiter.
func (c *REST) BulkOverwrite(ctx context.Context, appID, guildID string, defs []CommandDefinition) error {
	endpoint := discordgo.EndpointApplicationGlobalCommands(appID)
	if guildID != "" {
		endpoint = discordgo.EndpointApplicationGuildCommands(appID, guildID)
	}
	return c.call(ctx, "register commands", "register commands", func(opts ...discordgo.RequestOption) error {
		_, err := c.s.RequestWithBucketID(http.MethodPut, endpoint, defs, endpoint, opts...)
		return err
	})
}
