// Package openings names the opening of a game: the ECO code and name of the last
// position of the game that the embedded data set names. The data are the public-domain
// (CC0 1.0) opening names of lichess-org/chess-openings, copied into data/ with their
// licence (data/COPYING.txt, data/README.md).
package openings

import (
	"embed"
	"fmt"
	"strings"
	"sync"

	cc "github.com/gambitchess/gambit/chesscore"
)

// Opening is a named opening.
type Opening struct {
	ECO  string // the Encyclopaedia of Chess Openings code, "A00" to "E99"
	Name string // e.g. "Sicilian Defense: Najdorf Variation"
}

// String returns "B90 Sicilian Defense: Najdorf Variation".
func (o Opening) String() string { return o.ECO + " " + o.Name }

// Book maps positions to the openings that name them.
type Book struct {
	byKey map[string]Opening
}

// NewBook indexes entries by the position each reaches. When several entries name the
// same position (a transposition), the first one wins.
func NewBook(entries []Entry) *Book {
	b := &Book{byKey: make(map[string]Opening, len(entries))}
	for _, e := range entries {
		k := Key(&e.End)
		if _, ok := b.byKey[k]; !ok {
			b.byKey[k] = e.Opening
		}
	}
	return b
}

// Len returns the number of named positions.
func (b *Book) Len() int { return len(b.byKey) }

// Key is the index of a position in a book: its FEN without the move counters (the
// placement, the side to move, the castling rights and the en passant square, which FEN
// writes only when a capture there is legal), so that move orders reaching the same
// position find the same name.
func Key(p *cc.Position) string {
	f := p.FEN()
	for i, n := len(f)-1, 0; i >= 0; i-- {
		if f[i] == ' ' {
			n++
			if n == 2 {
				return f[:i]
			}
		}
	}
	return f
}

// Lookup returns the opening that names pos.
func (b *Book) Lookup(pos *cc.Position) (Opening, bool) {
	o, ok := b.byKey[Key(pos)]
	return o, ok
}

// Classify names the opening of the game that starts at start and plays moves: the
// game is played forward, then walked back from its last position to the last one the
// book names. ply is the number of moves played to reach that position. ok is false
// when no position of the game is named (a game from a position off the book). An
// illegal move ends the walk: the positions before it still count.
func (b *Book) Classify(start cc.Position, moves []cc.Move) (o Opening, ply int, ok bool) {
	positions := make([]cc.Position, 0, len(moves)+1)
	positions = append(positions, start)
	pos := start
	for _, m := range moves {
		if !pos.IsLegal(m) {
			break
		}
		pos = pos.Play(m)
		positions = append(positions, pos)
	}
	for i := len(positions) - 1; i >= 0; i-- {
		if o, ok := b.Lookup(&positions[i]); ok {
			return o, i, true
		}
	}
	return Opening{}, 0, false
}

//go:embed data/*.tsv
var data embed.FS

var (
	defaultOnce sync.Once
	defaultBook *Book
	defaultErr  error
)

// Default returns the book of the embedded data, read on first use.
func Default() (*Book, error) {
	defaultOnce.Do(func() {
		files, err := data.ReadDir("data")
		if err != nil {
			defaultErr = fmt.Errorf("openings data: %w", err)
			return
		}
		var all []Entry
		for _, f := range files {
			if !strings.HasSuffix(f.Name(), ".tsv") {
				continue
			}
			raw, err := data.ReadFile("data/" + f.Name())
			if err != nil {
				defaultErr = fmt.Errorf("openings data %s: %w", f.Name(), err)
				return
			}
			es, err := Read(strings.NewReader(string(raw)))
			if err != nil {
				defaultErr = fmt.Errorf("openings data %s: %w", f.Name(), err)
				return
			}
			all = append(all, es...)
		}
		defaultBook = NewBook(all)
	})
	return defaultBook, defaultErr
}

// Name classifies a game with the default book: its opening and whether one was found
// (false also when the embedded data could not be read, which the package's tests rule
// out).
func Name(start cc.Position, moves []cc.Move) (Opening, bool) {
	b, err := Default()
	if err != nil {
		return Opening{}, false
	}
	o, _, ok := b.Classify(start, moves)
	return o, ok
}
