// Package engineplay plays the engine's side of games against the engine (/play bot),
// and analyses finished games (/analyze). It knows nothing of Discord: games are
// created and moved through the game service (service/games), like a person's, so their
// boards, clocks, events and restarts are those of every game.
//
// # Playing
//
// Start creates a game between a person and the engine; the engine's side (colour,
// level, engine) is recorded in the transaction that creates the game
// (storage.EngineGame), so a game against the engine never exists without it. The
// service listens to the game service's events (Notify, which never blocks): when the
// engine is to move, or the person asks for something, the game joins a queue that a
// fixed number of workers (Options.Workers) serve, so many games at once never take
// more than those cores. A worker reloads the game, thinks within the engine's clock
// (engine.ClockTimeLeft, capped by Options.MaxThink), and plays through
// games.Service.Move with a request id derived from the position (a duplicate is
// refused as stale or replayed, never played twice) and the ply it saw. An event that
// arrives while the game is being thought about makes the worker look again after
// its move; a takeback request or the end of the game interrupts the thought. The
// reply waits for Options.ReplyDelay, counted from the person's move, without holding
// the worker.
//
// # Fairness
//
// The queue is fair (fairQueue): servers take turns, within a server the people take
// turns, and one person's games go in order; whoever was just served goes behind
// whoever started waiting meanwhile. Every request queues so, takeback requests
// included. When every worker is thinking for a server that has more games waiting,
// a game of a server with nothing else queued or in thought takes a worker at once:
// the busy server's thought gives way (stops, or does not start) and queues again
// first in its person's line, once per move at most, so a flood on one server costs another neither the flood's
// length nor a thought's wait. A person may have at most Options.MaxGamesPerUser
// live games against the engine (Start fails with a *TooManyGamesError).
//
// At start-up (New) the live engine games are read from the store; Run queues them
// all, so a game whose engine was to move when the bot stopped gets its move after
// the restart (the game service's downtime policy has kept the clocks fair). Run
// returns promptly when its context ends: thoughts are cancelled, nothing is played.
//
// # Policy
//
// Games against the engine are unrated: the ladder measures people against people,
// and a level's strength is only an estimate. The person may resign, abort (before
// both sides have moved) or offer a draw; the engine accepts a draw when its own
// evaluation, searched at full strength within a small node budget, is worse than
// DrawAcceptBelow for itself, or when the position is level (within DrawLevelWithin)
// after move DrawLevelAfterMove; otherwise it declines and plays on. It accepts every
// takeback request (the game service allows one per move) when the request's turn in
// the queue comes; nothing is at stake in an unrated game, and undoing a slip is how
// people learn. The engine itself never
// resigns, never offers a draw and never asks for a takeback.
//
// Levels 1 to 8 are the built-in engine's (engine.LevelByNumber). With an external
// UCI engine configured, level 9 is that engine at full strength; if it fails (a
// crash, a hang, too many restarts), the built-in engine at level 8 makes the move, so
// the game goes on within its clock, and the failure is logged.
//
// # Analysis
//
// Analyze evaluates every position of a finished game once, within a time budget per
// position (Options.AnalysisTime, shrunk so the whole game stays within
// Options.AnalysisBudget), with the external engine when one is configured and
// working (a process of its own per analyser, so an analysis never holds up a game),
// else the built-in one, and classifies each move (engine.Judgement) by the drop in
// the mover's winning chances. Results are cached per game (finished games do not
// change), and the cache answers at once. Other analyses queue in their server's line
// (direct messages share one): a server's analyses run one at a time, and the servers
// take turns for Options.AnalysisWorkers analysers. A person has one analysis queued or
// running at a time (ErrAnalysisPending) and waits Options.AnalysisCooldown after one
// ends before the next (a *CooldownError says until when).
//
// # Several processes
//
// With several processes on one store, each takes up at start-up (Run) and on Adopt
// the live games of the guilds it owns (Options.Owns), and plays the games whose events
// reach it (their person moved there). Two processes may think about the same turn;
// the move is played once all the same: its request id names the position, and the
// game service writes a move only from the game's stored version, so the second
// process's move is replayed or refused as stale. An analysis is a request: it runs
// where the request arrived and its result answers that request only, once.
package engineplay
