// play.go: `gambit play`, a game in the terminal (package terminal plays it).

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/cmd/gambit/internal/terminal"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
	"github.com/gambitchess/gambit/storage/bolt"
)

// playInstance names the heartbeat of gambit play's game service (the bot's is "bot").
const playInstance = "play"

// playStdin is where gambit play reads its input (tests replace it).
var playStdin io.Reader = os.Stdin

// runPlay implements `gambit play`: a new game in the terminal on the game service and
// the store the bot uses, by two players at one keyboard or against the built-in
// engine, or (--resume) a game left open.
func runPlay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", stderr)
	dbPath := addDBFlag(fs)
	tc := fs.String("time", "-", "time control, like 5+3, 15+10, 40/90+30 or 3d (- for none)")
	fen := fs.String("fen", "", "start position in FEN (default: the initial position)")
	level := fs.Int("engine", 0, "play against the built-in engine at this `level` (1 to 8; 0: two players at one keyboard)")
	color := fs.String("color", "white", "your colour against the engine: white, black or random")
	unicode := fs.Bool("unicode", false, "draw the pieces as Unicode chess symbols")
	resume := fs.Uint64("resume", 0, "go on with the open game of this `id` (gambit games lists them)")
	onWeb := fs.Bool("web", false, "play in the browser: serve the game's live board on 127.0.0.1 (two players at one keyboard)")
	webAddr := fs.String("web-address", "127.0.0.1:0", "with --web, the `host:port` to serve on (a loopback address)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var setup playSetup
	if *resume != 0 {
		if set := setFlags(fs, "time", "fen", "engine", "color"); len(set) > 0 {
			return fmt.Errorf("--resume goes on with a stored game: --%s does not apply", set[0])
		}
	} else {
		var err error
		if setup, err = newPlaySetup(*level, *color); err != nil {
			return err
		}
	}

	if *onWeb && setup.engine != nil {
		return errors.New("--web plays two players at one keyboard in the browser: --engine is for the terminal")
	}
	if set := setFlags(fs, "web-address"); len(set) > 0 && !*onWeb {
		return errors.New("--web-address goes with --web")
	}
	db, err := bolt.Open(*dbPath, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	var board *localBoard
	var also games.Notifier
	if *onWeb {
		if board, err = listenLocalBoard(*webAddr); err != nil {
			return err
		}
		defer board.close()
		also = board
	}
	svc, over, current, err := startPlayService(db, stderr, also)
	if err != nil {
		return err
	}
	defer svc.stop()

	ctx := context.Background()
	var g *games.Game
	if *resume != 0 {
		if g, err = resumableGame(ctx, svc.Service, *resume); err != nil {
			return err
		}
		if setup, err = resumeSetup(g); err != nil {
			return err
		}
	} else {
		res, err := svc.StartGame(ctx, games.StartRequest{White: setup.white, Black: setup.black, Control: *tc, FEN: *fen})
		if err != nil {
			return err
		}
		g = res.Game
	}
	current.Store(g.ID)
	if board != nil {
		if setup.engine != nil {
			return errors.New("--web plays two players at one keyboard in the browser: this game is against the engine")
		}
		return board.play(svc.Service, g, stdout, over)
	}
	s := &terminal.Session{Out: stdout, Games: svc.Service, GameID: g.ID, Where: *dbPath, Unicode: *unicode,
		Flip: setup.flip, Engine: setup.engine, EngineColor: setup.engineColor}
	terminal.Intro(stdout, g, *dbPath, *unicode, setup.flip, *resume != 0)
	if *resume == 0 {
		noteOpenGames(ctx, stdout, svc.Service, g.ID)
	}
	if g.Clock != nil && isTerminal(stdout) {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		s.Ticks, s.Redraw = tick.C, true
	}
	return s.Run(ctx, terminal.ReadLines(playStdin), over)
}

// playSetup is who plays a terminal game and how it is shown.
type playSetup struct {
	white, black storage.Player
	engine       engine.Player // nil: two players at one keyboard
	engineColor  chesscore.Color
	flip         bool // Black at the bottom: the human plays Black against the engine
}

// newPlaySetup reads --engine and --color for a new game.
func newPlaySetup(level int, color string) (playSetup, error) {
	if level == 0 {
		return playSetup{white: terminal.White, black: terminal.Black}, nil
	}
	bot, err := engineBot(level)
	if err != nil {
		return playSetup{}, fmt.Errorf("--engine: %w", err)
	}
	choice, err := storage.ParseColorChoice(color)
	if err != nil {
		return playSetup{}, fmt.Errorf("--color: %w", err)
	}
	human := chesscore.White
	if choice == storage.ChooseBlack || choice == storage.ChooseRandom && rand.IntN(2) == 1 {
		human = chesscore.Black
	}
	s := playSetup{white: terminal.You, black: terminal.EnginePlayer(level), engine: bot, engineColor: human.Other()}
	if human == chesscore.Black {
		s.white, s.black, s.flip = terminal.EnginePlayer(level), terminal.You, true
	}
	return s, nil
}

// resumeSetup finds who plays a stored game: the engine, at the level its name records,
// if it is one of the players.
func resumeSetup(g *games.Game) (playSetup, error) {
	s := playSetup{white: g.White, black: g.Black}
	for _, c := range []chesscore.Color{chesscore.White, chesscore.Black} {
		p := g.Player(c)
		if !terminal.IsEngine(p) {
			continue
		}
		level, ok := terminal.EngineLevel(p)
		if !ok {
			return s, fmt.Errorf("game %d: the engine's level is not recorded in its name %q", g.ID, p.Name)
		}
		bot, err := engineBot(level)
		if err != nil {
			return s, fmt.Errorf("game %d: %w", g.ID, err)
		}
		s.engine, s.engineColor, s.flip = bot, c, c == chesscore.White
	}
	return s, nil
}

// engineBot is the built-in engine at a level, thinking at most 10 s a move.
func engineBot(level int) (*engine.Bot, error) {
	lv, err := engine.LevelByNumber(level)
	if err != nil {
		return nil, err
	}
	return &engine.Bot{Level: lv, Rand: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), Now: time.Now, MaxThink: 10 * time.Second}, nil
}

// resumableGame loads game id and checks that gambit play may go on with it: a live
// terminal game.
func resumableGame(ctx context.Context, svc *games.Service, id uint64) (*games.Game, error) {
	g, err := svc.Game(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("--resume %d: no such game (gambit games lists the open ones)", id)
	}
	if err != nil {
		return nil, fmt.Errorf("--resume %d: %w", id, err)
	}
	if !games.LocalScope(&g.Game) {
		return nil, fmt.Errorf("--resume %d: a game on Discord, not a terminal game", id)
	}
	if !g.Live() {
		return nil, fmt.Errorf("--resume %d: the game is over (%s)", id, g.Outcome.Result)
	}
	return g, nil
}

// noteOpenGames tells the player about the other terminal games left open, which
// --resume goes on with.
func noteOpenGames(ctx context.Context, w io.Writer, svc *games.Service, current uint64) {
	recs, err := svc.OpenGames(ctx)
	if err != nil {
		return
	}
	n := 0
	for _, g := range recs {
		if g.ID != current && games.LocalScope(g) {
			n++
		}
	}
	switch {
	case n == 1:
		fmt.Fprintln(w, "Another terminal game is open: gambit games lists it, gambit play --resume ID goes on with it.")
	case n > 1:
		fmt.Fprintf(w, "%d other terminal games are open: gambit games lists them, gambit play --resume ID goes on with one.\n", n)
	}
}

// setFlags returns those of names that were given on the command line.
func setFlags(fs *flag.FlagSet, names ...string) []string {
	var set []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(names, f.Name) {
			set = append(set, f.Name)
		}
	})
	return set
}

// isTerminal reports whether w is a terminal (a character device), where the clocks
// can be redrawn in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
