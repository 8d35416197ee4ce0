package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// resolve.go: which game a command means. The `game` option names it (a game the asker
// may see: visibility.go); without it, the game whose thread (or channel) the command
// is typed in, else the user's only game in progress.

// gameOption is the optional `game` option most game commands take.
func gameOption() *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionInteger, Name: "game", MinValue: ptr(1.0),
		Description: "The game number (needed only when you play several games at once)", Autocomplete: true,
	}
}

func ptr[T any](v T) *T { return &v }

// Place is where a game lives on Discord: its thread, else its channel.
func Place(g *storage.Game) string {
	if g.ThreadID != "" {
		return g.ThreadID
	}
	return g.ChannelID
}

// findGame returns the game a request means: the one named (if the asker may see it),
// else the game of the thread the request is typed in, else among the asker's own
// games the one of this channel or the only live one. mine says the command acts on the
// user's own game: without a game number and outside a game's thread it then looks for
// the user's only live game; otherwise (watching) the caller must name one. An
// autocomplete request looks only at the user's own live games and at the threads
// already known: it never scans other people's games.
func (d *Deps) findGame(ctx context.Context, r *Request, id int64, mine bool) (*games.Game, error) {
	if id > 0 {
		return d.visibleGame(ctx, r, uint64(id))
	}
	if g := d.threadGame(ctx, r); g != nil {
		return g, nil
	}
	q := storage.Query{Limit: 50}
	if r.IsAutocomplete() {
		q = storage.Query{LiveOnly: true, Limit: maxOwnLive}
	}
	list, err := d.Games.GamesByUser(ctx, r.User.ID, q)
	if err != nil {
		return nil, fmt.Errorf("list games of %s: %w", r.User.ID, err)
	}
	// The game of this thread (or channel, for a game without one), live first.
	var here, live []*storage.Game
	for _, g := range list {
		if Place(g) == r.ChannelID {
			here = append(here, g)
		}
		if g.Live() {
			live = append(live, g)
		}
	}
	pick := func(gs []*storage.Game) *storage.Game {
		for _, g := range gs {
			if g.Live() {
				return g
			}
		}
		if len(gs) > 0 {
			return gs[0]
		}
		return nil
	}
	if g := pick(here); g != nil && (g.ThreadID == r.ChannelID || countLive(here) <= 1) {
		if g.ThreadID == r.ChannelID {
			d.threads.Store(g.ThreadID, g.ID)
		}
		return d.load(ctx, g.ID)
	}
	switch len(live) {
	case 0:
		if mine {
			return nil, Errorf("You have no game in progress. Start one with /challenge.")
		}
		return nil, Errorf("Which game? Add game:<number> (/games lists them).")
	case 1:
		return d.load(ctx, live[0].ID)
	}
	ids := make([]string, 0, len(live))
	for _, g := range live {
		ids = append(ids, fmt.Sprint(g.ID))
	}
	return nil, Errorf("You are playing %d games (%s): add game:<number>, or use the command in the game's thread.", len(live), strings.Join(ids, ", "))
}

// maxOwnLive bounds the live games of the user an autocomplete request reads.
const maxOwnLive = 26

// threadGame returns the game whose thread the request is made in, or nil. The threads
// are known from when they were opened; after a restart the threads of the live games
// are learnt once, by the first command (never an autocomplete) that needs one. A
// game's thread is in the game's server, so the game is one the asker may see; the
// check is made all the same.
func (d *Deps) threadGame(ctx context.Context, r *Request) *games.Game {
	if r.GuildID == "" || r.ChannelID == "" {
		return nil // a direct message is no game's thread
	}
	v, ok := d.threads.Load(r.ChannelID)
	if !ok && !r.IsAutocomplete() {
		d.learnThreads(ctx)
		v, ok = d.threads.Load(r.ChannelID)
	}
	if !ok {
		return nil
	}
	g, err := d.Games.Game(ctx, v.(uint64))
	if err != nil || g.ThreadID != r.ChannelID || !CanSee(&g.Game, r) {
		return nil
	}
	return g
}

// learnThreads records the threads of the live games, once per process (until it
// succeeds): the threads opened later are recorded as they are opened.
func (d *Deps) learnThreads(ctx context.Context) {
	d.threadsMu.Lock()
	defer d.threadsMu.Unlock()
	if d.threadsLearnt {
		return
	}
	open, err := d.Games.OpenGames(ctx)
	if err != nil {
		return
	}
	for _, g := range open {
		if g.ThreadID != "" {
			d.threads.LoadOrStore(g.ThreadID, g.ID)
		}
	}
	d.threadsLearnt = true
}

func countLive(gs []*storage.Game) int {
	n := 0
	for _, g := range gs {
		if g.Live() {
			n++
		}
	}
	return n
}

func (d *Deps) load(ctx context.Context, id uint64) (*games.Game, error) {
	g, err := d.Games.Game(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load game %d: %w", id, err)
	}
	return g, nil
}

// gameChoices completes the `game` option with the user's games in progress.
func (d *Deps) gameChoices(ctx context.Context, r *Request) ([]*discordgo.ApplicationCommandOptionChoice, error) {
	list, err := d.Games.GamesByUser(ctx, r.User.ID, storage.Query{LiveOnly: true, Limit: 25})
	if err != nil {
		return nil, err
	}
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(list))
	for _, g := range list {
		opp := g.Black
		if g.Black.ID == r.User.ID {
			opp = g.White
		}
		name := Truncate(fmt.Sprintf("Game %d vs %s (%s)", g.ID, opp.Name, g.Control), maxChoiceName, UTF16)
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: g.ID})
	}
	return out, nil
}

// storagePlayer is the user as the service records players.
func storagePlayer(u *discordgo.User) storage.Player {
	name := u.GlobalName
	if name == "" {
		name = u.Username
	}
	return storage.Player{ID: u.ID, Name: Truncate(name, storage.MaxNameLen, Bytes)}
}

// threadParent returns the channel of the game whose thread the request was made in, or
// "" when it was not made in a game's thread.
func (d *Deps) threadParent(ctx context.Context, r *Request) string {
	if g := d.threadGame(ctx, r); g != nil {
		return g.ChannelID
	}
	if r.GuildID == "" {
		return ""
	}
	mine, err := d.Games.GamesByUser(ctx, r.User.ID, storage.Query{Limit: 50})
	if err != nil {
		return ""
	}
	for _, g := range mine {
		if g.ThreadID != "" && g.ThreadID == r.ChannelID {
			d.threads.Store(g.ThreadID, g.ID)
			return g.ChannelID
		}
	}
	return ""
}
