#!/usr/bin/env bash
# scripts/bench-startup.sh — start-up cost of gds as whole processes, against a
# minimal Go binary built in the same run (issue 10, docs/BENCHMARKS.md
# "Start-up"). It builds, with the same Go and the same flags:
#
#   bin/gds-minimal   package main with an empty main (the floor of process
#                     start on this machine)
#   bin/gds           go build ./cmd/gds-front  (the installed gds: the front)
#   bin/gds-core      go build ./cmd/gds        (the full CLI, beside it)
#   bin/gdsbench      go build ./cmd/gdsbench
#
# — the layout a release installs — and runs `gdsbench startup`, which
# indexes testdata/sample into a temporary GDS_HOME (gds crawl through the
# front's hand-over, offline provider), then times, interleaved, RUNS runs
# each of: the minimal binary, the front's `gds version` and
# `gds alfred filter QUERY` (the Alfred keystroke path), and for reference
# `gds-core version`; it reports p50 / p95 / mean and each p50 as a multiple
# of the minimal binary's, then the package initialisation before main from
# GODEBUG=inittrace=1. No network, no keys; hyperfine not needed.
#
# Environment:
#   RUNS         timed runs per command (default 100)
#   WARMUP       untimed runs per command first (default 10)
#   BENCH_JSON   1: print the result as JSON
#   GOFLAGS_BENCH go build flags for the gds binaries and the minimal one, as shell
#                 words (default: the release's: -trimpath -ldflags="-s -w")
#   CGO_ENABLED   default 0, as the release builds the front and the Linux gds-core
#                 (with cgo, importing net makes a dynamically linked binary that
#                 pays the dynamic loader on every start)
# Arguments are passed on to gdsbench startup (e.g. --query "steam engine").
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

mkdir -p bin
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

export CGO_ENABLED="${CGO_ENABLED:-0}"
if [ -n "${GOFLAGS_BENCH:-}" ]; then
	eval "flags=($GOFLAGS_BENCH)" # shell words, so -ldflags="-s -w" stays one flag
else
	flags=(-trimpath "-ldflags=-s -w")
fi
build() { go build "${flags[@]}" "$@"; }

echo "==> building bin/gds-minimal, bin/gds (front), bin/gds-core and bin/gdsbench ($(go version | cut -d' ' -f3), CGO_ENABLED=$CGO_ENABLED, ${flags[*]})" >&2
printf 'package main\n\nfunc main() {}\n' >"$tmp/main.go"
printf 'module minimal\n\ngo 1.21\n' >"$tmp/go.mod"
(cd "$tmp" && build -o minimal .)
mv "$tmp/minimal" bin/gds-minimal
build -o bin/gds ./cmd/gds-front
build -o bin/gds-core ./cmd/gds
go build -o bin/gdsbench ./cmd/gdsbench

json=()
[ "${BENCH_JSON:-}" = 1 ] && json=(--json)
echo "==> bin/gdsbench startup --runs ${RUNS:-100} --warmup ${WARMUP:-10}" >&2
bin/gdsbench startup --gds bin/gds --core bin/gds-core --minimal bin/gds-minimal --sample testdata/sample \
	--runs "${RUNS:-100}" --warmup "${WARMUP:-10}" "${json[@]}" "$@"
