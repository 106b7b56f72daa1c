#!/usr/bin/env bash
# scripts/test.sh — THE test command of gds (README and CI run exactly this).
#
#   1. downloads the Go modules,
#   2. starts a throw-away Postgres with pgvector (PGlite, scripts/pglite.sh)
#      and exports GDS_TEST_DATABASE_URL so the Postgres contract tests run,
#   3. checks formatting (gofmt), that go.mod is tidy, and runs go vet,
#   4. runs every test with the race detector,
#   5. stops PGlite again, on success and on failure.
#
# Needs Go (see go.mod) and Node 20+ with npm (for PGlite). No network beyond
# the Go module proxy and the npm registry.
# Environment: GDS_TEST_TIMEOUT (default 20m) bounds `go test`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '\n==> %s\n' "$*" >&2; }
fail() {
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

step "gofmt -l"
unformatted="$(gofmt -l . | grep -v '/node_modules/' || true)"
if [ -n "$unformatted" ]; then
	printf '%s\n' "$unformatted" >&2
	fail "these files are not gofmt-formatted (run gofmt -w on them)"
fi

step "go mod tidy -diff"
go mod tidy -diff || fail "go.mod/go.sum are not tidy (run go mod tidy and commit the result)"

step "go vet ./..."
go vet ./... || fail "go vet reported problems"
bash scripts/release-check.sh || fail "release checks failed (scripts/release-check.sh: darwin builds, goreleaser check)"

step "go test -race ./..."
go test -race -count=1 -timeout "${GDS_TEST_TIMEOUT:-20m}" ./... || fail "tests failed"
bash scripts/fuzz.sh || fail "fuzzing failed (scripts/fuzz.sh: every Fuzz* target for FUZZTIME each; reproducer above)"

printf '\n==> all checks passed\n' >&2
