package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/clock"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// playStdin is where gambit play reads its input (tests replace it).
var playStdin io.Reader = os.Stdin

// The players of a terminal game.
var (
	localWhite  = storage.Player{ID: "local:white", Name: "White"}
	localBlack  = storage.Player{ID: "local:black", Name: "Black"}
	localHuman  = storage.Player{ID: "local:you", Name: "You"}
	localEngine = storage.Player{ID: "local:engine", Name: "Gambit engine"}
)

const playHelp = `Type a move in SAN (e4, Nf3, O-O, e8=Q) or UCI (e2e4), or a command:
  draw            offer a draw with your next move, or accept the offer on the board
  decline         decline the draw offer on the board
  claim [MOVE]    claim a draw by threefold repetition or the fifty moves, on the
                  board or with the move that brings it about
  takeback        ask to take back the last move
  resign, abort   resign the game, or call it off before both sides have moved
  board, pgn      show the board, or the game so far in PGN
  quit            leave (the game stays open in the database)`

// runPlay implements `gambit play [--db FILE] [--time 5+3] [--fen FEN] [--engine N
// [--color white|black|random]] [--unicode]`: a game in the terminal on the game
// service and the store the bot uses, by two players at one keyboard or against the
// built-in engine.
func runPlay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", stderr)
	dbPath := addDBFlag(fs)
	tc := fs.String("time", "-", "time control, like 5+3, 15+10, 40/90+30 or 3d (- for none)")
	fen := fs.String("fen", "", "start position in FEN (default: the initial position)")
	level := fs.Int("engine", 0, "play against the built-in engine at this `level` (1 to 8; 0: two players at one keyboard)")
	color := fs.String("color", "white", "your colour against the engine: white, black or random")
	unicode := fs.Bool("unicode", false, "draw the pieces as Unicode chess symbols")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	p := &playSession{out: stdout, dbPath: *dbPath, unicode: *unicode, white: localWhite, black: localBlack}
	if *level != 0 {
		lv, err := engine.LevelByNumber(*level)
		if err != nil {
			return fmt.Errorf("--engine: %w", err)
		}
		choice, err := storage.ParseColorChoice(*color)
		if err != nil {
			return fmt.Errorf("--color: %w", err)
		}
		human := chesscore.White
		switch {
		case choice == storage.ChooseBlack, choice == storage.ChooseRandom && rand.IntN(2) == 1:
			human = chesscore.Black
		}
		p.engineColor, p.hasEngine = human.Other(), true
		p.bot = &engine.Bot{Level: lv, Rand: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), Now: time.Now, MaxThink: 10 * time.Second}
		localEngine.Name = fmt.Sprintf("Gambit engine (level %d)", *level)
		p.white, p.black = localHuman, localEngine
		if human == chesscore.Black {
			p.white, p.black = localEngine, localHuman
		}
		p.flip = human == chesscore.Black
	}

	db, err := storage.Open(*dbPath, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	over := make(chan struct{}, 1)
	var current atomic.Uint64 // the game of this session (other local games may end too)
	svc, err := games.New(db, games.Options{
		Instance: "play",
		Scope:    games.LocalScope,
		Notifier: games.NotifierFunc(func(_ context.Context, e games.Event) {
			if end, ok := e.(games.GameOver); ok && end.Game.ID == current.Load() {
				select {
				case over <- struct{}{}:
				default:
				}
			}
		}),
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { svc.Run(ctx); close(ran) }()
	defer func() {
		cancel()
		<-ran
		svc.Close()
	}()
	p.svc = svc

	res, err := svc.StartGame(ctx, games.StartRequest{White: p.white, Black: p.black, Control: *tc, FEN: *fen})
	if err != nil {
		return err
	}
	p.id = res.Game.ID
	current.Store(p.id)
	fmt.Fprintf(stdout, "Game %d: %s vs %s, %s. Stored in %s.\n", p.id, p.white.Name, p.black.Name, describeControl(res.Game.Control), p.dbPath)
	if res.Game.Clock != nil && res.Game.Clock.FreeFirstMoves {
		fmt.Fprintln(stdout, "Each side's first move is untimed.")
	}
	fmt.Fprintln(stdout, "Type help for the commands.")
	fmt.Fprintln(stdout)
	fmt.Fprint(stdout, boardText(res.Game, p.unicode, p.flip))
	return p.loop(ctx, readLines(playStdin), over)
}

// playSession is one terminal game.
type playSession struct {
	out         io.Writer
	dbPath      string
	svc         *games.Service
	id          uint64
	unicode     bool
	flip        bool
	white       storage.Player
	black       storage.Player
	hasEngine   bool
	engineColor chesscore.Color
	bot         *engine.Bot
	offerNext   bool // the next move carries a draw offer
	boardShown  bool // the board was just printed (after a move)
}

// readLines delivers the lines of r on a channel, closed at the end of input.
func readLines(r io.Reader) <-chan string {
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return lines
}

func (p *playSession) player(c chesscore.Color) storage.Player {
	if c == chesscore.White {
		return p.white
	}
	return p.black
}

func (p *playSession) action(c chesscore.Color) games.Action {
	return games.Action{GameID: p.id, UserID: p.player(c).ID}
}

// loop plays until the game ends or the input does.
func (p *playSession) loop(ctx context.Context, lines <-chan string, over <-chan struct{}) error {
	for {
		g, err := p.svc.Game(ctx, p.id)
		if err != nil {
			return err
		}
		if !g.Live() {
			p.finish(g)
			return nil
		}
		turn := g.Turn()
		if p.hasEngine && turn == p.engineColor && !g.Takeback.Pending {
			if err := p.engineMove(ctx, g); err != nil {
				return err
			}
			continue
		}
		p.prompt(g)
		select {
		case line, ok := <-lines:
			if !ok {
				fmt.Fprintln(p.out)
				p.leave()
				return nil
			}
			if quit := p.handle(ctx, g, strings.TrimSpace(line)); quit {
				p.leave()
				return nil
			}
		case <-over:
			fmt.Fprintln(p.out)
		}
	}
}

// prompt shows what waits for the player to move and asks for input.
func (p *playSession) prompt(g *games.Game) {
	p.boardShown = false
	turn := g.Turn()
	name := colorName(turn)
	if o := g.DrawOffer; o.Pending && o.By != turn {
		fmt.Fprintf(p.out, "%s offers a draw: type draw to accept or decline to refuse (a move declines too).\n", colorName(o.By))
	}
	if t := g.Takeback; t.Pending {
		asker := colorName(t.By)
		answerer := colorName(t.By.Other())
		fmt.Fprintf(p.out, "%s asks to take back the last move. %s, accept? (yes/no): ", asker, answerer)
		return
	}
	if left, ok := g.Remaining(turn, time.Now()); ok {
		fmt.Fprintf(p.out, "%s to move (%s): ", name, render.FormatClock(left))
		return
	}
	fmt.Fprintf(p.out, "%s to move: ", name)
}

// handle acts on one line of input; it reports whether the player quit.
func (p *playSession) handle(ctx context.Context, g *games.Game, line string) (quit bool) {
	turn := g.Turn()
	if t := g.Takeback; t.Pending {
		answerer := t.By.Other()
		switch strings.ToLower(line) {
		case "y", "yes":
			p.report(p.svc.AcceptTakeback(ctx, p.action(answerer)))
		case "n", "no":
			p.report(p.svc.DeclineTakeback(ctx, p.action(answerer)))
		case "quit", "exit":
			return true
		default:
			fmt.Fprintln(p.out, "Please answer yes or no.")
		}
		return false
	}
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(word) {
	case "":
	case "help", "?":
		fmt.Fprintln(p.out, playHelp)
	case "board":
		fmt.Fprint(p.out, boardText(g, p.unicode, p.flip))
	case "pgn":
		fmt.Fprint(p.out, g.PGN())
	case "quit", "exit":
		return true
	case "draw":
		if o := g.DrawOffer; o.Pending && o.By != turn {
			p.report(p.svc.AcceptDraw(ctx, p.action(turn)))
			return false
		}
		if p.hasEngine {
			fmt.Fprintln(p.out, "Your draw offer goes with your next move; the engine answers by playing on.")
		} else {
			fmt.Fprintln(p.out, "Your draw offer goes with your next move.")
		}
		p.offerNext = true
	case "decline":
		p.report(p.svc.DeclineDraw(ctx, p.action(turn)))
	case "claim":
		p.report(p.svc.ClaimDraw(ctx, games.ClaimRequest{Action: p.action(turn), Move: rest}))
	case "resign":
		p.report(p.svc.Resign(ctx, p.action(turn)))
	case "abort":
		p.report(p.svc.Abort(ctx, p.action(turn)))
	case "takeback":
		p.takeback(ctx, g)
	default:
		res, err := p.svc.Move(ctx, games.MoveRequest{Action: p.action(turn), Move: line, OfferDraw: p.offerNext})
		if err != nil {
			p.explain(err)
			return false
		}
		p.offerNext = false
		p.showMove(res)
	}
	return false
}

// takeback asks for the last move back: at one keyboard the player who made it asks and
// the one to move answers; against the engine, the engine always agrees.
func (p *playSession) takeback(ctx context.Context, g *games.Game) {
	if g.Ply() == 0 {
		p.explain(games.ErrNothingToTakeBack)
		return
	}
	asker := g.Turn().Other() // the last mover
	if p.hasEngine {
		asker = p.engineColor.Other()
	}
	if _, err := p.svc.RequestTakeback(ctx, p.action(asker)); err != nil {
		p.explain(err)
		return
	}
	if p.hasEngine {
		res, err := p.svc.AcceptTakeback(ctx, p.action(p.engineColor))
		if err != nil {
			p.explain(err)
			return
		}
		fmt.Fprintln(p.out, "The engine agrees to the takeback.")
		fmt.Fprint(p.out, boardText(res.Game, p.unicode, p.flip))
	}
}

// engineMove lets the engine choose and play its move.
func (p *playSession) engineMove(ctx context.Context, g *games.Game) error {
	var tl *engine.TimeLeft
	if g.Clock != nil {
		t := engine.ClockTimeLeft(g.Clock, p.engineColor, time.Now())
		tl = &t
	}
	m, err := p.bot.BestMove(ctx, g.Chess(), tl)
	if err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	res, err := p.svc.Move(ctx, games.MoveRequest{Action: p.action(p.engineColor), Move: m.UCI()})
	if errors.Is(err, games.ErrGameOver) {
		return nil // its flag fell while it thought: the loop reports the result
	}
	if err != nil {
		return fmt.Errorf("engine move %s: %w", m.UCI(), err)
	}
	if g.DrawOffer.Pending {
		fmt.Fprintln(p.out, "The engine plays on.")
	}
	p.showMove(res)
	return nil
}

// report prints what a command did, or why it was refused.
func (p *playSession) report(res *games.Result, err error) {
	if err != nil {
		p.explain(err)
		return
	}
	switch res.Effect {
	case games.EffectTakebackAccepted:
		fmt.Fprintln(p.out, "Move taken back.")
		fmt.Fprint(p.out, boardText(res.Game, p.unicode, p.flip))
	case games.EffectTakebackDeclined:
		fmt.Fprintln(p.out, "Takeback declined.")
	case games.EffectDrawDeclined:
		fmt.Fprintln(p.out, "Draw declined.")
	case games.EffectDrawClaimed:
		if res.SAN != "" {
			fmt.Fprintf(p.out, "%s %s\n", moveNumber(res.Game, res.Ply-1), res.SAN)
		}
	}
}

// explain prints a refusal for the player.
func (p *playSession) explain(err error) {
	msg := err.Error()
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	fmt.Fprintln(p.out, msg+".")
}

// showMove prints a move just played and the board after it.
func (p *playSession) showMove(res *games.Result) {
	text := fmt.Sprintf("%s %s", moveNumber(res.Game, res.Ply-1), res.SAN)
	if res.Game.DrawOffer.Pending && res.Game.DrawOffer.Ply == res.Ply {
		text += " (draw offered)"
	}
	fmt.Fprintln(p.out, text)
	fmt.Fprint(p.out, boardText(res.Game, p.unicode, p.flip))
	p.boardShown = true
}

// leave ends the session without ending the game.
func (p *playSession) leave() {
	fmt.Fprintf(p.out, "Game %d stays open in %s.\n", p.id, p.dbPath)
}

// finish prints the end of the game.
func (p *playSession) finish(g *games.Game) {
	fmt.Fprintf(p.out, "Game over: %s (%s).\n", g.Outcome.Result, describeEnd(g))
	if !p.boardShown {
		fmt.Fprint(p.out, boardText(g, p.unicode, p.flip))
	}
	fmt.Fprint(p.out, g.PGN())
	fmt.Fprintf(p.out, "\nGame %d is stored in %s.\n", p.id, p.dbPath)
}

// describeEnd says in words how a game ended.
func describeEnd(g *games.Game) string {
	o := g.Outcome
	winner, won := o.Winner()
	switch o.Termination {
	case chesscore.Checkmate:
		return colorName(winner) + " wins by checkmate"
	case chesscore.Resignation:
		if won {
			return colorName(winner.Other()) + " resigned"
		}
		return "resigned, but the opponent could not have checkmated: a draw"
	case chesscore.TimeForfeit:
		return colorName(winner.Other()) + "'s time ran out"
	case chesscore.DrawOnTime:
		return "a flag fell, but the opponent could not have checkmated: a draw"
	case chesscore.Aborted:
		return "aborted"
	}
	return o.Termination.String()
}

// moveNumber returns "12." or "12..." for the move at ply (from 0).
func moveNumber(g *games.Game, ply int) string {
	start := g.Chess().Start()
	n := start.FullmoveNumber()
	black := start.Turn() == chesscore.Black
	n += (ply + boolInt(black)) / 2
	if (ply%2 == 1) != black {
		return fmt.Sprintf("%d...", n)
	}
	return fmt.Sprintf("%d.", n)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func colorName(c chesscore.Color) string {
	if c == chesscore.White {
		return "White"
	}
	return "Black"
}

// describeControl names a time control for the header line.
func describeControl(tc clock.TimeControl) string {
	switch tc.Kind() {
	case clock.KindUntimed:
		return "no clock"
	case clock.KindCorrespondence:
		return "correspondence, " + tc.String() + " a move"
	}
	return tc.String() + " " + tc.Category().String()
}

// Unicode chess symbols, indexed by piece type (white, then black).
var unicodePieces = [2][7]string{
	{" ", "♙", "♘", "♗", "♖", "♕", "♔"},
	{" ", "♟", "♞", "♝", "♜", "♛", "♚"},
}

// boardText draws the position with coordinates (White at the bottom unless flip), in
// FEN letters (upper case White) or Unicode symbols, and names the last move.
func boardText(g *games.Game, unicode, flip bool) string {
	var b strings.Builder
	pos := g.Position
	files := "  a b c d e f g h"
	if flip {
		files = "  h g f e d c b a"
	}
	for row := range 8 {
		rank := 7 - row
		if flip {
			rank = row
		}
		fmt.Fprintf(&b, "%d ", rank+1)
		for col := range 8 {
			file := col
			if flip {
				file = 7 - col
			}
			pc := pos.PieceAt(chesscore.MakeSquare(file, rank))
			switch {
			case pc == chesscore.NoPiece:
				b.WriteByte('.')
			case unicode:
				b.WriteString(unicodePieces[pc.Color()][pc.Type()])
			default:
				b.WriteByte(pc.FENLetter())
			}
			if col < 7 {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString(files)
	if len(g.SAN) > 0 {
		fmt.Fprintf(&b, "    last move %s %s", moveNumber(g, len(g.SAN)-1), g.SAN[len(g.SAN)-1])
	}
	b.WriteString("\n\n")
	return b.String()
}
