package uci

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	cc "github.com/gambitchess/gambit/chesscore"
)

// session drives a Server over pipes, as a GUI would.
type testSession struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func startSession(t *testing.T, srv *Server) *testSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &testSession{t: t, in: inW, lines: make(chan string, 4096), done: make(chan error, 1)}
	go func() {
		err := srv.Serve(inR, outW)
		outW.Close()
		s.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			t.Error("server did not end after its input closed")
		}
	})
	return s
}

func (s *testSession) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("send %q: %v", line, err)
	}
}

// until reads lines until one starts with prefix, failing after timeout.
func (s *testSession) until(prefix string, timeout time.Duration) (string, []string) {
	s.t.Helper()
	var seen []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("output ended before %q; saw %q", prefix, seen)
			}
			if strings.HasPrefix(l, prefix) {
				return l, seen
			}
			seen = append(seen, l)
		case <-deadline:
			s.t.Fatalf("no %q within %v; saw %q", prefix, timeout, seen)
		}
	}
}

// quiet checks that no line arrives for d.
func (s *testSession) quiet(d time.Duration) {
	s.t.Helper()
	select {
	case l := <-s.lines:
		if strings.HasPrefix(l, "bestmove") {
			s.t.Fatalf("unexpected %q", l)
		}
	case <-time.After(d):
	}
}

func legalBestMove(t *testing.T, line string, pos cc.Position) cc.Move {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "bestmove" {
		t.Fatalf("bad bestmove line %q", line)
	}
	m, err := pos.ParseUCI(f[1])
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return m
}

func TestServerScriptedSession(t *testing.T) {
	s := startSession(t, &Server{Name: "Gambit test", HashMB: 4})
	s.send("uci")
	_, head := s.until("uciok", 5*time.Second)
	joined := strings.Join(head, "\n")
	for _, want := range []string{"id name Gambit test", "id author ", "option name Hash type spin", "option name Threads type spin",
		"option name Level type spin default 8 min 1 max 8", "option name MultiPV",
		"option name UCI_LimitStrength type check default false",
		fmt.Sprintf("option name UCI_Elo type spin default %d min %d max %d", levelRating(8), levelRating(1), levelRating(8))} {
		if !strings.Contains(joined, want) {
			t.Errorf("uci reply lacks %q:\n%s", want, joined)
		}
	}
	s.send("isready")
	s.until("readyok", 5*time.Second)
	s.send("ucinewgame")
	s.send("setoption name Hash value 8")
	s.send("position startpos moves e2e4 e7e5")
	s.send("go depth 5")
	line, infos := s.until("bestmove", 30*time.Second)
	pos := cc.StartPosition()
	pos = pos.Play(mustUCI(t, &pos, "e2e4"))
	pos = pos.Play(mustUCI(t, &pos, "e7e5"))
	legalBestMove(t, line, pos)
	var sawDepth5 bool
	for _, l := range infos {
		if !strings.HasPrefix(l, "info ") {
			continue
		}
		in, err := ParseInfo(l)
		if err != nil {
			t.Errorf("bad info line %q: %v", l, err)
		}
		if !in.HasScore || len(in.PV) == 0 || in.Nodes == 0 {
			t.Errorf("info line without score, pv or nodes: %q", l)
		}
		if in.Depth == 5 {
			sawDepth5 = true
		}
	}
	if !sawDepth5 {
		t.Errorf("no info at depth 5: %q", infos)
	}

	// go infinite, then stop: bestmove comes promptly.
	s.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	s.send("go infinite")
	s.until("info depth 3 ", 10*time.Second)
	s.send("isready")
	s.until("readyok", 2*time.Second) // answered while searching
	stopAt := time.Now()
	s.send("stop")
	line, _ = s.until("bestmove", 2*time.Second)
	if d := time.Since(stopAt); d > time.Second {
		t.Errorf("bestmove %v after stop", d)
	}
	fenPos, _ := cc.ParseFEN("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	legalBestMove(t, line, fenPos)

	// Clock, movetime, nodes, levels and searchmoves.
	s.send("position startpos")
	s.send("go wtime 1000 btime 1000 winc 10 binc 10")
	legalBestMove(t, first(s.until("bestmove", 5*time.Second)), cc.StartPosition())
	s.send("go movetime 50")
	legalBestMove(t, first(s.until("bestmove", 5*time.Second)), cc.StartPosition())
	s.send("setoption name Level value 2")
	s.send("go nodes 3000")
	legalBestMove(t, first(s.until("bestmove", 5*time.Second)), cc.StartPosition())
	s.send("setoption name UCI_LimitStrength value true")
	s.send(fmt.Sprintf("setoption name UCI_Elo value %d", levelRating(3)))
	s.send("go nodes 3000")
	legalBestMove(t, first(s.until("bestmove", 5*time.Second)), cc.StartPosition())
	s.send("setoption name UCI_LimitStrength value maybe")
	s.until("info string setoption UCI_LimitStrength", 2*time.Second)
	s.send("setoption name UCI_LimitStrength value false")
	s.send("setoption name Level value 8")
	s.send("go depth 3 searchmoves a2a3")
	if l := first(s.until("bestmove", 5*time.Second)); !strings.HasPrefix(l, "bestmove a2a3") {
		t.Errorf("searchmoves a2a3: %q", l)
	}
	s.send("setoption name MultiPV value 3")
	s.send("go depth 3")
	_, infos = s.until("bestmove", 5*time.Second)
	if !strings.Contains(strings.Join(infos, "\n"), "multipv 3") {
		t.Errorf("MultiPV 3 gave no third line: %q", infos)
	}
	s.send("setoption name MultiPV value 1")

	// Mistakes are reported, not fatal.
	s.send("frobnicate")
	s.until("info string unknown command", 2*time.Second)
	s.send("setoption name Hash value 0")
	s.until("info string setoption Hash", 2*time.Second)
	s.send("position startpos moves e2e5")
	s.until("info string bad position", 2*time.Second)
	s.send("go depth 1") // from the start position: the bad move was not played
	legalBestMove(t, first(s.until("bestmove", 5*time.Second)), cc.StartPosition())
	s.send("go depth x")
	s.until("info string go depth", 2*time.Second)

	// Checkmated: no move.
	s.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
	s.send("go depth 3")
	if l := first(s.until("bestmove", 5*time.Second)); l != "bestmove 0000" {
		t.Errorf("checkmated side: %q", l)
	}

	s.send("quit")
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
		s.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("quit did not end Serve")
	}
}

func first(l string, _ []string) string { return l }

func mustUCI(t *testing.T, p *cc.Position, s string) cc.Move {
	t.Helper()
	m, err := p.ParseUCI(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestServerInfiniteWaitsForStop(t *testing.T) {
	s := startSession(t, &Server{HashMB: 2})
	s.send("position startpos")
	s.send("go infinite depth 2")
	s.until("info depth 2 ", 5*time.Second)
	s.quiet(300 * time.Millisecond) // the search is over, but bestmove waits for stop
	s.send("stop")
	legalBestMove(t, first(s.until("bestmove", 2*time.Second)), cc.StartPosition())
	// quit during a search stops it and still says bestmove.
	s.send("go infinite")
	s.until("info depth 2 ", 5*time.Second)
	s.send("quit")
	s.until("bestmove", 2*time.Second)
}

func TestServerQuitsAtEndOfInput(t *testing.T) {
	srv := &Server{HashMB: 1}
	var out strings.Builder
	err := srv.Serve(strings.NewReader("uci\nisready\nposition startpos\ngo depth 2\n"), &out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "readyok") || !strings.Contains(out.String(), "bestmove ") {
		t.Errorf("output:\n%s", out.String())
	}
}

func FuzzServer(f *testing.F) {
	for _, seed := range []string{
		"uci\nisready\n",
		"position startpos moves e2e4 e7e5\ngo depth 2\n",
		"position fen 8/8/8/8/8/8/8/8 w - - 0 1\ngo\n",
		"setoption name Level value 3\ngo nodes 500\n",
		"go infinite\nstop\n",
		"setoption name\nsetoption name Hash value 99999\n",
		"position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo depth 1\n",
		"go wtime 10 btime 10 movestogo 1\n",
		"go searchmoves e2e4 d2d4 depth 2\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, script string) {
		// Keep searches short: every go gets a small node budget.
		var lines []string
		for _, l := range strings.Split(script, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "go") {
				l += " nodes 300"
			}
			if strings.Contains(l, "Hash") {
				continue // large tables make the fuzzer slow, not wiser
			}
			lines = append(lines, l)
		}
		srv := &Server{HashMB: 1}
		done := make(chan error, 1)
		go func() { done <- srv.Serve(strings.NewReader(strings.Join(lines, "\n")+"\nquit\n"), io.Discard) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Serve: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("server did not finish the script %q", script)
		}
	})
}

// TestServerInfoFields: info lines carry seldepth, nodes, nps, hashfull and time, as
// GUIs expect, and with UCI_ShowWDL the score's win, draw and loss chances in permille.
func TestServerInfoFields(t *testing.T) {
	s := startSession(t, &Server{Name: "Gambit test", HashMB: 4})
	s.send("uci")
	_, head := s.until("uciok", 5*time.Second)
	if !strings.Contains(strings.Join(head, "\n"), "option name UCI_ShowWDL type check default false") {
		t.Errorf("uci reply lacks UCI_ShowWDL:\n%s", strings.Join(head, "\n"))
	}
	search := func() []string {
		s.send("position startpos moves d2d4")
		s.send("go depth 7")
		_, infos := s.until("bestmove", 30*time.Second)
		var out []string
		for _, l := range infos {
			if strings.HasPrefix(l, "info depth") {
				out = append(out, l)
			}
		}
		if len(out) == 0 {
			t.Fatalf("no info lines: %q", infos)
		}
		return out
	}
	for _, l := range search() {
		if strings.Contains(l, " wdl ") {
			t.Errorf("wdl without UCI_ShowWDL: %q", l)
		}
		in, err := ParseInfo(l)
		if err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		for _, tok := range []string{" seldepth ", " nodes ", " nps ", " hashfull ", " time "} {
			if !strings.Contains(l, tok) {
				t.Errorf("info line lacks%s: %q", tok, l)
			}
		}
		if in.SelDepth < in.Depth || in.Time > 0 && in.NPS == 0 {
			t.Errorf("seldepth %d under depth %d, or time %v without nps: %q", in.SelDepth, in.Depth, in.Time, l)
		}
	}
	s.send("setoption name UCI_ShowWDL value true")
	for _, l := range search() {
		f := strings.Fields(l)
		i := 0
		for i < len(f) && f[i] != "wdl" {
			i++
		}
		if i+3 >= len(f) {
			t.Fatalf("no wdl in %q", l)
		}
		var w, d, lo int
		if _, err := fmt.Sscan(strings.Join(f[i+1:i+4], " "), &w, &d, &lo); err != nil || w+d+lo != 1000 || w < 0 || d < 0 || lo < 0 {
			t.Errorf("wdl %v in %q: want three permille figures adding up to 1000", f[i+1:i+4], l)
		}
		if in, err := ParseInfo(l); err != nil || !in.HasScore || in.Depth == 0 {
			t.Errorf("a line with wdl does not parse back: %+v, %v", in, err)
		}
	}
	s.send("setoption name UCI_ShowWDL value perhaps")
	s.until("info string setoption UCI_ShowWDL", 2*time.Second)
}

// TestServerChess960 drives the engine in UCI_Chess960 mode: castling read and written as
// the king taking its rook.
func TestServerChess960(t *testing.T) {
	s := startSession(t, &Server{HashMB: 4})
	s.send("uci")
	if _, head := s.until("uciok", 5*time.Second); !strings.Contains(strings.Join(head, "\n"), "option name UCI_Chess960 type check default false") {
		t.Errorf("uci reply lacks UCI_Chess960:\n%s", strings.Join(head, "\n"))
	}
	s.send("setoption name UCI_Chess960 value true")
	s.send("position fen 2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1") // mate by O-O-O
	s.send("go depth 3")
	if line, infos := s.until("bestmove", 30*time.Second); line != "bestmove b1a1" || !strings.Contains(strings.Join(infos, "\n"), " pv b1a1") {
		t.Errorf("mate by castling: %q after\n%s", line, strings.Join(infos, "\n"))
	}
	s.send("position fen r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w KQkq - 0 1 moves c1a1 c8h8")
	s.send("go depth 1")
	line, infos := s.until("bestmove", 30*time.Second)
	pos := mustFENPos(t, "r1k4r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w KQkq - 0 1")
	pos = pos.Play(mustUCI(t, &pos, "c1a1"))
	pos = pos.Play(mustUCI(t, &pos, "c8h8"))
	if strings.Contains(strings.Join(infos, "\n"), "info string") || pos.Castling() != 0 {
		t.Errorf("castlings not read: %s\n%s", pos.FEN(), strings.Join(infos, "\n"))
	}
	legalBestMove(t, line, pos)
}
