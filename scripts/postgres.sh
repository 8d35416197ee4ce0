#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `source scripts/postgres.sh` installs the
# server where it is missing (Debian's postgresql package), starts a cluster in a fresh
# temporary directory on a free loopback port, creates the database "gambit", exports
# GAMBIT_TEST_POSTGRES_DSN and stops and removes the cluster when the shell exits.
# initdb refuses to run as root, so as root the cluster runs as the postgres user.

pg_bin=""
find_pg_bin() {
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ]
}
if ! find_pg_bin; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "installing postgresql with apt-get"
    sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
    find_pg_bin || { echo "postgresql installed but initdb not found" >&2; return 1 2>/dev/null || exit 1; }
  else
    echo "PostgreSQL is missing: install its server (initdb, pg_ctl), version 13 or newer" >&2
    return 1 2>/dev/null || exit 1
  fi
fi

pg_dir=$(mktemp -d)
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres: "$pg_dir"
  as_pg=(runuser -u postgres --)
fi
pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 55432)
(cd "$pg_dir" && "${as_pg[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U gambit --auth=trust -E UTF8 --locale=C) >"$pg_dir/initdb.log" 2>&1 \
  || { cat "$pg_dir/initdb.log" >&2; return 1 2>/dev/null || exit 1; }
(cd "$pg_dir" && "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_dir -c max_connections=200 -c fsync=on" start) >/dev/null \
  || { cat "$pg_dir/server.log" >&2; return 1 2>/dev/null || exit 1; }
"$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U gambit gambit
export GAMBIT_TEST_POSTGRES_DSN="postgres://gambit@127.0.0.1:$pg_port/gambit?sslmode=disable"
stop_postgres() {
  (cd "$pg_dir" && "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w stop) >/dev/null 2>&1 || true
  rm -rf "$pg_dir"
}
trap stop_postgres EXIT
echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port (throwaway cluster in $pg_dir)"
