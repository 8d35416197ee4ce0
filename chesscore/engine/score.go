// score.go: search scores in centipawns, mate scores, and their UCI text.

package engine

import "strconv"

// Score is a search score in centipawns from the point of view of the side to move, or a
// mate score: MateScore-n when the side to move mates in n plies, -(MateScore-n) when it
// is mated in n plies.
type Score int32

// Score bounds.
const (
	// MateScore is the score of giving mate on the board (mate in 0 plies).
	MateScore Score = 31000
	// Infinity is above every score the search returns.
	Infinity Score = 32000
	// mateBound: scores at or beyond ±mateBound are mate scores.
	mateBound = MateScore - MaxPly
	// scoreNone marks "no score" (for example no static evaluation in check).
	scoreNone Score = 32001
)

// MaxPly bounds the depth of the search tree (plies from the root).
const MaxPly = 128

// IsMate reports whether s announces a forced mate for either side.
func (s Score) IsMate() bool { return s >= mateBound || s <= -mateBound }

// MateIn returns the signed number of moves to mate for a mate score: positive when the
// side to move mates (mate in 3 is 3), negative when it gets mated. It is 0 for other
// scores.
func (s Score) MateIn() int {
	switch {
	case s >= mateBound:
		return int(MateScore-s+1) / 2
	case s <= -mateBound:
		return -int(MateScore+s) / 2
	}
	return 0
}

// UCI returns the score as UCI's info line writes it: "cp 35" or "mate -2".
func (s Score) UCI() string {
	if s.IsMate() {
		return "mate " + strconv.Itoa(s.MateIn())
	}
	return "cp " + strconv.Itoa(int(s))
}

// String returns the score for people: "+0.35", "-1.20", "#3", "#-2".
func (s Score) String() string {
	if s.IsMate() {
		return "#" + strconv.Itoa(s.MateIn())
	}
	sign := "+"
	v := int(s)
	if v < 0 {
		sign, v = "-", -v
	}
	frac := strconv.Itoa(v % 100)
	if len(frac) < 2 {
		frac = "0" + frac
	}
	return sign + strconv.Itoa(v/100) + "." + frac
}

// matedIn is the score of being checkmated at ply.
func matedIn(ply int) Score { return -MateScore + Score(ply) }

// toTT converts a score relative to the root into one relative to the node at ply, for
// storing: mate distances are counted from the node.
func toTT(s Score, ply int) Score {
	switch {
	case s >= mateBound:
		return s + Score(ply)
	case s <= -mateBound:
		return s - Score(ply)
	}
	return s
}

// fromTT is the inverse of toTT.
func fromTT(s Score, ply int) Score {
	switch {
	case s >= mateBound:
		return s - Score(ply)
	case s <= -mateBound:
		return s + Score(ply)
	}
	return s
}
