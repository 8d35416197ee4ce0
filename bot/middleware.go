package bot

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/commands"
)

// Recover turns a panicking handler into an error (logged with its stack), so one
// bad interaction never takes the bot down.
func Recover() commands.Middleware {
	return func(next commands.Handler) commands.Handler {
		return func(ctx context.Context, r *commands.Request) (resp *commands.Response, err error) {
			defer func() {
				if p := recover(); p != nil {
					r.Log.Error("handler panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
					resp, err = nil, fmt.Errorf("handler %s panicked: %v", r.Name, p)
				}
			}()
			return next(ctx, r)
		}
	}
}

// Logging logs every interaction with its outcome and duration.
func Logging() commands.Middleware {
	return func(next commands.Handler) commands.Handler {
		return func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
			start := time.Now()
			resp, err := next(ctx, r)
			r.Log.Debug("interaction", "name", r.Name, "took", time.Since(start), "deferred", r.Responder != nil && r.Responder.Deferred(), "failed", err != nil)
			return resp, err
		}
	}
}

// Measure records each interaction in the metrics: count by name and outcome, and
// the handler's latency.
func Measure(m *Metrics) commands.Middleware {
	return func(next commands.Handler) commands.Handler {
		return func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
			start := time.Now()
			resp, err := next(ctx, r)
			m.interaction(metricName(r), err, time.Since(start))
			return resp, err
		}
	}
}

func metricName(r *commands.Request) string {
	if r.IsComponent() {
		return "component:" + r.Name
	}
	if r.IsAutocomplete() {
		return "autocomplete:" + r.Name
	}
	return r.Name
}

// DeferIfSlow acknowledges an interaction whose handler has not answered after
// `after`, so Discord's 3 seconds never run out; the answer then follows as an edit
// or a followup. Autocomplete cannot be deferred and is left alone.
//
// The handler's whole work (every store call of it) has one deadline: budget after the
// interaction was received, and never past the interaction token's life (15 minutes
// from its creation, less a margin to send the answer). Once it passes, the store
// refuses to commit anything more for the interaction, and the user is told it failed;
// a handler that still does not return within budgetGrace gets an answer that says its
// outcome is unknown, never that it failed.
func DeferIfSlow(after, budget time.Duration) commands.Middleware {
	if budget <= 0 {
		budget = DefaultOperationTimeout
	}
	return func(next commands.Handler) commands.Handler {
		return func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
			if r.IsAutocomplete() || r.Responder == nil {
				return next(ctx, r)
			}
			type result struct {
				resp *commands.Response
				err  error
			}
			done := make(chan result, 1)
			// The handler owns r once started (handlers narrow r.Log, for one), so
			// what the deferral needs of it is read now.
			log, private, name, deadline, responder := r.Log, r.Private, r.Name, r.Deadline, r.Responder
			// Once deferred the handler's work is not bound by the callback deadline,
			// but by its operation budget.
			hctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), operationDeadline(r, budget))
			defer cancel()
			go func() {
				defer func() {
					if p := recover(); p != nil {
						done <- result{nil, fmt.Errorf("handler %s panicked: %v\n%s", r.Name, p, debug.Stack())}
					}
				}()
				resp, err := next(hctx, r)
				done <- result{resp, err}
			}()
			wait := after
			if dl := time.Until(deadline) - 500*time.Millisecond; dl < wait {
				wait = dl
			}
			t := time.NewTimer(max(wait, 0))
			defer t.Stop()
			select {
			case res := <-done:
				return res.resp, res.err
			case <-t.C:
			}
			if err := responder.Defer(ctx, private); err != nil {
				log.Warn("defer slow interaction", "err", err)
			}
			hdl, _ := hctx.Deadline()
			late := time.NewTimer(time.Until(hdl) + budgetGrace)
			defer late.Stop()
			select {
			case res := <-done:
				return res.resp, res.err
			case <-late.C:
				log.Error("handler still running past its operation budget", "name", name, "budget", budget)
				return nil, commands.Errorf("This is taking far too long, and whether it went through is not known yet. Check with /board before trying again.")
			}
		}
	}
}

// DefaultOperationTimeout is the operation budget of DeferIfSlow when none is given
// (commands.operation_timeout's default).
const DefaultOperationTimeout = 30 * time.Second

// budgetGrace is how long past its budget DeferIfSlow waits for a handler to return
// before answering: store calls return as soon as the budget ends, so only a handler
// stuck elsewhere takes it.
const budgetGrace = 10 * time.Second

// tokenLife is how long an interaction token lasts from the interaction's creation;
// tokenMargin is kept of it to send the answer.
const (
	tokenLife   = 15 * time.Minute
	tokenMargin = 30 * time.Second
)

// operationDeadline is when the handling of r must be over: budget after it was
// received, and before its token expires (its first-answer deadline is three seconds
// after its creation).
func operationDeadline(r *commands.Request, budget time.Duration) time.Time {
	d := r.Received.Add(budget)
	if !r.Deadline.IsZero() {
		token := r.Deadline.Add(-commands.InteractionDeadline + tokenLife - tokenMargin - budgetGrace)
		if token.Before(d) {
			d = token
		}
	}
	if r.Received.IsZero() {
		d = time.Now().Add(budget)
	}
	return d
}

// PerUserLimit refuses a user's interactions beyond perMinute in any minute (a token
// bucket refilled continuously), against spam. Autocomplete, sent as people type, is
// not counted. perMinute 0 turns the limit off.
func PerUserLimit(perMinute int, now func() time.Time) commands.Middleware {
	if perMinute <= 0 {
		return func(next commands.Handler) commands.Handler { return next }
	}
	l := &userLimiter{rate: float64(perMinute) / 60, burst: float64(perMinute), buckets: map[string]*bucket{}, now: now}
	return func(next commands.Handler) commands.Handler {
		return func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
			if r.IsAutocomplete() || r.User == nil {
				return next(ctx, r)
			}
			if wait, ok := l.take(r.User.ID); !ok {
				return nil, commands.Errorf("You are sending commands too fast. Try again in %d seconds.", int(wait.Seconds())+1)
			}
			return next(ctx, r)
		}
	}
}

type bucket struct {
	tokens float64
	at     time.Time
}

type userLimiter struct {
	mu      sync.Mutex
	rate    float64 // tokens per second
	burst   float64
	buckets map[string]*bucket
	now     func() time.Time
	sweep   time.Time
}

// take spends a token of the user's bucket, or says how long until one is there.
func (l *userLimiter) take(user string) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.sweep) > 10*time.Minute {
		for id, b := range l.buckets {
			if now.Sub(b.at) > 2*time.Minute {
				delete(l.buckets, id)
			}
		}
		l.sweep = now
	}
	b := l.buckets[user]
	if b == nil {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[user] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		return time.Duration((1 - b.tokens) / l.rate * float64(time.Second)), false
	}
	b.tokens--
	return 0, true
}

// PendingNotes gives the user's next answer the note take returns for them, once
// (the daily digest turned off because their DMs are closed): take hands out a note
// ("" for none) and forgets it. An ephemeral new message carries the note in its text;
// any other answer (public, an update of a message) is followed by the note in an
// ephemeral followup, so only the user sees it. An answer that failed, an autocomplete
// and a modal carry none, and the note waits for the next answer.
func PendingNotes(take func(ctx context.Context, userID string) (string, error)) commands.Middleware {
	return func(next commands.Handler) commands.Handler {
		return func(ctx context.Context, r *commands.Request) (*commands.Response, error) {
			resp, err := next(ctx, r)
			if err != nil || resp == nil || take == nil || r.User == nil || r.IsAutocomplete() || resp.Kind == commands.ShowModal || resp.Kind == commands.ShowChoices {
				return resp, err
			}
			note, terr := take(ctx, r.User.ID)
			if terr != nil {
				r.Log.Warn("pending note: not read; it waits for a later answer", "err", terr)
				return resp, nil
			}
			if note == "" {
				return resp, nil
			}
			if resp.Ephemeral && resp.Kind == commands.NewMessage && len([]rune(resp.Content))+len([]rune(note))+2 <= maxContent {
				resp.Content = joinNote(resp.Content, note)
				return resp, nil
			}
			rs, ok := r.Responder.(*responder)
			if !ok {
				return resp, nil
			}
			then := resp.Then
			resp.Then = func(ctx context.Context) error {
				err := rs.sender.Followup(ctx, rs.i, &discordgo.WebhookParams{
					Content: note, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: commands.AllowedMentions(),
				}, nil)
				if err != nil {
					r.Log.Error("pending note: the followup failed", "err", err)
				}
				if then != nil {
					return then(ctx)
				}
				return nil
			}
			return resp, nil
		}
	}
}

// maxContent is the most characters a message's text may hold on Discord.
const maxContent = 2000

func joinNote(content, note string) string {
	if content == "" {
		return note
	}
	return content + "\n\n" + note
}
