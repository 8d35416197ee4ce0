package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// runPositionJSON runs `gambit position` with args and decodes its output.
func runPositionJSON(t *testing.T, args ...string) (positionReport, error) {
	t.Helper()
	var out, errs bytes.Buffer
	err := runPosition(args, &out, &errs)
	if err != nil {
		return positionReport{}, err
	}
	if strings.Count(out.String(), "\n") != 1 {
		t.Errorf("output is not one JSON line: %q", out.String())
	}
	var rep positionReport
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("decode %q: %v", out.String(), err)
	}
	return rep, nil
}

func TestPositionStart(t *testing.T) {
	rep, err := runPositionJSON(t)
	if err != nil {
		t.Fatal(err)
	}
	if rep.FEN != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" || rep.Turn != "white" ||
		rep.InCheck || rep.Status != "ongoing" || rep.Result != "*" || len(rep.Claimable) != 0 ||
		rep.Repetitions != 1 || rep.HalfmoveClock != 0 || rep.FullmoveNumber != 1 {
		t.Errorf("start: %+v", rep)
	}
	if len(rep.LegalMoves) != 20 || rep.LegalMoves[0] != (legalMove{"a2a3", "a3"}) || rep.LegalMoves[14] != (legalMove{"g1f3", "Nf3"}) {
		t.Errorf("legal moves %v", rep.LegalMoves)
	}
	if want := map[string]string{"white": "yes", "black": "yes"}; !reflect.DeepEqual(rep.CanCheckmate, want) {
		t.Errorf("can_checkmate %v", rep.CanCheckmate)
	}
}

func TestPositionRawJSON(t *testing.T) {
	var out bytes.Buffer
	if err := runPosition([]string{"--fen", "7K/7P/7k/8/6q1/8/8/8 w - - 0 1"}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	want := `{"fen":"7K/7P/7k/8/6q1/8/8/8 w - - 0 1","turn":"white","in_check":false,"legal_moves":[],` +
		`"status":"stalemate","result":"1/2-1/2","claimable":[],"can_checkmate":{"black":"no","white":"no"},` +
		`"repetitions":1,"halfmove_clock":0,"fullmove_number":1}` + "\n"
	if out.String() != want {
		t.Errorf("output\n%s\nwant\n%s", out.String(), want)
	}
}

func TestPositionOutcomes(t *testing.T) {
	tests := []struct {
		name, fen, moves string
		status, result   string
		claimable        []string
		turn             string
		inCheck          bool
		reps, legal      int
		white, black     string
	}{
		{"scholar's mate", "", "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#", "checkmate", "1-0", nil, "black", true, 1, 0, "yes", "no"},
		{"uci moves", "", "f2f3 e7e5 g2g4 d8h4", "checkmate", "0-1", nil, "white", true, 1, 0, "no", "yes"},
		{"mixed notation with move numbers", "", "1. e4 e7e5 2. Nf3 b8c6 3.Bb5", "ongoing", "*", nil, "black", false, 1, 30, "yes", "yes"},
		{"dead position", "4k3/8/8/8/8/8/4r3/4KB2 w - - 0 1", "Kxe2", "dead_position", "1/2-1/2", nil, "black", false, 1, 5, "no", "no"},
		{"threefold with a move", "", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1", "ongoing", "*", []string{"threefold_repetition"}, "black", false, 2, 22, "yes", "yes"},
		{"threefold now", "", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", "ongoing", "*", []string{"threefold_repetition"}, "white", false, 3, 20, "yes", "yes"},
		{"fifty moves with a move", "6R1/7k/8/8/1r3B2/5K2/8/8 w - - 99 119", "", "ongoing", "*", []string{"fifty_moves"}, "white", false, 1, 31, "yes", "yes"},
		{"fifty moves now", "8/7k/8/6R1/1r3B2/5K2/8/8 b - - 100 119", "", "ongoing", "*", []string{"fifty_moves"}, "black", false, 1, 14, "yes", "yes"},
		{"seventy-five moves", "4k3/8/6r1/8/8/8/2R5/4K3 w - - 149 100", "Rc3", "seventy_five_moves", "1/2-1/2", nil, "black", false, 1, 19, "yes", "yes"},
		{"blocked pawns", "8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1", "", "dead_position", "1/2-1/2", nil, "white", false, 1, 8, "no", "no"},
		{"K+P vs K", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "", "ongoing", "*", nil, "white", false, 1, 6, "yes", "no"},
	}
	for _, tc := range tests {
		args := []string{"--moves", tc.moves}
		if tc.fen != "" {
			args = append(args, "--fen", tc.fen)
		}
		rep, err := runPositionJSON(t, args...)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		claimable := tc.claimable
		if claimable == nil {
			claimable = []string{}
		}
		if rep.Status != tc.status || rep.Result != tc.result || !reflect.DeepEqual(rep.Claimable, claimable) ||
			rep.Turn != tc.turn || rep.InCheck != tc.inCheck || rep.Repetitions != tc.reps || len(rep.LegalMoves) != tc.legal ||
			rep.CanCheckmate["white"] != tc.white || rep.CanCheckmate["black"] != tc.black {
			t.Errorf("%s: got status %s result %s claimable %v turn %s check %v reps %d legal %d can %v",
				tc.name, rep.Status, rep.Result, rep.Claimable, rep.Turn, rep.InCheck, rep.Repetitions, len(rep.LegalMoves), rep.CanCheckmate)
		}
	}
}

func TestPositionFivefold(t *testing.T) {
	moves := strings.Repeat("Nf3 Nf6 Ng1 Ng8 ", 4)
	rep, err := runPositionJSON(t, "--moves", moves)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != "fivefold_repetition" || rep.Result != "1/2-1/2" || rep.Repetitions != 5 || len(rep.Claimable) != 0 {
		t.Errorf("fivefold: %+v", rep)
	}
	if _, err := runPositionJSON(t, "--moves", moves+"e4"); err == nil || !strings.Contains(err.Error(), "the game is over") {
		t.Errorf("a move after the fivefold repetition: %v", err)
	}
}

func TestPositionErrors(t *testing.T) {
	tests := []struct {
		args []string
		says string
	}{
		{[]string{"--fen", "8/8/8/8/8/8/8/8 w - - 0 1"}, "--fen"},
		{[]string{"--fen", "not a fen"}, "invalid FEN"},
		{[]string{"--moves", "e4 e4"}, `move 2 "e4"`},
		{[]string{"--moves", "e4 Nf3"}, "it is Black's move"},
		{[]string{"--moves", "e2e5"}, "the pawn on e2 cannot move to e5"},
		{[]string{"--moves", "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7# Ke7"}, "the game is over"},
		{[]string{"stray"}, "unexpected argument"},
	}
	for _, tc := range tests {
		var out, errs bytes.Buffer
		err := runPosition(tc.args, &out, &errs)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: error %v, want one saying %q", tc.args, err, tc.says)
		}
		if out.Len() != 0 {
			t.Errorf("%v: printed %q on failure", tc.args, out.String())
		}
	}
}
