// Package stockfish finds and drives a local Stockfish binary for tests and measurement
// tools: the perft differential test and the side-by-side speed comparison. It speaks just
// enough UCI for `go perft`; the engine client proper lives in uci.
package stockfish

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Path returns the Stockfish binary to use: $GAMBIT_STOCKFISH if set, else stockfish on
// PATH, else the Debian package's /usr/games/stockfish.
func Path() (string, error) {
	if p := os.Getenv("GAMBIT_STOCKFISH"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p, nil
	}
	if _, err := os.Stat("/usr/games/stockfish"); err == nil {
		return "/usr/games/stockfish", nil
	}
	return "", errors.New("stockfish not found: install it (apt-get install stockfish) or set GAMBIT_STOCKFISH")
}

// Engine is a running Stockfish process.
type Engine struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// Start launches Stockfish and waits for it to be ready.
func Start() (*Engine, error) {
	path, err := Path()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("stockfish stdin: %w", err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("stockfish stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	e := &Engine{cmd: cmd, in: in, out: bufio.NewScanner(outPipe)}
	if err := e.send("uci"); err != nil {
		return nil, err
	}
	if _, err := e.readUntil("uciok"); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

func (e *Engine) send(line string) error {
	if _, err := io.WriteString(e.in, line+"\n"); err != nil {
		return fmt.Errorf("stockfish: send %q: %w", line, err)
	}
	return nil
}

// readUntil returns the lines read up to and including the first one starting with prefix.
func (e *Engine) readUntil(prefix string) ([]string, error) {
	var lines []string
	for e.out.Scan() {
		l := e.out.Text()
		lines = append(lines, l)
		if strings.HasPrefix(l, prefix) {
			return lines, nil
		}
	}
	if err := e.out.Err(); err != nil {
		return lines, fmt.Errorf("stockfish: read: %w", err)
	}
	return lines, fmt.Errorf("stockfish: output ended before %q", prefix)
}

// PerftResult is Stockfish's answer to `go perft N`: the per-move counts, the total, and
// the wall time from the command to the total (start-up excluded).
type PerftResult struct {
	Divide  map[string]uint64
	Nodes   uint64
	Elapsed time.Duration
}

// Perft runs `go perft depth` from the position given by fen.
func (e *Engine) Perft(fen string, depth int) (PerftResult, error) {
	res := PerftResult{Divide: map[string]uint64{}}
	if err := e.send("position fen " + fen); err != nil {
		return res, err
	}
	if err := e.send("isready"); err != nil {
		return res, err
	}
	if _, err := e.readUntil("readyok"); err != nil {
		return res, err
	}
	start := time.Now()
	if err := e.send("go perft " + strconv.Itoa(depth)); err != nil {
		return res, err
	}
	lines, err := e.readUntil("Nodes searched")
	res.Elapsed = time.Since(start)
	if err != nil {
		return res, err
	}
	for _, l := range lines {
		mv, n, ok := strings.Cut(l, ": ")
		if !ok {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSpace(n), 10, 64)
		if err != nil {
			return res, fmt.Errorf("stockfish: bad perft line %q", l)
		}
		if mv == "Nodes searched" {
			res.Nodes = v
		} else {
			res.Divide[mv] = v
		}
	}
	return res, nil
}

// SetChess960 turns UCI_Chess960 on or off: in Chess960 mode Stockfish reads X-FEN and
// Shredder-FEN castling fields and writes castling as the king taking its rook.
func (e *Engine) SetChess960(on bool) error {
	return e.send(fmt.Sprintf("setoption name UCI_Chess960 value %t", on))
}

// Close stops the engine.
func (e *Engine) Close() error {
	_ = e.send("quit")
	_ = e.in.Close()
	return e.cmd.Wait()
}
