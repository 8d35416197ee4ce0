// openings.go: the start positions of a match, read from EPD or FEN lines.

package match

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
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
		f := strings.Fields(line)
		if len(f) < 4 {
			return nil, fmt.Errorf("line %d: want placement, side, castling and en passant", n)
		}
		fen := strings.Join(f[:4], " ")
		var ops map[string]string
		if len(f) >= 6 && isCount(f[4]) && isCount(f[5]) {
			fen += " " + f[4] + " " + f[5]
			ops = epdOps(strings.Join(f[6:], " "))
		} else {
			ops = epdOps(strings.Join(f[4:], " "))
			hm, fm := "0", "1"
			if v := ops["hmvc"]; isCount(v) {
				hm = v
			}
			if v := ops["fmvn"]; isCount(v) && v != "0" {
				fm = v
			}
			fen += " " + hm + " " + fm
		}
		pos, err := chesscore.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if !pos.HasLegalMove() {
			return nil, fmt.Errorf("line %d: the side to move has no legal move", n)
		}
		out = append(out, Opening{Name: ops["id"], Pos: pos})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read openings: %w", err)
	}
	if len(out) == 0 {
		return nil, errors.New("no positions")
	}
	return out, nil
}

// isCount reports whether s is a move counter: a whole number from 0 to 9999.
func isCount(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0 && n < 10000
}

// epdOps reads EPD operations, "opcode operand;" each, into opcode → first operand
// (quotes removed).
func epdOps(s string) map[string]string {
	ops := map[string]string{}
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		code, rest, _ := strings.Cut(s, " ")
		rest = strings.TrimLeft(rest, " ")
		var val string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				return ops // unterminated string: ignore the rest
			}
			val, rest = rest[1:1+end], rest[2+end:]
		} else {
			val, rest, _ = strings.Cut(rest, ";")
			val = strings.TrimSpace(val)
			rest = ";" + rest
		}
		ops[strings.TrimSuffix(code, ";")] = val
		_, s, _ = strings.Cut(rest, ";")
	}
	return ops
}
