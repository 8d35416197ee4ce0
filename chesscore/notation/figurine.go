// figurine.go: how a player sees moves: SAN with English letters (the default, and
// always in PGN), or figurine algebraic notation (♘f3).

package notation

import (
	"fmt"
	"strings"
)

// Style is how moves are shown to a player.
type Style uint8

// The styles.
const (
	// Letters is SAN with English letters, as the PGN standard writes it: Nf3, e8=Q.
	Letters Style = iota
	// Figurines is SAN with the chess symbols in place of the letters: ♘f3, e8=♕.
	Figurines
)

// Styles lists the styles by name, in the order shown to a player.
var Styles = []Style{Letters, Figurines}

// String is the style's name as settings store and show it: "letters" or "figurines".
func (s Style) String() string {
	if s == Figurines {
		return "figurines"
	}
	return "letters"
}

// ParseStyle reads a style's name.
func ParseStyle(name string) (Style, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "letters":
		return Letters, nil
	case "figurines":
		return Figurines, nil
	}
	return Letters, fmt.Errorf("unknown notation style %q: want letters or figurines", name)
}

// figurineOf maps an English piece letter to its figurine. The white symbols stand for
// both sides, as figurine notation prints them.
var figurineOf = [...]string{'K': "♔", 'Q': "♕", 'R': "♖", 'B': "♗", 'N': "♘"}

// SAN shows a SAN move (as chesscore writes it) in the style: with Figurines, the piece
// letter and the promotion letter become symbols ("Nxf3+" → "♘xf3+", "e8=Q" → "e8=♕");
// castling and pawn moves read the same in both styles.
func (s Style) SAN(san string) string {
	if s != Figurines || san == "" {
		return san
	}
	var b strings.Builder
	b.Grow(len(san) + 6)
	for i := 0; i < len(san); i++ {
		c := san[i]
		if (i == 0 || san[i-1] == '=') && int(c) < len(figurineOf) && figurineOf[c] != "" {
			b.WriteString(figurineOf[c])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
