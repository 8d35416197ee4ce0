package commands

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/chesscore/dead"
	"github.com/gambitchess/gambit/chesscore/engine"
	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/engineplay"
	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// /analyze [game]: the review of a finished game, evaluated move by move: its opening,
// each side's accuracy and the classes of its moves (docs/review.md has the formulas),
// the critical moments with the better move, a summary card beside the evaluation
// graph, the full table as a text file and the game as an annotated PGN ([%eval]
// comments, ?!/?/?? as NAGs).

func init() {
	register(registration{
		name:    "analyze",
		build:   func(d *Deps) Command { return NewAnalyze(d) },
		topic:   helpTopic{group: groupPlay, order: 120, example: "/analyze game:12"},
		options: []optionUse{{nil, analyzeOptions{}}},
	})
}

var _ Command = (*AnalyzeCommand)(nil)
var _ Autocompleter = (*AnalyzeCommand)(nil)

// AnalyzeCommand is /analyze.
type AnalyzeCommand struct{ d *Deps }

// NewAnalyze returns /analyze.
func NewAnalyze(d *Deps) *AnalyzeCommand {
	warmOpenings()
	return &AnalyzeCommand{d}
}

// Definition implements Command.
func (c *AnalyzeCommand) Definition() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:             "analyze",
		Description:      "Analyse a finished game: the mistakes of each side, the better moves, the evaluation graph",
		Contexts:         contexts(serversAndBotDM),
		IntegrationTypes: installs(guildInstall),
		Options: []*discordgo.ApplicationCommandOption{{
			Type: discordgo.ApplicationCommandOptionInteger, Name: "game", MinValue: ptr(1.0), Autocomplete: true,
			Description: "The game number (default: the game of this thread, else your last finished game)",
		}},
	}
}

// Autocomplete implements Autocompleter: the user's finished games, newest first.
func (c *AnalyzeCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	list, err := c.d.Games.GamesByUser(ctx, r.User.ID, storage.Query{Limit: 50})
	if err != nil {
		return nil, err
	}
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, g := range list {
		if g.Live() || len(g.Moves) == 0 {
			continue
		}
		name := Truncate(fmt.Sprintf("Game %d · %s vs %s · %s", g.ID, g.White.Name, g.Black.Name, g.Outcome.Result), maxChoiceName, UTF16)
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: g.ID})
		if len(out) == 25 {
			break
		}
	}
	return out, nil
}

// analyzeOptions are the options of /analyze.
type analyzeOptions struct {
	Game int64 `option:"game"`
}

// Handle implements Command.
func (c *AnalyzeCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	if c.d.Engine == nil {
		return nil, Errorf("Analysis is not available on this bot.")
	}
	var o analyzeOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	g, err := c.pick(ctx, r, o.Game)
	if err != nil {
		return nil, err
	}
	r.Log = r.Log.With("game", g.ID)
	a, err := c.d.Engine.Analyze(ctx, engineplay.AnalysisRequest{GuildID: r.GuildID, UserID: r.User.ID, Game: g})
	var cool *engineplay.CooldownError
	switch {
	case errors.As(err, &cool):
		return nil, Explain(err, fmt.Sprintf("You analysed a game a moment ago: ask again <t:%d:R>.", cool.Until.Unix()))
	case errors.Is(err, engineplay.ErrAnalysisPending):
		return nil, Explain(err, "Your previous analysis is still on its way: one at a time, please.")
	case errors.Is(err, engineplay.ErrNotFinished):
		return nil, Explain(err, fmt.Sprintf("Game %d is still being played: analysis comes once it is over (it would help whoever is to move).", g.ID))
	case errors.Is(err, engineplay.ErrNoMoves):
		return nil, Explain(err, fmt.Sprintf("Game %d has no moves to analyse.", g.ID))
	case err != nil:
		return nil, fmt.Errorf("analyse game %d: %w", g.ID, err)
	}
	resp, err := analysisMessage(g, a)
	if wp := c.d.webPages(ctx, g.GuildID); wp != nil && err == nil {
		resp = withWebLink(resp, "Analysis on the web", wp.AnalysisURL(g.ID))
	}
	return resp, err
}

// pick finds the game to analyse: the one named (if the asker may see it), else the
// game of this thread, else the user's last finished game.
func (c *AnalyzeCommand) pick(ctx context.Context, r *Request, id int64) (*games.Game, error) {
	if id > 0 {
		return c.d.visibleGame(ctx, r, uint64(id))
	}
	if g := c.d.threadGame(ctx, r); g != nil {
		return g, nil
	}
	list, err := c.d.Games.GamesByUser(ctx, r.User.ID, storage.Query{Limit: 50})
	if err != nil {
		return nil, fmt.Errorf("list games of %s: %w", r.User.ID, err)
	}
	for _, g := range list {
		if g.ThreadID != "" && g.ThreadID == r.ChannelID {
			return c.d.load(ctx, g.ID)
		}
	}
	for _, g := range list {
		if !g.Live() && len(g.Moves) > 0 {
			return c.d.load(ctx, g.ID)
		}
	}
	return nil, Errorf("You have no finished game to analyse. Name one with game:<number>.")
}

// maxKeyMoments bounds the critical moments listed in the message (the file has every
// move).
const maxKeyMoments = 8

// analysisMessage is the answer: the opening, each side's accuracy and flaws, the
// critical moments with the better move, the summary card beside the evaluation graph,
// the full table and the annotated game.
func analysisMessage(g *games.Game, a *engineplay.Analysis) (*Response, error) {
	start := g.Chess().Start()
	var b strings.Builder
	fmt.Fprintf(&b, "📈 **Analysis of game %d** · %s (White) vs %s (Black) · %s\n", g.ID, playerName(g.White), playerName(g.Black), resultText(g.Outcome))
	if line := openingLine(g); line != "" {
		b.WriteString(line + "\n")
	}
	for _, c := range []chesscore.Color{chesscore.White, chesscore.Black} {
		s := a.Summary(c)
		fmt.Fprintf(&b, "%s (%s): accuracy **%s** · %s\n", colorName(c), playerName(g.Player(c)), accuracyText(s), summaryText(s))
	}
	key := criticalMoments(a.Notes, maxKeyMoments)
	if len(key) == 0 {
		b.WriteString("No mistakes or blunders: a clean game.\n")
	} else {
		b.WriteString("**Critical moments**\n")
		for _, n := range key {
			fmt.Fprintf(&b, "• %s **%s%s** %s (%s → %s)", moveLabel(start, n.Ply), n.SAN, n.Judgement.Symbol(), n.Judgement, evalText(n.Before), evalText(n.After))
			if n.BestSAN != "" {
				fmt.Fprintf(&b, ", better **%s**", n.BestSAN)
			}
			b.WriteByte('\n')
		}
		if more := countFlawed(a.Notes, engine.Mistake) - len(key); more > 0 {
			fmt.Fprintf(&b, "… and %d more in the attached table.\n", more)
		}
	}
	per := "a fixed node budget"
	if a.PerPosition > 0 {
		per = a.PerPosition.String()
	}
	fmt.Fprintf(&b, "-# Evaluations for White, by %s (%s a position).", EscapeMarkdown(a.Engine), per)

	var card bytes.Buffer
	if err := render.ReviewCard(&card, reviewSide(g, a, chesscore.White), reviewSide(g, a, chesscore.Black), reviewCardOptions(g)); err != nil {
		return nil, fmt.Errorf("draw the review card of game %d: %w", g.ID, err)
	}
	var png bytes.Buffer
	if err := render.EvalGraph(&png, evalPoints(a), render.EvalGraphOptions{
		Title:     fmt.Sprintf("Game %d · %s vs %s", g.ID, g.White.Name, g.Black.Name),
		FirstMove: start.FullmoveNumber(), BlackFirst: start.Turn() == chesscore.Black,
	}); err != nil {
		return nil, fmt.Errorf("draw the evaluation graph of game %d: %w", g.ID, err)
	}
	return &Response{
		Content: b.String(),
		Files: []File{
			{Name: "review.png", ContentType: "image/png", Data: card.Bytes()},
			{Name: "evaluation.png", ContentType: "image/png", Data: png.Bytes()},
			{Name: fmt.Sprintf("gambit-analysis-%d.txt", g.ID), ContentType: "text/plain; charset=utf-8", Data: []byte(analysisTable(g, a))},
			{Name: fmt.Sprintf("gambit-analysis-%d.pgn", g.ID), ContentType: "application/x-chess-pgn", Data: []byte(annotatedPGN(g, a))},
		},
	}, nil
}

// criticalMoments are the moves that changed the game: the mistakes, missed wins and
// blunders, the costliest at most max of them, in the order they were played.
func criticalMoments(notes []engine.PlyNote, max int) []engine.PlyNote {
	var key []engine.PlyNote
	for _, n := range notes {
		if n.Judgement >= engine.Mistake {
			key = append(key, n)
		}
	}
	if len(key) > max {
		slices.SortStableFunc(key, func(x, y engine.PlyNote) int { return cmp.Compare(y.Drop, x.Drop) })
		key = key[:max]
		slices.SortFunc(key, func(x, y engine.PlyNote) int { return cmp.Compare(x.Ply, y.Ply) })
	}
	return key
}

// countFlawed counts the notes judged at least j.
func countFlawed(notes []engine.PlyNote, j engine.Judgement) int {
	n := 0
	for _, note := range notes {
		if note.Judgement >= j {
			n++
		}
	}
	return n
}

// accuracyText is a side's accuracy, "87.4%", or "–" for a side without moves.
func accuracyText(s engineplay.Summary) string {
	if s.Moves == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", s.Accuracy)
}

// reviewClass maps the engine's judgements to the card's classes and the graph's marks.
var reviewClass = [len(engine.Judgements)]struct {
	class render.ReviewClass
	mark  render.EvalMark
}{
	engine.Best:       {render.ClassBest, render.MarkNone},
	engine.Excellent:  {render.ClassExcellent, render.MarkNone},
	engine.Good:       {render.ClassGood, render.MarkNone},
	engine.Inaccuracy: {render.ClassInaccuracy, render.MarkInaccuracy},
	engine.Mistake:    {render.ClassMistake, render.MarkMistake},
	engine.MissedWin:  {render.ClassMissedWin, render.MarkMissedWin},
	engine.Blunder:    {render.ClassBlunder, render.MarkBlunder},
}

// reviewSide is side c's column of the summary card.
func reviewSide(g *games.Game, a *engineplay.Analysis, c chesscore.Color) render.ReviewSide {
	s := a.Summary(c)
	side := render.ReviewSide{Name: g.Player(c).Name, Accuracy: s.Accuracy, HasAccuracy: s.Moves > 0}
	for _, j := range engine.Judgements {
		side.Counts[reviewClass[j].class] += s.Count(j)
	}
	return side
}

// reviewCardOptions heads the summary card: the game, its opening and its result.
func reviewCardOptions(g *games.Game) render.ReviewCardOptions {
	o := render.ReviewCardOptions{Title: fmt.Sprintf("Game %d · review", g.ID), Result: resultText(g.Outcome)}
	if op, ok := gameOpening(g); ok {
		o.Opening = op.String()
	}
	return o
}

func summaryText(s engineplay.Summary) string {
	count := func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	parts := []string{
		count(s.Count(engine.Inaccuracy), "inaccuracy", "inaccuracies"),
		count(s.Count(engine.Mistake), "mistake", "mistakes"),
	}
	if n := s.Count(engine.MissedWin); n > 0 {
		parts = append(parts, count(n, "missed win", "missed wins"))
	}
	parts = append(parts, count(s.Count(engine.Blunder), "blunder", "blunders"))
	return strings.Join(parts, ", ")
}

// moveLabel is "12." or "12…" for the move at ply (from 0) of a game from start.
func moveLabel(start chesscore.Position, ply int) string {
	black := start.Turn() == chesscore.Black
	n := start.FullmoveNumber() + (ply+boolToInt(black))/2
	if (ply%2 == 1) != black {
		return fmt.Sprintf("%d…", n)
	}
	return fmt.Sprintf("%d.", n)
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// evalText writes an evaluation for White: "+0.35", "-1.20", "#3" (White mates in
// three moves), "#-2" (Black mates in two), "#0" (mate on the board).
func evalText(s engine.Score) string {
	if !s.IsMate() {
		return s.String()
	}
	plies := int(engine.MateScore) - int(max(s, -s))
	moves := (plies + 1) / 2
	if s < 0 {
		moves = -moves
	}
	return fmt.Sprintf("#%d", moves)
}

// evalPoints are the graph's points: the start, then the position after each move.
func evalPoints(a *engineplay.Analysis) []render.EvalPoint {
	pts := make([]render.EvalPoint, 0, len(a.Notes)+1)
	point := func(s engine.Score) render.EvalPoint {
		return render.EvalPoint{Pawns: float64(s) / 100, Mate: s.IsMate()}
	}
	if len(a.Notes) > 0 {
		pts = append(pts, point(a.Notes[0].Before))
	}
	for _, n := range a.Notes {
		p := point(n.After)
		p.Mark = reviewClass[n.Judgement].mark
		pts = append(pts, p)
	}
	return pts
}

// analysisTable is the full per-move table, as text.
func analysisTable(g *games.Game, a *engineplay.Analysis) string {
	start := g.Chess().Start()
	var b strings.Builder
	fmt.Fprintf(&b, "Game %d: %s (White) vs %s (Black), %s\n", g.ID, g.White.Name, g.Black.Name, resultText(g.Outcome))
	if o, ok := gameOpening(g); ok {
		fmt.Fprintf(&b, "Opening: %s\n", o)
	}
	for _, c := range []chesscore.Color{chesscore.White, chesscore.Black} {
		s := a.Summary(c)
		fmt.Fprintf(&b, "%s: accuracy %s, %s, average loss %.1f%%\n", colorName(c), accuracyText(s), summaryText(s), s.AverageLoss)
	}
	fmt.Fprintf(&b, "Analysed by %s. Evaluations are for White; \"loss\" is the drop in the mover's expected points, \"acc\" the move's accuracy.\n\n", a.Engine)
	fmt.Fprintf(&b, "%-8s %-9s %8s %8s  %-9s %6s %5s  %s\n", "Move", "Played", "Before", "After", "Best", "Loss", "Acc", "Class")
	for _, n := range a.Notes {
		best := n.BestSAN
		if n.Move == n.Best {
			best = "="
		}
		fmt.Fprintf(&b, "%-8s %-9s %8s %8s  %-9s %5.1f%% %5.1f  %s\n", moveLabel(start, n.Ply), n.SAN+n.Judgement.Symbol(), evalText(n.Before), evalText(n.After), best, 100*n.Drop, n.Accuracy(), n.Judgement)
	}
	return b.String()
}

// annotatedPGN is the game in PGN with the analysis: a [%eval] comment after every move
// (White's view, as chess programs read it), the judgement as a NAG and the better move.
func annotatedPGN(g *games.Game, a *engineplay.Analysis) string {
	plain := ExportPGN(g)
	pg, err := chesscore.ReadPGN(strings.NewReader(plain), dead.Decider{})
	if err != nil || len(pg) != 1 || len(pg[0].Moves) != len(a.Notes) {
		return plain // the plain game rather than nothing
	}
	p := pg[0]
	p.Tags["Annotator"] = a.Engine
	for i, n := range a.Notes {
		m := &p.Moves[i]
		comment := "[%eval " + strings.TrimPrefix(evalText(n.After), "+") + "]"
		if n.Judgement.Flawed() {
			m.NAGs = append(m.NAGs, n.Judgement.NAG())
			comment += " " + sentence(n.Judgement.String())
			if n.BestSAN != "" {
				comment += " Better was " + n.BestSAN + "."
			}
		}
		m.Comment = strings.TrimSpace(comment + " " + m.Comment)
	}
	var b strings.Builder
	if err := chesscore.WritePGN(&b, p); err != nil {
		return plain
	}
	return b.String()
}
