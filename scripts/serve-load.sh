#!/usr/bin/env bash
# scripts/serve-load.sh — load gds serve (issue 11, docs/BENCHMARKS.md
# "gds serve under load"). It builds bin/gds and bin/gdsbench and runs
# `gdsbench serve-load`, which indexes DATA_DIR into a temporary GDS_HOME
# (gds crawl, offline provider), starts `gds serve` on a free 127.0.0.1 port
# and, for DURATION, keeps CHAT clients asking through POST
# /api/v1/chat/stream (each stream read to its done frame) and SEARCH clients
# searching through POST /api/v1/search. It prints requests/s and
# p50/p95/p99 latency per kind (and the time to the first SSE frame of a
# chat), and exits non-zero when any request got an error response or was
# dropped. Only loopback targets are accepted.
#
#   bash scripts/serve-load.sh [--postgres] DATA_DIR [gdsbench serve-load flags]
#
#   --postgres   serve from Postgres: GDS_TEST_DATABASE_URL, or a PGlite
#                started here (scripts/pglite.sh; stopped again if started here);
#                a fresh schema is used and dropped at the end
#
# Environment: CHAT (default 8), SEARCH (default 8), DURATION (default 30s),
# BENCH_JSON=1 for JSON. Example:
#   bash scripts/serve-load.sh testdata/realdocs
#   DURATION=60s bash scripts/serve-load.sh --postgres ../shared/bench/jsquad/docs
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

pg=0
if [ "${1:-}" = "--postgres" ]; then
	pg=1
	shift
fi
[ $# -ge 1 ] || { sed -n '2,22p' "$0" >&2; exit 2; }
data="$1"
shift
[ -d "$data" ] || { echo "serve-load: $data is not a folder" >&2; exit 2; }

mkdir -p bin
echo "==> building bin/gds and bin/gdsbench ($(go version | cut -d' ' -f3))" >&2
go build -o bin/gds ./cmd/gds
go build -o bin/gdsbench ./cmd/gdsbench

args=(--gds bin/gds --data "$data" --chat "${CHAT:-8}" --search "${SEARCH:-8}" --duration "${DURATION:-30s}")
[ "${BENCH_JSON:-}" = 1 ] && args+=(--json)
started=0
if [ "$pg" = 1 ]; then
	url="${GDS_TEST_DATABASE_URL:-}"
	if [ -z "$url" ]; then
		bash scripts/pglite.sh url >/dev/null 2>&1 || started=1
		url="$(bash scripts/pglite.sh start)"
	fi
	args+=(--database-url "$url")
fi
stop_pg() { [ "$started" = 1 ] && bash scripts/pglite.sh stop >/dev/null 2>&1 || true; }
trap stop_pg EXIT

echo "==> bin/gdsbench serve-load ${args[*]} $*" | sed 's#postgres://[^ ]*#postgres://…#' >&2
bin/gdsbench serve-load "${args[@]}" "$@"
