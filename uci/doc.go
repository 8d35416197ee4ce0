// Package uci speaks the Universal Chess Interface both ways.
//
// Server runs Gambit's built-in engine (chesscore/engine) for a chess GUI or a match
// runner: uci, isready, ucinewgame, setoption (Hash, Threads, Level, UCI_LimitStrength
// and UCI_Elo, MultiPV, UCI_ShowWDL, Move Overhead, Clear Hash), position startpos|fen
// ... moves ..., go (depth, nodes, movetime, wtime, btime, winc, binc, movestogo, mate,
// searchmoves, infinite), stop, quit, with info lines (depth, seldepth, multipv, score
// cp|mate, wdl with UCI_ShowWDL, nodes, nps, hashfull, time, pv).
//
// Client drives an external engine process (Stockfish, for example) for the stronger
// bot levels and for analysis. It restarts an engine that crashes or hangs: every wait
// has a deadline, a hung search gets "stop" and then the process is killed, and each
// failure is logged with the engine's name, process id and last stderr lines. Client
// implements engine.Player.
//
// Unlike the rest of chesscore this package sits at the I/O edge, so it runs
// goroutines: the server searches in one so it can answer "isready" and "stop" meanwhile,
// and the client reads the engine's output and error streams in two. It reads the clock
// (through a Now function that tests replace) for the same reason.
package uci
