#!/usr/bin/env bash
# The test command: installs what the tests need on a fresh machine, then runs every test
# with the race detector, then the full-depth perft suite without it (the race detector
# slows the move generator tenfold).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v stockfish >/dev/null 2>&1 && [ ! -x /usr/games/stockfish ]; then
  echo "installing stockfish (Debian package) for the perft differential test"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stockfish
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stockfish
  fi
fi

go mod download
go test -race -count=1 ./...
go test -count=1 -run '^TestPerftSuite$' ./chesscore
