package rating

import "errors"

// Sentinel errors for bad input; test for them with errors.Is. The errors
// returned by this package wrap them with the offending value.
var (
	// ErrScore reports a game score other than 0, 0.5 or 1.
	ErrScore = errors.New("score must be 0, 0.5 or 1")
	// ErrRating reports a rating outside [MinRating, MaxRating] or not finite.
	ErrRating = errors.New("rating out of range")
	// ErrGamesPlayed reports a negative number of games played.
	ErrGamesPlayed = errors.New("games played must not be negative")
	// ErrPeak reports a peak rating below the current rating.
	ErrPeak = errors.New("peak rating below current rating")
	// ErrK reports a forced K that is not positive.
	ErrK = errors.New("the K factor must be positive")
	// ErrRD reports a rating deviation that is not in (0, MaxRD].
	ErrRD = errors.New("rating deviation out of range")
	// ErrVolatility reports a volatility that is not in [MinVolatility, MaxVolatility].
	ErrVolatility = errors.New("volatility out of range")
	// ErrTau reports a Glicko-2 system constant tau that is not in (0, MaxTau].
	ErrTau = errors.New("tau out of range")
	// ErrPercent reports a percentage score outside 0..100.
	ErrPercent = errors.New("percentage score must be between 0 and 100")
	// ErrNoConvergence reports that the Glicko-2 volatility iteration did not converge.
	ErrNoConvergence = errors.New("volatility iteration did not converge")
	// ErrSyntax reports a game written in the wrong form.
	ErrSyntax = errors.New("invalid syntax")
)

// Bounds accepted for a rating, FIDE or Glicko-2, by the functions that report
// bad input. They are sanity limits, not FIDE rules (FIDE's own floor is
// [RatingFloor]); a ladder's ratings stay within [LadderFloor] and [LadderCeiling].
const (
	MinRating = 0
	MaxRating = 4000
)
