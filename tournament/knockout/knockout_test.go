package knockout

import (
	"testing"
	"time"
)

func cfg() Config {
	return Config{
		Games: 2, Main: TimeControl{90 * time.Minute, 30 * time.Second},
		RapidGames: 2, Rapid: TimeControl{15 * time.Minute, 10 * time.Second},
		BlitzGames: 2, Blitz: TimeControl{5 * time.Minute, 3 * time.Second},
		ArmageddonWhite: TimeControl{5 * time.Minute, 0}, ArmageddonBlack: TimeControl{4 * time.Minute, 0},
		ArmageddonWhiteSide: B,
	}
}

func play(t *testing.T, m *Match, rs ...Result) {
	t.Helper()
	for _, r := range rs {
		if _, err := m.Record(r); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMainMatchDecides(t *testing.T) {
	m, _ := New(cfg())
	play(t, m, WhiteWins) // A wins game 1 with White
	if _, done := m.Winner(); done {
		t.Fatal("decided after one game of two")
	}
	g, _ := m.Next()
	if g.White != B || g.Stage != Main {
		t.Fatalf("game 2: %+v", g)
	}
	play(t, m, Draw)
	if w, done := m.Winner(); !done || w != A {
		t.Fatalf("winner %v %v", w, done)
	}
	if _, err := m.Record(Draw); err == nil {
		t.Fatal("recorded a game after the end")
	}
}

func TestLadderToArmageddonDrawGoesToBlack(t *testing.T) {
	m, _ := New(cfg())
	play(t, m, Draw, Draw) // main
	g, _ := m.Next()
	if g.Stage != Rapid || g.Time.Base != 15*time.Minute {
		t.Fatalf("expected rapid, got %+v", g)
	}
	play(t, m, WhiteWins, WhiteWins) // 1-1 in rapid
	g, _ = m.Next()
	if g.Stage != Blitz {
		t.Fatalf("expected blitz, got %+v", g)
	}
	play(t, m, Draw, Draw)
	g, _ = m.Next()
	if g.Stage != Armageddon || g.White != B || g.Time.Base <= g.Black.Base {
		t.Fatalf("armageddon: %+v", g)
	}
	play(t, m, Draw)
	if w, done := m.Winner(); !done || w != A {
		t.Fatalf("draw in Armageddon must go to Black (A): %v %v", w, done)
	}
}

func TestMiniMatchEndsEarly(t *testing.T) {
	c := cfg()
	c.Games = 4
	m, _ := New(c)
	play(t, m, WhiteWins, BlackWins, WhiteWins) // A 3-0
	if w, done := m.Winner(); !done || w != A {
		t.Fatalf("3-0 of 4 should be decided: %v %v", w, done)
	}
}

func TestBadConfig(t *testing.T) {
	c := cfg()
	c.ArmageddonBlack = c.ArmageddonWhite
	if _, err := New(c); err == nil {
		t.Fatal("equal Armageddon times accepted")
	}
	c = cfg()
	c.Games = 0
	if _, err := New(c); err == nil {
		t.Fatal("zero games accepted")
	}
}
