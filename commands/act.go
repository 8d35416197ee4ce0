package commands

import (
	"context"
	"fmt"

	"github.com/gambitchess/gambit/service/games"
)

// act.go: the common path of a request on a game made by one of its players.

// gameRequest describes one request: the posts it reserves, how it calls the service, and
// how its answer looks.
type gameRequest struct {
	game *games.Game
	// ply is the ply the player saw (the component's, or the game's when typed).
	ply int
	// posts are the events (at the ply after the request) the answer stands for.
	posts []string
	// delta is the change of ply the request makes (+1 for a move, -n for a takeback).
	delta int
	call  func(ctx context.Context, a games.Action) (*games.Result, error)
	// answer builds the message about the result.
	answer func(ctx context.Context, res *games.Result) (*Response, error)
	// done names what happened, for an answer given outside the game's place.
	done string
}

// act runs a request: checks that the asker may see the game (the one visibility
// check: a hidden game is answered as a missing one), reserves the posts its answer
// stands for when the answer is given in the game's place and the asker is a player,
// calls the service, and answers (privately, pointing at the game's place, when given
// elsewhere).
func (d *Deps) act(ctx context.Context, r *Request, q gameRequest) (*Response, error) {
	g := q.game
	if !CanSee(&g.Game, r) {
		// Word for word what a button naming a game that does not exist is told (the
		// Abort button loads its game without the check: here it is made).
		return nil, gameError(fmt.Errorf("game %d of another server: %w", g.ID, games.ErrNoSuchGame))
	}
	r.Log = r.Log.With("game", g.ID)
	inPlace := Place(&g.Game) == r.ChannelID
	release := func() {}
	// Only a player's request reserves: a spectator's is refused by the service, and
	// must not stand for a post meanwhile.
	if _, player := g.ColorOf(r.User.ID); inPlace && player && len(q.posts) > 0 {
		ps := make([]Post, len(q.posts))
		for i, e := range q.posts {
			ps[i] = GamePost(g.ID, q.ply+q.delta, e)
		}
		release = d.Ledger.Reserve(ps...)
	}
	res, err := q.call(ctx, games.Action{RequestID: r.Interaction.ID, GameID: g.ID, UserID: r.User.ID, Expect: games.AtPly(q.ply)})
	if err != nil {
		release()
		if resp, err := d.guestOver(ctx, r, g, err); resp != nil {
			return resp, nil // the end of a guest game, shown where nothing showed it
		} else {
			return nil, gameError(err)
		}
	}
	if res.Replayed || res.Game == nil {
		release()
		return Private("Already done (%s).", res.Effect), nil
	}
	resp, err := q.answer(ctx, res)
	if err != nil {
		return nil, err
	}
	if !inPlace {
		resp.Content = fmt.Sprintf("%s in game %d; the game's messages are in <#%s>.\n\n%s", q.done, g.ID, Place(&res.Game.Game), resp.Content)
		resp.Ephemeral, resp.Mentions, resp.Components = true, nil, nil
	}
	return resp, nil
}

// overAnswer answers with the game-over message.
func (d *Deps) overAnswer(note string) func(ctx context.Context, res *games.Result) (*Response, error) {
	return func(ctx context.Context, res *games.Result) (*Response, error) {
		return d.GameOverMessage(ctx, res.Game, note)
	}
}

// componentGame loads the game of a component for a player (any colour).
func (d *Deps) componentGame(ctx context.Context, r *Request) (*games.Game, error) {
	g, err := d.visibleGame(ctx, r, r.ID.ID)
	if err != nil {
		return nil, err
	}
	if _, ok := g.ColorOf(r.User.ID); !ok {
		return nil, gameError(games.ErrNotAPlayer)
	}
	return g, nil
}
