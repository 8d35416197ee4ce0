// Package puzzles runs Gambit's puzzles for every guild: members' sessions in a puzzle
// (solve.go, hint.go), their Glicko-2 puzzle ratings (ratings.go), their records and the
// leaderboards (stats.go), the puzzle of the day (daily.go) and its post
// (dailypost.go), the import and export of lichess-layout CSV (import.go), and the
// mining of a guild's finished games (mining.go). The puzzle model is package puzzle;
// mining with the engine is package puzzle/mine.
//
// The service speaks no Discord: it returns values (progress, answers, hints, records,
// the day's post as data) and stores plain data; package commands renders them.
package puzzles
