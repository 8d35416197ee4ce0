package web

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateCharts = flag.Bool("update", false, "rewrite the golden charts under testdata/charts")

// TestLineChart compares the charts' SVG with the golden files (go test -run
// TestLineChart -update ./web rewrites them; open them in a browser to look).
func TestLineChart(t *testing.T) {
	for _, c := range []struct {
		name  string
		spec  chartSpec
		lines []series
	}{
		{"empty", chartSpec{Title: "No games"}, nil},
		{"one-point", chartSpec{Title: "A first game"}, []series{{Label: "blitz", Points: []chartPoint{{X: 100, Y: 1512}}}}},
		{"two-players", chartSpec{Title: "Leaders <&> \"quoted\""}, []series{
			{Label: "bob", Points: []chartPoint{{X: 0, Y: 1500}, {X: 10, Y: 1516}, {X: 20, Y: 1531}}},
			{Label: "alice <script>", Points: []chartPoint{{X: 0, Y: 1500}, {X: 10, Y: 1484}, {X: 20, Y: 1469}}},
		}},
		{"evaluation", chartSpec{Title: "Evaluation", Fixed: true, YMin: -10, YMax: 10, Zero: true, XFirst: "start", XLast: "move 2"},
			[]series{{Label: "evaluation", Points: []chartPoint{{X: 0, Y: 0.2}, {X: 1, Y: -0.6}, {X: 2, Y: 0.1}, {X: 3, Y: -4}, {X: 4, Y: -30}}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := string(lineChart(c.spec, c.lines))
			if strings.Contains(got, "<script") || strings.Contains(got, `"quoted"`) {
				t.Fatalf("a label reached the SVG unescaped: %s", got)
			}
			path := filepath.Join("testdata", "charts", c.name+".svg")
			if *updateCharts {
				if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -run TestLineChart -update ./web writes it)", err)
			}
			if got+"\n" != string(want) {
				t.Errorf("%s differs from the golden file:\n%s", c.name, got)
			}
		})
	}
}
