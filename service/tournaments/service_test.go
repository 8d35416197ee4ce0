package tournaments

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/chess960"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/internal/timers"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
	"github.com/gambitchess/gambit/storage/storagetest"
	"github.com/gambitchess/gambit/tournament"
	"github.com/gambitchess/gambit/tournament/trf"
)

var (
	ctx = context.Background()
	t0  = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
)

// rig is a store, a real game service and the tournament service, on a manual clock.
type rig struct {
	t    *testing.T
	path string
	clk  *timers.ManualClock
	db   *bolt.DB
	gs   *games.Service
	ts   *Service
	mu   sync.Mutex
	evs  []Event
	seq  int
}

func newRig(t *testing.T) *rig {
	r := &rig{t: t, path: filepath.Join(t.TempDir(), "t.db"), clk: timers.NewManualClock(t0)}
	r.open()
	t.Cleanup(r.close)
	return r
}

func (r *rig) open() {
	r.t.Helper()
	db := storagetest.OpenFile(r.t, r.path, &bolt.Options{NoSync: true})
	r.db = db
	var ts *Service
	gs, err := games.New(db, games.Options{
		Clock: r.clk, Rand: func() uint64 { return 0 },
		OnFinish: func(w storage.Tx, g *games.Game) error { return ts.OnFinish(w, &g.Game) },
		Notifier: games.NotifierFunc(func(_ context.Context, e games.Event) {
			if over, ok := e.(games.GameOver); ok {
				ts.GameOver(ctx, over.Game.ID)
			}
		}),
	})
	if err != nil {
		r.t.Fatal(err)
	}
	ts = New(db, gs, Options{Clock: r.clk, Notifier: NotifierFunc(func(_ context.Context, e Event) {
		r.mu.Lock()
		r.evs = append(r.evs, e)
		r.mu.Unlock()
	}), Rating: func(_, user string, _ clock.Category) int {
		var n int
		fmt.Sscanf(user, "u%d", &n)
		return 2000 - 10*n // u1 is the top seed
	}})
	r.gs, r.ts = gs, ts
	if err := ts.Restore(ctx); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) close() {
	if r.gs != nil {
		r.gs.Close()
		r.db.Close()
		r.gs = nil
	}
}

func (r *rig) restart() {
	r.t.Helper()
	r.close()
	r.open()
	r.settle()
}

// settle delivers the game events and advances the events they kicked, until quiet.
func (r *rig) settle() {
	r.t.Helper()
	for range 100 {
		if err := r.gs.Flush(ctx); err != nil {
			r.t.Fatal(err)
		}
		if r.ts.FireDue(ctx) == 0 {
			return
		}
	}
	r.t.Fatal("the events never settle")
}

func (r *rig) events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.evs...)
}

func player(n int) storage.Player {
	return storage.Player{ID: fmt.Sprint("u", n), Name: fmt.Sprint("Player ", n)}
}

func (r *rig) create(set Settings, n int) *View {
	r.t.Helper()
	v, err := r.ts.Create(ctx, CreateRequest{RequestID: "create-" + string(set.Format), GuildID: "g", ChannelID: "c", By: player(1), Settings: set})
	if err != nil {
		r.t.Fatal(err)
	}
	for i := n; i >= 1; i-- { // join in reverse: seeding must sort them
		if _, err := r.ts.Join(ctx, v.ID, "g", player(i)); err != nil {
			r.t.Fatal(err)
		}
	}
	return v
}

func (r *rig) rid() string {
	r.seq++
	return fmt.Sprint("req-", r.seq)
}

// play ends game id with result ("1-0", "0-1", "draw").
func (r *rig) play(id uint64, result string) {
	r.t.Helper()
	g, err := r.gs.Game(ctx, id)
	if err != nil {
		r.t.Fatal(err)
	}
	w, b := g.White.ID, g.Black.ID
	move := func(user, mv string, draw bool) {
		if _, err := r.gs.Move(ctx, games.MoveRequest{Action: games.Action{RequestID: r.rid(), GameID: id, UserID: user}, Move: mv, OfferDraw: draw}); err != nil {
			r.t.Fatalf("game %d: %s: %v", id, mv, err)
		}
	}
	act := func(user string) games.Action { return games.Action{RequestID: r.rid(), GameID: id, UserID: user} }
	switch result {
	case "1-0":
		move(w, "e4", false)
		if _, err := r.gs.Resign(ctx, act(b)); err != nil {
			r.t.Fatal(err)
		}
	case "0-1":
		move(w, "e4", false)
		move(b, "e5", false)
		if _, err := r.gs.Resign(ctx, act(w)); err != nil {
			r.t.Fatal(err)
		}
	case "draw":
		move(w, "e4", false)
		move(b, "e5", false)
		move(w, "Nf3", true)
		if _, err := r.gs.AcceptDraw(ctx, act(b)); err != nil {
			r.t.Fatal(err)
		}
	default:
		r.t.Fatalf("result %q", result)
	}
	r.settle()
}

// round returns the games of the latest round (pending ones only when live).
func (r *rig) round(id uint64) []Pairing {
	r.t.Helper()
	v, err := r.ts.Get(ctx, id)
	if err != nil {
		r.t.Fatal(err)
	}
	_, ps, err := v.Pairings(0)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []Pairing
	for _, p := range ps {
		if p.GameID != 0 && p.Result == "…" {
			out = append(out, p)
		}
	}
	return out
}

func (r *rig) view(id uint64) *View {
	r.t.Helper()
	v, err := r.ts.Get(ctx, id)
	if err != nil {
		r.t.Fatal(err)
	}
	return v
}

// checkTRF parses the event's TRF back and validates it.
func checkTRF(t *testing.T, v *View, rounds int) *tournament.Event {
	t.Helper()
	b, err := v.TRF()
	if err != nil {
		t.Fatal(err)
	}
	ev, err := trf.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the TRF does not parse: %v\n%s", err, b)
	}
	if err := ev.Validate(); err != nil {
		t.Fatalf("the TRF is inconsistent: %v\n%s", err, b)
	}
	if ev.RoundsRecorded() != rounds {
		t.Errorf("TRF with %d rounds, want %d\n%s", ev.RoundsRecorded(), rounds, b)
	}
	return ev
}

func total(tb Table) float64 {
	var s float64
	for _, r := range tb.Rows {
		var x float64
		fmt.Sscanf(r.Points, "%g", &x)
		s += x
	}
	return s
}

func TestSwissWithByeNoShowAndRestart(t *testing.T) {
	r := newRig(t)
	v := r.create(Settings{Format: Swiss, Control: "5+3", Rounds: 3, NoShow: time.Minute, Rated: true}, 5)
	// Errors: not the organiser, already joined, wrong guild, too few rounds left.
	if _, err := r.ts.Start(ctx, v.ID, "g", "u2", false); !errors.Is(err, ErrNotOrganizer) {
		t.Errorf("start by a player: %v", err)
	}
	if _, err := r.ts.Join(ctx, v.ID, "g", player(3)); !errors.Is(err, ErrAlreadyJoined) {
		t.Errorf("second join: %v", err)
	}
	if _, err := r.ts.Join(ctx, v.ID, "other", player(9)); !errors.Is(err, ErrWrongGuild) {
		t.Errorf("join from another guild: %v", err)
	}
	if _, err := r.ts.Leave(ctx, v.ID, "g", "u9"); !errors.Is(err, ErrNotJoined) {
		t.Errorf("leave by a stranger: %v", err)
	}
	if again, err := r.ts.Create(ctx, CreateRequest{RequestID: "create-swiss", GuildID: "g", ChannelID: "c", By: player(1), Settings: Settings{Format: Swiss, Rounds: 3}}); err != nil || again.ID != v.ID {
		t.Errorf("a repeated create made %v, %v", again, err)
	}
	if _, err := r.ts.Start(ctx, v.ID, "g", "u1", false); err != nil {
		t.Fatal(err)
	}
	r.settle()
	if _, err := r.ts.Join(ctx, v.ID, "g", player(8)); !errors.Is(err, ErrStarted) {
		t.Errorf("join after the start: %v", err)
	}
	v = r.view(v.ID)
	if v.State.Players[0].UserID != "u1" || v.State.Players[4].UserID != "u5" {
		t.Errorf("seeding %+v", v.State.Players)
	}
	_, ps, _ := v.Pairings(1)
	if len(ps) != 3 || ps[2].Black != "" || ps[2].Result != "bye" {
		t.Fatalf("round 1 %+v", ps)
	}
	for _, p := range r.round(v.ID) {
		r.play(p.GameID, "1-0")
	}
	// Round 2: White of the first board never moves and loses by forfeit.
	games2 := r.round(v.ID)
	if len(games2) != 2 {
		t.Fatalf("round 2 %+v", games2)
	}
	r.play(games2[1].GameID, "draw")
	r.clk.Advance(61 * time.Second)
	r.gs.FireDue()
	r.settle()
	g, _ := r.gs.Game(ctx, games2[0].GameID)
	if g.Outcome != (chesscore.Outcome{Result: chesscore.BlackWins, Termination: chesscore.NoShow}) {
		t.Fatalf("no-show game ended %v", g.Outcome)
	}
	_, ps, _ = r.view(v.ID).Pairings(2)
	if ps[0].Result != "-/+" {
		t.Errorf("round 2 pairings %+v", ps)
	}
	// Round 3 runs across a restart.
	games3 := r.round(v.ID)
	if len(games3) != 2 {
		t.Fatalf("round 3 %+v", games3)
	}
	r.play(games3[0].GameID, "0-1")
	r.restart()
	r.play(games3[1].GameID, "draw")
	v = r.view(v.ID)
	if v.Status != storage.TournamentFinished || !v.State.Closed {
		t.Fatalf("status %s closed %v", v.Status, v.State.Closed)
	}
	tb := v.Standings()
	if total(tb) != 9 || len(tb.Rows) != 5 || tb.Caption != "final, 3 rounds" || strings.Join(tb.Columns, " ") != "BH/C1 BH SB DE" {
		t.Errorf("standings %+v", tb)
	}
	ev := checkTRF(t, v, 3)
	if b, _ := v.TRF(); !bytes.HasPrefix(b, []byte("012 5+3 Swiss\n042 2026/03/01\n062 5\n092 Swiss System (FIDE Dutch)\n122 5+3\n001")) {
		t.Errorf("TRF header:\n%s", b)
	}
	byes, forfeits := 0, 0
	for _, p := range ev.Players {
		for _, c := range p.Results {
			switch c.Code {
			case tournament.PAB:
				byes++
			case tournament.ForfeitWin, tournament.ForfeitLoss:
				forfeits++
			}
		}
	}
	if byes != 3 || forfeits != 2 {
		t.Errorf("TRF has %d byes and %d forfeit cells, want 3 and 2", byes, forfeits)
	}
	var rounds, finals int
	for _, e := range r.events() {
		switch e.(type) {
		case RoundStarted:
			rounds++
		case Finished:
			finals++
		}
	}
	if rounds != 3 || finals != 1 {
		t.Errorf("%d round posts and %d final posts", rounds, finals)
	}
}

func TestRoundRobinWithdrawal(t *testing.T) {
	r := newRig(t)
	v := r.create(Settings{Format: RoundRobin, Control: "3+2"}, 4)
	if _, err := r.ts.Withdraw(ctx, v.ID, "g", "u2"); !errors.Is(err, ErrNotStarted) {
		t.Errorf("withdraw before the start: %v", err)
	}
	if _, err := r.ts.Start(ctx, v.ID, "g", "u1", false); err != nil {
		t.Fatal(err)
	}
	r.settle()
	for round := 1; round <= 3; round++ {
		gs := r.round(v.ID)
		if round == 2 {
			if _, err := r.ts.Withdraw(ctx, v.ID, "g", "u4"); err != nil {
				t.Fatal(err)
			}
			if _, err := r.ts.Withdraw(ctx, v.ID, "g", "u4"); !errors.Is(err, ErrWithdrawn) {
				t.Errorf("second withdrawal: %v", err)
			}
		}
		for _, p := range gs {
			r.play(p.GameID, "draw")
		}
	}
	v = r.view(v.ID)
	if v.Status != storage.TournamentFinished {
		t.Fatalf("status %s", v.Status)
	}
	tb := v.Standings()
	if total(tb) != 6 || tb.Rows[len(tb.Rows)-1].Note != "withdrawn" {
		t.Errorf("standings %+v", tb)
	}
	_, ps, _ := v.Pairings(3)
	forfeit := false
	for _, p := range ps {
		forfeit = forfeit || strings.Contains(p.Result, "+")
	}
	if !forfeit {
		t.Errorf("round 3 of the withdrawn player is no forfeit: %+v", ps)
	}
	checkTRF(t, v, 3)
}

func TestArenaAcrossRestart(t *testing.T) {
	r := newRig(t)
	v := r.create(Settings{Format: Arena, Control: "1+0", Duration: 10 * time.Minute}, 3)
	if _, err := r.ts.Start(ctx, v.ID, "g", "u1", false); err != nil {
		t.Fatal(err)
	}
	r.settle()
	played := 0
	for i := 0; i < 4; i++ {
		gs := r.round(v.ID)
		if len(gs) != 1 {
			t.Fatalf("game %d: %d games under way, want 1 (three players)", i, len(gs))
		}
		r.clk.Advance(time.Minute)
		if i == 2 {
			r.restart()
		}
		r.play(gs[0].GameID, "1-0")
		played++
	}
	// A fourth player joins late.
	if _, err := r.ts.Join(ctx, v.ID, "g", player(4)); err != nil {
		t.Fatal(err)
	}
	r.settle()
	if gs := r.round(v.ID); len(gs) != 2 {
		t.Fatalf("after a late join %d games, want 2", len(gs))
	}
	r.clk.Advance(10 * time.Minute)
	r.settle()
	if v := r.view(v.ID); v.Status != storage.TournamentRunning {
		t.Fatalf("the arena closed with games under way: %s", v.Status)
	}
	for _, p := range r.round(v.ID) {
		r.play(p.GameID, "draw")
	}
	v = r.view(v.ID)
	if v.Status != storage.TournamentFinished {
		t.Fatalf("status %s", v.Status)
	}
	tb := v.Standings()
	games := 0
	for _, row := range tb.Rows {
		var n int
		fmt.Sscanf(row.Values[0], "%d", &n)
		games += n
	}
	if games != 2*(played+2) || len(v.State.ArenaGames) != played+2 {
		t.Errorf("standings %+v (%d arena games)", tb, len(v.State.ArenaGames))
	}
	if _, err := v.TRF(); err == nil {
		t.Error("an arena wrote a TRF")
	}
}

func TestKnockoutArmageddon(t *testing.T) {
	r := newRig(t)
	v := r.create(Settings{Format: Knockout, Control: "5+3", MatchGames: 1}, 2)
	if _, err := r.ts.Start(ctx, v.ID, "g", "u1", false); err != nil {
		t.Fatal(err)
	}
	r.settle()
	gs := r.round(v.ID)
	if len(gs) != 1 {
		t.Fatalf("games %+v", gs)
	}
	r.play(gs[0].GameID, "draw") // level: straight to Armageddon (no rapid, no blitz)
	gs = r.round(v.ID)
	if len(gs) != 1 || gs[0].Stage != "Armageddon" {
		t.Fatalf("after a drawn match %+v", gs)
	}
	g, _ := r.gs.Game(ctx, gs[0].GameID)
	if g.Control.String() != "5+0" {
		t.Errorf("Armageddon control %s", g.Control)
	}
	r.play(gs[0].GameID, "draw") // a draw: Black goes through
	v = r.view(v.ID)
	if v.Status != storage.TournamentFinished {
		t.Fatalf("status %s", v.Status)
	}
	tb := v.Standings()
	if tb.Rows[0].Name != g.Black.Name || tb.Rows[0].Values[0] != "winner" {
		t.Errorf("standings %+v; Black was %s", tb, g.Black.Name)
	}
	checkTRF(t, v, 2)
}

func TestKnockoutFourWithByeAndLadder(t *testing.T) {
	r := newRig(t)
	v := r.create(Settings{Format: Knockout, Control: "5+3", MatchGames: 2, RapidGames: 2}, 3)
	if _, err := r.ts.Start(ctx, v.ID, "g", "u1", false); err != nil {
		t.Fatal(err)
	}
	r.settle()
	// Seed 1 has a bye; 2 and 3 play two games, 1-1, then rapid.
	for _, res := range []string{"1-0", "1-0", "1-0", "draw"} {
		gs := r.round(v.ID)
		if len(gs) != 1 {
			t.Fatalf("games %+v", gs)
		}
		r.play(gs[0].GameID, res)
	}
	v = r.view(v.ID)
	if len(v.State.Brackets) != 2 {
		t.Fatalf("brackets %+v", v.State.Brackets)
	}
	m := v.State.Brackets[0][1]
	if len(m.Games) != 4 || m.Games[2].Stage != "rapid" || m.Games[2].Control != "10+10" || m.Winner == 0 {
		t.Errorf("semi-final %+v", m)
	}
	for len(r.round(v.ID)) > 0 {
		r.play(r.round(v.ID)[0].GameID, "1-0")
	}
	v = r.view(v.ID)
	if v.Status != storage.TournamentFinished {
		t.Fatalf("status %s", v.Status)
	}
	checkTRF(t, v, 9) // 4 semi-final games, then a final of 2 + 2 rapid + Armageddon
	if n := len(v.State.Brackets[1][0].Games); n != 5 {
		t.Errorf("the final (every game won by White) took %d games, want 5", n)
	}
}

func TestSettingsErrors(t *testing.T) {
	for name, set := range map[string]Settings{
		"format":      {Format: "ladder"},
		"rounds":      {Format: Swiss, Rounds: 0},
		"many rounds": {Format: Swiss, Rounds: 21},
		"cycles":      {Format: RoundRobin, Rounds: 3},
		"duration":    {Format: Arena, Duration: time.Second},
		"control":     {Format: Swiss, Rounds: 3, Control: "3d"},
		"no show":     {Format: Swiss, Rounds: 3, NoShow: time.Second},
		"tie-breaks":  {Format: Swiss, Rounds: 3, TieBreaks: "XYZ"},
		"match":       {Format: Knockout, MatchGames: 11},
	} {
		if err := set.normalize(); !errors.Is(err, ErrBadRequest) {
			t.Errorf("%s: %v", name, err)
		}
	}
	r := newRig(t)
	v := r.create(Settings{Format: Swiss, Rounds: 3}, 3)
	if _, err := r.ts.Start(ctx, v.ID, "g", "u1", false); !errors.Is(err, ErrTooFewPlayers) {
		t.Errorf("3 rounds with 3 players: %v", err)
	}
	if _, err := r.ts.Cancel(ctx, v.ID, "g", "u2", true); err != nil {
		t.Errorf("cancel by a manager: %v", err)
	}
	if _, err := r.ts.Join(ctx, v.ID, "g", player(7)); !errors.Is(err, ErrOver) {
		t.Errorf("join a cancelled event: %v", err)
	}
}

func TestSwissEndsWhenWithdrawalsLeaveNoPairing(t *testing.T) {
	r := newRig(t)
	v := r.create(Settings{Format: Swiss, Rounds: 3}, 4)
	if _, err := r.ts.Start(ctx, v.ID, "g", "u1", false); err != nil {
		t.Fatal(err)
	}
	r.settle()
	for _, u := range []string{"u2", "u3", "u4"} {
		if _, err := r.ts.Withdraw(ctx, v.ID, "g", u); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range r.round(v.ID) {
		r.play(p.GameID, "1-0")
	}
	v = r.view(v.ID)
	if v.Status != storage.TournamentFinished || len(v.State.Rounds) != 1 {
		t.Errorf("status %s after %d rounds; want finished after 1", v.Status, len(v.State.Rounds))
	}
	checkTRF(t, v, 1)
}

func TestArenaBerserk(t *testing.T) {
	r := newRig(t)
	v := r.create(Settings{Format: Arena, Control: "3+0", Duration: 30 * time.Minute}, 2)
	if _, err := r.ts.Start(ctx, v.ID, "g", "u1", false); err != nil {
		t.Fatal(err)
	}
	r.settle()
	g := r.round(v.ID)[0]
	game, _ := r.gs.Game(ctx, g.GameID)
	berserk := func(user string) error {
		hook, err := r.ts.BerserkHook(ctx, g.GameID, user)
		if err != nil {
			return err
		}
		_, err = r.gs.Berserk(ctx, games.BerserkRequest{Action: games.Action{RequestID: r.rid(), GameID: g.GameID, UserID: user}, After: hook})
		return err
	}
	if err := berserk(game.White.ID); err != nil {
		t.Fatal(err)
	}
	if err := berserk(game.White.ID); !errors.Is(err, ErrAlreadyBerserk) {
		t.Errorf("second berserk: %v", err)
	}
	if err := berserk("u9"); !errors.Is(err, ErrNotJoined) {
		t.Errorf("berserk by a stranger: %v", err)
	}
	if g, _ := r.gs.Game(ctx, g.GameID); g.Clock.Left[0] != 90*time.Second || g.Clock.Left[1] != 3*time.Minute {
		t.Errorf("clocks after White's berserk %v", g.Clock.Left)
	}
	r.play(g.GameID, "1-0") // a berserk win: 2 + 1
	r.restart()             // the bonus is in the log, replayed
	tb := r.view(v.ID).Standings()
	if tb.Rows[0].UserID != game.White.ID || tb.Rows[0].Points != "3" {
		t.Errorf("standings %+v", tb.Rows)
	}
	// No berserk in a game that is over, or in a Swiss.
	if _, err := r.ts.BerserkHook(ctx, g.GameID, game.Black.ID); !errors.Is(err, ErrOver) {
		t.Errorf("berserk after the game: %v", err)
	}
}

func TestSwissWithdrawalSitsOut(t *testing.T) {
	r := newRig(t)
	v := r.create(Settings{Format: Swiss, Rounds: 3}, 6)
	if _, err := r.ts.Start(ctx, v.ID, "g", "u1", false); err != nil {
		t.Fatal(err)
	}
	r.settle()
	if _, err := r.ts.Withdraw(ctx, v.ID, "g", "u6"); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 3; round++ {
		ps := r.round(v.ID)
		if want := map[int]int{1: 3, 2: 2, 3: 2}[round]; len(ps) != want {
			t.Fatalf("round %d: %d games, want %d", round, len(ps), want)
		}
		for _, p := range ps {
			if round > 1 && (p.White == "Player 6" || p.Black == "Player 6") {
				t.Errorf("round %d pairs the withdrawn player", round)
			}
			r.play(p.GameID, "draw")
		}
	}
	v = r.view(v.ID)
	if v.Status != storage.TournamentFinished {
		t.Fatalf("status %s", v.Status)
	}
	ev := checkTRF(t, v, 3)
	p6 := ev.Players[5]
	if p6.Results[1].Code != tournament.ZeroBye || p6.Results[2].Code != tournament.ZeroBye {
		t.Errorf("the withdrawn player's rounds %+v", p6.Results)
	}
	if tb := v.Standings(); total(tb) != 9 { // 3 draws, then 2 draws and a bye twice
		t.Errorf("standings total %v: %+v", total(tb), tb.Rows)
	}
}

// TestChess960Tournament: an event with Chess960 set starts every game as Chess960, each
// from a start position of its own drawn for it.
func TestChess960Tournament(t *testing.T) {
	r := newRig(t)
	v := r.create(Settings{Format: RoundRobin, Control: "3+2", Chess960: true}, 4)
	if _, err := r.ts.Start(ctx, v.ID, "g", "u1", false); err != nil {
		t.Fatal(err)
	}
	r.settle()
	ps := r.round(v.ID)
	if len(ps) == 0 {
		t.Fatal("no games in round 1")
	}
	for _, p := range ps {
		if p.GameID == 0 {
			continue
		}
		g, err := r.gs.Game(ctx, p.GameID)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := chess960.Number(g.StartFEN); g.Variant != chesscore.Chess960 || !ok {
			t.Errorf("game %d: %s from %q, want a Chess960 start", g.ID, g.Variant, g.StartFEN)
		}
	}
	if v = r.view(v.ID); !v.State.Settings.Chess960 {
		t.Error("the event lost its Chess960 setting")
	}
}
