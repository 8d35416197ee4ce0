// openings.go: the start positions of a match, read from EPD or FEN lines.

package match

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gambitchess/gambit/chesscore"
)

// Opening is a start position of a match.
type Opening struct {
	// Name is the EPD id operation ("" when the line has none); it goes to the PGN's
	// Opening tag.
	Name string
	// Pos is the position the game starts from.
	Pos chesscore.Position
}

// ReadOpenings reads EPD lines (four fields, then operations such as id "name"; hmvc 0;
// fmvn 4;) or FEN lines; blank lines and lines starting with # are skipped. Every
// position must be legal with a legal move to play, and there must be at least one.
func ReadOpenings(r io.Reader) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		e, err := chesscore.ParseEPD(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		var name string
		if op, ok := e.Op("id"); ok {
			name = op.Operand()
		}
		pos, err := chesscore.ParseFEN(e.FEN)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if !pos.HasLegalMove() {
			return nil, fmt.Errorf("line %d: the side to move has no legal move", n)
		}
		out = append(out, Opening{Name: name, Pos: pos})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read openings: %w", err)
	}
	if len(out) == 0 {
		return nil, errors.New("no positions")
	}
	return out, nil
}

// epdOps reads EPD operations, "opcode operand;" each, into opcode → operands joined by
// spaces (quotes removed; a repeated opcode keeps its last operation).
func epdOps(s string) map[string]string {
	ops := map[string]string{}
	for _, op := range chesscore.ParseEPDOps(s) {
		ops[op.Code] = op.Operand()
	}
	return ops
}
