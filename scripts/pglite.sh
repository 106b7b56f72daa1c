#!/usr/bin/env bash
# pglite.sh start|stop|url|status — a throw-away Postgres with pgvector for tests.
#
# PGlite is Postgres 18 compiled to WebAssembly; pglite-server (from
# @electric-sql/pglite-socket) serves it over the Postgres wire protocol on a
# loopback port, with the pgvector extension (0.8.x) preloaded. The npm packages
# are pinned in scripts/pglite/package-lock.json and installed with `npm ci`
# into scripts/pglite/node_modules only when missing; nothing is installed
# globally. Node 20+ and npm are the only requirements.
#
#   start   install if needed, start the server on a free 127.0.0.1 port in the
#           background, wait (bounded, PGLITE_READY_TIMEOUT seconds, default 90)
#           until a real pgvector query succeeds, and print the URL on stdout.
#           If one is already running, just print its URL.
#   stop    stop the server started by `start` (no-op when none is running).
#   url     print the URL of the running server (exit 1 when none is running).
#   status  say whether a server is running.
#
# Typical use:  export GDS_TEST_DATABASE_URL="$(scripts/pglite.sh start)"
#
# Pid, port and log live in scripts/pglite/.run/ (git-ignored).
#
# Limits of PGlite, found by reading pglite-socket and by testing:
# - ONE Postgres session serves every connection. pglite-socket multiplexes all
#   client sockets onto a single backend through a query queue. Consequences:
#   * Session state is shared: SET (search_path, ...), session advisory locks,
#     named prepared statements and temp tables are visible to, and collide
#     between, all connections. Clients must not rely on per-connection state:
#     gds's Postgres store schema-qualifies every table and uses only
#     transaction-scoped settings and locks (SET LOCAL, pg_advisory_xact_lock).
#   * The queue interleaves clients message by message outside a transaction,
#     so the extended protocol (Parse/Bind/Execute as separate messages) of two
#     connections can mix. Only the simple protocol (one 'Q' message per
#     statement) is safe concurrently; the gds store uses it by default.
#   * Inside a transaction only the connection that opened it runs; the others
#     wait. Transactions are therefore fully serialised (no real concurrency).
# - -m/--max-connections caps open sockets (default 1!); beyond it the server
#   writes "Too many connections" and closes. We start with PGLITE_MAX_CONNECTIONS
#   (default 64) so several test packages with their pools (pgxpool opens up to
#   max(4, CPUs) each, lazily) share one server. Queries still run one at a time.
# - The database is in memory (memory://): fast, and gone on stop, which suits
#   tests; it is a single database (the database and user names in the URL are
#   ignored, no authentication), so tests isolate by schema, not by database.
# - It is one single-threaded WASM process: expect it to be several times slower
#   than native Postgres, especially for index builds (HNSW).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="$here/pglite"
run="$dir/.run"
pidfile="$run/pid"
portfile="$run/port"
logfile="$run/server.log"
timeout="${PGLITE_READY_TIMEOUT:-90}"
maxconn="${PGLITE_MAX_CONNECTIONS:-64}"

die() { echo "pglite.sh: $*" >&2; exit 1; }

url_for() { echo "postgres://postgres:postgres@127.0.0.1:$1/postgres?sslmode=disable"; }

running() {
  [[ -f "$pidfile" ]] || return 1
  local pid
  pid="$(cat "$pidfile")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null
}

install() {
  command -v node >/dev/null || die "node is not installed (need Node.js 20 or newer)"
  command -v npm >/dev/null || die "npm is not installed"
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  (( major >= 20 )) || die "Node.js $major is too old; PGlite needs 20 or newer"
  local want have
  want="$(node -p 'require(process.argv[1]).dependencies["@electric-sql/pglite-socket"]' "$dir/package.json")"
  have=""
  if [[ -f "$dir/node_modules/@electric-sql/pglite-socket/package.json" ]]; then
    have="$(node -p 'require(process.argv[1]).version' "$dir/node_modules/@electric-sql/pglite-socket/package.json")"
  fi
  if [[ "$have" != "$want" || ! -x "$dir/node_modules/.bin/pglite-server" ]]; then
    echo "pglite.sh: installing pinned PGlite packages (npm ci)" >&2
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2) || die "npm ci failed in scripts/pglite"
  fi
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();})'
}

start() {
  if running; then
    url_for "$(cat "$portfile")"
    return 0
  fi
  install
  mkdir -p "$run"
  local port pid
  port="$(free_port)"
  # setsid: the server outlives this shell and gets its own process group.
  (cd "$dir" && exec setsid node node_modules/.bin/pglite-server \
      --db=memory:// --host=127.0.0.1 --port="$port" \
      --extensions=@electric-sql/pglite-pgvector:vector \
      --max-connections="$maxconn" >"$logfile" 2>&1 </dev/null) &
  pid=$!
  echo "$pid" >"$pidfile"
  echo "$port" >"$portfile"
  if ! node "$dir/ready.mjs" 127.0.0.1 "$port" "$((timeout * 1000))" >>"$logfile" 2>&1 || ! kill -0 "$pid" 2>/dev/null; then
    echo "pglite.sh: PGlite did not become ready within ${timeout}s on port $port; last lines of $logfile:" >&2
    tail -n 20 "$logfile" >&2 || true
    stop >/dev/null 2>&1 || true
    exit 1
  fi
  url_for "$port"
}

stop() {
  if running; then
    local pid i
    pid="$(cat "$pidfile")"
    kill "$pid" 2>/dev/null || true
    for i in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile" "$portfile"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) running || die "no PGlite server is running; start one with: scripts/pglite.sh start"; url_for "$(cat "$portfile")" ;;
  status) if running; then echo "running: $(url_for "$(cat "$portfile")") (pid $(cat "$pidfile"))"; else echo "not running"; exit 1; fi ;;
  *) echo "usage: $0 start|stop|url|status" >&2; exit 2 ;;
esac
