package rating

import (
	"errors"
	"math"
	"testing"
)

func TestTable812Shape(t *testing.T) {
	if len(table812) != 50 {
		t.Fatalf("table 8.1.2 has %d rows, want 50 (.50 to .99)", len(table812))
	}
	prev := -1
	for i, row := range table812 {
		if row.MaxD <= prev {
			t.Errorf("row %d: MaxD %d not above previous %d", i, row.MaxD, prev)
		}
		if row.PD != 50+i {
			t.Errorf("row %d: PD %d, want %d (one hundredth a row)", i, row.PD, 50+i)
		}
		prev = row.MaxD
	}
	if table812[0].MaxD != 3 || table812[len(table812)-1].MaxD != 735 {
		t.Errorf("table bounds %d..%d, want 3..735", table812[0].MaxD, table812[len(table812)-1].MaxD)
	}
}

func TestFIDEProbabilityPublishedEntries(t *testing.T) {
	tests := []struct {
		d    int
		want float64
	}{
		{0, .50}, {3, .50}, {4, .51}, {-4, .49}, {10, .51}, {11, .52},
		{53, .57}, {54, .58}, {197, .75}, {198, .76}, {200, .76}, {-200, .24},
		{206, .76}, {207, .77}, {344, .88}, {345, .89}, {357, .89}, {358, .90},
		{400, .92}, {-400, .08}, {411, .92}, {412, .93}, {619, .98}, {620, .99},
		{735, .99}, {736, 1}, {-736, 0}, {5000, 1}, {-5000, 0},
	}
	for _, tt := range tests {
		if got := FIDEProbability(tt.d); got != tt.want {
			t.Errorf("FIDEProbability(%d) = %v, want %v", tt.d, got, tt.want)
		}
	}
}

func TestFIDEProbabilitySymmetricAndMonotonic(t *testing.T) {
	prev := 0
	for d := -1000; d <= 1000; d++ {
		h := probabilityHundredths(d)
		if h+probabilityHundredths(-d) != 100 {
			t.Errorf("PD(%d) + PD(%d) = %d hundredths, want 100", d, -d, h+probabilityHundredths(-d))
		}
		if h < prev {
			t.Errorf("PD(%d) = %d below PD(%d) = %d", d, h, d-1, prev)
		}
		prev = h
	}
}

func TestTable811Shape(t *testing.T) {
	for i := range table811 {
		if table811[i] != -table811[100-i] {
			t.Errorf("dp(%d%%) = %d, dp(%d%%) = %d: not antisymmetric", i, table811[i], 100-i, table811[100-i])
		}
		if i > 0 && table811[i] <= table811[i-1] {
			t.Errorf("dp(%d%%) = %d not above dp(%d%%) = %d", i, table811[i], i-1, table811[i-1])
		}
	}
}

func TestFIDEDifferencePublishedEntries(t *testing.T) {
	tests := []struct{ percent, want int }{
		{100, 800}, {99, 677}, {98, 589}, {92, 401}, {89, 351}, {80, 240},
		{57, 50}, {51, 7}, {50, 0}, {43, -50}, {20, -240}, {1, -677}, {0, -800},
	}
	for _, tt := range tests {
		got, err := FIDEDifference(tt.percent)
		if err != nil || got != tt.want {
			t.Errorf("FIDEDifference(%d) = %d, %v; want %d", tt.percent, got, err, tt.want)
		}
	}
	for _, bad := range []int{-1, 101} {
		if _, err := FIDEDifference(bad); !errors.Is(err, ErrPercent) {
			t.Errorf("FIDEDifference(%d) error = %v, want ErrPercent", bad, err)
		}
	}
}

// The regulations call the two tables "effectively mirror-images": reading a
// dp of table 8.1.1 in table 8.1.2 gives back its p, for every p.
func TestTablesAreMirrorImages(t *testing.T) {
	for p := 0; p <= 100; p++ {
		if got := probabilityHundredths(table811[p]); got != p {
			t.Errorf("PD(dp(%d%%) = %d) = %d hundredths, want %d", p, table811[p], got, p)
		}
	}
}

// Seed 003: the table and the logistic formula agree closely.
func TestTableCloseToLogistic(t *testing.T) {
	if got := LogisticExpected(-200); math.Abs(got-0.240) > 0.0005 {
		t.Errorf("LogisticExpected(-200) = %v, want 0.240", got)
	}
	for d := -MaxGapCapped; d <= MaxGapCapped; d++ {
		if diff := math.Abs(FIDEProbability(d) - LogisticExpected(float64(d))); diff >= 0.015 {
			t.Errorf("d = %d: table %v, logistic %v differ by %v", d, FIDEProbability(d), LogisticExpected(float64(d)), diff)
		}
	}
}
