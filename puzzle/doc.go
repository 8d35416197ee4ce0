// Package puzzle is Gambit's chess puzzle model: the puzzle record and its validation,
// the rules of solving a puzzle one move at a time, and the streaming reader and writer
// of the lichess puzzle CSV layout. It is pure: it knows chess (package chesscore) and
// nothing of the store, the engine or Discord.
//
// # The lichess conventions
//
// In the lichess puzzle database (CC0) a row's FEN is the position before the opponent's
// move; the first move of Moves (UCI) is the opponent's, and the solver's moves then
// alternate with the opponent's replies. So the position shown to the solver is the FEN
// after the first move, and the solver plays Moves[1], Moves[3], ... Columns are found by
// header name, so extra or reordered columns are fine.
package puzzle
