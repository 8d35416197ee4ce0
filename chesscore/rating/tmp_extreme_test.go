package rating

import (
	"math"
	"testing"
)

func TestTmpExtreme(t *testing.T) {
	vals := func(xs ...float64) []float64 { return xs }
	for _, r := range vals(0, 1500, 4000) {
		for _, rd := range vals(1e-300, 1e-5, 30, 350, MaxRD) {
			for _, vol := range vals(1e-6, 0.001, 0.06, 1, MaxVolatility) {
				for _, tau := range vals(1e-300, 1e-6, 0.5, 3, MaxTau) {
					for _, ord := range vals(1e-300, 30, MaxRD) {
						for _, or := range vals(0, 4000) {
							for _, s := range vals(0, 0.5, 1) {
								gs := []Glicko2Game{{or, ord, s}, {or, ord, s}}
								got, err := Glicko2Update(Glicko2Player{r, rd, vol}, gs, tau)
								bad := math.IsNaN(got.Rating) || math.IsInf(got.Rating, 0) || math.IsNaN(got.RD) || math.IsInf(got.RD, 0) || !(got.RD > 0) || math.IsNaN(got.Volatility) || !(got.Volatility > 0)
								if err != nil || bad {
									t.Errorf("r %g rd %g vol %g tau %g opp %g/%g s %v: %+v %v", r, rd, vol, tau, or, ord, s, got, err)
								}
							}
						}
					}
				}
			}
		}
	}
}
