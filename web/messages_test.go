package web

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeClientMsg(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{`{"t":"ping"}`, true},
		{`{"t":"hello","ply":3,"fen":"8/8/8/8/8/8/8/K6k w - - 0 1"}`, true},
		{`{"t":"move","id":"abcdefgh","ply":0,"move":"e4"}`, true},
		{`{"t":"move","id":"abcdefgh","ply":0,"move":" b7a8n "}`, true},
		{`{"t":"move","id":"abcdefgh","ply":0,"move":"e4","offerDraw":true}`, true},
		{`{"t":"action","id":"abcdefgh","ply":9,"action":"resign"}`, true},
		{`{"t":"action","id":"abcdefgh","ply":9,"action":"claim-draw","move":"Nf3"}`, true},
		{`{"t":"action","id":"abcdefgh","ply":9,"action":"resign","move":"Nf3"}`, false},
		{`{"t":"action","id":"abcdefgh","ply":9,"action":"drop-table"}`, false},
		{`{"t":"move","id":"short","ply":0,"move":"e4"}`, false},
		{`{"t":"move","id":"abcdefgh","ply":-1,"move":"e4"}`, false},
		{`{"t":"move","id":"abcdefgh","ply":0,"move":""}`, false},
		{`{"t":"move","id":"abcdefgh","ply":0,"move":"e4e5e6e7e8e9e"}`, false},
		{`{"t":"move","id":"abcdefgh","ply":0,"move":"é4"}`, false},
		{`{"t":"move","id":"abcdefgh","ply":0,"move":"e4","extra":1}`, false},
		{`{"t":"ping"} {"t":"ping"}`, false},
		{`{"t":"ping","id":"abcdefgh"}`, false},
		{`{"t":"shutdown"}`, false},
		{`{"t":"plan-check","id":"abcdefgh","ply":1,"line":"e5"}`, true},
		{`{"t":"plan-add","id":"abcdefgh","ply":1,"line":" 1...e5 2.Nf3 "}`, true},
		{`{"t":"plan-remove","id":"abcdefgh","ply":1,"line":"e5"}`, true},
		{`{"t":"plan-clear","id":"abcdefgh","ply":1}`, true},
		{`{"t":"plan-clear","id":"abcdefgh","ply":1,"line":"e5"}`, false},
		{`{"t":"plan-add","id":"abcdefgh","ply":1}`, false},
		{`{"t":"plan-add","id":"abcdefgh","ply":1,"line":"   "}`, false},
		{`{"t":"plan-add","ply":1,"line":"e5 Nf3"}`, false},
		{`{"t":"plan-add","id":"abcdefgh","ply":1,"line":"e5 Nf3","move":"e4"}`, false},
		{`{"t":"plan-add","id":"abcdefgh","ply":1,"line":"e5 Nf3","action":"resign"}`, false},
		{`{"t":"plan-add","id":"abcdefgh","ply":1,"line":"e5\nNf3"}`, false},
		{`{"t":"plan-add","id":"abcdefgh","ply":1,"line":"` + strings.Repeat("e5 ", 134) + `"}`, false},
		{`{"t":"move","id":"abcdefgh","ply":0,"move":"e4","line":"e5"}`, false},
		{`{"t":"hello","ply":0,"line":"e5"}`, false},
		{`[]`, false},
		{``, false},
	} {
		_, err := decodeClientMsg([]byte(c.in))
		if (err == nil) != c.ok {
			t.Errorf("decodeClientMsg(%s): error %v, want ok %t", c.in, err, c.ok)
		}
	}
}

// FuzzDecodeClientMsg: the socket's decoder never panics, and what it accepts is
// within every limit and decodes again to the same message.
func FuzzDecodeClientMsg(f *testing.F) {
	for _, s := range []string{
		`{"t":"ping"}`, `{"t":"hello","ply":3,"fen":"x"}`, `{"t":"move","id":"abcdefgh","ply":0,"move":"e4"}`,
		`{"t":"action","id":"abcdefgh","ply":9,"action":"claim-draw","move":"Nf3"}`, `{"t":"move","id":"abcdefgh","ply":1e3}`,
		`{"t":"plan-add","id":"abcdefgh","ply":1,"line":"e5 Nf3 Nc6 Bb5"}`, `{"t":"plan-clear","id":"abcdefgh","ply":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeClientMsg(b)
		if err != nil {
			return
		}
		if m.Ply < 0 || m.Ply > maxPly || len(m.Move) > maxMoveLen || len(m.FEN) > maxFENLen || len(m.Line) > maxLineLen || (m.ID != "" && !validID(m.ID)) {
			t.Fatalf("accepted out of limits: %+v", m)
		}
		if m.T == "action" && !actions[m.Action] {
			t.Fatalf("accepted an unknown action: %+v", m)
		}
		if strings.ContainsAny(m.Move, "\x00\n") || strings.ContainsAny(m.Line, "\x00\n") {
			t.Fatalf("accepted a control character: %q %q", m.Move, m.Line)
		}
		if m.Line != "" && (!planTypes[m.T] || m.T == "plan-clear") {
			t.Fatalf("accepted a line on a %s message", m.T)
		}
		if planTypes[m.T] && (!validID(m.ID) || (m.T != "plan-clear" && m.Line == "")) {
			t.Fatalf("accepted a plan message without its id or line: %+v", m)
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := decodeClientMsg(again)
		if err != nil || m2 != m {
			t.Fatalf("%+v re-encoded as %s decodes to %+v, %v", m, again, m2, err)
		}
	})
}
