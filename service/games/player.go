package games

import "github.com/gambitchess/gambit/storage"

// player.go: the players of a request, for callers that reach the games through this
// service alone (the web, which never imports the store).

// NewPlayer returns the player of a user: their id and the name they are shown by.
func NewPlayer(id, name string) storage.Player { return storage.Player{ID: id, Name: name} }
