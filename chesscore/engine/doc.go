// Package engine is Gambit's chess engine: the built-in opponent, the analyser behind
// /analyze, and the searcher for puzzle mining.
//
// # Search
//
// Search runs iterative deepening with aspiration windows over a principal variation
// search (search.go): a transposition table (tt.go) sized by Options.HashMB, a
// quiescence search of captures and check evasions, null-move pruning, late-move
// reductions, reverse futility, futility, history and move-count pruning, exchange (SEE)
// pruning,
// check and singular extensions, mate-distance pruning, and killer, counter-move,
// history and continuation-history move ordering. The quiescence search generates only
// captures and queen promotions (movegen.go). Repetitions (against the game's earlier positions and within the search),
// the fifty-move rule and bare material score as draws. Scores are centipawns for the
// side to move; mate scores count plies (Score.MateIn).
//
// The evaluation (eval.go) is tapered between middlegame and endgame by the material on
// the board: PeSTO's published piece values and piece-square tables (pesto.go), plus
// pawn structure (doubled, isolated, connected and passed pawns, the kings' race to a
// passer),
// threats (pawns attacking pieces, minors attacking rooks and queens), mobility, king
// safety (attacks on the king zone, pawn shield), bishop pair, rooks on
// open files, and endgame rules (no win without mating material, opposite bishops,
// driving a bare king to the edge).
//
// # Limits and time
//
// The package is pure like the rest of chesscore: it starts no goroutine and never reads
// the clock. Limits bound a search by depth, nodes, a fixed move time or a clock
// (TimeLeft: increments, simple and Bronstein delays, periods with a move count,
// correspondence), and a search stops promptly when Limits.Stop is set or Limits.Done is
// closed (polled every 1024 nodes). Time limits read the caller's Limits.Now. A search
// bounded only by nodes or depth is deterministic; it allocates per iteration (reports),
// never per node.
//
// # Levels, players, analysis
//
// Levels 1 to 8 (level.go) shape the engine for people: level 8 is full strength; lower
// levels cap depth and nodes and choose among the best candidates with noise and a
// softmax, never losing more than a level's MaxLoss by their own search. Player is what
// the game service plays through; Bot implements it for the built-in engine and
// uci's Client for an external one. Analyse returns the best lines of a
// position (MultiPV) and Annotate judges every move of a game by the drop in win
// probability (inaccuracy, mistake, blunder).
package engine
