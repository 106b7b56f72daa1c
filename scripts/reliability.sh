#!/usr/bin/env bash
# scripts/reliability.sh — the FULL forms of gds's crash-safety, graceful-stop
# and memory-bound evidence (docs/RELIABILITY.md). CI runs reduced forms of the
# same harness in `go test ./cmd/gds` (crash_test.go); this runs:
#
#   1. SIGKILL: 1,000 files × 20 kills × {local folder, Drive emulator} ×
#      {SQLite, Postgres (PGlite, a fresh schema per run)}; the checkpoint is
#      checked after every kill, the whole index at the end;
#   2. SIGTERM: the same with 5 graceful stops per run (exit 130, state saved);
#   3. memory: 100,000 synthetic files from an in-memory Drive emulator, peak
#      RSS of the gds process ≤ 500 MB;
#   4. concurrent use: 1,000 Alfred queries (whole processes, 4 at a time)
#      during crawls, per store, and 8 store-API readers during 4,000 writes;
#   5. fuzzing: every Fuzz* target for FUZZTIME (default 60s) each;
#   6. fault storms: Drive (2,000 files) and OpenAI (1,000 files) under mixed
#      faults, OAuth token expiry and revocation mid-crawl (about 3 minutes).
#
# Needs Go and Node 20+ with npm (PGlite, as scripts/test.sh). Takes about
# 15–25 minutes on 2 cores, plus ~10 for concurrency and ~25 for fuzzing. Environment:
#   RELIABILITY_SEED   seed of the corpora and stop plans (default 1)
#   RELIABILITY_FILES  crash corpus size (default 1000)
#   RELIABILITY_KILLS  SIGKILL stops per run (default 20)
#   RELIABILITY_TERMS  SIGTERM stops per run (default 5)
#   RELIABILITY_MEMORY_FILES  synthetic files for the memory bound (default 100000)
#   RELIABILITY_OUT    folder for the JSON results (default: a temp folder)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

seed="${RELIABILITY_SEED:-1}"
files="${RELIABILITY_FILES:-1000}"
kills="${RELIABILITY_KILLS:-20}"
terms="${RELIABILITY_TERMS:-5}"
memfiles="${RELIABILITY_MEMORY_FILES:-100000}"

work="$(mktemp -d "${TMPDIR:-/tmp}/gds-reliability-XXXXXX")"
out="${RELIABILITY_OUT:-$work/results}"
mkdir -p "$out"

pglite_started=0
cleanup() {
	local rc=$?
	if [ "$pglite_started" = 1 ]; then
		bash scripts/pglite.sh stop >/dev/null 2>&1 || echo "warning: could not stop PGlite" >&2
	fi
	rm -rf "$work/bin"
	exit "$rc"
}
trap cleanup EXIT INT TERM

step() { printf '\n==> %s\n' "$*" >&2; }

step "building gds and gdsreliability"
mkdir -p "$work/bin"
go build -o "$work/bin/gds" ./cmd/gds
go build -o "$work/bin/gdsreliability" ./cmd/gdsreliability

step "starting PGlite (Postgres + pgvector)"
if ! bash scripts/pglite.sh url >/dev/null 2>&1; then
	pglite_started=1
fi
GDS_TEST_DATABASE_URL="$(bash scripts/pglite.sh start)"
export GDS_TEST_DATABASE_URL

rel="$work/bin/gdsreliability"
status=0

step "SIGKILL: $files files × $kills kills × local/drive × sqlite/postgres (seed $seed)"
"$rel" crash -gds "$work/bin/gds" -signal kill -files "$files" -stops "$kills" -seed "$seed" | tee "$out/crash-kill.txt" || status=1

step "SIGTERM: $files files × $terms graceful stops × local/drive × sqlite/postgres (seed $seed)"
"$rel" crash -gds "$work/bin/gds" -signal term -files "$files" -stops "$terms" -seed "$seed" | tee "$out/crash-term.txt" || status=1

step "incremental crawls: $files files changed, $kills kills × local/drive × sqlite/postgres (seed $seed)"
"$rel" changes -gds "$work/bin/gds" -signal kill -files "$files" -stops "$kills" -seed "$seed" | tee "$out/changes-kill.txt" || status=1

step "memory: $memfiles synthetic files from the Drive emulator"
"$rel" memory -gds "$work/bin/gds" -files "$memfiles" | tee "$out/memory.txt" || status=1

step "concurrent use: Alfred queries (processes) during crawls, SQLite and Postgres; store API readers during writes"
GDS_RELIABILITY_FULL=1 go test -count=1 -timeout 60m -v -run 'TestConcurrentAlfredDuringCrawl|TestConcurrentStoreReadsDuringWrites' \
	./cmd/gds ./internal/reliability 2>&1 | tee "$out/concurrency.txt" | grep -E '^(---|ok|FAIL)|RELIABILITY' || true
grep -q '^FAIL' "$out/concurrency.txt" && status=1

step "fuzzing: every Fuzz* target for ${FUZZTIME:-60s} (scripts/fuzz.sh)"
FUZZTIME="${FUZZTIME:-60s}" FUZZ_REPORT="$out/fuzz.md" bash scripts/fuzz.sh || status=1

step "fault storms: Drive (2,000 files), OpenAI (1,000 files), OAuth expiry and revocation"
GDS_RELIABILITY_FULL=1 go test -count=1 -timeout 30m -v -run 'TestDriveFaultStorm|TestOpenAIFaultStorm|TestOAuth' \
	./internal/reliability ./cmd/gds 2>&1 | tee "$out/storms.txt" | grep -E '^(---|ok|FAIL)|storm \(|oauth ' || true
grep -q '^FAIL' "$out/storms.txt" && status=1

echo "results in $out" >&2
if [ "$status" != 0 ]; then
	printf '\n*** scripts/reliability.sh FAILED ***\n' >&2
	exit 1
fi
printf '\n==> all reliability forms passed\n' >&2
