package storage

import (
	"testing"
	"time"
)

// The days a vacation uses: every day begun, at least one, at most the days taken; a
// vacation begun in another year than the record's starts the count again.
func TestVacationDaysCounted(t *testing.T) {
	start := time.Date(2026, 12, 30, 18, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name       string
		year, used int
		until, end time.Time
		wantDays   int
		wantYear   int
		wantUsed   int
	}{
		{"ended at once", 2026, 2, start.Add(3 * VacationDay), start, 1, 2026, 3},
		{"a second into the second day", 2026, 0, start.Add(3 * VacationDay), start.Add(VacationDay + time.Second), 2, 2026, 2},
		{"exactly two days", 2026, 0, start.Add(3 * VacationDay), start.Add(2 * VacationDay), 2, 2026, 2},
		{"closed late: the days taken", 2026, 1, start.Add(3 * VacationDay), start.Add(9 * VacationDay), 3, 2026, 4},
		{"a record of last year", 2025, 10, start.Add(2 * VacationDay), start.Add(2 * VacationDay), 2, 2026, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := &Vacation{GuildID: "g", UserID: "u", Year: c.year, Used: c.used, Start: start, Until: c.until}
			if got := v.Close(c.end); got != c.wantDays {
				t.Errorf("Close = %d days, want %d", got, c.wantDays)
			}
			if v.Open() || v.Year != c.wantYear || v.Used != c.wantUsed {
				t.Errorf("after Close: open %v, year %d, used %d; want closed, %d, %d", v.Open(), v.Year, v.Used, c.wantYear, c.wantUsed)
			}
			if v.Close(c.end) != 0 || v.Used != c.wantUsed {
				t.Error("closing twice counted the days again")
			}
		})
	}
	v := &Vacation{Start: start, Until: start.Add(VacationDay)}
	if !v.On(start) || v.On(start.Add(VacationDay)) || !v.Open() {
		t.Error("On holds from Start until before Until")
	}
}

// A server's allowance: its own number, none, or the bot's default.
func TestVacationAllowance(t *testing.T) {
	for _, c := range []struct{ days, def, want int }{{0, 14, 14}, {VacationNone, 14, 0}, {30, 14, 30}, {0, 0, 0}} {
		gs := GuildSettings{VacationDays: c.days}
		if got := gs.VacationAllowance(c.def); got != c.want {
			t.Errorf("VacationAllowance(days %d, default %d) = %d, want %d", c.days, c.def, got, c.want)
		}
	}
}
