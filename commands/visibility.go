package commands

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitchess/gambit/service/games"
	"github.com/gambitchess/gambit/storage"
)

// visibility.go: who may see a game. Gambit serves many servers whose members do not
// know each other, so a game is seen in the server it was played in, and by its two
// players wherever they ask (another server, a direct message). Everyone else gets
// exactly the answer given for a game that does not exist. Every lookup of a game by
// number (a typed game option, a button's custom ID) goes through visibleGame; a
// challenge's buttons answer only in the server the challenge was made in.
//
// Game numbers stay one global sequence, the same number everywhere (in messages,
// threads, custom IDs, PGN files, /games in a direct message). Numbering games per
// server was considered and not done: once hidden games answer as missing ones, a
// number tells an outsider only roughly how many games the bot has hosted in all,
// nothing about any server or player; and a player sees games of several servers side
// by side in a direct message, where "game 12" would need the server to say which.

// CanSee reports whether the asker of r may see g: g was played in the server r comes
// from, or the asker plays in it, or g is a guest game of the group DM r comes from.
func CanSee(g *storage.Game, r *Request) bool {
	if g.GuildID != "" && g.GuildID == r.GuildID {
		return true
	}
	if g.Guest && r.Guest && r.Interaction != nil && r.Interaction.Context == discordgo.InteractionContextPrivateChannel && g.ChannelID == r.ChannelID {
		return true // the members of the group DM the game is played in
	}
	if r.User == nil || r.User.ID == "" {
		return false
	}
	_, player := g.ColorOf(r.User.ID)
	return player
}

// noSuchGame is the answer about a game that does not exist, and about one the asker
// may not see: one sentence, so that the two cannot be told apart.
func noSuchGame(id uint64, cause error) error {
	return Explain(cause, fmt.Sprintf("There is no game %d. /games lists yours.", id))
}

// visibleGame loads game id for the asker of r: the game, or noSuchGame when it does
// not exist or the asker may not see it.
func (d *Deps) visibleGame(ctx context.Context, r *Request, id uint64) (*games.Game, error) {
	g, err := d.Games.Game(ctx, id)
	switch {
	case errors.Is(err, games.ErrNoSuchGame) || errors.Is(err, storage.ErrNotFound):
		return nil, noSuchGame(id, err)
	case err != nil:
		return nil, fmt.Errorf("load game %d: %w", id, err)
	case !CanSee(&g.Game, r):
		return nil, noSuchGame(id, fmt.Errorf("game %d of another server: %w", id, games.ErrNoSuchGame))
	}
	return g, nil
}

// inChallengeGuild guards a challenge button: the challenge its custom ID names must
// have been made in the server the click comes from (a guest challenge: in the channel,
// where the bot is not a member, the click comes from). A crafted custom ID naming
// another server's challenge is answered as a challenge that does not exist.
func (d *Deps) inChallengeGuild(h Handler) Handler {
	return func(ctx context.Context, r *Request) (*Response, error) {
		c, err := d.Games.Challenge(ctx, r.ID.ID)
		if err != nil {
			return nil, gameError(err)
		}
		if c.GuildID != r.GuildID || c.Guest != r.Guest || (c.Guest && c.ChannelID != r.ChannelID) {
			return nil, gameError(fmt.Errorf("challenge %d of another server or channel: %w", r.ID.ID, games.ErrNoSuchChallenge))
		}
		return h(ctx, r)
	}
}
