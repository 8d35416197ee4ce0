package main

import (
	"fmt"
	"io"

	"github.com/gambitchess/gambit/chesscore"
)

// runPerft implements `gambit perft --depth N [--fen FEN] [--chess960] [--divide]`.
func runPerft(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("perft", stderr)
	depth := fs.Int("depth", 0, "depth in plies (1 to 15)")
	fen := fs.String("fen", chesscore.StartFEN, "position to count from")
	divide := fs.Bool("divide", false, "print each root move's count first, as 'uci: count'")
	c960 := fs.Bool("chess960", false, "Chess960: castling printed as the king taking its rook (e1h1), as UCI_Chess960 has it")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *depth < 1 || *depth > 15 {
		return fmt.Errorf("--depth %d: want a depth from 1 to 15", *depth)
	}
	pos, err := chesscore.ParseFEN(*fen)
	if err != nil {
		return fmt.Errorf("--fen: %w", err)
	}
	if *c960 {
		_ = pos.SetVariant(chesscore.Chess960) // only Standard is ever refused
	}
	if !*divide {
		_, err := fmt.Fprintln(stdout, chesscore.Perft(&pos, *depth))
		return err
	}
	var total uint64
	for _, e := range chesscore.Divide(&pos, *depth) {
		fmt.Fprintf(stdout, "%s: %d\n", pos.UCIMove(e.Move), e.Nodes)
		total += e.Nodes
	}
	_, err = fmt.Fprintf(stdout, "\n%d\n", total)
	return err
}
