#!/usr/bin/env bash
# scripts/fuzz.sh — run EVERY Go fuzz target of the repository for a bounded
# amount of work each and fail on a real crash, printing the reproducer.
#
# Targets are discovered, not listed: every `func FuzzXxx(f *testing.F)` in a
# *_test.go file (outside node_modules and testdata), so a new target is
# fuzzed in CI as soon as it is committed. Each runs as
#
#   go test -run '^$' -fuzz '^FuzzXxx$' -fuzztime $FUZZTIME ./pkg
#
# does, but the coverage-instrumented test binary is built (and linked) once
# per package — `go test -c -fuzz . ./pkg` — and run in the package's
# directory once per target with go test's own fuzz cache directory
# ($GOCACHE/fuzz/<import path>): the same engine, seeds, corpus and budget,
# without relinking the package's test binary for each of its targets (the
# link, not the fuzzing, was most of this step's time).
#
# Environment:
#   FUZZTIME          budget per target: an execution count such as 2000x (the
#                     default), or a duration such as 60s (the full form,
#                     FUZZTIME=60s scripts/fuzz.sh). A count does the same work
#                     on any machine; a duration does less on a loaded one.
#   FUZZMINIMIZETIME  time to minimise a crashing input (default 10s)
#   FUZZ_ONLY         a regexp: fuzz only the targets whose name matches it
#   FUZZ_REPORT       write the table of executions per target (Markdown) here
#
# What fails: a target that writes a failing input (a crash, a failed
# assertion, a hang), and a run that cannot build or fails any other way.
# What does not: Go's fuzzing engine ending a DURATION run with a bare
# "context deadline exceeded" and no failing input, which a busy machine
# triggers (a race between the -fuzztime deadline and in-flight workers,
# golang/go#75804; no input of ours is involved). Counts (Nx) never take that
# path; with a duration, such a run is retried once as a count of the
# executions it had reached, and fails only if the retry fails.
#
# On a crash Go writes the input to pkg/testdata/fuzz/FuzzXxx/<hash>; this
# script prints that path and the command that replays it:
#   go test -run '^FuzzXxx/<hash>$' ./pkg
# Commit the file to keep the case as a regression test.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

fuzztime="${FUZZTIME:-2000x}"
mintime="${FUZZMINIMIZETIME:-10s}"
only="${FUZZ_ONLY:-.}"

# pkg<TAB>target, sorted, one per line.
targets="$(grep -rEo --include='*_test.go' --exclude-dir=node_modules --exclude-dir=testdata --exclude-dir=.git \
	'^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' . |
	sed -E 's#^(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\(.*#\1\t\2#' |
	grep -E "	.*${only}" | sort -u || true)"
[ -n "$targets" ] || { echo "fuzz.sh: no fuzz targets found" >&2; exit 1; }

count="$(printf '%s\n' "$targets" | wc -l | tr -d ' ')"
printf '==> fuzzing %s targets, %s each\n' "$count" "$fuzztime" >&2

log="$(mktemp)"
bins="$(mktemp -d)"
trap 'rm -f "$log"; rm -rf "$bins"' EXIT
gocache="$(go env GOCACHE)"
report="| target | package | executions |\n|---|---|---:|\n"
total=0
start=$SECONDS
# build_pkg PKG: builds PKG's fuzz-instrumented test binary into $bins
# (once per package; output in $log) and sets bin and importpath.
built=""
build_pkg() {
	bin="$bins/$(printf '%s' "$1" | tr -c 'A-Za-z0-9_\n' '_').test"
	importpath="$(go list -f '{{.ImportPath}}' "$1")" || return 1
	[ "$built" = "$1" ] && return 0
	go test -c -fuzz . -o "$bin" "$1" >"$log" 2>&1 || return 1
	built="$1"
}

# fuzz_once PKG TARGET BUDGET: one fuzzing run of TARGET with the package's
# test binary, in the package's directory as go test runs it; output in $log.
fuzz_once() {
	build_pkg "$1" || return 1
	(cd "$1" && "$bin" -test.run '^$' -test.fuzz "^${2}\$" -test.fuzztime "$3" \
		-test.fuzzminimizetime "$mintime" -test.fuzzcachedir "$gocache/fuzz/$importpath" -test.paniconexit0 -test.timeout 10m) >"$log" 2>&1
}

# engine_deadline: the failed run in $log wrote no failing input and its only
# failure is the engine's "context deadline exceeded" (golang/go#75804).
engine_deadline() {
	! grep -q 'Failing input written to' "$log" &&
		grep -Eq '^[[:space:]]+context deadline exceeded[[:space:]]*$' "$log" &&
		! grep -Ev '^[[:space:]]+context deadline exceeded[[:space:]]*$' "$log" | grep -Eq '^[[:space:]]+[^[:space:]]' 
}

last_execs() { sed -nE 's/.*execs: ([0-9]+).*/\1/p' "$log" | tail -1; }

while IFS=$'\t' read -r pkg target; do
	printf -- '--> %s %s\n' "$pkg" "$target" >&2
	t0=$SECONDS
	ok=1
	if ! fuzz_once "$pkg" "$target" "$fuzztime"; then
		ok=0
		if engine_deadline; then
			n="$(last_execs)"
			n=$((${n:-0} > 1000 ? ${n:-0} : 1000))
			printf '    the fuzzing engine ended the run with "context deadline exceeded" and no failing input\n    (golang/go#75804, not a crash): retrying once as -fuzztime %sx\n' "$n" >&2
			if fuzz_once "$pkg" "$target" "${n}x"; then
				ok=1
			fi
		fi
	fi
	if [ "$ok" = 0 ]; then
		echo "    FAILED" >&2
		cat "$log" >&2
		input="$(sed -nE 's#.*Failing input written to (testdata/fuzz/[^ ]+).*#\1#p' "$log" | tail -1)"
		if [ -n "$input" ]; then
			printf '\n*** %s crashed. Reproducer: %s/%s\n    replay: go test -run '\''^%s/%s$'\'' %s\n' \
				"$target" "${pkg#./}" "$input" "$target" "$(basename "$input")" "$pkg" >&2
		elif seed="$(sed -nE 's#^failure while testing seed corpus entry: ([^ ]+)$#\1#p' "$log" | tail -1)" && [ -n "$seed" ]; then
			printf '\n*** %s fails on a committed or seed input: %s\n    replay: go test -run '\''^%s$'\'' %s\n' \
				"$target" "$seed" "$seed" "$pkg" >&2
		elif engine_deadline; then
			printf '\n*** %s: the fuzzing engine hit its deadline twice without a failing input (a very loaded machine?); output above.\n' "$target" >&2
		else
			printf '\n*** %s failed without a reproducer (build error?); output above.\n' "$target" >&2
		fi
		exit 1
	fi
	execs="$(last_execs)"
	execs="${execs:-0}"
	total=$((total + execs))
	echo "    ok, ${execs} executions, $((SECONDS - t0))s" >&2
	report+="| \`${target}\` | \`${pkg#./}\` | ${execs} |\n"
done <<<"$targets"
report+="| **total** (${count} targets, ${fuzztime} each) | | **${total}** |\n"

printf '==> all %s fuzz targets passed: %s executions in %ss\n' "$count" "$total" "$((SECONDS - start))" >&2
if [ -n "${FUZZ_REPORT:-}" ]; then
	printf "$report" >"$FUZZ_REPORT"
fi
