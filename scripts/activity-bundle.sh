#!/usr/bin/env bash
# Checks that the committed script of the Activity (web/static/activity.js, embedded in
# the binary) is what its source builds: npm ci in web/activity (the versions of the
# Embedded App SDK and esbuild pinned by its package-lock.json), the build into a
# temporary file, and a byte-for-byte comparison. scripts/test.sh runs it; with
# --write it rebuilds the committed file instead (after changing web/activity/src).
# Needs Node 20 or newer with npm; on Debian and Ubuntu scripts/test.sh installs them.
set -euo pipefail
cd "$(dirname "$0")/../web/activity"

if ! command -v npm >/dev/null 2>&1; then
  echo "npm is not installed: install Node.js 20 or newer with npm to check the Activity's bundle." >&2
  exit 1
fi
npm ci --no-audit --no-fund --loglevel=error
if [ "${1:-}" = "--write" ]; then
  node build.mjs
  echo "rebuilt web/static/activity.js"
  exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
node build.mjs "$out/activity.js"
if ! cmp -s "$out/activity.js" ../static/activity.js; then
  echo "web/static/activity.js does not match its source in web/activity:" >&2
  echo "run bash scripts/activity-bundle.sh --write and commit the result." >&2
  exit 1
fi
echo "web/static/activity.js matches its source"
