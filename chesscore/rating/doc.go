// Package rating computes chess ratings: FIDE Elo and Glicko-2.
//
// FIDE Elo follows the FIDE Rating Regulations in force since 1 March 2024,
// with the amendment of 1 October 2025 to the 400-point rule:
//
//   - the expected score of a game is read from the conversion table of
//     Article 8.1.2 (rating difference → scoring probability), not computed
//     from the logistic formula (see [FIDEProbability]);
//   - a rating difference of more than 400 points counts as 400 for a player
//     rated below 2650; for a player rated 2650 and above the real
//     difference is used (Article 8.3.1, see [FIDECappedDifference]);
//   - K is 40 for a player new to the list until 30 games are completed and
//     for juniors rated under 2300, 20 while below 2400, and 10 once 2400 has
//     been reached, for ever after (Article 8.3.3, see [FIDEK]);
//   - if K × n exceeds 700 for the n games of a rating period, K becomes the
//     largest whole number with K × n ≤ 700 ([CapK]);
//   - the change of a period is rounded to the nearest whole number, 0.5 away
//     from zero (Article 8.3.4, see [FIDEChange]);
//   - an unrated player's first rating is Ra + dp, with two hypothetical
//     opponents rated 1800 counted as draws and dp from the table of
//     Article 8.1.1, at most 2200, published after at least 5 games against
//     rated opponents and only if at least 1400 (Articles 7.1.4 and 8.2,
//     see [FIDEInitial]).
//
// The FIDE arithmetic is exact: probabilities are whole hundredths and every
// sum is kept in integer hundredths, so rounding never depends on binary
// floating point.
//
// Glicko-2 follows Mark Glickman's "Example of the Glicko-2 system"
// ([Glicko2Update]), including the rule for a period without games.
//
// [LadderFIDE] and [LadderGlicko2] rate one game for a ladder and cannot fail: they
// bring any input into range and keep every result within [LadderFloor] (100) and
// [LadderCeiling] (4000), with Glicko-2 deviations and volatilities in sane ranges, so
// a ladder can always rate a game that ends.
//
// The package is pure: no I/O, no clock, no randomness, standard library only.
package rating
