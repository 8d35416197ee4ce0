// search.go: the search: iterative deepening over a principal variation search with a
// transposition table, null-move pruning, late-move reductions, futility and move-count
// pruning, check and singular extensions and a quiescence search. This is the hot code: a search
// allocates only per iteration (reports), never per node.

package engine

import (
	"math"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
)

// Options configures an Engine.
type Options struct {
	// HashMB is the transposition table size in megabytes (0: DefaultHashMB).
	HashMB int
}

// DefaultHashMB is the transposition table size when Options.HashMB is 0.
const DefaultHashMB = 16

// Engine is the built-in chess engine: a searcher with its transposition table and move
// ordering memory. An Engine is not safe for concurrent use; use one per goroutine.
type Engine struct {
	tt *table
	s  searcher
}

// New returns an engine.
func New(opt Options) *Engine {
	if opt.HashMB <= 0 {
		opt.HashMB = DefaultHashMB
	}
	e := &Engine{tt: newTable(opt.HashMB)}
	e.s.tt = e.tt
	return e
}

// SetHash replaces the transposition table by an empty one of mb megabytes.
func (e *Engine) SetHash(mb int) {
	e.tt = newTable(mb)
	e.s.tt = e.tt
}

// NewGame forgets everything learnt in earlier searches (transposition table, move
// ordering history), so the next search behaves as on a fresh engine.
func (e *Engine) NewGame() {
	e.tt.clear()
	e.s.history = [2][64][64]int32{}
	e.s.counter = [16][64]cc.Move{}
	e.s.captureHist = [16][64][7]int32{}
	e.s.contHist = [16][64][16][64]int16{}
}

// Line is one line of a search: its first move, score and principal variation.
type Line struct {
	Move  cc.Move
	Score Score
	Depth int
	PV    []cc.Move
}

// Result is the outcome of a search.
type Result struct {
	// Move is the best move, NullMove when the side to move has no legal move.
	Move cc.Move
	// Ponder is the expected reply (NullMove if unknown).
	Ponder cc.Move
	// Score is Move's score for the side to move (mated or 0 without a legal move).
	Score Score
	// Depth is the last completed iteration; SelDepth the deepest ply reached.
	Depth, SelDepth int
	// Nodes is the number of positions searched.
	Nodes uint64
	// Time is the time spent (0 without a clock).
	Time time.Duration
	// PV is the principal variation of the best line.
	PV []cc.Move
	// Lines holds the best lines, best first (MultiPV of them, fewer if fewer moves).
	Lines []Line
}

// Search finds the best move in pos within lim. prior holds the hashes (Position.Hash)
// of the positions that came before pos in the game, oldest first (Game.Keys without
// its last element), so that the search sees repetitions; nil is fine.
func (e *Engine) Search(pos cc.Position, prior []uint64, lim Limits) (Result, error) {
	if (lim.MoveTime > 0 || lim.Clock != nil) && lim.Now == nil {
		return Result{}, ErrNoClock
	}
	return e.s.run(&pos, prior, lim), nil
}

// SearchGame searches the current position of g, with its history for repetitions.
func (e *Engine) SearchGame(g *cc.Game, lim Limits) (Result, error) {
	keys := g.Keys()
	return e.Search(g.Position(), keys[:len(keys)-1], lim)
}

// frame is the search state of one ply.
type frame struct {
	pos      cc.Position
	moves    cc.MoveList
	scores   [cc.MaxMoves]int32
	killers  [2]cc.Move
	eval     Score
	move     cc.Move  // the move played from this ply (NullMove for a null move)
	piece    cc.Piece // the piece it moved
	cont     *contTable
	excluded cc.Move
}

// contTable is the continuation history after one move: how good each (piece, to)
// reply has been.
type contTable = [16][64]int16

// maxHistory bounds the history scores.
const maxHistory = 16384

// searcher holds the state of the search; it lives inside Engine so that nothing is
// allocated per search but the reports.
type searcher struct {
	tt          *table
	lim         Limits
	nodes       uint64
	seldepth    int
	stopped     bool
	start       time.Time
	hardStop    time.Time
	hasDeadline bool

	stack       [MaxPly + 8]frame
	keys        [1024 + MaxPly + 8]uint64
	base        int // index in keys of the root position
	history     [2][64][64]int32
	captureHist [16][64][7]int32
	counter     [16][64]cc.Move
	contHist    [16][64]contTable // by the previous move's piece and destination
	noCont      contTable         // stands in before the root and after a null move
	pv          [MaxPly + 1][MaxPly + 1]cc.Move
	pvLen       [MaxPly + 1]int

	rootExclude  []cc.Move
	rootBest     cc.Move
	rootBestSet  bool
	rootScore    Score
	rootMoveList cc.MoveList
}

// lmrTable[depth][moveNumber] is the late-move reduction in plies.
var lmrTable [64][64]int8

func init() {
	for d := 1; d < 64; d++ {
		for m := 1; m < 64; m++ {
			lmrTable[d][m] = int8(0.75 + math.Log(float64(d))*math.Log(float64(m))/2.25)
		}
	}
}

// elapsed returns the time since the search began.
func (s *searcher) elapsed() time.Duration {
	if s.lim.Now == nil {
		return 0
	}
	return s.lim.Now().Sub(s.start)
}

// checkStop polls the stop conditions; it runs every 1024 nodes (node limits exactly).
func (s *searcher) checkStop() {
	if s.lim.Stop != nil && s.lim.Stop.Load() {
		s.stopped = true
		return
	}
	if s.lim.Done != nil {
		select {
		case <-s.lim.Done:
			s.stopped = true
			return
		default:
		}
	}
	if s.hasDeadline && !s.lim.Infinite && !s.lim.Now().Before(s.hardStop) {
		s.stopped = true
	}
}

// countNode counts a node and decides whether to stop.
func (s *searcher) countNode() bool {
	if s.stopped {
		return true
	}
	s.nodes++
	if s.lim.Nodes > 0 && s.nodes >= s.lim.Nodes && !s.lim.Infinite {
		s.stopped = true
	}
	if s.nodes&1023 == 0 {
		s.checkStop()
	}
	return s.stopped
}

// run is the iterative deepening driver.
func (s *searcher) run(root *cc.Position, prior []uint64, lim Limits) Result {
	s.lim = lim
	s.nodes, s.seldepth, s.stopped = 0, 0, false
	s.hasDeadline = false
	if lim.Now != nil {
		s.start = lim.Now()
	}
	s.tt.newSearch()
	// The repetition window: only positions since the last irreversible move matter.
	keep := min(len(prior), int(root.HalfmoveClock()), 1024)
	copy(s.keys[:], prior[len(prior)-keep:])
	s.base = keep
	s.stack[0].pos = *root
	s.stack[0].excluded = cc.NullMove
	s.stack[0].eval = scoreNone
	for i := range s.stack {
		s.stack[i].killers = [2]cc.Move{}
	}
	// Age the history so old games matter less.
	for c := range s.history {
		for f := range s.history[c] {
			for t := range s.history[c][f] {
				s.history[c][f][t] /= 2
			}
		}
	}

	root.LegalMoves(&s.rootMoveList)
	var legal []cc.Move
	for _, m := range s.rootMoveList.Slice() {
		if len(lim.SearchMoves) == 0 || containsMove(lim.SearchMoves, m) {
			legal = append(legal, m)
		}
	}
	res := Result{}
	if len(legal) == 0 {
		if root.InCheck() && s.rootMoveList.N == 0 {
			res.Score = matedIn(0)
		}
		return res
	}

	var soft time.Duration
	useSoft := false // a clock allows stopping early; a fixed move time is used in full
	switch {
	case lim.MoveTime > 0:
		s.hasDeadline = true
		s.hardStop = s.start.Add(lim.MoveTime)
	case lim.Clock != nil:
		useSoft = true
		var hard time.Duration
		soft, hard = lim.Clock.Budget(int(root.FullmoveNumber()-1) * 2)
		s.hasDeadline = true
		s.hardStop = s.start.Add(hard)
		if len(legal) == 1 {
			// One legal move: play it at once.
			soft = 0
		}
	}

	multi := max(lim.MultiPV, 1)
	multi = min(multi, len(legal))
	maxDepth := MaxPly - 8
	if lim.Depth > 0 {
		maxDepth = min(lim.Depth, maxDepth)
	}
	lines := make([]Line, multi)
	prevBest := cc.NullMove
	stable := 0
	s.rootExclude = s.rootExclude[:0]
	if len(lim.SearchMoves) > 0 {
		for _, m := range s.rootMoveList.Slice() {
			if !containsMove(lim.SearchMoves, m) {
				s.rootExclude = append(s.rootExclude, m)
			}
		}
	}
	excludeBase := len(s.rootExclude)

	for depth := 1; depth <= maxDepth; depth++ {
		s.rootExclude = s.rootExclude[:excludeBase]
		completed := true
		for k := 0; k < multi; k++ {
			score, ok := s.aspiration(depth, k, lines[k].Score)
			if !ok {
				completed = false
				if k == 0 && s.rootBestSet && depth > 1 {
					// Stopped mid-iteration: a move proven better than the old best stands.
					if s.rootBest != lines[0].Move && s.rootScore > lines[0].Score {
						lines[0] = Line{Move: s.rootBest, Score: s.rootScore, Depth: depth - 1, PV: []cc.Move{s.rootBest}}
					}
				}
				break
			}
			pv := append([]cc.Move(nil), s.pv[0][:s.pvLen[0]]...)
			if len(pv) == 0 {
				pv = []cc.Move{s.rootBest}
			}
			lines[k] = Line{Move: pv[0], Score: score, Depth: depth, PV: pv}
			s.rootExclude = append(s.rootExclude, pv[0])
			s.report(depth, k, lines[k], Exact)
		}
		if depth == 1 && lines[0].Move == cc.NullMove {
			// Stopped before depth one finished: take the first legal move in order.
			lines[0] = Line{Move: legal[0], Depth: 0, PV: []cc.Move{legal[0]}}
		}
		if !completed {
			break
		}
		// Keep the lines in order of score (a later line may have passed an earlier one).
		sortLines(lines)
		res.Depth = depth
		if lines[0].Move == prevBest {
			stable++
		} else {
			stable = 0
		}
		prevBest = lines[0].Move
		if lines[0].Score.IsMate() && lim.Depth == 0 && !lim.Infinite && depth >= 2*int(MateScore-abs32(lines[0].Score))+4 {
			break // a mate found and confirmed deeper than its length
		}
		if useSoft && !lim.Infinite {
			// Spend less when the best move has stood for several iterations.
			scale := 1.25
			switch {
			case stable >= 6:
				scale = 0.45
			case stable >= 3:
				scale = 0.7
			case stable >= 1:
				scale = 1.0
			}
			if s.elapsed() >= time.Duration(float64(soft)*scale) {
				break
			}
		}
		if s.stopped {
			break
		}
	}
	for len(lines) > 1 && lines[len(lines)-1].Move == cc.NullMove {
		lines = lines[:len(lines)-1] // lines a stopped first iteration never reached
	}
	res.Lines = lines
	res.Move = lines[0].Move
	res.Score = lines[0].Score
	res.PV = lines[0].PV
	if len(res.PV) > 1 {
		res.Ponder = res.PV[1]
	}
	res.Nodes = s.nodes
	res.SelDepth = s.seldepth
	res.Time = s.elapsed()
	return res
}

func abs32(s Score) Score {
	if s < 0 {
		return -s
	}
	return s
}

func containsMove(ms []cc.Move, m cc.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// sortLines orders lines by score, best first (insertion sort: a handful of lines).
func sortLines(lines []Line) {
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0 && lines[j].Score > lines[j-1].Score; j-- {
			lines[j], lines[j-1] = lines[j-1], lines[j]
		}
	}
}

// report sends an Info for line k.
func (s *searcher) report(depth, k int, l Line, b Bound) {
	if s.lim.Info == nil {
		return
	}
	in := Info{
		Depth: depth, SelDepth: s.seldepth, MultiPV: k + 1, Score: l.Score, Bound: b,
		Nodes: s.nodes, Hashfull: s.tt.hashfull(), PV: l.PV,
	}
	if s.lim.Now != nil {
		in.Time = s.elapsed()
		if in.Time > 0 {
			in.NPS = uint64(float64(s.nodes) / in.Time.Seconds())
		}
	}
	s.lim.Info(in)
}

// aspiration searches the root at depth for line k with a window around the previous
// score, widening it on failure. ok is false when the search was stopped.
func (s *searcher) aspiration(depth, k int, prev Score) (Score, bool) {
	delta := Score(18)
	alpha, beta := -Infinity, Infinity
	if depth >= 5 && !prev.IsMate() {
		alpha, beta = max(prev-delta, -Infinity), min(prev+delta, Infinity)
	}
	s.rootBestSet = false
	for {
		score := s.negamax(0, depth, alpha, beta, false)
		if s.stopped {
			return 0, false
		}
		switch {
		case score <= alpha:
			beta = (alpha + beta) / 2
			alpha = max(score-delta, -Infinity)
		case score >= beta:
			beta = min(score+delta, Infinity)
		default:
			return score, true
		}
		delta += delta / 2
		if delta > 600 {
			alpha, beta = -Infinity, Infinity
		}
	}
}

// isRepetition reports whether the position at ply repeats one since the last
// irreversible move (in the game or in the search).
func (s *searcher) isRepetition(ply int) bool {
	idx := s.base + ply
	key := s.keys[idx]
	oldest := max(idx-int(s.stack[ply].pos.HalfmoveClock()), 0)
	for i := idx - 4; i >= oldest; i -= 2 {
		if s.keys[i] == key {
			return true
		}
	}
	return false
}

// noMatingMaterial reports a position neither side can win: kings and at most one minor.
func noMatingMaterial(p *cc.Position) bool {
	if p.TypePieces(cc.Pawn)|p.TypePieces(cc.Rook)|p.TypePieces(cc.Queen) != 0 {
		return false
	}
	return (p.TypePieces(cc.Knight) | p.TypePieces(cc.Bishop)).Count() <= 1
}

// Move ordering classes.
const (
	orderTT     = 1 << 30
	orderGood   = 1 << 28 // good captures and queen promotions, plus MVV-LVA
	orderKiller = 1<<27 + 2
	orderCount  = 1 << 27
	orderBad    = -(1 << 28) // losing captures, after the quiet moves
	orderUnder  = -(1 << 29) // under-promotions
)

// scoreMoves gives every move of f.moves its ordering score.
func (s *searcher) scoreMoves(ply int, ttMove cc.Move) {
	f := &s.stack[ply]
	pos := &f.pos
	us := pos.Turn()
	var counter cc.Move
	if ply > 0 {
		if prev := s.stack[ply-1].move; prev != cc.NullMove {
			counter = s.counter[s.stack[ply-1].piece][prev.To()]
		}
	}
	c1, c2 := s.conts(ply)
	for i, m := range f.moves.Slice() {
		var sc int32
		switch {
		case m == ttMove:
			sc = orderTT
		case m.Kind() == cc.PromotionMove:
			if m.Promotion() == cc.Queen {
				sc = orderGood + 8000 + seeValue[pos.CapturedPiece(m).Type()]
			} else {
				sc = orderUnder
			}
		case pos.IsCapture(m):
			victim := pos.CapturedPiece(m).Type()
			mover := pos.MovedPiece(m)
			v := seeValue[victim]*8 + s.captureHist[mover][m.To()][victim]/32
			if seeValue[victim] >= seeValue[mover.Type()] || see(pos, m) >= 0 {
				sc = orderGood + v
			} else {
				sc = orderBad + v
			}
		case m == f.killers[0]:
			sc = orderKiller
		case m == f.killers[1]:
			sc = orderKiller - 1
		case m == counter:
			sc = orderCount
		default:
			pc := pos.MovedPiece(m)
			sc = s.history[us][m.From()][m.To()] + int32(c1[pc][m.To()]) + int32(c2[pc][m.To()])
		}
		f.scores[i] = sc
	}
}

// conts returns the continuation tables of the moves one and two plies before ply.
func (s *searcher) conts(ply int) (c1, c2 *contTable) {
	c1, c2 = &s.noCont, &s.noCont
	if ply >= 1 && s.stack[ply-1].cont != nil {
		c1 = s.stack[ply-1].cont
	}
	if ply >= 2 && s.stack[ply-2].cont != nil {
		c2 = s.stack[ply-2].cont
	}
	return c1, c2
}

// setMove records the move played at ply for the plies below.
func (s *searcher) setMove(f *frame, m cc.Move, pc cc.Piece) {
	f.move, f.piece = m, pc
	if m == cc.NullMove {
		f.cont = &s.noCont
	} else {
		f.cont = &s.contHist[pc][m.To()]
	}
}

// pickMove moves the best-scored move from index i on to index i and returns it.
func pickMove(f *frame, i int) cc.Move {
	best := i
	for j := i + 1; j < f.moves.N; j++ {
		if f.scores[j] > f.scores[best] {
			best = j
		}
	}
	f.moves.Moves[i], f.moves.Moves[best] = f.moves.Moves[best], f.moves.Moves[i]
	f.scores[i], f.scores[best] = f.scores[best], f.scores[i]
	return f.moves.Moves[i]
}

// updateHistory applies a bonus (positive or negative) with gravity, so scores stay in
// ±maxHistory.
func updateHistory(h *int32, bonus int32) {
	*h += bonus - *h*abs32i(bonus)/maxHistory
}

func abs32i(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// negamax is the principal variation search at ply with depth plies left.
func (s *searcher) negamax(ply, depth int, alpha, beta Score, cutNode bool) Score {
	f := &s.stack[ply]
	pos := &f.pos
	pvNode := beta-alpha > 1
	root := ply == 0
	s.pvLen[ply] = ply
	inCheck := pos.InCheck()
	if inCheck && depth < MaxPly/2 {
		depth++ // check extension
	}
	if depth <= 0 {
		return s.qsearch(ply, alpha, beta)
	}
	if s.countNode() {
		return 0
	}
	s.keys[s.base+ply] = pos.Hash()
	if ply > s.seldepth {
		s.seldepth = ply
	}
	if !root {
		if s.isRepetition(ply) || noMatingMaterial(pos) {
			return 0
		}
		if pos.HalfmoveClock() >= 100 {
			if inCheck && !pos.HasLegalMove() {
				return matedIn(ply)
			}
			return 0
		}
		if ply >= MaxPly-1 {
			return Score(evaluate(pos))
		}
		// Mate distance pruning: no line here beats a mate already found nearer the root.
		alpha = max(alpha, matedIn(ply))
		beta = min(beta, -matedIn(ply+1))
		if alpha >= beta {
			return alpha
		}
	}

	key := pos.Hash()
	excluded := f.excluded
	var ttMove cc.Move
	hit, found := s.tt.probe(key)
	if found && excluded == cc.NullMove {
		ttMove = hit.move
		ts := fromTT(hit.score, ply)
		if !pvNode && hit.depth >= depth && pos.HalfmoveClock() < 90 &&
			(hit.bound == boundExact || hit.bound == boundLower && ts >= beta || hit.bound == boundUpper && ts <= alpha) {
			if ts >= beta && ttMove != cc.NullMove && !pos.IsCapture(ttMove) {
				s.rewardQuiet(ply, ttMove, depth)
			}
			return ts
		}
	}
	if root && s.rootBestSet {
		ttMove = s.rootBest
	}

	// Static evaluation.
	eval := scoreNone
	if !inCheck {
		if found && hit.eval != scoreNone {
			eval = hit.eval
		} else {
			eval = Score(evaluate(pos))
		}
		f.eval = eval
		// A stored score is a better guess than the static one when its bound allows.
		if found {
			ts := fromTT(hit.score, ply)
			if hit.bound == boundExact || hit.bound == boundLower && ts > eval || hit.bound == boundUpper && ts < eval {
				eval = ts
			}
		}
	} else {
		f.eval = scoreNone
	}
	improving := !inCheck && ply >= 2 && s.stack[ply-2].eval != scoreNone && f.eval > s.stack[ply-2].eval
	s.stack[ply+1].killers = [2]cc.Move{}
	s.stack[ply+1].excluded = cc.NullMove

	if !pvNode && !inCheck && excluded == cc.NullMove {
		// Reverse futility: far above beta with little depth left, assume it holds.
		margin := Score(75 * depth)
		if improving {
			margin -= 50
		}
		if depth <= 8 && eval-margin >= beta && eval < mateBound {
			return eval
		}
		// Null move: if passing still holds beta, a real move will too.
		us := pos.Turn()
		if depth >= 3 && eval >= beta && f.eval >= beta-20 && ply > 0 && s.stack[ply-1].move != cc.NullMove &&
			pos.ColorPieces(us)&^(pos.Pieces(us, cc.Pawn)|pos.Pieces(us, cc.King)) != 0 {
			r := 3 + depth/4 + min(int(eval-beta)/200, 3)
			s.setMove(f, cc.NullMove, cc.NoPiece)
			s.stack[ply+1].pos = pos.PlayNull()
			score := -s.negamax(ply+1, depth-1-r, -beta, -beta+1, !cutNode)
			if s.stopped {
				return 0
			}
			if score >= beta {
				if score >= mateBound {
					score = beta
				}
				return score
			}
		}
		// Razoring: hopeless positions at low depth go straight to the quiescence search.
		if depth <= 3 && eval+Score(250*depth) < alpha {
			q := s.qsearch(ply, alpha-1, alpha)
			if q < alpha {
				return q
			}
		}
	}

	// Internal iterative reduction: without a stored move, search a little shallower.
	if depth >= 4 && ttMove == cc.NullMove && !root {
		depth--
	}

	// Singular extension: when the stored move is far better than every other move (a
	// search without it fails low), it is searched one ply deeper.
	singular := false
	if !root && depth >= 8 && found && excluded == cc.NullMove && ttMove != cc.NullMove &&
		hit.depth >= depth-3 && hit.bound != boundUpper && !fromTT(hit.score, ply).IsMate() && ply < MaxPly/2 {
		sBeta := fromTT(hit.score, ply) - Score(2*depth)
		f.excluded = ttMove
		score := s.negamax(ply, (depth-1)/2, sBeta-1, sBeta, cutNode)
		f.excluded = cc.NullMove
		if s.stopped {
			return 0
		}
		switch {
		case score < sBeta:
			singular = true
		case sBeta >= beta:
			return sBeta // multi-cut: several moves beat beta
		}
		s.pvLen[ply] = ply
	}

	pos.LegalMoves(&f.moves)
	if f.moves.N == 0 {
		if inCheck {
			return matedIn(ply)
		}
		return 0
	}
	s.scoreMoves(ply, ttMove)

	us := pos.Turn()
	origAlpha := alpha
	best := -Infinity
	bestMove := cc.NullMove
	searched := 0
	var quietsTried [64]cc.Move
	nQuiets := 0
	var capsTried [32]cc.Move
	nCaps := 0

	for i := 0; i < f.moves.N; i++ {
		m := pickMove(f, i)
		if m == excluded {
			continue
		}
		if root && containsMove(s.rootExclude, m) {
			continue
		}
		capture := pos.IsCapture(m)
		quiet := !capture && m.Kind() != cc.PromotionMove
		child := &s.stack[ply+1]
		child.pos = pos.Play(m)
		givesCheck := child.pos.InCheck()
		// Shallow pruning of moves that are unlikely to matter; checks are always searched.
		if !root && !givesCheck && best > -mateBound && pos.ColorPieces(us)&^pos.Pieces(us, cc.Pawn) != pos.Pieces(us, cc.King) {
			if quiet && !inCheck {
				// Move-count pruning.
				if depth <= 7 && searched >= (3+depth*depth)/(2-b2i(improving)) {
					continue
				}
				// Futility pruning.
				if depth <= 6 && eval+Score(90+85*depth) <= alpha && f.scores[i] < orderCount {
					continue
				}
				// History pruning: quiet moves that have kept failing.
				if depth <= 3 && !pvNode && f.scores[i] < int32(-4000*depth) {
					continue
				}
			}
			// Exchange pruning: moves that lose material by force at low depth.
			if depth <= 6 && f.scores[i] < orderCount {
				threshold := int32(-70 * depth)
				if capture {
					threshold = int32(-100 * depth)
				}
				if !seeGE(pos, m, threshold) {
					continue
				}
			}
		}

		s.setMove(f, m, pos.MovedPiece(m))
		newDepth := depth - 1
		if singular && m == ttMove {
			newDepth++
		}

		var score Score
		if searched == 0 {
			score = -s.negamax(ply+1, newDepth, -beta, -alpha, false)
		} else {
			// Late-move reductions for quiet moves and losing captures.
			r := 0
			if depth >= 3 && searched >= 1+b2i(pvNode) && (quiet || f.scores[i] < 0) {
				r = int(lmrTable[min(depth, 63)][min(searched, 63)])
				if pvNode {
					r--
				}
				if !improving {
					r++
				}
				if cutNode {
					r++
				}
				if givesCheck || inCheck {
					r--
				}
				if f.scores[i] >= orderCount {
					r-- // killers and counter moves
				} else if quiet {
					r -= int(f.scores[i] / 10000)
				}
				r = max(0, min(r, newDepth-1))
			}
			score = -s.negamax(ply+1, newDepth-r, -alpha-1, -alpha, true)
			if score > alpha && r > 0 {
				score = -s.negamax(ply+1, newDepth, -alpha-1, -alpha, !cutNode)
			}
			if score > alpha && score < beta {
				score = -s.negamax(ply+1, newDepth, -beta, -alpha, false)
			}
		}
		if s.stopped {
			return 0
		}
		searched++
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				bestMove = m
				s.pv[ply][ply] = m
				copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = max(s.pvLen[ply+1], ply+1)
				if root {
					s.rootBest, s.rootScore, s.rootBestSet = m, score, true
				}
				if alpha >= beta {
					break
				}
			}
		}
		if quiet && nQuiets < len(quietsTried) {
			quietsTried[nQuiets] = m
			nQuiets++
		} else if capture && nCaps < len(capsTried) {
			capsTried[nCaps] = m
			nCaps++
		}
	}

	if searched == 0 {
		// Every move was excluded or pruned.
		if excluded != cc.NullMove || root {
			return alpha
		}
		return best
	}

	if best >= beta && bestMove != cc.NullMove {
		bonus := int32(min(depth*depth*8, 1600))
		if !pos.IsCapture(bestMove) && bestMove.Kind() != cc.PromotionMove {
			s.rewardQuiet(ply, bestMove, depth)
			c1, c2 := s.conts(ply)
			for _, q := range quietsTried[:nQuiets] {
				updateHistory(&s.history[us][q.From()][q.To()], -bonus)
				pc := pos.MovedPiece(q)
				updateHistory16(&c1[pc][q.To()], -bonus)
				updateHistory16(&c2[pc][q.To()], -bonus)
			}
		} else if pos.IsCapture(bestMove) {
			mp := pos.MovedPiece(bestMove)
			updateHistory(&s.captureHist[mp][bestMove.To()][pos.CapturedPiece(bestMove).Type()], bonus)
		}
		for _, c := range capsTried[:nCaps] {
			mp := pos.MovedPiece(c)
			updateHistory(&s.captureHist[mp][c.To()][pos.CapturedPiece(c).Type()], -bonus)
		}
	}

	if excluded == cc.NullMove && !(root && len(s.rootExclude) > 0) {
		bd := boundUpper
		switch {
		case best >= beta:
			bd = boundLower
		case pvNode && best > origAlpha:
			bd = boundExact
		}
		storeEval := f.eval
		s.tt.store(key, bestMove, toTT(best, ply), storeEval, depth, bd)
	}
	return best
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rewardQuiet records a quiet move that caused a cutoff: killer, counter move, history.
func (s *searcher) rewardQuiet(ply int, m cc.Move, depth int) {
	f := &s.stack[ply]
	if f.killers[0] != m {
		f.killers[1] = f.killers[0]
		f.killers[0] = m
	}
	if ply > 0 {
		if prev := s.stack[ply-1].move; prev != cc.NullMove {
			s.counter[s.stack[ply-1].piece][prev.To()] = m
		}
	}
	bonus := int32(min(depth*depth*8, 1600))
	updateHistory(&s.history[f.pos.Turn()][m.From()][m.To()], bonus)
	c1, c2 := s.conts(ply)
	pc := f.pos.MovedPiece(m)
	updateHistory16(&c1[pc][m.To()], bonus)
	updateHistory16(&c2[pc][m.To()], bonus)
}

// updateHistory16 is updateHistory for the int16 continuation tables.
func updateHistory16(h *int16, bonus int32) {
	v := int32(*h)
	updateHistory(&v, bonus)
	*h = int16(v)
}

// qsearch searches captures (and every move when in check) until the position is quiet.
func (s *searcher) qsearch(ply int, alpha, beta Score) Score {
	f := &s.stack[ply]
	pos := &f.pos
	s.pvLen[ply] = ply
	if s.countNode() {
		return 0
	}
	if ply > s.seldepth {
		s.seldepth = ply
	}
	inCheck := pos.InCheck()
	if ply >= MaxPly-1 {
		if inCheck {
			return 0
		}
		return Score(evaluate(pos))
	}
	if noMatingMaterial(pos) {
		return 0
	}
	pvNode := beta-alpha > 1
	key := pos.Hash()
	hit, found := s.tt.probe(key)
	ttMove := cc.NullMove
	if found {
		ttMove = hit.move
		ts := fromTT(hit.score, ply)
		if !pvNode && (hit.bound == boundExact || hit.bound == boundLower && ts >= beta || hit.bound == boundUpper && ts <= alpha) {
			return ts
		}
	}
	best := -Infinity
	standPat := scoreNone
	if !inCheck {
		if found && hit.eval != scoreNone {
			standPat = hit.eval
		} else {
			standPat = Score(evaluate(pos))
		}
		best = standPat
		if standPat >= beta {
			return standPat
		}
		alpha = max(alpha, standPat)
	}
	f.eval = standPat

	if inCheck {
		pos.LegalMoves(&f.moves)
		if f.moves.N == 0 {
			return matedIn(ply)
		}
	} else {
		genNoisy(pos, &f.moves) // captures and queen promotions, legality checked below
	}
	if ttMove != cc.NullMove && !f.moves.Contains(ttMove) {
		ttMove = cc.NullMove
	}
	s.scoreMoves(ply, ttMove)
	origAlpha := alpha
	bestMove := cc.NullMove
	for i := 0; i < f.moves.N; i++ {
		m := pickMove(f, i)
		if !inCheck {
			if f.scores[i] < orderGood && m != ttMove {
				continue // losing captures and under-promotions
			}
			// Delta pruning: even winning the piece would not reach alpha.
			if m.Kind() != cc.PromotionMove &&
				standPat+Score(seeValue[pos.CapturedPiece(m).Type()])+200 <= alpha {
				continue
			}
		} else if best > -mateBound && f.scores[i] < orderKiller-1 && !pos.IsCapture(m) && i >= 2 {
			// In check, after two evasions, skip quiet ones with no history.
			continue
		}
		child := &s.stack[ply+1]
		child.pos = pos.Play(m)
		if !inCheck && !legalAfter(&child.pos, pos.Turn()) {
			continue
		}
		s.setMove(f, m, pos.MovedPiece(m))
		score := -s.qsearch(ply+1, -beta, -alpha)
		if s.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				bestMove = m
				if alpha >= beta {
					break
				}
			}
		}
	}
	bd := boundUpper
	switch {
	case best >= beta:
		bd = boundLower
	case best > origAlpha:
		bd = boundExact
	}
	s.tt.store(key, bestMove, toTT(best, ply), standPat, 0, bd)
	return best
}
