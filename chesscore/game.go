// game.go: the game record: start position, moves, SAN, repetition by FIDE's identity of
// positions, and every way a game ends (Laws 5, 6.9 and 9).

package chesscore

import (
	"errors"
	"fmt"
)

// Errors of Game methods, for errors.Is.
var (
	// ErrGameOver: the game has already ended; nothing more can be played or claimed.
	ErrGameOver = errors.New("the game is over")
	// ErrIncorrectClaim: a draw claim that the position does not support.
	ErrIncorrectClaim = errors.New("incorrect draw claim")
	// ErrTooEarly: a draw agreed before both players have made a move.
	ErrTooEarly = errors.New("too early")
	// ErrNoMoves: Undo on a game without moves.
	ErrNoMoves = errors.New("no moves to take back")
)

// Game is a game of chess in progress or finished: where it started, the moves played,
// their SAN, and how it stands. It applies the Laws that end a game automatically
// (checkmate, stalemate, dead position, fivefold repetition, seventy-five moves) after
// every move, and takes the players' decisions (claims, agreement, resignation) and the
// clock's flag fall from its caller. It holds no time and does no I/O.
//
// Repetition follows FIDE Article 9.2.3: positions are the same when the same side is to
// move, the same pieces stand on the same squares, the castling rights are the same and
// an en passant capture is possible in both or in neither.
type Game struct {
	start   Position
	pos     Position
	moves   []Move
	san     []string
	history []Position // history[i] is the position before moves[i]
	outcome Outcome
	decider MateDecider   // decides who can still mate (dead position, flag fall, resignation)
	mates   MateKnowledge // what decider knows of the current position
}

// NewGame returns a game starting from start (StartPosition() for a normal game), whose
// dead positions, flag falls and resignations d decides (the exact decision is
// chesscore/dead's; nil is MaterialRule, the material rule alone). A start position that
// is already over (checkmate, stalemate, dead, seventy-five moves) gives a game that is
// over before any move.
func NewGame(start Position, d MateDecider) *Game {
	g := &Game{start: start, pos: start, decider: deciderOrMaterial(d)}
	g.outcome = g.automaticOutcome()
	return g
}

// NewGameFromFEN returns a game starting from the position in FEN, deciding with d as
// NewGame does.
func NewGameFromFEN(fen string, d MateDecider) (*Game, error) {
	p, err := ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	return NewGame(p, d), nil
}

// deciderOrMaterial returns d, or MaterialRule for nil.
func deciderOrMaterial(d MateDecider) MateDecider {
	if d == nil {
		return MaterialRule{}
	}
	return d
}

// Decider returns the MateDecider the game was made with.
func (g *Game) Decider() MateDecider { return g.decider }

// Clone returns an independent copy of the game.
func (g *Game) Clone() *Game {
	c := *g
	c.moves = append([]Move(nil), g.moves...)
	c.san = append([]string(nil), g.san...)
	c.history = append([]Position(nil), g.history...)
	return &c
}

// Start returns the position the game started from.
func (g *Game) Start() Position { return g.start }

// Position returns the current position.
func (g *Game) Position() Position { return g.pos }

// Turn returns the side to move.
func (g *Game) Turn() Color { return g.pos.turn }

// Moves returns the moves played, in order (a copy).
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// SAN returns the moves played in Standard Algebraic Notation (a copy).
func (g *Game) SAN() []string { return append([]string(nil), g.san...) }

// Ply returns the number of half-moves played.
func (g *Game) Ply() int { return len(g.moves) }

// PositionAt returns the position after ply half-moves (0 is the start); ply must be from
// 0 to Ply().
func (g *Game) PositionAt(ply int) Position {
	if ply == len(g.moves) {
		return g.pos
	}
	return g.history[ply]
}

// Outcome returns how the game stands.
func (g *Game) Outcome() Outcome { return g.outcome }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.outcome.Over() }

func (g *Game) errOver() error {
	return fmt.Errorf("%w: %s", ErrGameOver, g.outcome)
}

// Play validates the move m, applies it and checks how the game stands after it. A move
// whose squares and promotion match a legal move is accepted whatever its kind bits say
// (so NewMove(E1, G1) castles). The error is ErrGameOver, or a *MoveError that explains
// why the move is illegal.
func (g *Game) Play(m Move) error {
	if g.outcome.Over() {
		return g.errOver()
	}
	var ml MoveList
	g.pos.LegalMoves(&ml)
	legal, ok := matchLegal(&ml, m)
	if !ok {
		_, err := g.pos.parseMove(m.UCI(), &ml)
		if err == nil {
			err = moveErr(m.UCI(), ErrIllegalMove, m.UCI()+" is not a legal move")
		}
		return err
	}
	g.play(legal, &ml, nil, true)
	return nil
}

// ReplayGame rebuilds a game from a record of it: its start and the moves already played
// and accepted once. Each move must be legal, and the endings that need no search
// (checkmate, stalemate, fivefold repetition, seventy-five moves) apply after every move,
// as with Play; the dead-position test (5.2.2), the costly one, does not run, on the
// start position either: each position was tested when its move was played, and a record kept under an older
// version of the test may go on past a position found dead today (the record is
// history). The final position is decided when a question is first asked of it: the
// next move, a flag fall, a resignation, or SettleDeadPosition. d decides as with
// NewGame. The error is that of Play, for the first move that fails.
func ReplayGame(start Position, moves []Move, d MateDecider) (*Game, error) {
	g := &Game{start: start, pos: start, decider: deciderOrMaterial(d), moves: make([]Move, 0, len(moves)),
		san: make([]string, 0, len(moves)), history: make([]Position, 0, len(moves))}
	// Each position's legal moves are generated once: by play, for the next move's
	// check and for the SAN of the move that led to it.
	var lists [2]MoveList
	ml := &lists[0]
	start.LegalMoves(ml)
	g.outcome = g.outcomeAfterMove(ml.N, false)
	for i, m := range moves {
		if g.outcome.Over() {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, m.UCI(), g.errOver())
		}
		legal, ok := matchLegal(ml, m)
		if !ok {
			return nil, fmt.Errorf("move %d: %w", i+1, moveErr(m.UCI(), ErrIllegalMove, m.UCI()+" is not a legal move"))
		}
		next := &lists[(i+1)&1]
		g.play(legal, ml, next, false)
		ml = next
	}
	return g, nil
}

// SettleDeadPosition runs the dead-position test on the current position, as Play does
// after a move, and ends the game in a draw if the position is dead. It reports whether
// it ended the game.
func (g *Game) SettleDeadPosition() bool {
	if g.outcome.Over() || !g.decider.Dead(&g.mates, &g.pos) {
		return false
	}
	g.outcome = Outcome{Draw, DeadPosition}
	return true
}

// PlaySAN reads a move in any notation ParseSAN accepts, plays it and returns it.
func (g *Game) PlaySAN(s string) (Move, error) {
	if g.outcome.Over() {
		return NullMove, g.errOver()
	}
	var ml MoveList
	g.pos.LegalMoves(&ml)
	m, err := g.pos.parseMove(s, &ml)
	if err != nil {
		return NullMove, err
	}
	g.play(m, &ml, nil, true)
	return m, nil
}

// matchLegal finds the legal move with m's squares and promotion.
func matchLegal(ml *MoveList, m Move) (Move, bool) {
	for _, x := range ml.Moves[:ml.N] {
		if x == m {
			return x, true
		}
	}
	for _, x := range ml.Moves[:ml.N] {
		if x.From() == m.From() && x.To() == m.To() && x.Promotion() == m.Promotion() {
			return x, true
		}
	}
	return NullMove, false
}

// play applies the legal move m (ml holds the legal moves of the current position); with
// deadTest, the dead-position test runs on the new position. With next, the legal moves
// of the new position are left there.
func (g *Game) play(m Move, ml, next *MoveList, deadTest bool) {
	var buf [8]byte
	b := g.pos.appendSANBody(buf[:0], m, ml)
	child := g.pos.Play(m)
	var replies int
	if next != nil {
		child.LegalMoves(next)
		replies = next.N
	} else {
		replies = child.CountLegalMoves()
	}
	if child.InCheck() {
		if replies > 0 {
			b = append(b, '+')
		} else {
			b = append(b, '#')
		}
	}
	g.decider.Carry(&g.mates, &g.pos, &child, m)
	g.history = append(g.history, g.pos)
	g.pos = child
	g.moves = append(g.moves, m)
	g.san = append(g.san, string(b))
	g.outcome = g.outcomeAfterMove(replies, deadTest)
}

// automaticOutcome is the outcome the position alone decides.
func (g *Game) automaticOutcome() Outcome {
	return g.outcomeAfterMove(g.pos.CountLegalMoves(), true)
}

// outcomeAfterMove applies the Laws that end a game without a claim: checkmate and
// stalemate, a dead position, fivefold repetition, seventy-five moves. replies is the
// number of legal moves of the side to move; deadTest says whether the dead-position test
// runs. A checkmate on the move that completes the fivefold repetition or the
// seventy-five moves stands (9.6).
func (g *Game) outcomeAfterMove(replies int, deadTest bool) Outcome {
	p := &g.pos
	switch {
	case replies == 0 && p.InCheck():
		return Outcome{WinFor(p.turn ^ 1), Checkmate}
	case replies == 0:
		return Outcome{Draw, Stalemate}
	case deadTest && g.decider.Dead(&g.mates, p):
		return Outcome{Draw, DeadPosition}
	case g.occurrences(p, len(g.history)) >= 5:
		return Outcome{Draw, FivefoldRepetition}
	case p.halfmove >= 150:
		return Outcome{Draw, SeventyFiveMoves}
	}
	return Outcome{}
}

// samePosition reports FIDE 9.2.3 identity: side to move, placement, castling rights and
// the en passant square (kept only when a capture there is legal).
func (p *Position) samePosition(q *Position) bool {
	return p.hash == q.hash && p.turn == q.turn && p.castling == q.castling && p.ep == q.ep &&
		p.board == q.board
}

// occurrences counts how often q has stood on the board if it is the position at index
// idx of the game (idx = Ply() for the current position, Ply()+1 for one after a further
// move), q included. Only the positions since the last capture or pawn move can repeat.
func (g *Game) occurrences(q *Position, idx int) int {
	n := 1
	oldest := max(idx-int(q.halfmove), 0)
	for j := idx - 2; j >= oldest; j -= 2 {
		if j < len(g.history) {
			if g.history[j].samePosition(q) {
				n++
			}
		} else if g.pos.samePosition(q) {
			n++
		}
	}
	return n
}

// Keys returns the identity key (Position.Hash, which follows FIDE 9.2.3) of every
// position of the game: Keys()[i] is the position after i half-moves, the last one the
// current position.
func (g *Game) Keys() []uint64 {
	keys := make([]uint64, 0, len(g.history)+1)
	for i := range g.history {
		keys = append(keys, g.history[i].hash)
	}
	return append(keys, g.pos.hash)
}

// Repetitions returns how many times the current position has appeared in the game,
// counting this time (1 for a new position).
func (g *Game) Repetitions() int { return g.occurrences(&g.pos, len(g.history)) }

// Claimable returns the draws the player to move could claim now (FIDE 9.2, 9.3): on the
// current position (Move is NullMove), or by announcing a legal move that would produce a
// third repetition or complete the fifty moves. It is empty when the game is over.
func (g *Game) Claimable() []Claim {
	if g.outcome.Over() {
		return nil
	}
	var out []Claim
	if g.Repetitions() >= 3 {
		out = append(out, Claim{ThreefoldRepetition, NullMove})
	}
	fiftyNow := g.pos.halfmove >= 100
	if fiftyNow {
		out = append(out, Claim{FiftyMoves, NullMove})
	}
	var ml MoveList
	g.pos.LegalMoves(&ml)
	for _, m := range ml.Moves[:ml.N] {
		child := g.pos.Play(m)
		if g.occurrences(&child, len(g.history)+1) >= 3 {
			out = append(out, Claim{ThreefoldRepetition, m})
		}
		if !fiftyNow && child.halfmove >= 100 {
			out = append(out, Claim{FiftyMoves, m})
		}
	}
	return out
}

// ClaimDraw is the player to move claiming a draw by threefold repetition or the fifty
// moves (9.2, 9.3). With intended == NullMove the claim is on the current position. With a
// move, the player announces it (9.2.1.1, 9.3.1): the move is played, and the claim is
// judged on the position it produces. As 9.5.3 says, an incorrect claim with a move still
// leaves the move played; ErrIncorrectClaim says the claim failed. Ask Claimable first to
// avoid that. If the announced move ends the game by itself (checkmate, for instance),
// that ending stands.
func (g *Game) ClaimDraw(intended Move) error {
	if g.outcome.Over() {
		return g.errOver()
	}
	if intended != NullMove {
		if err := g.Play(intended); err != nil {
			return err
		}
		if g.outcome.Over() {
			return nil
		}
	}
	switch reps := g.Repetitions(); {
	case reps >= 3:
		g.outcome = Outcome{Draw, ThreefoldRepetition}
	case g.pos.halfmove >= 100:
		g.outcome = Outcome{Draw, FiftyMoves}
	default:
		return fmt.Errorf("%w: the position has appeared %s and the last capture or pawn move was %s ago",
			ErrIncorrectClaim, times(reps), plural(int(g.pos.halfmove), "half-move"))
	}
	return nil
}

func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// AgreeDraw ends the game in a draw by agreement. The Laws allow it only once both
// players have made at least one move (ErrTooEarly before).
func (g *Game) AgreeDraw() error {
	if g.outcome.Over() {
		return g.errOver()
	}
	if len(g.moves) < 2 {
		return fmt.Errorf("%w: a draw can be agreed only after both players have made a move", ErrTooEarly)
	}
	g.outcome = Outcome{Draw, Agreement}
	return nil
}

// Resign ends the game by c's resignation. The opponent wins, unless the opponent could
// not checkmate by any series of legal moves (the game's MateDecider says No): then the
// game is drawn. An undecided answer (Unknown, past the budget) scores the win.
func (g *Game) Resign(c Color) error {
	if g.outcome.Over() {
		return g.errOver()
	}
	if g.decider.CanMate(&g.mates, &g.pos, c^1) == No {
		g.outcome = Outcome{Draw, Resignation}
	} else {
		g.outcome = Outcome{WinFor(c ^ 1), Resignation}
	}
	return nil
}

// FlagFall ends the game because c's time ran out (6.9): c loses, unless the opponent
// cannot checkmate c's king by any possible series of legal moves (the game's
// MateDecider says No), in which case the game is drawn; an undecided answer (Unknown)
// scores the loss. The decider keeps its answer from move to move, so it is usually
// known already. An ending on the board before the flag fell stands (ErrGameOver).
func (g *Game) FlagFall(c Color) error {
	if g.outcome.Over() {
		return g.errOver()
	}
	if g.decider.CanMate(&g.mates, &g.pos, c^1) == No {
		g.outcome = Outcome{Draw, DrawOnTime}
	} else {
		g.outcome = Outcome{WinFor(c ^ 1), TimeForfeit}
	}
	return nil
}

// Abandon ends the game because c left it: the opponent wins.
func (g *Game) Abandon(c Color) error {
	if g.outcome.Over() {
		return g.errOver()
	}
	g.outcome = Outcome{WinFor(c ^ 1), Abandoned}
	return nil
}

// Abort calls the game off without a result.
func (g *Game) Abort() error {
	if g.outcome.Over() {
		return g.errOver()
	}
	g.outcome = Outcome{NoResult, Aborted}
	return nil
}

// End records an outcome decided elsewhere: by an arbiter (Adjudication, RulesInfraction),
// or read from a record (a PGN result). It refuses an automatic reason the position does
// not show, and a result that contradicts the reason.
func (g *Game) End(o Outcome) error {
	if g.outcome.Over() {
		return g.errOver()
	}
	if !o.Over() {
		return fmt.Errorf("end the game: no termination given")
	}
	if o.Termination.Automatic() {
		return fmt.Errorf("end the game by %s: the position does not show it", o.Termination)
	}
	if err := checkResult(o); err != nil {
		return err
	}
	g.outcome = o
	return nil
}

// checkResult says whether a result fits a reason.
func checkResult(o Outcome) error {
	ok := true
	switch o.Termination {
	case Stalemate, DeadPosition, FivefoldRepetition, SeventyFiveMoves, ThreefoldRepetition, FiftyMoves, Agreement, DrawOnTime:
		ok = o.Result == Draw
	case Checkmate, TimeForfeit, Abandoned, RulesInfraction, NoShow:
		ok = o.Result == WhiteWins || o.Result == BlackWins
	case Resignation:
		ok = o.Result != NoResult
	case Aborted:
		ok = o.Result == NoResult
	}
	if !ok {
		return fmt.Errorf("result %s does not fit a game ended by %s", o.Result, o.Termination)
	}
	return nil
}

// Undo takes back the last move (a takeback agreed by the players). The game is then in
// progress again, whatever had ended it.
func (g *Game) Undo() error {
	n := len(g.moves)
	if n == 0 {
		return ErrNoMoves
	}
	g.pos = g.history[n-1]
	g.history = g.history[:n-1]
	g.moves = g.moves[:n-1]
	g.san = g.san[:n-1]
	g.outcome = Outcome{}
	g.mates = MateKnowledge{}
	return nil
}
