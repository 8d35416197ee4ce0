#!/usr/bin/env bash
# Calibrates the engine's levels: matches at 10 s + 0.1 s between a level of the built-in
# engine and Stockfish 15.1 with UCI_LimitStrength at a UCI_Elo (or another level), from
# the 60 composed openings with both colours. Each match writes NAME.pgn, NAME.json and
# NAME.out into the output folder. Stockfish gets Move Overhead 100 ms: with its default
# (10 ms) it loses games on time on a loaded machine.
#
#   bash scripts/calibrate.sh OUTDIR "sf LEVEL ELO GAMES" "lv LEVEL LEVEL GAMES" ...
#
# e.g. bash scripts/calibrate.sh /tmp/cal "sf 7 2000 24" "lv 3 4 24"
#
# BOOK=1 plays from the built-in book of 300 balanced openings (gambit match --book,
# made by tools/bookgen) instead of the 60 composed ones; SPRT="elo0 elo1" adds a
# sequential test (alpha = beta = 0.05) that stops a match at its verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?output folder}
shift
mkdir -p "$out"
go build -o "$out/gambit" ./cmd/gambit
G="$out/gambit"
O="$PWD/cmd/gambit/testdata/openings.epd"
OPENINGS=(-openings "$O")
if [[ ${BOOK:-0} == 1 ]]; then
  OPENINGS=(-book)
fi
EXTRA=()
if [[ -n ${SPRT:-} ]]; then
  read -r elo0 elo1 <<<"$SPRT"
  EXTRA=(-sprt -elo0 "$elo0" -elo1 "$elo1")
fi
SF=${STOCKFISH:-/usr/games/stockfish}
for spec in "$@"; do
  read -r kind a b games <<<"$spec"
  case $kind in
  sf)
    name="l${a}_sf${b}"
    "$G" match -engine1 "$G uci --level $a" -name1 "Gambit L$a" -engine2 "$SF" \
      -option2 UCI_LimitStrength=true -option2 "UCI_Elo=$b" -option2 "Move Overhead=100" -name2 "SF$b" \
      -tc 10+0.1 -margin 1s -games "$games" "${OPENINGS[@]}" "${EXTRA[@]}" -pgn "$out/$name.pgn" -json "$out/$name.json" >"$out/$name.out" 2>&1
    ;;
  lv)
    name="l${a}_l${b}"
    "$G" match -engine1 "$G uci --level $a" -name1 "Gambit L$a" -engine2 "$G uci --level $b" -name2 "Gambit L$b" \
      -tc 10+0.1 -margin 1s -games "$games" "${OPENINGS[@]}" "${EXTRA[@]}" -pgn "$out/$name.pgn" -json "$out/$name.json" >"$out/$name.out" 2>&1
    ;;
  *)
    echo "unknown match kind $kind in \"$spec\": want sf or lv" >&2
    exit 2
    ;;
  esac
  tail -n 3 "$out/$name.out"
done
