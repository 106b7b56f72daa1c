#!/usr/bin/env bash
# scripts/fuzz.sh — run EVERY Go fuzz target of the repository for a bounded
# time each and fail on the first crash, printing the reproducer.
#
# Targets are discovered, not listed: every `func FuzzXxx(f *testing.F)` in a
# *_test.go file (outside node_modules and testdata), so a new target is
# fuzzed in CI as soon as it is committed. Each runs as
#
#   go test -run '^$' -fuzz '^FuzzXxx$' -fuzztime $FUZZTIME ./pkg
#
# Environment:
#   FUZZTIME          time per target (default 2s: ~19 targets plus builds fit
#                     in ~90 s on 2 cores; the full form is
#                     FUZZTIME=60s scripts/fuzz.sh)
#   FUZZMINIMIZETIME  time to minimise a crashing input (default 10s)
#   FUZZ_ONLY         a regexp: fuzz only the targets whose name matches it
#   FUZZ_REPORT       write the table of executions per target (Markdown) here
#
# On a crash Go writes the input to pkg/testdata/fuzz/FuzzXxx/<hash>; this
# script prints that path and the command that replays it:
#   go test -run '^FuzzXxx/<hash>$' ./pkg
# Commit the file to keep the case as a regression test.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

fuzztime="${FUZZTIME:-2s}"
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
trap 'rm -f "$log"' EXIT
report="| target | package | executions |\n|---|---|---:|\n"
total=0
start=$SECONDS
while IFS=$'\t' read -r pkg target; do
	printf -- '--> %s %s ' "$pkg" "$target" >&2
	if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$mintime" "$pkg" >"$log" 2>&1; then
		echo "FAILED" >&2
		cat "$log" >&2
		input="$(sed -nE 's#.*Failing input written to (testdata/fuzz/[^ ]+).*#\1#p' "$log" | tail -1)"
		if [ -n "$input" ]; then
			printf '\n*** %s crashed. Reproducer: %s/%s\n    replay: go test -run '\''^%s/%s$'\'' %s\n' \
				"$target" "${pkg#./}" "$input" "$target" "$(basename "$input")" "$pkg" >&2
		else
			printf '\n*** %s failed without a reproducer (build error or timeout?); output above.\n' "$target" >&2
		fi
		exit 1
	fi
	execs="$(sed -nE 's/.*execs: ([0-9]+).*/\1/p' "$log" | tail -1)"
	execs="${execs:-0}"
	total=$((total + execs))
	echo "ok, ${execs} executions" >&2
	report+="| \`${target}\` | \`${pkg#./}\` | ${execs} |\n"
done <<<"$targets"
report+="| **total** (${count} targets, ${fuzztime} each) | | **${total}** |\n"

printf '==> all %s fuzz targets passed: %s executions in %ss\n' "$count" "$total" "$((SECONDS - start))" >&2
if [ -n "${FUZZ_REPORT:-}" ]; then
	printf "$report" >"$FUZZ_REPORT"
fi
