// Package tournaments runs chess events on a server: Swiss (FIDE Dutch), round robin
// (Berger, single or double), arena (fixed duration, re-paired as soon as a player is
// free) and knockout (matches with a rapid, blitz and Armageddon tie-break ladder). It is
// Discord-free: it starts games through the game service and emits RoundStarted and
// Finished to a Notifier that the bot posts.
//
// # Durability
//
// An event is one record in the store (storage.Tournament) whose state is the JSON of
// State: entrants, rounds and their boards with game ids and results, the knockout
// brackets, the arena's log of calls to the arena model (replayed to rebuild it). A
// game's result is written by OnFinish, the games service's hook, in the transaction that
// ends the game, so a game's end and its tournament result commit together. Everything
// else is done by Advance, which is idempotent: it records the results of games that
// ended before their board knew their id, pairs the next round when the last is
// complete (or the next knockout game, or the arena's waiting players), starts the
// games with request ids derived from their board (a repeated start returns the first
// game), records each game's id on its board and the game → board map in one
// transaction, then announces the round and, at the end, posts the final standings once
// (the post is marked done after it is sent: a crash may repeat it, never lose it).
// Restore queues every running event at start-up and schedules the arenas' ends, so a
// restart mid-round or mid-arena goes on where it stopped.
//
// With several processes on one store, Restore and Adopt take up the events of the
// guilds the process owns (Options.Owns), and a process moves on the events whose games
// end in it. Two processes moving one event on at once pair a round once (the pairing
// is one transaction, serializable on PostgreSQL), start each game once (its board's
// request id) and announce once: a round's announcement and the final standings are
// reserved in the store (storage.ReserveEffect) in the transaction that checks they are
// still due, then made, then marked; a process that finds the reservation held moves
// the event on again when the reservation expires (2 minutes), so a process that dies
// between the reservation and the post delays it, never loses it.
//
// # Rules
//
// Tournament games are played with a live clock and a forfeit time (Settings.NoShow):
// the side that has not made its first move that long after its turn began loses by
// forfeit (chesscore.NoShow; TRF "+" and "-"). A player who withdraws is not paired
// again in a Swiss or arena (TRF "Z" for the rounds missed), forfeits the remaining
// round-robin games, and concedes a knockout match; a game under way goes on. Swiss
// byes are pairing-allocated byes worth a win (TRF "U"); a round robin's bye is the
// Berger dummy, worth nothing (TRF "Z"). Standings rank by points, then by the event's
// tie-break list (C.07, over the completed rounds). Arena scoring is
// tournament/arena's; a player may go berserk before their first move (unless the event
// says no): their clock is halved by games.Service.Berserk, in the transaction that
// also records it here (BerserkHook), and a win then earns the bonus point. The
// increment stays. A knockout's Armageddon game gives White more time than Black (5 and
// 4 minutes unless the event says otherwise; no increment), through
// games.StartRequest.BlackTime; a draw sends Black through. Its TRF has one round per
// game slot of each bracket.
package tournaments
