package rating

import "fmt"

// probabilityRow is one row of table 8.1.2: every rating difference from the
// previous row's MaxD+1 up to MaxD gives the higher-rated player a scoring
// probability of PD hundredths (and the lower-rated player 100 − PD).
type probabilityRow struct {
	MaxD int
	PD   int
}

// table812 is table 8.1.2 of the FIDE Rating Regulations (1 March 2024),
// "Conversion of rating difference D into scoring probability PD", H column.
// A difference above the last row's MaxD (735) gives 1.00.
var table812 = [...]probabilityRow{
	{3, 50}, {10, 51}, {17, 52}, {25, 53}, {32, 54},
	{39, 55}, {46, 56}, {53, 57}, {61, 58}, {68, 59},
	{76, 60}, {83, 61}, {91, 62}, {98, 63}, {106, 64},
	{113, 65}, {121, 66}, {129, 67}, {137, 68}, {145, 69},
	{153, 70}, {162, 71}, {170, 72}, {179, 73}, {188, 74},
	{197, 75}, {206, 76}, {215, 77}, {225, 78}, {235, 79},
	{245, 80}, {256, 81}, {267, 82}, {278, 83}, {290, 84},
	{302, 85}, {315, 86}, {328, 87}, {344, 88}, {357, 89},
	{374, 90}, {391, 91}, {411, 92}, {432, 93}, {456, 94},
	{484, 95}, {517, 96}, {559, 97}, {619, 98}, {735, 99},
}

// table811 is table 8.1.1 of the FIDE Rating Regulations (1 March 2024),
// "Conversion from fractional score p into rating differences dp":
// table811[i] is dp for p = i/100.
var table811 = [101]int{
	-800, -677, -589, -538, -501, -470, -444, -422, -401, -383, // .00-.09
	-366, -351, -336, -322, -309, -296, -284, -273, -262, -251, // .10-.19
	-240, -230, -220, -211, -202, -193, -184, -175, -166, -158, // .20-.29
	-149, -141, -133, -125, -117, -110, -102, -95, -87, -80, // .30-.39
	-72, -65, -57, -50, -43, -36, -29, -21, -14, -7, // .40-.49
	0, 7, 14, 21, 29, 36, 43, 50, 57, 65, // .50-.59
	72, 80, 87, 95, 102, 110, 117, 125, 133, 141, // .60-.69
	149, 158, 166, 175, 184, 193, 202, 211, 220, 230, // .70-.79
	240, 251, 262, 273, 284, 296, 309, 322, 336, 351, // .80-.89
	366, 383, 401, 422, 444, 470, 501, 538, 589, 677, // .90-.99
	800, // 1.00
}

// probabilityHundredths returns the scoring probability, in hundredths, of a
// player whose rating exceeds the opponent's by d (negative when the player is
// the lower rated), read from table 8.1.2 without the 400-point rule.
func probabilityHundredths(d int) int {
	abs := d
	if abs < 0 {
		abs = -abs
	}
	high := 100
	for _, row := range table812 {
		if abs <= row.MaxD {
			high = row.PD
			break
		}
	}
	if d < 0 {
		return 100 - high
	}
	return high
}

// FIDEProbability returns the scoring probability PD of table 8.1.2 for a
// player whose rating exceeds the opponent's by d points (d is negative when
// the player is the lower rated). The 400-point rule is not applied here; see
// [FIDECappedDifference] and [FIDEExpected].
func FIDEProbability(d int) float64 {
	return float64(probabilityHundredths(d)) / 100
}

// FIDEDifference returns dp of table 8.1.1 for a score of percent per cent
// (0..100): the rating difference that a fractional score p = percent/100
// corresponds to, as used for initial and performance ratings.
func FIDEDifference(percent int) (int, error) {
	if percent < 0 || percent > 100 {
		return 0, fmt.Errorf("percentage score %d: %w", percent, ErrPercent)
	}
	return table811[percent], nil
}
