// commands.go: the command table, with each command's usage, description and examples.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// command is one command of the binary, or one subcommand of a command group.
type command struct {
	name    string // "play", or "import" under "puzzles"
	args    string // what follows the name in a usage line: "[flags] FILE.csv"
	summary string // one line for the list of commands
	about   string // what it does, in a sentence or a few
	example string // example command lines, one a line
	run     func(args []string, stdout, stderr io.Writer) error
	subs    []command // a group's subcommands (run is nil then)
}

// commands returns the table of commands, in the order `gambit help` lists them.
func commands() []command {
	return []command{
		{name: "serve", args: "[--config FILE]", run: runServe,
			summary: "run the Discord bot",
			about: "Runs the Discord bot until SIGINT or SIGTERM: opens the store, registers the slash commands and connects to Discord, " +
				"then shuts down gracefully (no new challenges, what is in flight finished, the store committed and closed). " +
				"The configuration is the YAML file (config.example.yaml documents every key) under the environment " +
				"(GAMBIT_<KEY>, and DISCORD_TOKEN for the token).",
			example: "GAMBIT_DISCORD_TOKEN=... gambit serve --config gambit.yaml"},
		{name: "play", args: "[flags]", run: runPlay,
			summary: "play a game in the terminal, against the engine or at one keyboard",
			about: "Plays a game in the terminal on the game service and store the bot uses: two players at one keyboard, " +
				"or you against the built-in engine. Both clocks show on every board and tick while a side thinks. " +
				"quit leaves the game open in the store; --resume goes on with it later (gambit games lists them).",
			example: "gambit play --engine 3 --color black --time 5+3\ngambit play --resume 4"},
		{name: "games", args: "[--db FILE]", run: runGames,
			summary: "list the terminal games left open, for gambit play --resume",
			about: "Lists the terminal games left open in the store (quit in gambit play leaves a game open): id, players, " +
				"time control, both clocks as they will read when resumed, and the moves so far.",
			example: "gambit games --db gambit.db"},
		{name: "backup", args: "[--config FILE] [--db FILE] -o FILE", run: runBackup,
			summary: "copy the database consistently while the bot is stopped",
			about: "Writes a consistent copy of the store, taken in one read transaction and replaced atomically. " +
				"A running bot holds the file: then it fails at once and prints the command that has the bot serve the copy " +
				"(GET /backup on its metrics.address, named when --config gives the bot's configuration).",
			example: "gambit backup --config /etc/gambit/gambit.yaml -o gambit-$(date +%F).db"},
		{name: "migrate", args: "--from bbolt:FILE --to postgres:DSN", run: runMigrate,
			summary: "copy a store into another backend (bbolt to PostgreSQL, or back) and verify the copy",
			about: "Copies every record of a store into an empty one, keeping ids and encodings, from one read transaction " +
				"of the source (stop the bot first). The copy is verified before the command succeeds: the records of " +
				"each family are counted in both, and every game is compared with its source and replayed.",
			example: "gambit migrate --from bbolt:gambit.db --to postgres:postgres://gambit@db.internal/gambit\n" +
				"GAMBIT_STORAGE_DSN=postgres://gambit@db.internal/gambit gambit migrate --from bbolt:gambit.db --to postgres:"},
		{name: "check", args: "[--db FILE]", run: runCheck,
			summary: "verify a store: its pages and every record",
			about: "Opens the store read-only and verifies it: bbolt's consistency check of the pages (each reachable once, " +
				"none both used and free), then every record of every bucket decoded as the bot reads it, and the live-games " +
				"and pending-challenges indexes held to their records. It lists what is wrong and fails if anything is; " +
				"a damaged file is reported, not a crash. Stop the bot first, or check a copy.",
			example: "gambit check --db /var/lib/gambit/gambit.db"},
		{name: "health", args: "[--timeout D] [URL]", run: runHealth,
			summary: "check the running bot's /healthz on this machine (a container's HEALTHCHECK)",
			about: "GETs the bot's health endpoint (default " + defaultHealthURL + ") and exits 0 on 200, 1 otherwise; " +
				"only loopback addresses are accepted.",
			example: "gambit health http://127.0.0.1:9090/healthz"},
		{name: "puzzles", args: "<import|generate|verify|export> [flags]",
			summary: "puzzles: import a lichess CSV, generate from PGN games, verify, export as CSV",
			about:   "Fills the store's puzzle set and checks puzzle files.",
			example: "gambit puzzles import --db gambit.db lichess_db_puzzle.csv",
			subs:    puzzleCommands()},
		{name: "match", args: "--engine1 CMD --engine2 CMD (--tc TC | --movetime D | --nodes N | --depth N) [flags]", run: runMatch,
			summary: "play engine against engine over UCI and report the score with an Elo estimate",
			about: "Plays two UCI engines against each other from a set of opening positions, each opening once with each colour, " +
				"with draws claimed and games adjudicated as an arbiter would. The games go to a PGN file, progress to stderr, " +
				"and the score with the Elo difference and its 95% error bar (a one-sided bound for a clean sweep) to stdout. " +
				"--book plays from the built-in balanced openings; --sprt tests elo0 against elo1 over game pairs and stops at the verdict.",
			example: "gambit match --engine1 \"self --level 8\" --engine2 stockfish --option2 UCI_LimitStrength=true " +
				"--option2 UCI_Elo=1800 --tc 10+0.1 --games 100 --openings openings.epd --pgn match.pgn\n" +
				"gambit match --engine1 ./new --engine2 ./old --tc 2+0.02 --book --games 2000 --sprt --elo0 0 --elo1 5"},
		{name: "uci", args: "[--hash MB] [--level N] [--seed N]", run: runUCI,
			summary: "the built-in engine as a UCI engine on stdin/stdout",
			about: "Runs the built-in engine as a UCI engine on standard input and output, for chess GUIs and match runners. " +
				"Protocol problems are logged to stderr.",
			example: "printf 'uci\\nisready\\nposition startpos moves e2e4\\ngo depth 8\\n' | gambit uci --level 6"},
		{name: "position", args: "[--fen FEN] [--moves MOVES]", run: runPosition,
			summary: "print the position reached as JSON: legal moves, status, result, claims",
			about: "Plays the moves from the position and prints one JSON object describing where they lead: " +
				"FEN, legal moves, status, result, claimable draws, whether each side can still checkmate.",
			example: "gambit position --moves \"e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#\""},
		{name: "perft", args: "--depth N [--fen FEN] [--chess960] [--divide]", run: runPerft,
			summary: "count the leaves of the legal move tree (move generator check)",
			about: "Counts the leaf nodes of the legal move tree to a depth, the standard check of a move generator. " +
				"FEN castling fields may be X-FEN or Shredder-FEN (Chess960).",
			example: "gambit perft --depth 5 --divide"},
		{name: "render", args: "[--fen FEN | --pgn FILE] [--moves MOVES] [flags] -o OUT.png|OUT.gif", run: runRender,
			summary: "draw a position as a PNG, or a game replay as a GIF",
			about: "Draws the position reached as a PNG (highlighting the last move), or a replay of every move as an " +
				"animated GIF, with the bot's board themes.",
			example: "gambit render --moves \"e4 e5 Nf3\" --theme blue -o board.png\ngambit render --pgn game.pgn -o replay.gif"},
		{name: "rating", args: "<fide|fide-initial|glicko2> [flags]",
			summary: "rating calculators: fide, fide-initial, glicko2 (JSON out)",
			about:   "Rating calculators, each printing one JSON object. A score is 1, 0.5 (or 1/2) or 0.",
			example: "gambit rating fide --rating 1600 --games-played 40 --game 1800:1",
			subs:    ratingCommands()},
		{name: "tournament", args: "<pair|standings|berger> [flags]",
			summary: "tournament tools: pair a round from a TRF (Dutch), standings, Berger tables",
			about:   "Tournament tools working on FIDE TRF files.",
			example: "gambit tournament pair --system dutch --trf round3.trf",
			subs:    tournamentCommands()},
		{name: "commands", args: "[--markdown]", run: runCommands,
			summary: "list the bot's slash commands, or print their reference for docs/discord.md",
			about: "Lists every slash command the bot registers, with its subcommands. With --markdown it prints the reference " +
				"of every command, subcommand and option (types, choices, limits), generated from the command definitions: " +
				"the section of docs/discord.md between its commands markers.",
			example: "gambit commands --markdown"},
		{name: "version", args: "", run: runVersion,
			summary: "print the version and the VCS revision the binary was built from",
			about:   "Prints the module version and the VCS revision (with +dirty for a build from a modified checkout).",
			example: "gambit version"},
	}
}

// puzzleCommands are the subcommands of `gambit puzzles`.
func puzzleCommands() []command {
	return []command{
		{name: "import", args: "[flags] FILE.csv", run: runPuzzlesImport,
			summary: "stream the lichess puzzle CSV (or - for stdin) into the store",
			about: "Streams the lichess puzzle database CSV, or any file in its layout, into the store, filtered by rating " +
				"and themes. - reads standard input. The speed goes to stderr; stdout gets {\"imported\": N, \"skipped\": N, \"errors\": N}.",
			example: "zstdcat lichess_db_puzzle.csv.zst | gambit puzzles import --db gambit.db --themes mateIn2,fork -"},
		{name: "generate", args: "--from GAMES.pgn (--db FILE | --csv FILE) [flags]", run: runPuzzlesGenerate,
			summary: "mine puzzles from the games of a PGN file",
			about: "Mines puzzles from the games of a PGN file with the engine: into the store (--db), and/or as lichess-layout " +
				"CSV (--csv). It ends with {\"generated\": N} on stdout.",
			example: "gambit puzzles generate --from games.pgn --csv puzzles.csv --limit 50"},
		{name: "verify", args: "[flags] FILE.csv -o OUT.csv", run: runPuzzlesVerify,
			summary: "re-check puzzles with a fresh search and keep those that pass",
			about: "Re-checks each puzzle from a fresh search (it replays, and every solver move is the engine's only winning move) " +
				"and writes those that pass, in order. Rejections go to stderr; stdout gets {\"verified\": N, \"rejected\": N}.",
			example: "gambit puzzles verify puzzles.csv -o checked.csv"},
		{name: "export", args: "[--db FILE] [-o FILE]", run: runPuzzlesExport,
			summary: "write every stored puzzle as CSV",
			about:   "Writes every stored puzzle as CSV in the lichess layout (on stdout without -o).",
			example: "gambit puzzles export --db gambit.db -o puzzles.csv"},
	}
}

// ratingCommands are the calculators of `gambit rating`.
func ratingCommands() []command {
	return []command{
		{name: "fide", args: "--rating N [--games-played N] [--peak N] [--junior] [--k N] --game OPP:SCORE ...", run: ratingFIDE,
			summary: "FIDE rating change of a rated player for one period",
			about:   "Computes a rated player's FIDE rating change for one rating period (K factor by the FIDE rules unless --k).",
			example: "gambit rating fide --rating 1600 --games-played 40 --game 1800:1 --game 1750:0.5"},
		{name: "fide-initial", args: "--game OPP:SCORE ...", run: ratingFIDEInitial,
			summary: "FIDE first rating of an unrated player",
			about:   "Computes an unrated player's first FIDE rating from games against rated opponents, and whether it is published.",
			example: "gambit rating fide-initial --game 1900:1 --game 1900:1 --game 1900:1 --game 1900:0 --game 1907:0"},
		{name: "glicko2", args: "--rating R --rd RD --volatility S --tau T --game OPP:RD:SCORE ...", run: ratingGlicko2,
			summary: "Glicko-2 update for one period",
			about:   "Computes a Glicko-2 update of rating, deviation and volatility for one rating period.",
			example: "gambit rating glicko2 --rating 1500 --rd 200 --volatility 0.06 --game 1400:30:1 --game 1550:100:0"},
	}
}

// tournamentCommands are the subcommands of `gambit tournament`.
func tournamentCommands() []command {
	return []command{
		{name: "pair", args: "--trf FILE [--system dutch]", run: runTournamentPair,
			summary: "pair the next round of a TRF",
			about:   "Pairs the next round from the TRF of the rounds played so far: one \"white black\" line per board, then \"N 0\" for a bye.",
			example: "gambit tournament pair --system dutch --trf round3.trf"},
		{name: "standings", args: "--trf FILE [--tiebreaks LIST] [--round-robin]", run: runTournamentStandings,
			summary: "standings of a TRF with tie-breaks",
			about:   "Prints the standings of a TRF with the tie-breaks in the order given (FIDE C.07 codes).",
			example: "gambit tournament standings --trf final.trf --tiebreaks BH/C1,BH,SB"},
		{name: "berger", args: "--players N [--double]", run: runTournamentBerger,
			summary: "Berger tables of a round robin",
			about:   "Prints the Berger tables of a round robin: each round's games as white-black.",
			example: "gambit tournament berger --players 6 --double"},
	}
}

// findCommand returns the command at path: "play", or "puzzles import".
func findCommand(path string) (command, bool) {
	words := strings.Fields(path)
	list := commands()
	var found command
	for _, name := range words {
		i := slices.IndexFunc(list, func(c command) bool { return c.name == name })
		if i < 0 {
			return command{}, false
		}
		found, list = list[i], list[i].subs
	}
	return found, len(words) > 0
}

// call runs the command with the words after its name: a group passes them on to the
// subcommand the first one names.
func (c command) call(args []string, stdout, stderr io.Writer) error {
	if c.subs == nil {
		return c.run(args, stdout, stderr)
	}
	names := make([]string, len(c.subs))
	for i, s := range c.subs {
		names[i] = s.name
	}
	want := strings.Join(names, ", ")
	if len(args) == 0 {
		writeGroupHelp(stderr, c)
		return fmt.Errorf("missing subcommand: want %s", want)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		writeGroupHelp(stderr, c)
		return flag.ErrHelp
	}
	for _, s := range c.subs {
		if s.name == args[0] {
			return s.run(args[1:], stdout, stderr)
		}
	}
	return fmt.Errorf("unknown subcommand %q: want %s", args[0], want)
}

// runGroup runs the command group name (puzzles, rating, tournament) with the words
// after its name.
func runGroup(name string, args []string, stdout, stderr io.Writer) error {
	c, ok := findCommand(name)
	if !ok || c.subs == nil {
		return fmt.Errorf("no command group %q", name)
	}
	return c.call(args, stdout, stderr)
}

// runHelp implements `gambit help [COMMAND [SUBCOMMAND]]`: the list of commands, or one
// command's help, on w.
func runHelp(args []string, w io.Writer) error {
	if len(args) == 0 {
		writeOverview(w)
		return nil
	}
	path := strings.Join(args, " ")
	c, ok := findCommand(path)
	if !ok {
		return fmt.Errorf("unknown command %q", path)
	}
	if c.subs != nil {
		writeGroupHelp(w, c)
		return nil
	}
	if err := c.run([]string{"-h"}, w, w); !errors.Is(err, flag.ErrHelp) {
		return fmt.Errorf("%s -h: %v", path, err)
	}
	return nil
}
