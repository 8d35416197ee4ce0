// votegames.go: vote chess, a team of a server's members playing a game against the
// engine with each move chosen by their votes (schema version 10, bucket and table
// vote_games).
//
// The record sits beside the game record (storage.Game, the same game id), written in
// the transaction that creates the game, so a vote game never exists without it. It
// holds the team (its members), the vote of the team's current move and its ballots.
// A vote game is written only from its stored version (Version, else ErrConflict), so
// of two writes made from one read (two ballots, or a ballot and the vote's close, in
// this process or another) exactly one lands and the other reads again.

package storage

import (
	"fmt"
	"slices"
	"time"

	"github.com/gambitchess/gambit/chesscore"
)

// Limits of a vote game record.
const (
	// MaxTeamMembers bounds a team: every member's ballot sits in the record.
	MaxTeamMembers = 500
	// MaxVoteWindow bounds how long one vote stays open.
	MaxVoteWindow = 14 * 24 * time.Hour
)

// VoteGame is a game a server's team plays by vote (against the engine).
type VoteGame struct {
	// GameID is the game (the record's key).
	GameID uint64 `json:"-"`
	// Version counts the record's writes: a write must carry the stored version.
	Version uint64 `json:"version"`
	// GuildID and ChannelID are where the game was started; the ballots are posted in
	// the channel.
	GuildID   string `json:"guild"`
	ChannelID string `json:"channel"`
	// TeamID is the player id the team plays under in the game record: no person's,
	// so nobody can move for the team except through the vote.
	TeamID string `json:"team"`
	// Color is the team's side.
	Color chesscore.Color `json:"color"`
	// Window is how long a vote stays open: the team's clock for each move.
	Window time.Duration `json:"window"`
	// Members are the user ids of the team, sorted.
	Members []string `json:"members,omitempty"`
	// Round is the vote of the team's current (or last) move.
	Round VoteRound `json:"round"`
	// Empty counts the votes in a row that closed without a ballot.
	Empty int `json:"empty,omitempty"`
	// Over is set once the game has ended: nothing more is voted.
	Over bool `json:"over,omitempty"`
	// Created is when the vote game was started.
	Created time.Time `json:"created"`
}

// VoteRound is the vote on one move of the team.
type VoteRound struct {
	// Ply is the game's ply the move is voted for (the number of half-moves played
	// before it).
	Ply int `json:"ply"`
	// Open is true while ballots are taken.
	Open bool `json:"open,omitempty"`
	// Opened and Closes bound the vote; Closes moves on when a vote closes empty.
	Opened time.Time `json:"opened"`
	Closes time.Time `json:"closes"`
	// Ballots are the members' votes, one per member (sorted by user id).
	Ballots []Ballot `json:"ballots,omitempty"`
	// Chosen is the move the vote chose (UCI), set when it closed with a ballot; the
	// game record says whether it has been played (its ply is then past Ply).
	Chosen string `json:"chosen,omitempty"`
	// Posted is set once the ballot post of the vote has been made.
	Posted bool `json:"posted,omitempty"`
}

// Ballot is one member's vote.
type Ballot struct {
	UserID string `json:"user"`
	// Move is the move voted for, in UCI.
	Move string `json:"move"`
	// At is when the member last cast or changed the vote.
	At time.Time `json:"at"`
}

// IsMember reports whether user is in the team.
func (v *VoteGame) IsMember(user string) bool {
	_, ok := slices.BinarySearch(v.Members, user)
	return ok
}

// Validate checks what a store may keep.
func (v *VoteGame) Validate() error {
	switch {
	case v.Color != chesscore.White && v.Color != chesscore.Black:
		return fmt.Errorf("vote game %d: colour %d is neither white nor black", v.GameID, v.Color)
	case v.TeamID == "" || len(v.TeamID) > MaxIDLen:
		return fmt.Errorf("vote game %d: team id %q: want 1 to %d bytes", v.GameID, v.TeamID, MaxIDLen)
	case len(v.GuildID) > MaxIDLen || len(v.ChannelID) > MaxIDLen:
		return fmt.Errorf("vote game %d: an id is longer than %d bytes", v.GameID, MaxIDLen)
	case v.Window <= 0 || v.Window > MaxVoteWindow:
		return fmt.Errorf("vote game %d: window %v: want more than 0 and at most %v", v.GameID, v.Window, MaxVoteWindow)
	case len(v.Members) > MaxTeamMembers:
		return fmt.Errorf("vote game %d: %d members (at most %d)", v.GameID, len(v.Members), MaxTeamMembers)
	case !slices.IsSorted(v.Members) || len(slices.Compact(slices.Clone(v.Members))) != len(v.Members):
		return fmt.Errorf("vote game %d: members are not sorted and distinct", v.GameID)
	case v.Round.Ply < 0:
		return fmt.Errorf("vote game %d: ply %d", v.GameID, v.Round.Ply)
	case len(v.Round.Ballots) > len(v.Members):
		return fmt.Errorf("vote game %d: %d ballots from %d members", v.GameID, len(v.Round.Ballots), len(v.Members))
	}
	for i, b := range v.Round.Ballots {
		if i > 0 && v.Round.Ballots[i-1].UserID >= b.UserID {
			return fmt.Errorf("vote game %d: ballots are not sorted and one per member", v.GameID)
		}
		if !v.IsMember(b.UserID) {
			return fmt.Errorf("vote game %d: a ballot of %q, who is not in the team", v.GameID, b.UserID)
		}
		if len(b.Move) < 4 || len(b.Move) > 5 {
			return fmt.Errorf("vote game %d: ballot move %q is not UCI", v.GameID, b.Move)
		}
	}
	for _, m := range v.Members {
		if m == "" || len(m) > MaxIDLen {
			return fmt.Errorf("vote game %d: member id %q: want 1 to %d bytes", v.GameID, m, MaxIDLen)
		}
	}
	return nil
}

// Clone returns a deep copy: the services change copies, never what they read.
func (v *VoteGame) Clone() *VoteGame {
	c := *v
	c.Members = slices.Clone(v.Members)
	c.Round.Ballots = slices.Clone(v.Round.Ballots)
	return &c
}

// NextVoteVersion is the rule of PutVoteGame over the stored record (nil when there
// is none): it returns the record to write, a copy of v with the version it is stored
// at. A stored record is replaced only from its version (ErrConflict otherwise), and
// the copy carries the next one; a record not stored yet keeps a version it has (a
// copy from another store) or starts at 1. v itself is left as it is, so a
// transaction run again (a retried commit) checks the same version again.
func NextVoteVersion(stored, v *VoteGame) (*VoteGame, error) {
	w := v.Clone()
	switch {
	case stored == nil && w.Version == 0:
		w.Version = 1
	case stored == nil:
	case stored.Version != v.Version:
		return nil, fmt.Errorf("vote game %d: version %d, stored %d: %w", v.GameID, v.Version, stored.Version, ErrConflict)
	default:
		w.Version++
	}
	return w, nil
}
