package engineplay

// Tests of who analyses when: the cooldown, one analysis per person at a time, the
// servers' lines.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gambitchess/gambit/internal/syncbuf"
	"github.com/gambitchess/gambit/service/games"
)

// scholars is a short finished game.
var scholars = []string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"}

func analysisOf(guild, user string, g *games.Game) AnalysisRequest {
	return AnalysisRequest{GuildID: guild, UserID: user, Game: g}
}

func TestAnalysisCooldown(t *testing.T) {
	r := newRig(t, Options{HashMB: 1, AnalysisNodes: 5000}) // the default cooldown: 2 minutes
	ctx := context.Background()
	g1, g2, g3 := finishedGame(t, r, scholars...), finishedGame(t, r, "f3", "e5", "g4", "Qh4#"), finishedGame(t, r, scholars...)
	if _, err := r.eng.Analyze(ctx, analysisOf("s1", ana.ID, g1)); err != nil {
		t.Fatal(err)
	}
	_, err := r.eng.Analyze(ctx, analysisOf("s2", ana.ID, g2))
	var cool *CooldownError
	if !errors.As(err, &cool) || !errors.Is(err, ErrAnalysisCooldown) || !cool.Until.Equal(r.clk.Now().Add(2*time.Minute)) || cool.UserID != ana.ID {
		t.Fatalf("a second analysis at once: %v, want a CooldownError until %v", err, r.clk.Now().Add(2*time.Minute))
	}
	// The cache answers without the engine, so without limit.
	if _, err := r.eng.Analyze(ctx, analysisOf("s1", ana.ID, g1)); err != nil {
		t.Errorf("an analysis from the cache: %v", err)
	}
	// Another person is not held up by ana's cooldown.
	if _, err := r.eng.Analyze(ctx, analysisOf("s1", flooder.ID, g2)); err != nil {
		t.Errorf("another person's analysis: %v", err)
	}
	r.clk.Advance(2*time.Minute - time.Second)
	if _, err := r.eng.Analyze(ctx, analysisOf("s1", ana.ID, g3)); !errors.Is(err, ErrAnalysisCooldown) {
		t.Errorf("a second before the end of the cooldown: %v", err)
	}
	r.clk.Advance(time.Second)
	if _, err := r.eng.Analyze(ctx, analysisOf("s1", ana.ID, g3)); err != nil {
		t.Errorf("after the cooldown: %v", err)
	}
}

func TestNoAnalysisCooldown(t *testing.T) {
	r := newRig(t, Options{HashMB: 1, AnalysisNodes: 5000, AnalysisCooldown: -1})
	for range 3 {
		g := finishedGame(t, r, scholars...)
		if _, err := r.eng.Analyze(context.Background(), analysisOf("s1", ana.ID, g)); err != nil {
			t.Fatal(err)
		}
	}
}

// holdAnalysers takes the idle analysers away, so requests stay queued; the returned
// function gives them back.
func holdAnalysers(t *testing.T, s *Service) func() {
	t.Helper()
	a := &s.analyses
	a.mu.Lock()
	held := a.idle
	a.idle = nil
	a.mu.Unlock()
	return func() {
		a.mu.Lock()
		a.idle = append(a.idle, held...)
		a.dispatch()
		a.mu.Unlock()
	}
}

// waiting returns how many analyses are queued and not started (dropped ones aside).
func (a *analyses) waiting() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, j := range a.pending {
		if !j.started {
			n++
		}
	}
	return n
}

// waitQueued waits until n analyses are queued and not started.
func waitQueued(t *testing.T, s *Service, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for s.analyses.waiting() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d analyses waiting, want %d", s.analyses.waiting(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestAnalysisPending: one analysis per person at a time; one given up while queued
// leaves the queue and costs no cooldown.
func TestAnalysisPending(t *testing.T) {
	r := newRig(t, Options{HashMB: 1, AnalysisNodes: 5000})
	g1, g2 := finishedGame(t, r, scholars...), finishedGame(t, r, "f3", "e5", "g4", "Qh4#")
	give := holdAnalysers(t, r.eng)
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := r.eng.Analyze(ctx, analysisOf("s1", ana.ID, g1))
		first <- err
	}()
	waitQueued(t, r.eng, 1)
	if _, err := r.eng.Analyze(context.Background(), analysisOf("s2", ana.ID, g2)); !errors.Is(err, ErrAnalysisPending) {
		t.Fatalf("a second analysis while the first is queued: %v", err)
	}
	cancel()
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Fatalf("the analysis given up: %v", err)
	}
	waitQueued(t, r.eng, 0)
	second := make(chan error, 1)
	go func() {
		_, err := r.eng.Analyze(context.Background(), analysisOf("s2", ana.ID, g2))
		second <- err
	}()
	waitQueued(t, r.eng, 1)
	give()
	if err := <-second; err != nil {
		t.Fatalf("the analysis after one given up: %v", err)
	}
	if _, ok := r.eng.cache.get(g1.ID); ok {
		t.Error("the analysis given up in the queue ran")
	}
}

// analysedOrder captures the order of the "game analysed" logs.
type analysedOrder struct{ syncbuf.Buffer }

func (o *analysedOrder) games() []uint64 {
	var ids []uint64
	for _, m := range regexp.MustCompile(`msg="game analysed" .*game=(\d+)`).FindAllStringSubmatch(o.String(), -1) {
		id, _ := strconv.ParseUint(m[1], 10, 64)
		ids = append(ids, id)
	}
	return ids
}

// TestAnalysisOrder: one analyser, three people of server s1, one of s2 and one in a
// direct message queue in that order. Servers take turns, one analysis at a time
// each: s1's first, then s2's, the direct messages', and s1's others last, where a
// single line would have served s1's three first.
func TestAnalysisOrder(t *testing.T) {
	var logs analysedOrder
	r := newRig(t, Options{HashMB: 1, AnalysisNodes: 5000, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	type ask struct {
		guild string
		user  string
	}
	asks := []ask{{"s1", "u1"}, {"s1", "u2"}, {"s1", "u3"}, {"s2", "u4"}, {"", "u5"}}
	var gs []*games.Game
	for range asks {
		gs = append(gs, finishedGame(t, r, scholars...))
	}
	give := holdAnalysers(t, r.eng)
	errs := make(chan error, len(asks))
	for i, a := range asks {
		go func() {
			_, err := r.eng.Analyze(context.Background(), analysisOf(a.guild, a.user, gs[i]))
			errs <- err
		}()
		waitQueued(t, r.eng, i+1)
	}
	give()
	for range asks {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	want := []uint64{gs[0].ID, gs[3].ID, gs[4].ID, gs[1].ID, gs[2].ID}
	if got := logs.games(); !slices.Equal(got, want) {
		t.Errorf("analysed %v, want %v", got, want)
	}
}

// TestAnalysisOneAtATimePerServer: with two analysers, a server's second analysis
// waits for its first while another server's runs.
func TestAnalysisOneAtATimePerServer(t *testing.T) {
	r := newRig(t, Options{HashMB: 1, AnalysisNodes: 5000, AnalysisWorkers: 2})
	var gs []*games.Game
	for range 3 {
		gs = append(gs, finishedGame(t, r, scholars...))
	}
	a := &r.eng.analyses
	a.mu.Lock()
	a.idle = nil // held: requests stay queued
	a.mu.Unlock()
	users := []string{"u1", "u2", "u3"}
	guilds := []string{"s1", "s1", "s2"}
	errs := make(chan error, 3)
	for i := range 3 {
		go func() {
			_, err := r.eng.Analyze(context.Background(), analysisOf(guilds[i], users[i], gs[i]))
			errs <- err
		}()
		waitQueued(t, r.eng, i+1)
	}
	a.mu.Lock()
	jobs := []*analysisJob{a.pending["u1"], a.pending["u2"], a.pending["u3"]}
	a.idle = append(a.idle, a.all...) // both back: see what starts
	a.dispatch()
	started := fmt.Sprint(jobs[0].started, jobs[1].started, jobs[2].started)
	a.mu.Unlock()
	if started != "true false true" {
		t.Errorf("started (s1's first, s1's second, s2's): %s, want true false true", started)
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestAnalysisRefusalsBeforeTheQueue: a live game or one without moves is refused at
// once, and costs no cooldown.
func TestAnalysisRefusalsBeforeTheQueue(t *testing.T) {
	r := newRig(t, Options{HashMB: 1, AnalysisNodes: 5000})
	live := finishedGame(t, r, "e4")
	if _, err := r.eng.Analyze(context.Background(), analysisOf("s1", ana.ID, live)); !errors.Is(err, ErrNotFinished) {
		t.Fatalf("a live game: %v", err)
	}
	g := finishedGame(t, r, scholars...)
	if _, err := r.eng.Analyze(context.Background(), analysisOf("s1", ana.ID, g)); err != nil {
		t.Fatalf("after a refusal: %v", err)
	}
}
