// sprt.go: the sequential probability ratio test of a match, on the pentanomial model
// over game pairs.

package match

import (
	"errors"
	"fmt"
	"math"
)

// Pentanomial counts the game pairs of a match (one opening played with each colour) by
// the first engine's points in the pair: index 0 for 0 points (both lost), 1 for ½, 2 for
// 1, 3 for 1½, 4 for 2 (both won). Counting pairs rather than games takes out the
// correlation between the two games of an opening, which is what engine testers do.
type Pentanomial [5]int

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int {
	n := 0
	for _, c := range p {
		n += c
	}
	return n
}

// add counts a pair in which the first engine scored points (0, 0.5, 1, 1.5 or 2).
func (p *Pentanomial) add(points float64) {
	i := int(math.Round(points * 2))
	p[min(max(i, 0), 4)]++
}

// LLR returns the log-likelihood ratio of the hypothesis "the first engine is elo1
// stronger" (H1) against "it is elo0 stronger" (H0), Elo differences on the logistic
// scale, over the pairs counted.
//
// It is the generalised SPRT on the pentanomial model: under each hypothesis the pair
// outcomes are taken to follow the distribution nearest the observed frequencies (the
// maximum-likelihood one) whose mean per-game score is the hypothesis' expected score,
// and the LLR is the log of the ratio of the two likelihoods of the observed pairs. A
// category never seen counts as 0.001 pairs, so that a run of identical pairs (a sweep)
// still has a finite, small LLR rather than none at all. With no pairs it is 0.
func (p Pentanomial) LLR(elo0, elo1 float64) float64 {
	if p.Pairs() == 0 {
		return 0
	}
	var n [5]float64
	total := 0.0
	for i, c := range p {
		n[i] = float64(c)
		if c == 0 {
			n[i] = unseenPairs
		}
		total += n[i]
	}
	var freq [5]float64
	for i := range n {
		freq[i] = n[i] / total
	}
	s0, s1 := expectedScore(elo0), expectedScore(elo1)
	l0, l1 := tiltFor(freq, s0), tiltFor(freq, s1)
	llr := 0.0
	for i := range n {
		x := float64(i) / 4
		llr += n[i] * (math.Log1p(l0*(x-s0)) - math.Log1p(l1*(x-s1)))
	}
	return llr
}

// unseenPairs is the count given to a pentanomial category with no pairs.
const unseenPairs = 1e-3

// tiltFor returns the λ that makes q_i = f_i / (1 + λ(x_i − s)) a distribution of mean
// s, x_i = i/4 the per-game score of category i: the maximum-likelihood distribution
// of mean s for observed frequencies f (all positive). λ is the root of
// Σ f_i (x_i − s) / (1 + λ(x_i − s)), which falls from +∞ to −∞ as λ goes from
// −1/(1−s) to 1/s (where q stays positive), so bisection finds it.
func tiltFor(f [5]float64, s float64) float64 {
	lo, hi := -1/(1-s), 1/s
	for range 200 {
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break
		}
		g := 0.0
		for i, fi := range f {
			d := float64(i)/4 - s
			g += fi * d / (1 + mid*d)
		}
		if g > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// expectedScore is the per-game score of an engine elo points stronger, on the logistic
// scale.
func expectedScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// SPRT is a sequential test between two Elo differences of the first engine over the
// second: H0, it is Elo0 stronger, against H1, it is Elo1 stronger (Elo0 < Elo1). Alpha
// is the chance of accepting H1 when H0 holds, Beta of accepting H0 when H1 holds.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// Validate reports a test that cannot run: Elo0 not below Elo1, or error rates outside
// (0, 0.5).
func (t SPRT) Validate() error {
	switch {
	case math.IsNaN(t.Elo0) || math.IsNaN(t.Elo1) || t.Elo0 >= t.Elo1:
		return fmt.Errorf("sprt: elo0 %g, elo1 %g: want elo0 < elo1", t.Elo0, t.Elo1)
	case !(t.Alpha > 0 && t.Alpha < 0.5) || !(t.Beta > 0 && t.Beta < 0.5):
		return errors.New("sprt: alpha and beta must lie between 0 and 0.5")
	}
	return nil
}

// Bounds returns the LLR bounds: H0 is accepted at or below lower = ln(β/(1−α)), H1 at
// or above upper = ln((1−β)/α).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Verdict is where an SPRT stands.
type Verdict int

// The verdicts of an SPRT.
const (
	Continue Verdict = iota // neither bound crossed yet
	AcceptH0                // the LLR fell to the lower bound: not elo1 stronger
	AcceptH1                // the LLR rose to the upper bound: not only elo0 stronger
)

// String names the verdict for the report.
func (v Verdict) String() string {
	switch v {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "no verdict yet"
}

// Judge returns the LLR of the pairs and the verdict it gives.
func (t SPRT) Judge(p Pentanomial) (llr float64, v Verdict) {
	llr = p.LLR(t.Elo0, t.Elo1)
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return llr, AcceptH1
	case llr <= lower:
		return llr, AcceptH0
	}
	return llr, Continue
}

// SPRTResult is the state of a match's SPRT at its end.
type SPRTResult struct {
	SPRT
	// LLR is the log-likelihood ratio; Lower and Upper are its bounds.
	LLR, Lower, Upper float64
	// Verdict is the outcome; Continue when the games ran out first.
	Verdict Verdict
}

// String is the report's SPRT line.
func (r SPRTResult) String() string {
	return fmt.Sprintf("SPRT elo0 %g elo1 %g alpha %g beta %g: LLR %.2f (bounds %.2f, %.2f): %s",
		r.Elo0, r.Elo1, r.Alpha, r.Beta, r.LLR, r.Lower, r.Upper, r.Verdict)
}
