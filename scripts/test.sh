#!/usr/bin/env bash
# scripts/test.sh — THE test command of gds (README and CI run exactly this).
#
#   1. downloads the Go modules,
#   2. starts a throw-away Postgres with pgvector (PGlite, scripts/pglite.sh)
#      and exports GDS_TEST_DATABASE_URL so the Postgres contract tests run,
#      and makes sure a headless Chromium is there for the web UI's browser
#      test (scripts/browser.sh installs Debian's package when missing),
#   3. checks formatting (gofmt), that go.mod is tidy, and runs go vet; checks
#      the Raycast extension (scripts/raycast.sh: npm ci from its lock file),
#   4. runs every test with the race detector, then (without it) the
#      exhaustive single-goroutine sweeps the race build only samples, and
#      every fuzz target (scripts/fuzz.sh),
#   5. stops PGlite again, on success and on failure.
#
# Needs Go (see go.mod) and Node 20+ with npm (for PGlite). No network beyond
# the Go module proxy and the npm registry.
# Every step prints its name when it starts, a "still running" line every
# GDS_TEST_HEARTBEAT seconds (default 30) while it runs — the first build,
# vet and race build on a fresh machine compile everything and take minutes —
# and its elapsed time when it ends; a table of the steps' times closes the run.
#
# Environment: GDS_TEST_TIMEOUT (default 20m) bounds `go test`;
# GDS_TEST_HEARTBEAT (default 30) is the heartbeat interval in seconds.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

run_start=$SECONDS
step_name=""
step_start=0
heartbeat_pid=""
timings=""

# end_step closes the running step: stops its heartbeat, prints its time.
end_step() {
	if [ -n "$heartbeat_pid" ]; then
		kill "$heartbeat_pid" 2>/dev/null || true
		wait "$heartbeat_pid" 2>/dev/null || true
		heartbeat_pid=""
	fi
	if [ -n "$step_name" ]; then
		local took=$((SECONDS - step_start))
		printf '<== %s: %ss\n' "$step_name" "$took" >&2
		timings+="$(printf '%6ss  %s' "$took" "$step_name")"$'\n'
		step_name=""
	fi
}

# step NAME starts a step (ending the previous one) with a heartbeat line
# every GDS_TEST_HEARTBEAT seconds, so a long silent build is visibly alive.
step() {
	end_step
	step_name="$*"
	step_start=$SECONDS
	printf '\n==> %s\n' "$*" >&2
	(
		s=""
		trap '[ -n "$s" ] && kill "$s" 2>/dev/null; exit 0' TERM
		while :; do
			sleep "${GDS_TEST_HEARTBEAT:-30}" &
			s=$!
			wait "$s"
			printf '    ... still running: %s (%ss so far, %ss in total)\n' "$step_name" "$((SECONDS - step_start))" "$((SECONDS - run_start))" >&2
		done
	) &
	heartbeat_pid=$!
}
fail() {
	end_step
	printf '\n*** scripts/test.sh FAILED: %s ***\n' "$*" >&2
	exit 1
}

command -v go >/dev/null 2>&1 || fail "Go is not installed (need the version in go.mod)"
command -v node >/dev/null 2>&1 || fail "Node.js is not installed (need Node 20+ and npm for the PGlite Postgres tests)"
command -v npm >/dev/null 2>&1 || fail "npm is not installed (need it for the PGlite Postgres tests)"

step "go mod download"
go mod download || fail "go mod download"

pglite_started=0
cleanup() {
	local rc=$?
	end_step
	if [ "$pglite_started" = 1 ]; then
		pglite_started=0
		bash scripts/pglite.sh stop >/dev/null 2>&1 || echo "warning: could not stop PGlite" >&2
	fi
	exit "$rc"
}
trap cleanup EXIT INT TERM

step "starting PGlite (Postgres + pgvector) for the Postgres tests"
# Stop it at the end only if this run started it.
if ! bash scripts/pglite.sh url >/dev/null 2>&1; then
	pglite_started=1
fi
GDS_TEST_DATABASE_URL="$(bash scripts/pglite.sh start)" || fail "could not start PGlite (see scripts/pglite/.run/server.log)"
[ -n "$GDS_TEST_DATABASE_URL" ] || fail "scripts/pglite.sh start printed no URL"
export GDS_TEST_DATABASE_URL
echo "PGlite ready" >&2

step "headless Chromium for the web UI's browser test (scripts/browser.sh)"
if ! GDS_BROWSER="$(bash scripts/browser.sh)"; then
	[ -z "${CI:-}" ] || fail "no headless Chromium: scripts/browser.sh could not install one (the browser test must run in CI)"
	echo "warning: no headless Chromium; the browser test will skip (see scripts/browser.sh)" >&2
else
	export GDS_BROWSER
fi

step "third-party MCP servers for the federate tests (scripts/mcp-servers.sh)"
GDS_TEST_MCP_FILESYSTEM="$(bash scripts/mcp-servers.sh install)" || fail "could not install the test MCP servers (scripts/mcp-servers.sh)"
export GDS_TEST_MCP_FILESYSTEM

step "gofmt -l"
unformatted="$(gofmt -l . | grep -v '/node_modules/' || true)"
if [ -n "$unformatted" ]; then
	printf '%s\n' "$unformatted" >&2
	fail "these files are not gofmt-formatted (run gofmt -w on them)"
fi

step "go mod tidy -diff"
go mod tidy -diff || fail "go.mod/go.sum are not tidy (run go mod tidy and commit the result)"

step "go build ./... (compiles every package; several minutes on a fresh machine, seconds when cached)"
go build ./... || fail "go build failed"

step "Raycast extension (scripts/raycast.sh: npm ci from the lock file when it changed, tsc, ray build, eslint, prettier, vitest against gds)"
bash scripts/raycast.sh check || fail "the Raycast extension's checks failed (scripts/raycast.sh check)"

step "go vet ./..."
go vet ./... || fail "go vet reported problems"

step "release checks (scripts/release-check.sh: darwin builds without cgo, goreleaser check)"
bash scripts/release-check.sh || fail "release checks failed (scripts/release-check.sh: darwin builds, goreleaser check)"

step "gds serve endpoint checks by curl on a fresh home (scripts/serve-check.sh)"
bash scripts/serve-check.sh || fail "gds serve endpoint checks failed (scripts/serve-check.sh; the failing check is named above)"

step "go test -race ./... (the race build of every package comes first and takes minutes on a fresh machine; then the tests, ~5-10 min)"
go test -race -count=1 -timeout "${GDS_TEST_TIMEOUT:-20m}" ./... || fail "tests failed"

step "exhaustive sweeps without the race detector (the race build samples them: internal/ai/offline/rules gate_test.go; the hostile corpus at the real PDF limits: internal/extract hostile_test.go)"
go test -count=1 -run '^TestGates' ./internal/ai/offline/rules || fail "the exhaustive sweeps failed"
go test -count=1 -run '^TestHostileCorpus$' ./internal/extract || fail "the hostile corpus at the real limits failed"

step "fuzzing (scripts/fuzz.sh: every Fuzz* target, ${FUZZTIME:-2000x} each)"
bash scripts/fuzz.sh || fail "fuzzing failed (scripts/fuzz.sh: every Fuzz* target for FUZZTIME each; reproducer above)"
end_step

printf '\n==> step times (s):\n%s%6ss  total\n' "$timings" "$((SECONDS - run_start))" >&2
printf '\n==> all checks passed\n' >&2
