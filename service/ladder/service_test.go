package ladder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

var (
	alice = storage.Player{ID: "100", Name: "Alice"}
	bob   = storage.Player{ID: "200", Name: "Bob"}
	carol = storage.Player{ID: "300", Name: "Carol"}
)

// rig is a game service and a ladder service on one store, wired as the bot wires them.
type rig struct {
	t     *testing.T
	path  string
	db    *bolt.DB
	clk   *timers.ManualClock
	games *games.Service
	lad   *Service
	seq   int
	// fail, when set, makes the hook fail after the ladder has written (a disk error).
	fail error
}

func newRig(t *testing.T) *rig {
	r := &rig{t: t, path: filepath.Join(t.TempDir(), "gambit.db"), clk: timers.NewManualClock(t0)}
	r.open()
	t.Cleanup(r.close)
	return r
}

func (r *rig) open() {
	r.t.Helper()
	db := storagetest.OpenFile(r.t, r.path, &bolt.Options{NoSync: true})
	r.db, r.lad = db, NewService(db, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: r.clk.Now})
	var err error
	r.games, err = games.New(db, games.Options{Clock: r.clk, Rand: func() uint64 { return 0 },
		OnFinish: func(w storage.Tx, g *games.Game) error {
			if err := r.lad.Record(w, &g.Game); err != nil {
				return err
			}
			return r.fail
		}})
	if err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) close() {
	if r.games != nil {
		r.games.Close()
		r.games = nil
	}
	if r.db != nil {
		r.db.Close()
		r.db = nil
	}
}

func (r *rig) restart() { r.close(); r.open() }

func (r *rig) rid() string { r.seq++; return fmt.Sprint("req-", r.seq) }

// start creates a game in guild g: white against black.
func (r *rig) start(white, black storage.Player, control string, rated bool) *games.Game {
	r.t.Helper()
	res, err := r.games.StartGame(context.Background(), games.StartRequest{RequestID: r.rid(), GuildID: "g", ChannelID: "c",
		White: white, Black: black, Control: control, Rated: rated})
	if err != nil {
		r.t.Fatal(err)
	}
	return res.Game
}

// play plays the moves alternately, each with a fresh request id, and returns the last
// request id used.
func (r *rig) play(g *games.Game, moves string) string {
	r.t.Helper()
	var id string
	for i, mv := range strings.Fields(moves) {
		p := g.White
		if i%2 == 1 {
			p = g.Black
		}
		id = r.rid()
		r.clk.Advance(time.Second)
		if _, err := r.games.Move(context.Background(), games.MoveRequest{Action: games.Action{RequestID: id, GameID: g.ID, UserID: p.ID}, Move: mv}); err != nil {
			r.t.Fatalf("move %s: %v", mv, err)
		}
	}
	return id
}

// rating returns a player's rating in guild g's category, 0 when unrated.
func (r *rig) rating(cat clock.Category, userID string) float64 {
	r.t.Helper()
	p, err := storage.Read(context.Background(), r.db, func(tx storage.Tx) (storage.LadderPlayer, error) { return tx.LadderPlayer("g", cat, userID) })
	if errors.Is(err, storage.ErrNotFound) {
		return 0
	}
	if err != nil {
		r.t.Fatal(err)
	}
	return p.Rating
}

func (r *rig) results() []storage.RatedResult {
	r.t.Helper()
	rs, err := storage.Read(context.Background(), r.db, func(tx storage.Tx) ([]storage.RatedResult, error) { return tx.RatedResults("g") })
	if err != nil {
		r.t.Fatal(err)
	}
	return rs
}

const foolsMate = "f3 e5 g4 Qh4#" // Black mates

func TestRatedGameMovesBothRatingsOnce(t *testing.T) {
	r := newRig(t)
	g := r.start(alice, bob, "3+2", true)
	last := r.play(g, foolsMate)
	if a, b := r.rating(clock.Blitz, alice.ID), r.rating(clock.Blitz, bob.ID); a != 1480 || b != 1520 {
		t.Fatalf("after Black's win: alice %v, bob %v; want 1480 and 1520 (K 40, equal ratings)", a, b)
	}
	rs := r.results()
	if len(rs) != 1 || rs[0].GameID != g.ID || rs[0].Score != 0 || rs[0].WhiteBefore != 1500 || rs[0].WhiteAfter != 1480 ||
		rs[0].BlackAfter != 1520 || rs[0].Category != clock.Blitz {
		t.Fatalf("rated results %+v", rs)
	}
	end := r.games
	if gg, _ := end.Game(context.Background(), g.ID); !rs[0].Ended.Equal(gg.Ended) {
		t.Errorf("result ended %v, game ended %v", rs[0].Ended, gg.Ended)
	}

	// The mating move again, with the same request id (a retried interaction): replayed,
	// not rated again.
	res, err := r.games.Move(context.Background(), games.MoveRequest{Action: games.Action{RequestID: last, GameID: g.ID, UserID: bob.ID}, Move: "Qh4#"})
	if err != nil || !res.Replayed {
		t.Fatalf("retry of the mate: %+v, %v; want a replayed answer", res, err)
	}
	// After a restart, the hook run again on the finished game (a replayed ending)
	// changes nothing either.
	r.restart()
	rec, err := storage.Read(t.Context(), r.db, func(tx storage.Tx) (*storage.Game, error) { return tx.Game(g.ID) })
	if err != nil {
		t.Fatal(err)
	}
	if err := r.db.Update(t.Context(), func(w storage.Tx) error { return r.lad.Record(w, rec) }); err != nil {
		t.Fatal(err)
	}
	if a, b := r.rating(clock.Blitz, alice.ID), r.rating(clock.Blitz, bob.ID); a != 1480 || b != 1520 {
		t.Errorf("after a retry and a replay: alice %v, bob %v; want 1480 and 1520", a, b)
	}
	if n := len(r.results()); n != 1 {
		t.Errorf("%d rated results, want 1", n)
	}
	p, _ := storage.Read(t.Context(), r.db, func(tx storage.Tx) (storage.LadderPlayer, error) { return tx.LadderPlayer("g", clock.Blitz, bob.ID) })
	if p.Games != 1 || p.Wins != 1 || len(p.History) != 1 || p.History[0].Rating != 1520 {
		t.Errorf("bob's record %+v", p)
	}
}

func TestRatingsCommitWithTheResult(t *testing.T) {
	r := newRig(t)
	g := r.start(alice, bob, "3+2", true)
	r.play(g, "f3 e5 g4")
	r.fail = errors.New("disk full")
	_, err := r.games.Move(context.Background(), games.MoveRequest{Action: games.Action{RequestID: "mate", GameID: g.ID, UserID: bob.ID}, Move: "Qh4#"})
	if err == nil {
		t.Fatal("the mate was accepted although its transaction failed")
	}
	if live, _ := r.games.Game(context.Background(), g.ID); !live.Live() {
		t.Error("the game ended although its transaction failed")
	}
	if n := len(r.results()); n != 0 || r.rating(clock.Blitz, bob.ID) != 0 {
		t.Errorf("a failed ending left %d results and bob at %v", n, r.rating(clock.Blitz, bob.ID))
	}
	r.fail = nil
	if _, err := r.games.Move(context.Background(), games.MoveRequest{Action: games.Action{RequestID: "mate", GameID: g.ID, UserID: bob.ID}, Move: "Qh4#"}); err != nil {
		t.Fatal(err)
	}
	if n := len(r.results()); n != 1 || r.rating(clock.Blitz, bob.ID) != 1520 {
		t.Errorf("after the retry: %d results, bob %v; want 1 and 1520", n, r.rating(clock.Blitz, bob.ID))
	}
}

func TestGamesThatDoNotCount(t *testing.T) {
	r := newRig(t)
	casual := r.start(alice, bob, "3+2", false)
	r.play(casual, foolsMate)
	aborted := r.start(alice, bob, "3+2", true)
	r.play(aborted, "e4")
	if _, err := r.games.Abort(context.Background(), games.Action{RequestID: r.rid(), GameID: aborted.ID, UserID: bob.ID}); err != nil {
		t.Fatal(err)
	}
	untimed := r.start(alice, bob, "-", true)
	r.play(untimed, foolsMate)
	if n := len(r.results()); n != 0 {
		t.Errorf("%d rated results from a casual, an aborted and an untimed game", n)
	}
	for _, cat := range Categories() {
		if l, _ := storage.Read(t.Context(), r.db, func(tx storage.Tx) ([]storage.LadderPlayer, error) { return tx.Ladder("g", cat) }); len(l) != 0 {
			t.Errorf("%s ladder: %+v", cat, l)
		}
	}
}

func TestCounts(t *testing.T) {
	tc := func(s string) clock.TimeControl {
		c, err := clock.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	base := storage.Game{ID: 5, GuildID: "g", White: alice, Black: bob, Rated: true, Control: tc("5+3"),
		Created: t0, Ended: t0.Add(time.Hour), Outcome: chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Resignation},
		Moves: []chesscore.Move{chesscore.NewMove(chesscore.E2, chesscore.E4), chesscore.NewMove(chesscore.E7, chesscore.E5)}}
	cases := []struct {
		name   string
		spoil  func(g *storage.Game)
		counts bool
		score  float64
		cat    clock.Category
	}{
		{"rated blitz win", func(*storage.Game) {}, true, 1, clock.Blitz},
		{"draw", func(g *storage.Game) {
			g.Outcome = chesscore.Outcome{Result: chesscore.Draw, Termination: chesscore.Agreement}
		}, true, 0.5, clock.Blitz},
		{"black wins on time", func(g *storage.Game) {
			g.Outcome = chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.TimeForfeit}
		}, true, 0, clock.Blitz},
		{"bullet", func(g *storage.Game) { g.Control = tc("1+0") }, true, 1, clock.Bullet},
		{"rapid", func(g *storage.Game) { g.Control = tc("15+10") }, true, 1, clock.Rapid},
		{"classical", func(g *storage.Game) { g.Control = tc("90+30") }, true, 1, clock.Standard},
		{"correspondence", func(g *storage.Game) { g.Control = tc("3d") }, true, 1, clock.Correspondence},
		{"casual", func(g *storage.Game) { g.Rated = false }, false, 0, 0},
		{"aborted", func(g *storage.Game) { g.Outcome = chesscore.Outcome{Termination: chesscore.Aborted} }, false, 0, 0},
		{"live", func(g *storage.Game) { g.Outcome = chesscore.Outcome{} }, false, 0, 0},
		{"untimed", func(g *storage.Game) { g.Control = tc("-") }, false, 0, 0},
		{"terminal", func(g *storage.Game) { g.GuildID = "" }, false, 0, 0},
		{"set-up position", func(g *storage.Game) { g.StartFEN = "8/8/8/8/8/8/k7/K6Q w - - 0 1" }, false, 0, 0},
		{"against oneself", func(g *storage.Game) { g.Black = g.White }, false, 0, 0},
		{"black never moved", func(g *storage.Game) { g.Moves = g.Moves[:1] }, false, 0, 0},
		{"nobody moved", func(g *storage.Game) { g.Moves = nil }, false, 0, 0},
		{"adjudicated before black moved", func(g *storage.Game) {
			g.Moves = g.Moves[:1]
			g.Outcome = chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Adjudication}
		}, false, 0, 0},
		{"forfeit by absence", func(g *storage.Game) {
			g.Outcome = chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.NoShow}
		}, false, 0, 0},
	}
	for _, c := range cases {
		g := base
		c.spoil(&g)
		lg, ok := Counts(&g)
		if ok != c.counts {
			t.Errorf("%s: counts %v, want %v", c.name, ok, c.counts)
			continue
		}
		if ok && (lg.Score != c.score || lg.Category != c.cat || lg.GameID != 5 || !lg.At.Equal(g.Ended) || lg.White != alice.ID) {
			t.Errorf("%s: %+v", c.name, lg)
		}
	}
}

// playSeries plays three rated blitz games: bob beats alice, alice and carol draw,
// carol beats bob.
func playSeries(r *rig) {
	r.play(r.start(alice, bob, "3+2", true), foolsMate)
	g := r.start(alice, carol, "3+2", true)
	r.play(g, "e4 e5 Nf3")
	r.clk.Advance(time.Second)
	if _, err := r.games.OfferDraw(context.Background(), games.Action{RequestID: r.rid(), GameID: g.ID, UserID: alice.ID}); err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.games.AcceptDraw(context.Background(), games.Action{RequestID: r.rid(), GameID: g.ID, UserID: carol.ID}); err != nil {
		r.t.Fatal(err)
	}
	r.play(r.start(bob, carol, "3+2", true), foolsMate)
}

func TestSettingsChangeRecomputes(t *testing.T) {
	r := newRig(t)
	playSeries(r)
	fide := map[string]float64{}
	for _, u := range []string{alice.ID, bob.ID, carol.ID} {
		fide[u] = r.rating(clock.Blitz, u)
	}
	// FIDE, K 40. Game 1: bob beats alice, 1520 and 1480. Game 2: alice (1480) draws carol
	// (1500): alice +40×(0.5−0.47) = +1.2 → 1481, carol −1.2 → 1499. Game 3: carol (1499)
	// beats bob (1520): carol +40×(1−0.47) = +21.2 → 1520, bob −21.2 → 1499.
	want := map[string]float64{alice.ID: 1481, bob.ID: 1499, carol.ID: 1520}
	for u, w := range want {
		if fide[u] != w {
			t.Errorf("FIDE: %s at %v, want %v", u, fide[u], w)
		}
	}

	n, err := r.lad.SetSettings(context.Background(), "g", Settings{System: Glicko2, StartRating: 1500})
	if err != nil || n != 3 {
		t.Fatalf("SetSettings: %d games, %v", n, err)
	}
	// The ladder must be what the pure replay gives under Glicko-2.
	var lg []Game
	for _, res := range r.results() {
		lg = append(lg, Game{GameID: res.GameID, White: res.White, Black: res.Black, Score: res.Score, Category: res.Category, At: res.Ended})
	}
	glicko, err := Recompute(Settings{System: Glicko2, StartRating: 1500}, nil, lg)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{alice.ID, bob.ID, carol.ID} {
		p, err := storage.Read(t.Context(), r.db, func(tx storage.Tx) (storage.LadderPlayer, error) { return tx.LadderPlayer("g", clock.Blitz, u) })
		if err != nil {
			t.Fatal(err)
		}
		w := glicko[clock.Blitz][u]
		if math.Abs(p.Rating-w.Rating) > 1e-9 || math.Abs(p.RD-w.RD) > 1e-9 || p.Games != w.Games || p.RD == 0 {
			t.Errorf("Glicko-2: %s stored %+v, want %+v", u, p, w)
		}
		if p.Rating == fide[u] {
			t.Errorf("Glicko-2: %s still at the FIDE rating %v", u, p.Rating)
		}
	}
	// The first game's stored changes follow: 1500 (RD 350) beating 1500 gains about 163.
	first := r.results()[0]
	if first.BlackAfter < 1600 || first.WhiteAfter > 1400 || first.BlackBefore != 1500 {
		t.Errorf("first game after the recompute: %+v", first)
	}
	if p, _ := r.lad.Profile(context.Background(), "g", bob.ID); len(p.Entries) != 1 || !p.Entries[0].Provisional(p.Settings) {
		t.Errorf("bob after 2 Glicko-2 games: %+v, want provisional (RD above %d)", p, ProvisionalRD)
	}
	// Back to FIDE: the same ratings as before, exactly.
	if _, err := r.lad.SetSettings(context.Background(), "g", DefaultSettings()); err != nil {
		t.Fatal(err)
	}
	for u, w := range want {
		if got := r.rating(clock.Blitz, u); got != w {
			t.Errorf("back to FIDE: %s at %v, want %v", u, got, w)
		}
	}
	if first := r.results()[0]; first.WhiteAfter != 1480 || first.BlackAfter != 1520 {
		t.Errorf("back to FIDE, first game %+v", first)
	}
	// A new start rating moves everyone.
	if _, err := r.lad.SetSettings(context.Background(), "g", Settings{System: FIDE, StartRating: 1200}); err != nil {
		t.Fatal(err)
	}
	if got := r.rating(clock.Blitz, alice.ID); got != 1181 {
		t.Errorf("start 1200: alice at %v, want 1181", got)
	}
	if _, err := r.lad.SetSettings(context.Background(), "g", Settings{System: "elo", StartRating: 1200}); err == nil {
		t.Error("an unknown system was accepted")
	}
	if gs, _ := storage.Read(t.Context(), r.db, func(tx storage.Tx) (storage.GuildSettings, error) { return tx.GuildSettings("g") }); gs.RatingSystem != storage.RatingFIDE || gs.StartRating != 1200 {
		t.Errorf("stored settings %+v", gs)
	}
}

func TestSeedAndStandings(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	// Carol is seeded before she plays: shown without a question mark.
	p, err := r.lad.Seed(ctx, "g", clock.Blitz, carol, 2100)
	if err != nil {
		t.Fatal(err)
	}
	if set := DefaultSettings(); p.Display(set) != "2100" || p.Games != 0 {
		t.Errorf("seeded carol %+v shows %q", p, p.Display(set))
	}
	playSeries(r)
	// alice beaten by bob (1480), then draws carol (2100, K 40, capped 400 gap: 1480 vs 1880
	// → expected 0.08): +40 × 0.42 = +16.8 → 1497.
	if got := r.rating(clock.Blitz, alice.ID); got != 1497 {
		t.Errorf("alice %v, want 1497", got)
	}
	// Seeding alice now replays her games from 1800.
	if _, err := r.lad.Seed(ctx, "g", clock.Blitz, storage.Player{ID: alice.ID, Name: "Renamed"}, 1800); err != nil {
		t.Fatal(err)
	}
	rows, set, total, err := r.lad.Leaderboard(ctx, "g", clock.Blitz, 2)
	if err != nil {
		t.Fatal(err)
	}
	if total != 3 || len(rows) != 2 || rows[0].Name != "Carol" || rows[0].Rank != 1 || rows[1].Name != "Alice" {
		t.Fatalf("leaderboard %+v (of %d)", rows, total)
	}
	if rows[1].Display(set) != fmt.Sprint(int(rows[1].Rating)) || rows[1].Rating <= 1750 {
		t.Errorf("seeded alice after her games: %+v shows %s", rows[1].Player, rows[1].Display(set))
	}
	pr, err := r.lad.Profile(ctx, "g", bob.ID)
	if err != nil {
		t.Fatal(err)
	}
	games, w, d, l := pr.Games()
	if pr.Name != "Bob" || len(pr.Entries) != 1 || pr.Entries[0].Rank != 3 || pr.Entries[0].Of != 3 || games != 2 || w != 1 || d != 0 || l != 1 {
		t.Errorf("bob's profile %+v (%d games %d-%d-%d)", pr, games, w, d, l)
	}
	if pr.Entries[0].Display(pr.Settings) != fmt.Sprintf("%d?", int(pr.Entries[0].Rating)) {
		t.Errorf("bob after 2 games shows %q, want provisional", pr.Entries[0].Display(pr.Settings))
	}
	// A recompute keeps the seeds.
	before := r.rating(clock.Blitz, alice.ID)
	if _, err := r.lad.Recompute(ctx, "g"); err != nil {
		t.Fatal(err)
	}
	if got := r.rating(clock.Blitz, alice.ID); got != before {
		t.Errorf("recompute moved seeded alice from %v to %v", before, got)
	}
	if cat, ok, _ := r.lad.Busiest(ctx, "g"); !ok || cat != clock.Blitz {
		t.Errorf("busiest ladder %v %v", cat, ok)
	}
	if _, err := r.lad.Seed(ctx, "g", clock.Blitz, bob, 99999); err == nil {
		t.Error("a seed of 99999 was accepted")
	}
	if _, err := r.lad.Seed(ctx, "", clock.Blitz, bob, 1800); !errors.Is(err, ErrNoGuild) {
		t.Errorf("seed outside a guild: %v", err)
	}
	if _, _, _, err := r.lad.Leaderboard(ctx, "g", clock.NoCategory, 0); !errors.Is(err, ErrCategory) {
		t.Errorf("leaderboard of no category: %v", err)
	}
}

func TestConcurrentEndsOfOnePlayersGames(t *testing.T) {
	// Alice's games against bob and carol end at the same time: both count, from the
	// ratings the other left (the group commit runs the hooks in one transaction).
	r := newRig(t)
	g1 := r.start(alice, bob, "3+2", true)
	g2 := r.start(alice, carol, "3+2", true)
	r.play(g1, "f3 e5 g4")
	r.play(g2, "f3 e5 g4")
	errs := make(chan error, 2)
	for _, g := range []*games.Game{g1, g2} {
		go func() {
			_, err := r.games.Move(context.Background(), games.MoveRequest{Action: games.Action{RequestID: r.ridFor(g), GameID: g.ID, UserID: g.Black.ID}, Move: "Qh4#"})
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	p, _ := storage.Read(t.Context(), r.db, func(tx storage.Tx) (storage.LadderPlayer, error) { return tx.LadderPlayer("g", clock.Blitz, alice.ID) })
	// 1500 → 1480 (−20), then 1480 vs 1500 lost: −40×0.47 = −18.8 → −19: 1461.
	if p.Games != 2 || p.Losses != 2 || p.Rating != 1461 {
		t.Errorf("alice after two losses: %+v, want 1461", p)
	}
}

// ridFor is a request id for the mate of game g (distinct per game, safe from goroutines).
func (r *rig) ridFor(g *games.Game) string { return fmt.Sprint("mate-", g.ID) }

// TestChess960Ladder: a rated Chess960 game counts in the Chess960 ladder, not in its
// speed's, across a restart; one from a position that is no Chess960 start counts in
// neither.
func TestChess960Ladder(t *testing.T) {
	r := newRig(t)
	res, err := r.games.StartGame(context.Background(), games.StartRequest{RequestID: r.rid(), GuildID: "g", ChannelID: "c",
		White: alice, Black: bob, Control: "3+2", Rated: true, Variant: chesscore.Chess960, Position: 518})
	if err != nil {
		t.Fatal(err)
	}
	r.play(res.Game, foolsMate)
	r.restart()
	if got := r.rating(clock.Chess960, bob.ID); got <= 1500 {
		t.Errorf("bob's Chess960 rating %v after a win, want above 1500", got)
	}
	if got := r.rating(clock.Blitz, bob.ID); got != 0 {
		t.Errorf("the Chess960 game moved bob's blitz rating to %v", got)
	}
	mid := "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w KQkq - 0 1"
	if lg, ok := Counts(&storage.Game{ID: 9, GuildID: "g", White: alice, Black: bob, Rated: true, Control: res.Game.Control,
		Variant: chesscore.Chess960, StartFEN: mid, Moves: make([]chesscore.Move, 2),
		Outcome: chesscore.Outcome{Result: chesscore.WhiteWins, Termination: chesscore.Resignation}}); ok {
		t.Errorf("a Chess960 game from a set-up position counts: %+v", lg)
	}
}
