#!/usr/bin/env bash
# scripts/test.sh — THE test command of gds (README and CI run exactly this).
#
#   1. downloads the Go modules, and starts in the background what the tests
#      need beside Go: a throw-away Postgres with pgvector (PGlite,
#      scripts/pglite.sh; GDS_TEST_DATABASE_URL makes the Postgres tests
#      run), the third-party MCP servers of the federate tests, and a
#      headless Chromium for the web UI's browser test (scripts/browser.sh
#      installs Debian's package when missing), and tesseract and pdftoppm
#      for the OCR tests (scripts/ocr.sh, likewise),
#   2. checks formatting (gofmt), that go.mod is tidy, builds and vets every
#      package, and lints it (scripts/lint.sh: golangci-lint with
#      .golangci.yml, the pinned version installed once),
#   3. builds the gds binaries once — the full CLI as gds-core and the front
#      as gds beside it, stamped as internal/testbin says — into a temporary
#      folder named by GDS_TEST_BIN_DIR, which every end-to-end test and
#      script of the run uses instead of building its own,
#   4. checks the Raycast extension (scripts/raycast.sh), the release
#      (scripts/release-check.sh) and the HTTP API by curl
#      (scripts/serve-check.sh),
#   5. runs every test with the race detector, then (without it) the
#      exhaustive single-goroutine sweeps the race build only samples, and
#      fuzzing (scripts/fuzz.sh),
#   6. stops PGlite again, on success and on failure.
#
# Two forms, the same tests:
#   default           the newcomer's run: quick forms of the two long checks
#                     a release needs. Fuzzing: five parser targets (.env
#                     lines, terminal text, URLs in messages, the keystroke
#                     socket's frames, the tokenizer) 500 executions each —
#                     every target's seed corpus already runs in go test.
#                     The macOS build: instead of cross-compiling every
#                     package for darwin, go test type-checks the one package
#                     with darwin-only files (internal/auth) for darwin with
#                     and without cgo.
#   GDS_TEST_FULL=1   every fuzz target FUZZTIME each (default 2000x), and the
#                     macOS build and vet without cgo.
# CI (CI=true, `bash .ci/run`) runs the full form: it has 90 minutes, and a
# release is cut from what CI checked. GDS_TEST_FULL=0 asks CI for the quick
# form.
#
# Needs Go (see go.mod) and Node 20+ with npm (for PGlite). No network beyond
# the Go module proxy and the npm registry.
# Every step prints its name when it starts, a "still running" line every
# GDS_TEST_HEARTBEAT seconds (default 30) while it runs — the first build,
# vet and race build on a fresh machine compile everything and take minutes —
# and its wall and CPU time (user + system of what it ran) when it ends; a
# table of the steps' times closes the run. On a busy machine the CPU column
# is the steadier figure: a quiet 2-core machine needs at least CPU / 2.
#
# Environment: GDS_TEST_FULL (above); GDS_TEST_TIMEOUT (default 20m) bounds
# `go test`; GDS_TEST_HEARTBEAT (default 30) is the heartbeat interval in
# seconds; FUZZTIME (full form) the budget of each fuzz target.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

full=0
if [ "${GDS_TEST_FULL:-}" = 1 ] || { [ -n "${CI:-}" ] && [ "${GDS_TEST_FULL:-}" != 0 ]; }; then
	full=1
fi

run_start=$SECONDS
step_name=""
step_start=0
step_cpu=0
heartbeat_pid=""
timings=""

# cpu_read sets cpu to the CPU seconds (user + system) of this shell's
# finished children so far. `times` runs in this shell (a $(…) subshell
# would count its own children only).
times_file="$(mktemp)"
cpu_read() {
	times >"$times_file"
	cpu="$(tail -1 "$times_file" | awk '{
		split($1, u, "m"); split($2, s, "m"); sub("s", "", u[2]); sub("s", "", s[2])
		printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')"
}
cpu_read
cpu_start=$cpu

# end_step closes the running step: stops its heartbeat, prints its time.
end_step() {
	if [ -n "$heartbeat_pid" ]; then
		kill "$heartbeat_pid" 2>/dev/null || true
		wait "$heartbeat_pid" 2>/dev/null || true
		heartbeat_pid=""
	fi
	if [ -n "$step_name" ]; then
		cpu_read
		local took=$((SECONDS - step_start)) used=$((cpu - step_cpu))
		printf '<== %s: %ss (CPU %ss)\n' "$step_name" "$took" "$used" >&2
		timings+="$(printf '%6ss %6ss  %s' "$took" "$used" "$step_name")"$'\n'
		step_name=""
	fi
}

# step NAME starts a step (ending the previous one) with a heartbeat line
# every GDS_TEST_HEARTBEAT seconds, so a long silent build is visibly alive.
step() {
	end_step
	step_name="$*"
	step_start=$SECONDS
	cpu_read
	step_cpu=$cpu
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

if [ "$full" = 1 ]; then
	echo "scripts/test.sh: the full form (GDS_TEST_FULL=1 or CI): every fuzz target ${FUZZTIME:-2000x}, the macOS build" >&2
else
	echo "scripts/test.sh: the default form (GDS_TEST_FULL=1 adds full fuzzing and the macOS build; CI runs it)" >&2
fi

work="$(mktemp -d)"
pglite_started=0
bg_pids=""
cleanup() {
	local rc=$?
	end_step
	for p in $bg_pids; do
		kill "$p" 2>/dev/null || true
	done
	if [ "$pglite_started" = 1 ]; then
		pglite_started=0
		bash scripts/pglite.sh stop >/dev/null 2>&1 || echo "warning: could not stop PGlite" >&2
	fi
	rm -rf "$work" "$times_file"
	exit "$rc"
}
trap cleanup EXIT INT TERM

step "go mod download"
go mod download || fail "go mod download"

# The services the tests need start while the code is built and checked;
# "waiting for the test services" collects them before the tests.
# Stop PGlite at the end only if this run started it.
if ! bash scripts/pglite.sh url >/dev/null 2>&1; then
	pglite_started=1
fi
bash scripts/pglite.sh start >"$work/pglite.url" 2>"$work/pglite.log" &
pglite_pid=$!
bash scripts/mcp-servers.sh install >"$work/mcp.path" 2>"$work/mcp.log" &
mcp_pid=$!
bash scripts/browser.sh >"$work/browser.path" 2>"$work/browser.log" &
browser_pid=$!
# After the browser: both may install with apt, which takes one at a time.
{
	while kill -0 "$browser_pid" 2>/dev/null; do sleep 1; done
	bash scripts/ocr.sh
} >"$work/ocr.log" 2>&1 &
ocr_pid=$!
bg_pids="$pglite_pid $mcp_pid $browser_pid $ocr_pid"

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

step "go vet ./..."
go vet ./... || fail "go vet reported problems"

step "golangci-lint (scripts/lint.sh: the linters of .golangci.yml; seconds with a warm cache, minutes the first time)"
bash scripts/lint.sh || fail "golangci-lint reported problems (scripts/lint.sh; scripts/lint.sh --fix or scripts/lint.sh fmt fix some)"

# The stamp is internal/testbin's Stamp (TestVersionStamping checks it).
step "the gds binaries of this run (gds-core and the front gds, once; GDS_TEST_BIN_DIR)"
stamp="-X main.version=9.8.7 -X main.commit=feedbee -X main.date=2030-01-01T00:00:00Z"
mkdir -p "$work/bin"
go build -ldflags "$stamp" -o "$work/bin/gds-core" ./cmd/gds || fail "go build ./cmd/gds"
go build -ldflags "$stamp" -o "$work/bin/gds" ./cmd/gds-front || fail "go build ./cmd/gds-front"
export GDS_TEST_BIN_DIR="$work/bin"

step "Raycast extension (scripts/raycast.sh: npm ci from the lock file when it changed, tsc, ray build, eslint, prettier, vitest against gds)"
bash scripts/raycast.sh check || fail "the Raycast extension's checks failed (scripts/raycast.sh check)"

if [ "$full" = 1 ]; then
	step "release checks (scripts/release-check.sh: the macOS build and vet without cgo, the release layout, completions and man page, goreleaser check)"
	GDS_RELEASE_CHECK_DARWIN=1 bash scripts/release-check.sh || fail "release checks failed (scripts/release-check.sh)"
else
	step "release checks (scripts/release-check.sh: the release layout, completions and man page, goreleaser check; the macOS build with GDS_TEST_FULL=1)"
	GDS_RELEASE_CHECK_DARWIN=0 bash scripts/release-check.sh || fail "release checks failed (scripts/release-check.sh)"
fi

step "waiting for the test services (PGlite, the MCP servers, headless Chromium, tesseract)"
wait "$pglite_pid" || { cat "$work/pglite.log" >&2; fail "could not start PGlite (see scripts/pglite/.run/server.log)"; }
GDS_TEST_DATABASE_URL="$(cat "$work/pglite.url")"
[ -n "$GDS_TEST_DATABASE_URL" ] || fail "scripts/pglite.sh start printed no URL"
export GDS_TEST_DATABASE_URL
echo "PGlite ready" >&2
wait "$mcp_pid" || { cat "$work/mcp.log" >&2; fail "could not install the test MCP servers (scripts/mcp-servers.sh)"; }
GDS_TEST_MCP_FILESYSTEM="$(cat "$work/mcp.path")"
export GDS_TEST_MCP_FILESYSTEM
if wait "$browser_pid"; then
	GDS_BROWSER="$(cat "$work/browser.path")"
	export GDS_BROWSER
else
	cat "$work/browser.log" >&2
	[ -z "${CI:-}" ] || fail "no headless Chromium: scripts/browser.sh could not install one (the browser test must run in CI)"
	echo "warning: no headless Chromium; the browser test will skip (see scripts/browser.sh)" >&2
fi
if ! wait "$ocr_pid"; then
	cat "$work/ocr.log" >&2
	[ -z "${CI:-}" ] || fail "no tesseract (eng, jpn) or pdftoppm: scripts/ocr.sh could not install them (the OCR tests must run in CI)"
	echo "warning: no tesseract or pdftoppm; the OCR tests will skip (see scripts/ocr.sh)" >&2
fi
bg_pids=""

step "gds serve endpoint checks by curl on a fresh home (scripts/serve-check.sh)"
bash scripts/serve-check.sh || fail "gds serve endpoint checks failed (scripts/serve-check.sh; the failing check is named above)"

# Single-goroutine, CPU-bound tests the race detector makes about ten times
# slower and finds nothing in: the default form runs them once, without
# -race, in the next step; the full form runs them under -race as well.
# PACKAGE=TEST-REGEXP, one per line.
race_free="./internal/extract=^TestHostileCorpus\$
./internal/hostile=^(TestCorpus|TestDeterministic|TestWriteDir)\$"
step "go test -race ./... (the race build of every package comes first and takes minutes on a fresh machine; then the tests)"
if [ "$full" = 1 ]; then
	go test -race -count=1 -timeout "${GDS_TEST_TIMEOUT:-20m}" ./... || fail "tests failed"
else
	others="$(go list ./... | grep -vxF "$(printf '%s\n' "$race_free" | sed 's/=.*//; s#^\./#github.com/gds-cli/gds/#')")"
	# shellcheck disable=SC2086 # one package per word
	go test -race -count=1 -timeout "${GDS_TEST_TIMEOUT:-20m}" $others || fail "tests failed"
	while IFS='=' read -r pkg re; do
		go test -race -count=1 -timeout "${GDS_TEST_TIMEOUT:-20m}" -skip "$re" "$pkg" || fail "tests failed ($pkg)"
	done <<<"$race_free"
fi

step "exhaustive sweeps without the race detector (the race build samples them: internal/ai/offline/rules gate_test.go; the hostile corpus at the real PDF limits: internal/extract hostile_test.go; in the default form the tests of race_free above)"
go test -count=1 -run '^TestGates' ./internal/ai/offline/rules || fail "the exhaustive sweeps failed"
go test -count=1 -run '^TestHostileCorpus$' ./internal/extract || fail "the hostile corpus at the real limits failed"
if [ "$full" = 0 ]; then
	while IFS='=' read -r pkg re; do
		[ "$pkg" = ./internal/extract ] && continue # just above
		go test -count=1 -run "$re" "$pkg" || fail "tests failed ($pkg, without -race)"
	done <<<"$race_free"
fi

if [ "$full" = 1 ]; then
	step "fuzzing (scripts/fuzz.sh: every Fuzz* target, ${FUZZTIME:-2000x} each)"
	bash scripts/fuzz.sh || fail "fuzzing failed (scripts/fuzz.sh: every Fuzz* target for FUZZTIME each; reproducer above)"
else
	step "fuzzing, quick form (scripts/fuzz.sh: five parser targets, 500x each; every target with GDS_TEST_FULL=1)"
	FUZZTIME=500x FUZZ_ONLY='(FuzzParse|FuzzString|FuzzURLs|FuzzReadKeyRequest|FuzzTokens)$' bash scripts/fuzz.sh ||
		fail "fuzzing failed (scripts/fuzz.sh; reproducer above)"
fi
end_step

# PGlite serves the Postgres tests from its own process, which no step
# waits for: its CPU comes from /proc (Linux), when this run started it.
pglite_cpu=""
if [ "$pglite_started" = 1 ] && [ -r scripts/pglite/.run/pid ] && [ -r "/proc/$(cat scripts/pglite/.run/pid)/stat" ]; then
	pglite_cpu="$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($14 + $15) / hz }' "/proc/$(cat scripts/pglite/.run/pid)/stat")"
	timings+="$(printf '%7s %6ss  %s' "" "$pglite_cpu" "(the PGlite server, beside the steps)")"$'\n'
fi
cpu_read
printf '\n==> step times (s; CPU = user + system of what the step ran):\n%7s %7s\n%s%6ss %6ss  total (%s form)\n' "wall" "CPU" "$timings" \
	"$((SECONDS - run_start))" "$((cpu - cpu_start + ${pglite_cpu:-0}))" "$([ "$full" = 1 ] && echo full || echo default)" >&2
printf '\n==> all checks passed\n' >&2
