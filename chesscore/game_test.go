package chesscore

import (
	"errors"
	"strings"
	"testing"
)

// playAll plays the moves (any notation) or stops the test.
func playAll(t testing.TB, g *Game, moves string) {
	t.Helper()
	for _, s := range strings.Fields(moves) {
		if _, err := g.PlaySAN(s); err != nil {
			t.Fatalf("play %s after %v: %v", s, g.SAN(), err)
		}
	}
}

func gameFrom(t testing.TB, fen string) *Game {
	t.Helper()
	g, err := NewGameFromFEN(fen, nil)
	if err != nil {
		t.Fatalf("NewGameFromFEN(%q, nil): %v", fen, err)
	}
	return g
}

func TestGameCheckmateEndsTheGame(t *testing.T) {
	g := NewGame(StartPosition(), nil)
	playAll(t, g, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#")
	if got, want := g.Outcome(), (Outcome{WhiteWins, Checkmate}); got != want {
		t.Fatalf("outcome %v, want %v", got, want)
	}
	if w, ok := g.Outcome().Winner(); !ok || w != White {
		t.Errorf("Winner() = %v, %v", w, ok)
	}
	if got := strings.Join(g.SAN(), " "); got != "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#" {
		t.Errorf("SAN %q", got)
	}
	if _, err := g.PlaySAN("Ke7"); !errors.Is(err, ErrGameOver) {
		t.Errorf("a move after mate: %v, want ErrGameOver", err)
	}
	for name, err := range map[string]error{
		"resign": g.Resign(Black), "agree": g.AgreeDraw(), "flag": g.FlagFall(Black),
		"claim": g.ClaimDraw(NullMove), "abort": g.Abort(), "abandon": g.Abandon(Black),
	} {
		if !errors.Is(err, ErrGameOver) {
			t.Errorf("%s after mate: %v, want ErrGameOver", name, err)
		}
	}
	if len(g.Claimable()) != 0 {
		t.Errorf("claims after mate: %v", g.Claimable())
	}

	g2 := NewGame(StartPosition(), nil)
	playAll(t, g2, "f3 e5 g4 Qh4#")
	if got := g2.Outcome(); got != (Outcome{BlackWins, Checkmate}) {
		t.Errorf("fool's mate: %v", got)
	}
}

func TestGameStartsOver(t *testing.T) {
	tests := []struct {
		fen  string
		want Outcome
	}{
		{"7K/7P/7k/8/6q1/8/8/8 w - - 0 1", Outcome{Draw, Stalemate}},
		{"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", Outcome{BlackWins, Checkmate}},
		{"4k3/8/8/8/8/5B2/8/4K3 w - - 0 1", Outcome{Draw, DeadPosition}},
		{"4k3/8/6r1/8/8/8/2R5/4K3 w - - 369 1", Outcome{Draw, SeventyFiveMoves}},
		{"k7/8/NKB5/8/8/8/8/8 b - - 105 176", Outcome{WhiteWins, Checkmate}},
		{"k7/3N4/1K6/1B6/8/8/8/8 b - - 99 1", Outcome{Draw, Stalemate}},
		{"4k3/8/6r1/8/8/8/2R5/4K3 w - - 120 1", Outcome{}}, // fifty moves: only a claim
		{StartFEN, Outcome{}},
	}
	for _, tc := range tests {
		g := gameFrom(t, tc.fen)
		if got := g.Outcome(); got != tc.want {
			t.Errorf("%s: outcome %v, want %v", tc.fen, got, tc.want)
		}
	}
	if _, err := NewGameFromFEN("8/8/8/8 w - - 0 1", nil); err == nil {
		t.Error("NewGameFromFEN accepted a bad FEN")
	}
}

// python-chess's threefold test: the knights go out and back; the third occurrence of the
// start position can be claimed by announcing Ng8, then on the board.
func TestThreefoldRepetitionClaims(t *testing.T) {
	g := NewGame(StartPosition(), nil)
	if g.Repetitions() != 1 {
		t.Fatalf("Repetitions at the start = %d", g.Repetitions())
	}
	playAll(t, g, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6")
	if k := g.Keys(); len(k) != 7 || k[0] != k[4] || k[2] != k[6] || k[0] == k[2] {
		t.Fatalf("Keys() = %x", k)
	}
	if claims := g.Claimable(); len(claims) != 0 {
		t.Fatalf("claimable too early: %v", claims)
	}
	if err := g.ClaimDraw(NullMove); !errors.Is(err, ErrIncorrectClaim) {
		t.Fatalf("claim with two occurrences: %v", err)
	}
	playAll(t, g, "Ng1")
	claims := g.Claimable()
	ng8 := NewMove(F6, G8)
	if len(claims) != 1 || claims[0] != (Claim{ThreefoldRepetition, ng8}) {
		t.Fatalf("Claimable after Ng1 = %v, want threefold by announcing Ng8", claims)
	}
	playAll(t, g, "Ng8")
	if g.Repetitions() != 3 || g.Over() {
		t.Fatalf("Repetitions = %d, over %v; want 3 and the game going on", g.Repetitions(), g.Over())
	}
	if c := g.Claimable(); len(c) == 0 || c[0] != (Claim{ThreefoldRepetition, NullMove}) {
		t.Fatalf("Claimable on the third occurrence = %v", c)
	}
	// The game goes on if nobody claims; after e4 the claim is gone.
	playAll(t, g, "e4")
	if c := g.Claimable(); len(c) != 0 {
		t.Fatalf("Claimable after e4 = %v", c)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := g.ClaimDraw(NullMove); err != nil {
		t.Fatalf("ClaimDraw on the third occurrence: %v", err)
	}
	if g.Outcome() != (Outcome{Draw, ThreefoldRepetition}) {
		t.Fatalf("outcome %v", g.Outcome())
	}

	// Claiming with the intended move plays it and draws.
	h := NewGame(StartPosition(), nil)
	playAll(t, h, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1")
	if err := h.ClaimDraw(ng8); err != nil {
		t.Fatalf("ClaimDraw(Ng8): %v", err)
	}
	if h.Outcome() != (Outcome{Draw, ThreefoldRepetition}) || h.Ply() != 8 {
		t.Fatalf("after the claim: %v, %d plies", h.Outcome(), h.Ply())
	}
	// An incorrect claim with a move: the move stands (FIDE 9.5.3), the game goes on.
	k := NewGame(StartPosition(), nil)
	playAll(t, k, "Nf3 Nf6 Ng1")
	err := k.ClaimDraw(NewMove(F6, G8))
	if !errors.Is(err, ErrIncorrectClaim) || k.Ply() != 4 || k.Over() {
		t.Fatalf("incorrect claim: %v, %d plies, over %v", err, k.Ply(), k.Over())
	}
}

// python-chess's fivefold test: the fifth occurrence ends the game without a claim, even
// when the occurrences are not consecutive.
func TestFivefoldRepetition(t *testing.T) {
	g := gameFrom(t, "rnbq1rk1/ppp3pp/3bpn2/3p1p2/2PP4/2NBPN2/PP3PPP/R1BQK2R w KQ - 3 7")
	for i := 0; i < 3; i++ {
		playAll(t, g, "Be2 Ne4 Bd3 Nf6")
		if g.Over() {
			t.Fatalf("over after %d cycles: %v", i+1, g.Outcome())
		}
	}
	playAll(t, g, "Be2 Ne4 Bd3")
	if g.Over() {
		t.Fatal("over before the fifth occurrence")
	}
	playAll(t, g, "Nf6")
	if g.Outcome() != (Outcome{Draw, FivefoldRepetition}) || g.Repetitions() != 5 {
		t.Fatalf("outcome %v, repetitions %d", g.Outcome(), g.Repetitions())
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	playAll(t, g, "Qd7 Qc2 Qd8") // elsewhere and back: not the same position (Qc2)
	if g.Over() {
		t.Fatalf("over: %v", g.Outcome())
	}
}

// FIDE 9.2.3: the en passant square counts only when a capture there is legal.
func TestRepetitionEnPassantIdentity(t *testing.T) {
	// A black pawn on f4 can take e3 en passant after e4: the position after e4 is not
	// the same as the one reached later with the same placement.
	g := gameFrom(t, "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1")
	playAll(t, g, "e4 Kd8 Kd1 Ke8 Ke1")
	if g.Repetitions() != 1 {
		t.Errorf("with a possible en passant: repetitions %d, want 1", g.Repetitions())
	}
	playAll(t, g, "Kd8 Kd1 Ke8 Ke1")
	if g.Repetitions() != 2 {
		t.Errorf("repetitions %d, want 2", g.Repetitions())
	}
	// Nothing can take en passant: the double push changes nothing.
	h := gameFrom(t, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
	playAll(t, h, "e4 Kd8 Kd1 Ke8 Ke1")
	if h.Repetitions() != 2 {
		t.Errorf("without a possible en passant: repetitions %d, want 2", h.Repetitions())
	}
	// An en passant capture that would expose the king does not count either.
	k := gameFrom(t, "8/8/8/8/k4p1R/8/4P3/4K3 w - - 0 1")
	playAll(t, k, "e4 Ka5 Kd1 Ka4 Ke1")
	if k.Repetitions() != 2 {
		t.Errorf("with a pinned en passant: repetitions %d, want 2", k.Repetitions())
	}
}

// FIDE 9.2.3: castling rights are part of the position, even when castling is not
// possible at the moment.
func TestRepetitionCastlingRights(t *testing.T) {
	g := gameFrom(t, "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1")
	playAll(t, g, "Rh2 Ra7 Rh1 Ra8")
	// The white rook went back, but the king-side right is gone.
	if g.Repetitions() != 1 {
		t.Errorf("repetitions %d, want 1 (the rights changed)", g.Repetitions())
	}
	playAll(t, g, "Rh2 Ra7 Rh1 Ra8")
	if g.Repetitions() != 2 {
		t.Errorf("repetitions %d, want 2", g.Repetitions())
	}
}

// Timman vs Lutz (1995) positions from python-chess's fifty-move test.
func TestFiftyMoves(t *testing.T) {
	g := gameFrom(t, "6R1/7k/8/8/1r3B2/5K2/8/8 w - - 99 119")
	claims := g.Claimable()
	if len(claims) == 0 {
		t.Fatal("no claim with 99 half-moves and quiet moves available")
	}
	for _, c := range claims {
		if c.Termination != FiftyMoves || c.Move == NullMove {
			t.Errorf("claim %v: want fifty moves by announcing a move", c)
		}
		pos := g.Position()
		if pos.IsCapture(c.Move) || pos.MovedPiece(c.Move).Type() == Pawn {
			t.Errorf("claim by %s, a capture or pawn move", c.Move)
		}
	}
	if err := g.ClaimDraw(NullMove); !errors.Is(err, ErrIncorrectClaim) {
		t.Errorf("claim without a move at 99: %v", err)
	}
	if err := g.ClaimDraw(claims[0].Move); err != nil {
		t.Fatalf("claim with %s: %v", claims[0].Move, err)
	}
	if g.Outcome() != (Outcome{Draw, FiftyMoves}) {
		t.Errorf("outcome %v", g.Outcome())
	}
	for _, fen := range []string{"8/7k/8/6R1/1r3B2/5K2/8/8 b - - 100 119", "8/7k/8/1r3KR1/5B2/8/8/8 w - - 105 122"} {
		g := gameFrom(t, fen)
		if c := g.Claimable(); len(c) == 0 || c[0] != (Claim{FiftyMoves, NullMove}) {
			t.Errorf("%s: Claimable %v", fen, c)
		}
		if err := g.ClaimDraw(NullMove); err != nil {
			t.Errorf("%s: ClaimDraw: %v", fen, err)
		}
	}
	if c := gameFrom(t, "8/5R2/8/r2KB3/6k1/8/8/8 w - - 19 79").Claimable(); len(c) != 0 {
		t.Errorf("claims at 19 half-moves: %v", c)
	}
}

func TestSeventyFiveMoves(t *testing.T) {
	g := gameFrom(t, "4k3/8/6r1/8/8/8/2R5/4K3 w - - 148 100")
	playAll(t, g, "Rc3")
	if g.Over() {
		t.Fatalf("over at 149 half-moves: %v", g.Outcome())
	}
	playAll(t, g, "Rg5")
	if g.Outcome() != (Outcome{Draw, SeventyFiveMoves}) {
		t.Fatalf("outcome at 150 half-moves: %v", g.Outcome())
	}
	// A capture on the 150th half-move resets the count.
	h := gameFrom(t, "4k3/8/6r1/8/8/8/2R3r1/4K3 w - - 149 100")
	playAll(t, h, "Rxg2")
	if h.Over() {
		t.Fatalf("over after a capture: %v", h.Outcome())
	}
	// A checkmate on the move that completes the 75 moves stands (9.6.2).
	m := gameFrom(t, "7k/8/6K1/8/8/8/8/R7 w - - 149 80")
	playAll(t, m, "Ra8#")
	if m.Outcome() != (Outcome{WhiteWins, Checkmate}) {
		t.Fatalf("mate on the 150th half-move: %v", m.Outcome())
	}
}

// With the material rule alone (a game made without a decider), a game ends where
// material settles it, and goes on where only the full decision (chesscore/dead, whose
// tests play the same games with it) finds the position dead.
func TestDeadPositionEndsTheGame(t *testing.T) {
	for _, tc := range []struct {
		fen, moves string
		dead       bool
	}{
		{"4k3/8/8/8/8/8/4r3/4KB2 w - - 0 1", "Kxe2", true},                                // K+B vs K
		{"4k3/8/8/8/8/8/3n4/3NK3 w - - 0 1", "Kxd2", true},                                // K+N vs K
		{"4k3/8/8/2b5/8/8/3r4/2B1K3 w - - 0 1", "Kxd2", true},                             // bishops on one colour
		{"4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", "Kxe2", true},                                 // K vs K
		{"8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/7r w - - 0 1", "Kf2 Rh2+ Kg3 Rh3+ Kxh3", false}, // a blockade
		{"4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", "", false},                                    // dead only through the forced capture
		{"4k3/8/8/8/8/8/4p3/4KB2 w - - 0 1", "", false},                                   // the pawn can promote
		{"4k3/8/8/8/8/8/8/3NKn2 w - - 0 1", "", false},                                    // K+N vs K+N
	} {
		g := gameFrom(t, tc.fen)
		playAll(t, g, tc.moves)
		if got := g.Outcome() == (Outcome{Draw, DeadPosition}); got != tc.dead {
			t.Errorf("%s %s: outcome %v, want dead %v", tc.fen, tc.moves, g.Outcome(), tc.dead)
		}
	}
}

func TestAgreementNeedsAMoveEach(t *testing.T) {
	g := NewGame(StartPosition(), nil)
	if err := g.AgreeDraw(); !errors.Is(err, ErrTooEarly) {
		t.Errorf("agree before any move: %v", err)
	}
	playAll(t, g, "e4")
	if err := g.AgreeDraw(); !errors.Is(err, ErrTooEarly) {
		t.Errorf("agree after one move: %v", err)
	}
	playAll(t, g, "e5")
	if err := g.AgreeDraw(); err != nil || g.Outcome() != (Outcome{Draw, Agreement}) {
		t.Errorf("agree after a move each: %v, %v", err, g.Outcome())
	}
}

// Seed 000 and FIDE 5.1.2 / 6.9: resignation and flag fall are draws when the winner could
// not checkmate by any series of legal moves.
func TestResignAndFlagFall(t *testing.T) {
	tests := []struct {
		fen          string
		loser        Color
		resign, flag Outcome
	}{
		{StartFEN, White, Outcome{BlackWins, Resignation}, Outcome{BlackWins, TimeForfeit}},
		{"8/8/8/4k3/8/8/8/4K2R w - - 0 1", Black, Outcome{WhiteWins, Resignation}, Outcome{WhiteWins, TimeForfeit}},
		{"8/8/8/4k3/8/8/8/4K2R w - - 0 1", White, Outcome{Draw, Resignation}, Outcome{Draw, DrawOnTime}},
		{"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", Black, Outcome{WhiteWins, Resignation}, Outcome{WhiteWins, TimeForfeit}},
		{"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", White, Outcome{Draw, Resignation}, Outcome{Draw, DrawOnTime}},
		// K+N against K+Q: the knight cannot mate, the queen can.
		{"8/8/8/4k3/8/8/q7/4K1N1 b - - 0 1", Black, Outcome{Draw, Resignation}, Outcome{Draw, DrawOnTime}},
		{"8/8/8/4k3/8/8/q7/4K1N1 b - - 0 1", White, Outcome{BlackWins, Resignation}, Outcome{BlackWins, TimeForfeit}},
		// K+N against K+P: a helpmate exists (the pawn blocks its own king).
		{"8/8/8/4k3/8/8/p7/4K1N1 b - - 0 1", Black, Outcome{WhiteWins, Resignation}, Outcome{WhiteWins, TimeForfeit}},
	}
	for _, tc := range tests {
		g := gameFrom(t, tc.fen)
		if err := g.Resign(tc.loser); err != nil || g.Outcome() != tc.resign {
			t.Errorf("%s: %s resigns: %v, %v; want %v", tc.fen, tc.loser, err, g.Outcome(), tc.resign)
		}
		g = gameFrom(t, tc.fen)
		if err := g.FlagFall(tc.loser); err != nil || g.Outcome() != tc.flag {
			t.Errorf("%s: %s's flag falls: %v, %v; want %v", tc.fen, tc.loser, err, g.Outcome(), tc.flag)
		}
	}
}

func TestPlayAcceptsMoveValues(t *testing.T) {
	g := gameFrom(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1 1")
	if err := g.Play(NewMove(E1, G1)); err != nil { // castling written as a plain king move
		t.Fatalf("Play(e1g1): %v", err)
	}
	if m := g.Moves()[0]; m.Kind() != CastlingMove || g.SAN()[0] != "O-O" {
		t.Errorf("recorded %v (%s), want castling", m, g.SAN()[0])
	}
	err := g.Play(NewMove(A8, B7))
	var me *MoveError
	if !errors.As(err, &me) || !errors.Is(err, ErrIllegalMove) {
		t.Errorf("Play(a8b7): %v, want an illegal-move error", err)
	}
	if err := g.Play(NewMove(E8, E7)); err != nil {
		t.Errorf("Play(e8e7): %v", err)
	}
	if g.Ply() != 2 || g.Turn() != White {
		t.Errorf("ply %d, turn %v", g.Ply(), g.Turn())
	}
}

func TestUndoAndAccessors(t *testing.T) {
	g := NewGame(StartPosition(), nil)
	if err := g.Undo(); !errors.Is(err, ErrNoMoves) {
		t.Errorf("Undo on an empty game: %v", err)
	}
	playAll(t, g, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#")
	c := g.Clone()
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if g.Over() || g.Ply() != 6 || len(g.SAN()) != 6 || len(g.Moves()) != 6 {
		t.Fatalf("after Undo: over %v, ply %d", g.Over(), g.Ply())
	}
	if !c.Over() || c.Ply() != 7 {
		t.Errorf("the clone changed with the original")
	}
	p := g.PositionAt(0)
	if p.FEN() != StartFEN {
		t.Errorf("PositionAt(0) = %s", p.FEN())
	}
	last := g.PositionAt(g.Ply())
	cur := g.Position()
	if last.FEN() != cur.FEN() {
		t.Errorf("PositionAt(Ply()) is not Position()")
	}
	if s := g.Start(); s.FEN() != StartFEN {
		t.Errorf("Start() = %s", s.FEN())
	}
	if err := g.End(Outcome{Draw, Checkmate}); err == nil {
		t.Error("End accepted an automatic reason the board does not show")
	}
	if err := g.End(Outcome{Draw, TimeForfeit}); err == nil {
		t.Error("End accepted a draw by time forfeit")
	}
	if err := g.End(Outcome{WhiteWins, Adjudication}); err != nil || g.Outcome() != (Outcome{WhiteWins, Adjudication}) {
		t.Errorf("End(adjudication): %v, %v", err, g.Outcome())
	}
}

// A long game for the move benchmark (Kasparov-Topalov, Wijk aan Zee 1999).
const benchGame = "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 " +
	"O-O-O Qe7 Kb1 a6 Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7 " +
	"Rhe1 d4 Nd5 Nbxd5 exd5 Qd6 Rxd4 cxd4 Re7+ Kb6 Qxd4+ Kxa5 b4+ Ka4 Qc3 Qxd5 Ra7 Bb7 " +
	"Rxb7 Qc4 Qxf6 Kxa3 Qxa6+ Kxb4 c3+ Kxc3 Qa1+ Kd2 Qb2+ Kd1 Bf1 Rd2 Rd7 Rxd7 Bxc4 bxc4 " +
	"Qxh8 Rd3 Qa8 c3 Qa4+ Ke1 f4 f5 Kc1 Rd2 Qa7"

func TestBenchGameReplays(t *testing.T) {
	g := NewGame(StartPosition(), nil)
	playAll(t, g, benchGame)
	if g.Over() {
		t.Fatalf("over: %v", g.Outcome())
	}
	if err := g.Resign(Black); err != nil || g.Outcome() != (Outcome{WhiteWins, Resignation}) {
		t.Fatalf("resign: %v %v", err, g.Outcome())
	}
}

// BenchmarkPlayMove measures one move of a game: parse the SAN, validate it, apply it,
// record it and decide the outcome.
func BenchmarkPlayMove(b *testing.B) {
	moves := strings.Fields(benchGame)
	g := NewGame(StartPosition(), nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % len(moves)
		if j == 0 {
			g = NewGame(StartPosition(), nil)
		}
		if _, err := g.PlaySAN(moves[j]); err != nil {
			b.Fatal(err)
		}
	}
}
