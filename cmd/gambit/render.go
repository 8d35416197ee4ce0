package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/render"
)

// runRender implements `gambit render [--fen FEN | --pgn FILE] [--moves "..."] [--size 512]
// [--flip] [--theme NAME] [--lastmove e2e4] [--no-coords] -o OUT.png|OUT.gif`.
//
// With a .png output it draws the position reached, highlighting the last move; with a
// .gif output it draws a replay of every move, one frame per ply.
func runRender(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("render", stderr)
	fen := fs.String("fen", "", "start position in FEN (default: the initial position)")
	pgnPath := fs.String("pgn", "", "PGN `file` whose first game is drawn")
	moves := fs.String("moves", "", `moves played from the start, in SAN or UCI ("e4 e5 Nf3" or "e2e4 e7e5 g1f3")`)
	size := fs.Int("size", render.DefaultSize, "board side in pixels")
	flip := fs.Bool("flip", false, "put Black at the bottom")
	theme := fs.String("theme", render.DefaultTheme, "board colours: "+strings.Join(render.Themes(), ", "))
	lastMove := fs.String("lastmove", "", "squares to highlight as the last move, like e2e4 (default: the last move played)")
	noCoords := fs.Bool("no-coords", false, "leave out the file letters and rank numbers")
	delay := fs.Duration("delay", time.Second, "GIF: how long each move shows")
	lastDelay := fs.Duration("last-delay", 3*time.Second, "GIF: how long the final position shows")
	out := fs.String("o", "", "output `file`: .png for the position, .gif for a replay, - for a PNG on standard output")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("-o: give an output file (.png or .gif)")
	}
	ext := strings.ToLower(filepath.Ext(*out))
	if *out == "-" {
		ext = ".png"
	}
	if ext != ".png" && ext != ".gif" {
		return fmt.Errorf("-o %s: want a .png or .gif file", *out)
	}
	if *fen != "" && *pgnPath != "" {
		return errors.New("--fen and --pgn: give one or the other")
	}

	game, err := startGame(*fen, *pgnPath)
	if err != nil {
		return err
	}
	if err := playMoves(game, *moves); err != nil {
		return fmt.Errorf("--moves: %w", err)
	}

	var buf bytes.Buffer
	if ext == ".gif" {
		if *lastMove != "" {
			return errors.New("--lastmove: a replay highlights every move itself; use it with a .png output")
		}
		opt := render.GIFOptions{Size: *size, Theme: *theme, Flip: *flip, Coordinates: !*noCoords, Delay: *delay, LastDelay: *lastDelay}
		if err := render.GameGIF(&buf, render.GameFrames(game), opt); err != nil {
			return err
		}
	} else {
		opt := render.BoardOptions{Size: *size, Theme: *theme, Flip: *flip, Coordinates: !*noCoords}
		if ms := game.Moves(); len(ms) > 0 {
			opt.LastMove = ms[len(ms)-1]
		}
		if *lastMove != "" {
			m, err := parseSquares(*lastMove)
			if err != nil {
				return fmt.Errorf("--lastmove: %w", err)
			}
			opt.LastMove = m
		}
		pos := game.Position()
		if err := render.PNG(&buf, &pos, opt); err != nil {
			return err
		}
	}
	if *out == "-" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", *out, err)
	}
	return nil
}

// startGame returns the game to draw: the first game of the PGN file, or a new game
// from the FEN (the initial position when empty).
func startGame(fen, pgnPath string) (*chesscore.Game, error) {
	if pgnPath != "" {
		f, err := os.Open(pgnPath)
		if err != nil {
			return nil, fmt.Errorf("--pgn: %w", err)
		}
		defer f.Close()
		pg, err := chesscore.NewPGNReader(f, dead.Decider{}).Read()
		if err == io.EOF {
			return nil, fmt.Errorf("--pgn %s: no game in the file", pgnPath)
		}
		if err != nil {
			return nil, fmt.Errorf("--pgn %s: %w", pgnPath, err)
		}
		return pg.Game, nil
	}
	if fen == "" {
		return chesscore.NewGame(chesscore.StartPosition(), dead.Decider{}), nil
	}
	g, err := chesscore.NewGameFromFEN(fen, dead.Decider{})
	if err != nil {
		return nil, fmt.Errorf("--fen: %w", err)
	}
	return g, nil
}

// playMoves plays a space-separated list of moves in SAN or UCI onto g. Move numbers
// ("12." or "12...") and a final result ("1-0", "0-1", "1/2-1/2", "*") are skipped, so a
// PGN movetext can be pasted as it is.
func playMoves(g *chesscore.Game, text string) error {
	for i, tok := range strings.Fields(text) {
		if isMoveNumber(tok) || isResult(tok) {
			continue
		}
		if _, err := g.PlaySAN(tok); err != nil {
			return fmt.Errorf("move %d %q: %w", i+1, tok, err)
		}
	}
	return nil
}

func isMoveNumber(tok string) bool {
	digits := strings.TrimRight(tok, ".")
	if digits == tok || digits == "" {
		return false
	}
	return strings.Trim(digits, "0123456789") == ""
}

func isResult(tok string) bool {
	switch tok {
	case "1-0", "0-1", "1/2-1/2", "½-½", "*":
		return true
	}
	return false
}

// parseSquares reads a from and a to square, like e2e4 (a promotion letter after them
// is allowed and ignored); the move need not be legal anywhere.
func parseSquares(s string) (chesscore.Move, error) {
	if len(s) == 5 && strings.ContainsRune("qrbn", rune(s[4])) {
		s = s[:4]
	}
	if len(s) != 4 {
		return chesscore.NullMove, fmt.Errorf("%q: want two squares like e2e4", s)
	}
	from, ok1 := chesscore.ParseSquare(s[:2])
	to, ok2 := chesscore.ParseSquare(s[2:])
	if !ok1 || !ok2 || from == to {
		return chesscore.NullMove, fmt.Errorf("%q: want two different squares like e2e4", s)
	}
	return chesscore.NewMove(from, to), nil
}
