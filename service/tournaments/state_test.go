package tournaments

import (
	"reflect"
	"testing"
	"time"
)

func sampleStates() []*State {
	swiss := &State{Settings: Settings{Format: Swiss, Control: "5+3", Rounds: 3, NoShow: time.Minute, TieBreaks: DefaultSwissTieBreaks},
		RequestID: "i1", Players: []Entrant{{UserID: "1", Name: "A", Rating: 1500}, {UserID: "2", Name: "B"}, {UserID: "3", Name: "C", Withdrawn: true}},
		Started: t0, Rounds: []Round{{Boards: []Board{{White: 1, Black: 2, GameID: 7, Result: BlackByForf}, {White: 3, Result: Bye}}, Absent: []int{3}}}, Announced: 1}
	arena := &State{Settings: Settings{Format: Arena, Control: "1+0", Duration: 5 * time.Minute, NoShow: time.Minute},
		Players: []Entrant{{UserID: "1", Name: "A"}, {UserID: "2", Name: "B"}}, Started: t0, Ends: t0.Add(5 * time.Minute),
		ArenaLog:   []arenaOp{{Op: "join", Player: 1, At: t0}, {Op: "join", Player: 2, At: t0}, {Op: "pair", At: t0}, {Op: "berserk", Game: 1, Player: 1}, {Op: "report", Game: 1, Result: WhiteWins}},
		ArenaGames: []Board{{White: 1, Black: 2, GameID: 3, Result: WhiteWins, BerserkWhite: true}}}
	ko := &State{Settings: Settings{Format: Knockout, Control: "5+3", MatchGames: 2, RapidGames: 2, NoShow: time.Minute},
		Players: []Entrant{{UserID: "1", Name: "A"}, {UserID: "2", Name: "B"}, {UserID: "3", Name: "C"}}, Started: t0,
		Brackets: [][]Match{{{A: 1, Winner: 1}, {A: 2, B: 3, Armageddon: 1, Games: []Board{{White: 2, Black: 3, GameID: 4, Result: Draw}, {White: 3, Black: 2, Control: "10+10", Stage: "rapid"}}}}}, Closed: true}
	return []*State{swiss, arena, ko}
}

func TestStateRoundTrip(t *testing.T) {
	for i, st := range sampleStates() {
		got, err := decodeState(st.encode())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, st) {
			t.Errorf("state %d:\n got %+v\nwant %+v", i, got, st)
		}
	}
	if _, err := decodeState([]byte("{")); err == nil {
		t.Error("broken JSON decoded")
	}
}

// FuzzDecodeState: a stored state decodes to one that encodes back to itself.
func FuzzDecodeState(f *testing.F) {
	for _, st := range sampleStates() {
		f.Add(st.encode())
	}
	f.Add([]byte(`{"settings":{"format":"swiss"},"players":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decodeState(b)
		if err != nil {
			return
		}
		again, err := decodeState(st.encode())
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !reflect.DeepEqual(again.encode(), st.encode()) {
			t.Fatalf("round trip changed the state:\n%s\n%s", st.encode(), again.encode())
		}
	})
}

func FuzzParseFormat(f *testing.F) {
	for _, s := range []string{"swiss", "Round Robin", "rr", "arena", "KO", "cup", "ladder", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseFormat(s)
		if err != nil {
			return
		}
		if again, err := ParseFormat(string(got)); err != nil || again != got {
			t.Fatalf("ParseFormat(%q) = %q, which reads back as %q, %v", s, got, again, err)
		}
	})
}
