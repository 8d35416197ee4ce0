// analysisqueue.go: who analyses when: one line per server (a server's analyses run
// one at a time, servers taking turns for a bounded number of analysers), one
// analysis per person at a time, and a cooldown between a person's analyses.

package engineplay

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/service/games"
)

// Errors of the analysis queue, for errors.Is.
var (
	// ErrAnalysisPending: the person's previous analysis is still queued or running.
	ErrAnalysisPending = errors.New("an analysis asked for by this person is still queued or running")
	// ErrAnalysisCooldown: the person's last analysis ended less than
	// Options.AnalysisCooldown ago (the error is a *CooldownError).
	ErrAnalysisCooldown = errors.New("analysed a game too recently")
)

// CooldownError refuses an analysis asked for within Options.AnalysisCooldown of the
// end of the person's last one.
type CooldownError struct {
	UserID string
	// Until is when the person may ask again (on Options.Clock).
	Until time.Time
}

func (e *CooldownError) Error() string {
	return fmt.Sprintf("%s %s: next analysis from %s", e.UserID, ErrAnalysisCooldown, e.Until.UTC().Format(time.DateTime))
}

// Unwrap makes the error match ErrAnalysisCooldown.
func (e *CooldownError) Unwrap() error { return ErrAnalysisCooldown }

// AnalysisRequest asks for the analysis of a finished game.
type AnalysisRequest struct {
	// GuildID is the server asked in; "" for a direct message (direct messages share
	// one line, as if they were one server).
	GuildID string
	// UserID is the person who asked (one analysis at a time, and the cooldown, are
	// theirs).
	UserID string
	// Game is the game to analyse.
	Game *games.Game
}

// analyses is the queue of analyses and the analysers that serve it. Analyses run in
// goroutines of their own, started as analysers become free, so they need no Run.
type analyses struct {
	s        *Service
	cooldown time.Duration // <= 0: none

	mu      sync.Mutex
	queue   *fairQueue[*analysisJob] // exclusive: one analysis per server at a time
	all     []*analyser
	idle    []*analyser
	pending map[string]*analysisJob // person → their queued or running analysis
	last    map[string]time.Time    // person → when their last analysis ended
}

// analysisJob is one queued or running analysis.
type analysisJob struct {
	ctx     context.Context
	req     AnalysisRequest
	started bool // taken by an analyser (under analyses.mu)
	dropped bool // the asker gave up while it was queued (under analyses.mu)
	done    chan struct{}
	res     *Analysis
	err     error
}

// analyser is what one analysis runs on.
type analyser struct {
	builtin *engine.Engine // made on first use
	ext     *external      // a process of its own; nil without an external engine
}

func (a *analyses) init(s *Service) {
	a.s, a.cooldown = s, s.opts.AnalysisCooldown
	a.queue = newFairQueue[*analysisJob](true)
	a.pending, a.last = map[string]*analysisJob{}, map[string]time.Time{}
	for i := range s.opts.AnalysisWorkers {
		an := &analyser{}
		if s.opts.External != nil && s.opts.External.Path != "" {
			an.ext = newExternal(*s.opts.External, s.log.With("role", "analysis", "analyser", i))
		}
		a.all = append(a.all, an)
	}
	a.idle = append(a.idle, a.all...)
}

// submit queues r's analysis, or refuses it: ErrAnalysisPending while the person's
// previous one is queued or running, a *CooldownError within the cooldown.
func (a *analyses) submit(ctx context.Context, r AnalysisRequest) (*analysisJob, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if p := a.pending[r.UserID]; p != nil {
		return nil, fmt.Errorf("analyse game %d for %s (game %d first): %w", r.Game.ID, r.UserID, p.req.Game.ID, ErrAnalysisPending)
	}
	if a.cooldown > 0 {
		if last, ok := a.last[r.UserID]; ok {
			if until := last.Add(a.cooldown); a.s.opts.Clock.Now().Before(until) {
				return nil, &CooldownError{UserID: r.UserID, Until: until}
			}
		}
	}
	j := &analysisJob{ctx: ctx, req: r, done: make(chan struct{})}
	a.pending[r.UserID] = j
	a.queue.push(r.GuildID, r.UserID, j)
	a.dispatch()
	return j, nil
}

// withdraw takes a job that has not started out of the queue; false once it started.
func (a *analyses) withdraw(j *analysisJob) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if j.started {
		return false
	}
	j.dropped = true // the queue drops it when its turn comes
	if a.pending[j.req.UserID] == j {
		delete(a.pending, j.req.UserID)
	}
	return true
}

// dispatch starts the next jobs in fair order on the idle analysers (a.mu held).
func (a *analyses) dispatch() {
	for len(a.idle) > 0 {
		j, server, ok := a.queue.pop(func(j *analysisJob) bool { return !j.dropped })
		if !ok {
			return
		}
		an := a.idle[len(a.idle)-1]
		a.idle = a.idle[:len(a.idle)-1]
		j.started = true
		go a.run(j, server, an)
	}
}

// run analyses j on an, then hands the analyser and the server's turn on.
func (a *analyses) run(j *analysisJob, server string, an *analyser) {
	res, ran, err := a.s.analyse(j.ctx, an, j.req.Game)
	a.mu.Lock()
	a.idle = append(a.idle, an)
	a.queue.release(server)
	if a.pending[j.req.UserID] == j {
		delete(a.pending, j.req.UserID)
	}
	if ran && a.cooldown > 0 {
		a.forgetExpired()
		a.last[j.req.UserID] = a.s.opts.Clock.Now()
	}
	a.dispatch()
	a.mu.Unlock()
	j.res, j.err = res, err
	close(j.done)
}

// forgetExpired drops the cooldowns that are over once there are many (a.mu held).
func (a *analyses) forgetExpired() {
	if len(a.last) < 256 {
		return
	}
	now := a.s.opts.Clock.Now()
	for u, t := range a.last {
		if !now.Before(t.Add(a.cooldown)) {
			delete(a.last, u)
		}
	}
}

// close stops the analysers' external engines.
func (a *analyses) close() error {
	var errs []error
	for _, an := range a.all {
		if an.ext != nil {
			errs = append(errs, an.ext.close())
		}
	}
	return errors.Join(errs...)
}
