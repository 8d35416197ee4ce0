#!/usr/bin/env bash
# The test command: installs what the tests need on a fresh machine, then runs every test
# with the race detector, then the full-depth perft suite without it (the race detector
# slows the move generator tenfold).
#
# Needs Go 1.26 or newer. The race detector needs cgo and so a C compiler (gcc or clang);
# the engine and perft differential tests need Stockfish; the storage tests need a
# PostgreSQL server (13 or newer: scripts/postgres.sh starts a throwaway cluster); the
# web pages' tests need Chromium (headless, driven over its DevTools protocol); the
# check of the Activity's bundle needs Node.js and npm. On Debian and Ubuntu this
# script installs gcc, stockfish, chromium, nodejs, npm and postgresql with
# apt-get when they are missing (as root, or through sudo); elsewhere it stops and says
# what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

need_go="1.26"
if ! command -v go >/dev/null 2>&1; then
  echo "Go is not installed: install Go $need_go or newer and put it on PATH." >&2
  exit 1
fi
have_go=$(go env GOVERSION | sed 's/^go//')
if [ "$(printf '%s\n%s\n' "$need_go" "$have_go" | sort -V | head -n 1)" != "$need_go" ]; then
  echo "Go $have_go is too old: Gambit needs Go $need_go or newer." >&2
  exit 1
fi

missing=()
command -v gcc >/dev/null 2>&1 || command -v cc >/dev/null 2>&1 || missing+=(gcc)
if ! command -v stockfish >/dev/null 2>&1 && [ ! -x /usr/games/stockfish ]; then
  missing+=(stockfish)
fi
# The web tests' browser, at /usr/bin/chromium (GAMBIT_TEST_CHROMIUM names another).
if [ -z "${GAMBIT_TEST_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium)
fi
# The Activity's bundle is checked against its source with Node and npm.
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "installing ${missing[*]} with apt-get"
    sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "missing: ${missing[*]}. Install them with your system's package manager:" >&2
    echo "  a C compiler (gcc or clang) for the race detector (cgo), and" >&2
    echo "  Stockfish (on PATH, at /usr/games/stockfish, or named by GAMBIT_STOCKFISH), and" >&2
    echo "  Chromium (at /usr/bin/chromium, or named by GAMBIT_TEST_CHROMIUM) for the web tests." >&2
    exit 1
  fi
fi

export CGO_ENABLED=1
go mod download

# The committed script of the Activity is what its source builds (byte for byte).
bash scripts/activity-bundle.sh

# The storage tests run against PostgreSQL too: a throwaway cluster on loopback, stopped
# when this script exits (unless GAMBIT_TEST_POSTGRES_DSN already names a database).
# With GAMBIT_TEST_REQUIRE_POSTGRES=1 a PostgreSQL test fails instead of skipping.
if [ -z "${GAMBIT_TEST_POSTGRES_DSN:-}" ]; then
  # shellcheck source=scripts/postgres.sh
  source scripts/postgres.sh
fi
export GAMBIT_TEST_REQUIRE_POSTGRES=1
go test -race -count=1 ./...
go test -count=1 -run '^TestPerftSuite$' ./chesscore
