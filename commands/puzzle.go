package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/chesscore"
	"github.com/gambitchess/gambit/puzzle"
	"github.com/gambitchess/gambit/render"
	"github.com/gambitchess/gambit/service/puzzles"
	"github.com/gambitchess/gambit/storage"
)

// /puzzle today | random [rating] | solve <move> [puzzle] | hint [puzzle] | stats [user] |
// leaderboard: the server's puzzle of the day and random puzzles, solved one move at a
// time. Every answer about a puzzle is ephemeral, so nobody's answer spoils it for
// others; the bot plays the opponent's replies. The daily post itself (PostDaily) and
// the leaderboard are public. Administrators set the daily post up with
// /settings puzzle (settings_puzzle.go).

func init() {
	register(registration{
		name:    "puzzle",
		build:   func(d *Deps) Command { return NewPuzzle(d) },
		topic:   helpTopic{group: groupPuzzles, order: 10, example: "/puzzle solve move:Qxf7+"},
		options: []optionUse{{[]string{"*"}, puzzleOptions{}}},
	})
}

var _ Command = (*PuzzleCommand)(nil)
var _ Autocompleter = (*PuzzleCommand)(nil)
var _ PrivateAnswerer = (*PuzzleCommand)(nil)
var _ puzzles.Poster = (*Deps)(nil)

// PuzzleCommand is /puzzle.
type PuzzleCommand struct{ d *Deps }

// NewPuzzle returns /puzzle.
func NewPuzzle(d *Deps) *PuzzleCommand { return &PuzzleCommand{d} }

type puzzleOptions struct {
	Rating int64           `option:"rating"`
	Move   string          `option:"move"`
	Puzzle string          `option:"puzzle"`
	User   *discordgo.User `option:"user"`
}

// Definition implements Command.
func (c *PuzzleCommand) Definition() *discordgo.ApplicationCommand {
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	puzzleID := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "puzzle",
		Description: "A puzzle id (default: the one you are solving)", MaxLength: storage.MaxPuzzleIDLen}
	minRating, maxRating := 400.0, 3200.0
	return &discordgo.ApplicationCommand{
		Name:             "puzzle",
		Description:      "Chess puzzles: the puzzle of the day, random ones, your puzzle rating",
		Contexts:         contexts(serversOnly),
		IntegrationTypes: installs(guildInstall),
		Options: []*discordgo.ApplicationCommandOption{
			sub("today", "Show today's puzzle of the server"),
			sub("random", "A random puzzle near your puzzle rating, or near the rating you give",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "rating",
					Description: "The puzzle rating wanted", MinValue: &minRating, MaxValue: maxRating}),
			sub("solve", "Play your move in the puzzle you are solving (only you see the answer)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "move",
					Description: "Your move, e.g. Qxf7+ (the list shows the legal ones)", Required: true, Autocomplete: true, MaxLength: 20},
				puzzleID),
			sub("hint", "Show which piece to move (counts as a miss on a first try)", puzzleID),
			sub("stats", "Puzzle rating, puzzles solved and daily streak",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose (default: yours)"}),
			sub("leaderboard", "The server's best puzzle ratings"),
		},
	}
}

// Handle implements Command.
func (c *PuzzleCommand) Handle(ctx context.Context, r *Request) (*Response, error) {
	if c.d.Puzzles == nil {
		return nil, Errorf("Puzzles are not available on this bot.")
	}
	if r.GuildID == "" {
		return nil, Errorf("Puzzles belong to a server: use /puzzle in one.")
	}
	var o puzzleOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, err
	}
	name := displayName(r)
	switch r.Sub {
	case "today":
		pr, err := c.d.Puzzles.Today(ctx, r.GuildID, r.User.ID, name)
		if err != nil {
			return nil, puzzleError(err)
		}
		resp, err := c.d.puzzleView(ctx, r.GuildID, pr)
		// The answer is ephemeral: its link is the member's own, signing them in so
		// that their moves on the board count for their streak and puzzle rating.
		if wp := c.d.webPages(ctx, r.GuildID); wp != nil && err == nil {
			resp = withWebLink(resp, "Solve on the web", wp.PuzzleSignInURL(r.GuildID, r.User.ID))
		}
		return resp, err
	case "random":
		if o.Rating != 0 && (o.Rating < 400 || o.Rating > 3200) {
			return nil, Errorf("Give a rating from 400 to 3200.")
		}
		pr, err := c.d.Puzzles.Random(ctx, r.GuildID, r.User.ID, name, int(o.Rating))
		if err != nil {
			return nil, puzzleError(err)
		}
		return c.d.puzzleView(ctx, r.GuildID, pr)
	case "solve":
		return c.solve(ctx, r, o, name)
	case "hint":
		h, err := c.d.Puzzles.Hint(ctx, r.GuildID, r.User.ID, name, strings.TrimSpace(o.Puzzle))
		if err != nil {
			return nil, puzzleError(err)
		}
		note := fmt.Sprintf("💡 Move the piece on **%s**.", h.From)
		if h.Rated {
			note += " " + ratingNote("Hints count as a miss on a first try", h.RatingBefore, h.RatingAfter)
		}
		return c.d.puzzleBoard(ctx, r.GuildID, h.Progress, note, render.Mark{Square: h.From, Shape: render.Ring, Color: render.Yellow})
	case "stats":
		u := r.User
		if o.User != nil {
			u = o.User
		}
		st, err := c.d.Puzzles.Stats(ctx, r.GuildID, u.ID)
		if err != nil {
			return nil, puzzleError(err)
		}
		return Private("%s", describePuzzleStats(st, u.ID, u.ID == r.User.ID)), nil
	case "leaderboard":
		lb, err := c.d.Puzzles.Leaderboard(ctx, r.GuildID, 10)
		if err != nil {
			return nil, puzzleError(err)
		}
		return &Response{Content: describePuzzleLeaderboard(lb)}, nil
	}
	return nil, fmt.Errorf("/puzzle: unknown subcommand %q", r.Sub)
}

// AnswersPrivately implements PrivateAnswerer: every answer but the leaderboard is the
// member's own (a solving attempt must not spoil the puzzle for others).
func (c *PuzzleCommand) AnswersPrivately(r *Request) bool { return r.Sub != "leaderboard" }

// displayName is the name the member goes by in the server.
func displayName(r *Request) string {
	if i := r.Interaction; i != nil && i.Member != nil && i.Member.Nick != "" {
		return i.Member.Nick
	}
	if r.User.GlobalName != "" {
		return r.User.GlobalName
	}
	return r.User.Username
}

// puzzleError turns the service's errors into what the member reads.
func puzzleError(err error) error {
	switch {
	case errors.Is(err, puzzles.ErrBadMove):
		msg := err.Error()
		if _, after, ok := strings.Cut(msg, ": "); ok {
			msg = after
		}
		return Explain(err, "That move cannot be played here: "+sentence(msg)+" Pick one from the list.")
	case errors.Is(err, puzzles.ErrNoSuchPuzzle):
		return Explain(err, "There is no such puzzle here.")
	case errors.Is(err, puzzles.ErrNoPuzzles):
		return Explain(err, "There are no puzzles yet: an administrator can import some with `gambit puzzles import`.")
	case errors.Is(err, puzzles.ErrNotInGuild):
		return Explain(err, "Puzzles belong to a server: use /puzzle in one.")
	case errors.Is(err, puzzles.ErrClosed):
		return Explain(err, "Gambit is restarting; try again in a moment.")
	}
	return err
}

func (c *PuzzleCommand) solve(ctx context.Context, r *Request, o puzzleOptions, name string) (*Response, error) {
	move := strings.TrimSpace(o.Move)
	if move == "" {
		return nil, Errorf("Which move? Type it (e4, Nf3, Qxf7+) or pick it from the list.")
	}
	a, err := c.d.Puzzles.Solve(ctx, puzzles.SolveRequest{RequestID: r.Interaction.ID, Guild: r.GuildID, User: r.User.ID,
		Name: name, PuzzleID: strings.TrimSpace(o.Puzzle), Move: move})
	if err != nil {
		return nil, puzzleError(err)
	}
	var b strings.Builder
	if a.Replayed {
		b.WriteString("(Already answered.) ")
	}
	switch a.Verdict {
	case puzzle.Wrong:
		fmt.Fprintf(&b, "❌ **%s** is not the move.", EscapeMarkdown(a.Played))
		if a.Rated {
			b.WriteString(" " + ratingNote("That counts as a miss", a.RatingBefore, a.RatingAfter) + " You can keep trying, for practice.")
		} else {
			b.WriteString(" Try again (or `/puzzle hint`).")
		}
	case puzzle.Correct:
		fmt.Fprintf(&b, "✅ **%s** is right. The opponent answers **%s**. Your move.", EscapeMarkdown(a.Played), EscapeMarkdown(a.Reply))
	case puzzle.Solved:
		fmt.Fprintf(&b, "✅ **%s** — solved!", EscapeMarkdown(a.Played))
		if a.Rated {
			b.WriteString(" " + ratingNote("Puzzle rating", a.RatingBefore, a.RatingAfter))
		} else if a.Practice {
			b.WriteString(" (Practice: your first try already counted.)")
		}
		if a.Streak > 0 {
			fmt.Fprintf(&b, "\n🔥 Daily streak: %d.", a.Streak)
		}
		fmt.Fprintf(&b, "\nSolution: %s", a.Line.SolutionSAN())
	}
	return c.d.puzzleBoard(ctx, r.GuildID, a.Progress, b.String())
}

// ratingNote is e.g. "That counts as a miss: rating 1500 → 1431 (−69)."
func ratingNote(what string, before, after float64) string {
	b, a := int(math.Round(before)), int(math.Round(after))
	sign := "+"
	if a < b {
		sign = "−"
	}
	d := a - b
	if d < 0 {
		d = -d
	}
	return fmt.Sprintf("%s: rating %d → %d (%s%d).", what, b, a, sign, d)
}

// Autocomplete implements Autocompleter: the legal moves of the member's position in
// their current puzzle that fit what was typed.
func (c *PuzzleCommand) Autocomplete(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	if c.d.Puzzles == nil || r.Focused == nil || r.Focused.Name != "move" || r.GuildID == "" {
		return nil, nil
	}
	var o puzzleOptions
	if err := DecodeOptions(r, &o); err != nil {
		return nil, nil
	}
	pr, err := c.d.Puzzles.Current(ctx, r.GuildID, r.User.ID, strings.TrimSpace(o.Puzzle))
	if err != nil {
		return nil, nil
	}
	pos := pr.Position
	if pr.Done { // a new try starts from the first move
		pos, _ = pr.Line.PositionAt(0)
	}
	return MoveChoices(&pos, o.Move), nil
}

// puzzleHeadline is the first line about a puzzle.
func puzzleHeadline(pr *puzzles.Progress) string {
	var b strings.Builder
	if pr.Daily != "" {
		fmt.Fprintf(&b, "🧩 **Puzzle of the day** (%s)", pr.Daily)
	} else {
		b.WriteString("🧩 **Puzzle**")
	}
	fmt.Fprintf(&b, " · `%s` · rated %d", pr.Puzzle.ID, pr.Puzzle.Rating)
	return b.String()
}

// puzzleView answers /puzzle today and random: where the member stands.
func (d *Deps) puzzleView(ctx context.Context, guild string, pr *puzzles.Progress) (*Response, error) {
	var b strings.Builder
	switch {
	case pr.Done:
		b.WriteString("You have solved this one. ")
		b.WriteString("Solution: " + pr.Line.SolutionSAN() + ". `/puzzle solve` plays it again for practice.")
	case pr.Step() > 0:
		fmt.Fprintf(&b, "**%s to move** — move %d of %d. Answer with `/puzzle solve`.", colorName(pr.Line.Solver), pr.Step()+1, pr.Line.Steps())
	default:
		fmt.Fprintf(&b, "**%s to move**: find the best move. Answer with `/puzzle solve` (only you see your answers; `/puzzle hint` if you are stuck).", colorName(pr.Line.Solver))
	}
	if pr.Attempt.Result != storage.AttemptOpen && !pr.Done {
		b.WriteString(" Your first try already counted: this is practice.")
	}
	if from := puzzleOrigin(pr.Puzzle, d.now()); from != "" {
		b.WriteString("\n" + from)
	}
	return d.puzzleBoard(ctx, guild, pr, b.String())
}

// puzzleBoard is an ephemeral answer: the headline, the text and the member's board.
func (d *Deps) puzzleBoard(ctx context.Context, guild string, pr *puzzles.Progress, text string, marks ...render.Mark) (*Response, error) {
	png, err := PuzzlePNG(pr.Position, pr.LastMove, pr.Line.Solver, d.settings(ctx, guild).BoardTheme, marks...)
	if err != nil {
		return nil, err
	}
	content := puzzleHeadline(pr) + "\n" + text
	return &Response{Content: content, Ephemeral: true, Files: []File{{Name: "puzzle.png", ContentType: "image/png", Data: png}}}, nil
}

// PuzzlePNG draws a puzzle position from the solver's side, the last move highlighted.
func PuzzlePNG(pos chesscore.Position, last chesscore.Move, solver chesscore.Color, theme string, marks ...render.Mark) ([]byte, error) {
	opt := render.BoardOptions{Theme: knownTheme(theme), Flip: solver == chesscore.Black, Coordinates: true, Size: 400,
		LastMove: last, Marks: marks}
	var buf bytes.Buffer
	if err := render.PNG(&buf, &pos, opt); err != nil {
		return nil, fmt.Errorf("draw puzzle: %w", err)
	}
	return buf.Bytes(), nil
}

// PostDaily implements puzzles.Poster: the day's puzzle in the server's channel, with
// the previous day's solution and solvers, through the outbox. Nobody is pinged.
func (d *Deps) PostDaily(ctx context.Context, post *puzzles.DailyPost) (string, error) {
	if d.Outbox == nil {
		return "", errors.New("post the daily puzzle: no outbox")
	}
	m, err := DailyMessage(post, d.settings(ctx, post.Day.GuildID).BoardTheme)
	if err != nil {
		return "", err
	}
	return d.Outbox.Post(ctx, post.Settings.Channel, m)
}

// DailyMessage is the post of a day's puzzle.
func DailyMessage(post *puzzles.DailyPost, theme string) (*Response, error) {
	l := post.Line
	var b strings.Builder
	fmt.Fprintf(&b, "🧩 **Puzzle of the day** · %s\n", longDate(post.Day.Date))
	fmt.Fprintf(&b, "**%s to move** and find the best line. Puzzle `%s`, rated %d.", colorName(l.Solver), post.Puzzle.ID, post.Puzzle.Rating)
	if from := puzzleOrigin(post.Puzzle, post.Now); from != "" {
		b.WriteString("\n" + from)
	}
	b.WriteString("\nSolve it with `/puzzle solve` — your answers are only shown to you. Stuck? `/puzzle hint`.")
	if prev := post.Previous; prev != nil {
		fmt.Fprintf(&b, "\n\n**Yesterday's solution** (`%s`): ||%s||", prev.Puzzle.ID, prev.Line.SolutionSAN())
		b.WriteString("\n" + describeSolvers(prev.Day.Solvers))
	}
	png, err := PuzzlePNG(l.Shown, l.Moves[0], l.Solver, theme)
	if err != nil {
		return nil, err
	}
	return &Response{Content: b.String(), Files: []File{{Name: "puzzle.png", ContentType: "image/png", Data: png}}}, nil
}

// puzzleOrigin is where a puzzle mined from a server's game comes from, e.g.
// "From <@1> vs <@2>, last week." ("" for a puzzle from elsewhere). The mentions show
// the players' names without pinging them: puzzle answers and posts allow no mentions.
func puzzleOrigin(p *puzzle.Puzzle, now time.Time) string {
	if p.White == "" || p.Black == "" {
		return ""
	}
	s := "From " + Mention(p.White) + " vs " + Mention(p.Black)
	if ago := agoWords(p.Played, now); ago != "" {
		s += ", " + ago
	}
	return s + "."
}

// agoWords says how long ago then was: "today", "yesterday", "this week", "last week",
// "3 weeks ago", "last month", "in March 2025" ("" for a zero then).
func agoWords(then, now time.Time) string {
	d := now.Sub(then)
	days := int(d.Hours() / 24)
	switch {
	case then.IsZero():
		return ""
	case d < 0 || days == 0:
		return "today"
	case days == 1:
		return "yesterday"
	case days < 7:
		return "this week"
	case days < 14:
		return "last week"
	case days < 31:
		return fmt.Sprintf("%d weeks ago", days/7)
	case days < 62:
		return "last month"
	}
	return "in " + then.Format("January 2006")
}

// longDate is e.g. "Sunday 1 March 2026".
func longDate(date string) string {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return date
	}
	return t.Format("Monday 2 January 2006")
}

// maxNamedSolvers bounds the solvers named in a post.
const maxNamedSolvers = 15

// describeSolvers is e.g. "Solved by alice, bob and 3 others (2 at the first try)."
func describeSolvers(sv []storage.DailySolver) string {
	if len(sv) == 0 {
		return "Nobody solved it."
	}
	clean := 0
	names := make([]string, 0, min(len(sv), maxNamedSolvers))
	for i, s := range sv {
		if s.Clean {
			clean++
		}
		if i < maxNamedSolvers {
			n := s.Name
			if n == "" {
				n = "a member"
			}
			names = append(names, EscapeMarkdown(n))
		}
	}
	list := strings.Join(names, ", ")
	if rest := len(sv) - len(names); rest > 0 {
		list += fmt.Sprintf(" and %d more", rest)
	} else if len(names) > 1 {
		list = strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return fmt.Sprintf("Solved by %s (%d at the first try).", list, clean)
}

// describePuzzleStats is a member's puzzle record.
func describePuzzleStats(st *puzzles.Stats, userID string, self bool) string {
	var b strings.Builder
	if self {
		b.WriteString("**Your puzzles**")
	} else {
		fmt.Fprintf(&b, "**Puzzles of %s**", Mention(userID))
	}
	if st.Rated == 0 {
		b.WriteString("\nNo rated puzzle yet: try `/puzzle today`.")
		return b.String()
	}
	fmt.Fprintf(&b, "\n• Puzzle rating: **%d** (± %d)", int(math.Round(st.Rating)), int(math.Round(2*st.RD)))
	fmt.Fprintf(&b, "\n• Solved at the first try: %d of %d", st.Solved, st.Rated)
	fmt.Fprintf(&b, "\n• Daily streak: %d (best %d)", st.Streak, st.Best)
	if st.Rank > 0 {
		fmt.Fprintf(&b, "\n• Rank on this server: %d of %d", st.Rank, st.Of)
	}
	return b.String()
}

// describePuzzleLeaderboard is the server's top puzzle ratings.
func describePuzzleLeaderboard(lb []storage.PuzzlePlayer) string {
	if len(lb) == 0 {
		return "Nobody has a puzzle rating on this server yet: `/puzzle today` starts one."
	}
	var b strings.Builder
	b.WriteString("🏆 **Puzzle leaderboard**")
	for i, p := range lb {
		name := p.Name
		if name == "" {
			name = "a member"
		}
		fmt.Fprintf(&b, "\n%d. %s — **%d** · %d solved · streak %d", i+1, EscapeMarkdown(name), int(math.Round(p.Rating)), p.Solved, p.Streak)
	}
	return b.String()
}
