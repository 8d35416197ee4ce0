// Package clock is Gambit's chess clock: time controls, FIDE time categories
// and the arithmetic of a two-sided clock.
//
// The package is pure: standard library only, no clock reads, no goroutines.
// Every instant is passed in as a time.Time, so a service can store a Clock
// (a plain struct with exported fields) and drive every game from a single
// timer scheduler using FlagAt.
//
// # Time control notation
//
// Parse reads the notation players type; String writes the canonical form,
// which Parse reads back to an equal TimeControl:
//
//	5+3               5 minutes, 3 s increment per move      (canonical)
//	15m+10s           units: m and s; base defaults to minutes, increment to seconds
//	30s+0, ½+0        bullet: seconds, or the glyphs ¼ ½ ¾ (also 1½, 0.5)
//	40/90+30, 30+30   FIDE: 90 min for 40 moves, then 30 min for the rest, 30 s from move one
//	40/120, 20/60     a last period with a move count repeats (20 moves per hour thereafter)
//	5+0 d3            simple (US) delay of 3 s: the clock waits 3 s before running
//	5+0 b3            Bronstein delay of 3 s: time used is given back, up to 3 s
//	3d, 12h           correspondence: an allowance per move (days or hours)
//	-                 no time control (untimed)
//	?                 unknown
//
// A period is written [moves/]base[+increment]; periods are separated by
// commas; a delay is written once, after the last period, and applies to
// every move of the game. "1/2+0" is not half a minute: it reads as one move
// in two minutes and is rejected with a hint to write "30s+0" or "½+0".
//
// PGN and ParsePGN use the TimeControl tag of the PGN standard instead:
// seconds, periods separated by ':' ("40/5400+30:1800+30", "300+3", "300",
// "-", "?"). PGN has no notation for delay, so PGN omits it. KindCorrespondence
// is written "1/259200" (one move per three days), the convention of the
// servers that export daily games; ParsePGN reads a lone one-move period
// back as correspondence.
//
// # Why two delays
//
// Both delays spare a move that is faster than the delay, and both charge
// max(0, used − delay) for a slower one, but they differ at the edge of the
// flag. With a simple delay the main time does not start until the delay has
// passed, so a player with 2 s left and a 3 s delay may think for 5 s. With
// Bronstein the main time runs from the start and the refund comes only when
// the clock is pressed, so the same player flags after 2 s. "d" follows the
// US Chess notation for delay (as in G/60;d5); "b" is Bronstein. A control
// has either increments or a delay, not both.
//
// # Limits
//
// Limits keep notation honest and arithmetic far from overflow (see the
// Max and Min constants): a period's base time is 1 s to 5 h, in whole
// seconds; increment 0–60 s and delay 1–60 s, in whole seconds (the FIDE
// Laws give 2–60 s for an increment; online play also uses 0 and 1 s); a
// period counts 2–200 moves; at most 5 periods; a correspondence allowance
// is 1 h to 30 days in whole hours.
//
// # Categories
//
// Category follows the FIDE Laws: the time a player receives for a 60-move
// game, that is base + 60 × increment for a single period, and for several
// periods every base time that starts within the first 60 moves plus the
// increments of those moves. Standard is 60 minutes or more, rapid more than
// 10 and less than 60, blitz 10 or less. A delay counts like an increment,
// as US Chess counts it. Bullet is not a FIDE category; the online
// convention is used: a game whose 40-move budget (base + 40 × increment,
// the estimate online servers use) is under 3 minutes, so 1+0 and 2+1 are
// bullet and 3+0 is blitz. Category.FIDE maps bullet to the FIDE blitz list.
// Correspondence controls are correspondence; untimed and unknown controls
// have NoCategory.
//
// # The clock
//
// New makes a Clock that has not started; Start sets the side to move's
// clock running. Press
// completes a move: it charges the mover the time used (less any simple
// delay), adds the increment of the period the move belongs to (or gives
// back a Bronstein delay), adds the next period's base time when the move
// completes its period, and starts the opponent's clock. A correspondence
// press resets the mover's allowance for their next turn. The increment is
// added after each move, the online custom, so a 5+3 clock starts at 5:00.
//
// A flag falls when the remaining time reaches zero: at FlagAt exactly the
// side to move has no time left, Flagged reports true, and a Press at that
// instant is too late (ErrFlagged). Remaining never goes below zero.
//
// Over the board the clock starts at the start of the game; online, each
// side's first move is usually untimed, and the server aborts a game whose
// first moves do not come. Set Clock.FreeFirstMoves to choose the online
// custom: until a side has made its first move its clock shows its full
// time and does not run or flag (FlagAt is zero), and that first press
// charges nothing and adds no increment. The service keeps its own abort
// timer for that wait.
//
// Pause and Resume stop and restart the running clock, so a service can
// credit players with the time it was down; AddTime adds (or, negative,
// removes) time for penalties and takebacks. Stop ends the game, charging
// the side to move the time used so far.
package clock
