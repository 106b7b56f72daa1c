#!/usr/bin/env bash
# scripts/serve-check.sh — the acceptance check of issue 11: `gds serve`
# passes every endpoint check by plain curl on a fresh home.
#
# It builds gds, starts `gds serve` on a temporary GDS_HOME (SQLite, offline
# provider) on a free 127.0.0.1 port, and with curl alone: uploads a real PDF
# from testdata/realdocs, lists (also by tag), reads it with its chunks,
# searches, asks (/chat and the SSE /chat/stream), deletes it and gets 404
# after; checks 400 (unsupported file), 404, 405, 413 (over the upload limit),
# 422 (validation), 421 for a foreign Host (DNS rebinding) on /health, the
# API and the UI, and error bodies that name no path and echo no body;
# the folders of a crawled folder (GET /api/v1/folders) and a chat scoped
# to one (unknown: 404 naming the closest), an upload found by its title,
# tags as a JSON array, a JSON syntax error naming its position and
# messages without CLI flags; /openapi.json through Redocly's recommended
# rules (scripts/redocly.sh: a pinned Redocly CLI, no error, no warning);
# /health and /openapi.json; then, on a second server with --token, 401
# without the bearer and 200 with it; and that a non-loopback --addr
# without a token, or with a token under 16 characters, refuses to start. It stops at the first mismatch
# with one clear line. Needs curl; no network beyond loopback.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v curl >/dev/null 2>&1; then
	# A fresh CI machine may lack curl: install it from Debian's packages
	# when we can (root with apt-get), else say what is missing.
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "serve-check: installing curl with apt-get" >&2
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl >/dev/null; } ||
			{ echo "serve-check: curl is not installed and apt-get could not install it" >&2; exit 1; }
	else
		echo "serve-check: curl is not installed (install it, e.g. apt-get install curl)" >&2
		exit 1
	fi
fi

tmp="$(mktemp -d)"
pid=""
stop_server() {
	if [ -n "$pid" ]; then
		kill -INT "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		pid=""
	fi
}
cleanup() { stop_server; rm -rf "$tmp"; }
trap cleanup EXIT

fail() {
	printf 'serve-check FAILED: %s\n' "$*" >&2
	if [ -s "$tmp/serve.log" ]; then
		printf -- '--- gds serve log (last lines):\n' >&2
		tail -n 20 "$tmp/serve.log" >&2
	fi
	exit 1
}

# GDS_TEST_BIN_DIR: the binaries scripts/test.sh built once for the run.
if [ -n "${GDS_TEST_BIN_DIR:-}" ]; then
	cp "$GDS_TEST_BIN_DIR/gds-core" "$tmp/gds" || fail "no gds-core in GDS_TEST_BIN_DIR=$GDS_TEST_BIN_DIR"
else
	echo "==> building gds" >&2
	go build -o "$tmp/gds" ./cmd/gds || fail "go build ./cmd/gds"
fi

# A clean environment: a fresh home, SQLite, the offline provider, English.
gds_env=(env -u DATABASE_URL -u GDS_DATABASE_URL -u SUPABASE_DB_URL -u GDS_DB_SCHEMA -u GDS_UPLOAD_DIR -u GDS_SERVE_TOKEN
	-u GDS_SOURCE -u OPENAI_API_KEY -u OPENAI_BASE_URL GDS_AI_PROVIDER=offline LANG=C LC_ALL= LC_MESSAGES=)

# start_server HOME [serve flags...] starts gds serve on a free port and sets
# $base once it listens.
start_server() {
	local home="$1"
	shift
	: >"$tmp/serve.log"
	"${gds_env[@]}" GDS_HOME="$home" "$tmp/gds" serve --addr 127.0.0.1:0 "$@" 2>"$tmp/serve.log" &
	pid=$!
	base=""
	for _ in $(seq 1 300); do
		base="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$tmp/serve.log" | head -n 1 || true)"
		[ -n "$base" ] && break
		kill -0 "$pid" 2>/dev/null || fail "gds serve exited before it listened"
		sleep 0.1
	done
	[ -n "$base" ] || fail "gds serve did not say where it listens within 30 s"
	echo "==> gds serve $* listening on $base" >&2
}

n=0
# check NAME WANT_STATUS BODY_PATTERN CURL_ARGS... runs curl and compares the
# status and (when BODY_PATTERN is not empty) greps the body (fixed string).
check() {
	local name="$1" want="$2" pat="$3" code
	shift 3
	# curl may fail to finish sending a body the server refused early (413);
	# the status it read is what counts.
	code="$(curl -sS -o "$tmp/body" -D "$tmp/headers" -w '%{http_code}' "$@" 2>"$tmp/curl.err" || true)"
	if [ "$code" = "000" ] || [ -z "$code" ]; then
		fail "$name: no HTTP answer ($(head -c 200 "$tmp/curl.err"))"
	fi
	[ "$code" = "$want" ] || fail "$name: HTTP $code, want $want: $(head -c 300 "$tmp/body")"
	if [ -n "$pat" ] && ! grep -qF -- "$pat" "$tmp/body"; then
		fail "$name: the body lacks '$pat': $(head -c 300 "$tmp/body")"
	fi
	n=$((n + 1))
	printf 'ok  %-52s %s\n' "$name" "$code"
}

# header_is NAME HEADER VALUE_PREFIX checks a header of the last response.
header_is() {
	local got
	got="$(grep -i "^$2:" "$tmp/headers" | head -n 1 | cut -d: -f2- | tr -d '\r' | sed 's/^ *//')"
	case "$got" in
	"$3"*) ;;
	*) fail "$1: $2 is '$got', want '$3'" ;;
	esac
}

json='Content-Type: application/json'
pdf=testdata/realdocs/unstructured-fake-memo.pdf
[ -f "$pdf" ] || fail "$pdf is missing"

# ---------------------------------------------------------------- open server
start_server "$tmp/home"
check "GET /" 200 '"docs"' "$base/"
check "GET /health" 200 '"status":"healthy"' "$base/health"
check "GET /openapi.json (OpenAPI 3.1)" 200 '"openapi":"3.1' "$base/openapi.json"
cp "$tmp/body" "$tmp/openapi.json"
bash scripts/redocly.sh lint "$tmp/openapi.json" || fail "/openapi.json does not pass redocly lint with the recommended rules (scripts/redocly.sh)"
n=$((n + 1))
printf 'ok  %-52s %s\n' "/openapi.json passes redocly lint (recommended)" "lint"
check "GET /api/v1/documents (empty)" 200 '"total":0' "$base/api/v1/documents"
check "POST /api/v1/chat on an empty index: 409 saying upload" 409 'upload a document' \
	-H "$json" -d '{"question":"anything"}' "$base/api/v1/chat"
! grep -qF 'gds crawl' "$tmp/body" || fail "the empty-index problem names a CLI command: $(head -c 300 "$tmp/body")"
check "GET /api/v1/folders (empty)" 200 '"total":0' "$base/api/v1/folders"

check "POST /api/v1/documents/upload (real PDF)" 201 '"status":"indexed"' \
	-F "file=@$pdf;type=application/pdf" -F "title=Memo" -F "tags=supplies" "$base/api/v1/documents/upload"
header_is "upload" Content-Type application/json
id="$(grep -o '"id":"[^"]*"' "$tmp/body" | head -n 1 | cut -d'"' -f4)"
[ -n "$id" ] || fail "upload: no id in $(head -c 300 "$tmp/body")"
grep -qF '"chunk_count":' "$tmp/body" || fail "upload: no chunk_count"

check "GET /api/v1/documents" 200 "\"id\":\"$id\"" "$base/api/v1/documents?page=1&per_page=20"
check "GET /api/v1/documents?tag=supplies" 200 "\"id\":\"$id\"" "$base/api/v1/documents?tag=supplies"
check "GET /api/v1/documents?tag=other (none)" 200 '"total":0' "$base/api/v1/documents?tag=other"
check "GET /api/v1/documents/{id} (with chunks)" 200 '"chunks":[{' "$base/api/v1/documents/$id"
check "POST /api/v1/search" 200 "\"document_id\":\"$id\"" \
	-H "$json" -d '{"query":"bottles of water","top_k":3}' "$base/api/v1/search"
check "POST /api/v1/search (filter.document_ids)" 200 "\"document_id\":\"$id\"" \
	-H "$json" -d "{\"query\":\"laptops\",\"filter\":{\"document_ids\":[\"$id\"]}}" "$base/api/v1/search"
check "POST /api/v1/chat" 200 "\"document_id\":\"$id\"" \
	-H "$json" -d '{"question":"How many bottles of water were delivered?","chat_history":[],"top_k":2}' "$base/api/v1/chat"
grep -qF '"answer":"' "$tmp/body" || fail "chat: no answer"
check "POST /api/v1/chat/stream (SSE)" 200 '"done":true' -N \
	-H "$json" -d '{"question":"How many bottles of water were delivered?"}' "$base/api/v1/chat/stream"
header_is "chat/stream" Content-Type text/event-stream
grep -q '^data: {"content":' "$tmp/body" || fail "chat/stream: no 'data: {\"content\":' frame"
grep -qF "\"document_id\":\"$id\"" "$tmp/body" || fail "chat/stream: the done frame lacks the source"

# Folders: a crawled local folder (crawled by another process while the
# server runs) is listed with its document counts, and scopes a chat (as
# the CLI's --folder takes it: any case, the source folder's name); an
# unknown folder is a 404 naming the closest.
mkdir -p "$tmp/docs/Reports/2024" "$tmp/docs/Minutes"
echo "Engine repair estimate for the pump station: 4500 dollars." >"$tmp/docs/Reports/estimate.txt"
echo "Quarterly report 2024: revenue grew by a third." >"$tmp/docs/Reports/2024/q1.md"
echo "Meeting minutes: budget approval for the pump station." >"$tmp/docs/Minutes/m1.txt"
"${gds_env[@]}" GDS_HOME="$tmp/home" "$tmp/gds" crawl --source "local:$tmp/docs" >"$tmp/crawl.log" 2>&1 || fail "gds crawl of the folder: $(tail -n 5 "$tmp/crawl.log")"
check "GET /api/v1/folders" 200 '{"name":"Reports","path":"Reports","source":"local","source_label":"Local folder ' "$base/api/v1/folders"
grep -qF '"path":"Reports/2024"' "$tmp/body" && grep -qF '"document_count":2' "$tmp/body" || fail "folders: no Reports/2024 or no count of 2: $(head -c 400 "$tmp/body")"
check "POST /api/v1/chat with folder Minutes (any case)" 200 '"filename":"m1.txt"' \
	-H "$json" -d '{"question":"pump station","folder":"minutes"}' "$base/api/v1/chat"
! grep -qF '"filename":"estimate.txt"' "$tmp/body" || fail "chat in folder minutes cites a file of Reports: $(head -c 400 "$tmp/body")"
check "POST /api/v1/chat with folder docs/reports/2024 (the source folder's name)" 200 '"filename":"q1.md"' \
	-H "$json" -d '{"question":"quarterly report revenue","folder":"docs/reports/2024"}' "$base/api/v1/chat"
check "POST /api/v1/chat with an unknown folder: 404" 404 '"closest_folders":["Reports",' \
	-H "$json" -d '{"question":"pump station","folder":"Reprots"}' "$base/api/v1/chat"
check "POST /api/v1/chat/stream with an unknown folder: 404" 404 '"code":"not_found"' \
	-H "$json" -d '{"question":"pump station","folder":"Nope"}' "$base/api/v1/chat/stream"
check "GET /api/v1/documents: readable source labels" 200 '"source":"local","source_label":"Local folder ' "$base/api/v1/documents"

# An upload's title and tags find it (the CLI reads the same index); tags
# may be a JSON array.
echo "A list of spare parts." >"$tmp/parts.txt"
check "upload with a title and tags as a JSON array" 201 '"tags":["見積書","2025 budget"]' \
	-F "file=@$tmp/parts.txt" -F "title=修理見積" -F 'tags=["見積書","2025 budget"]' "$base/api/v1/documents/upload"
"${gds_env[@]}" GDS_HOME="$tmp/home" "$tmp/gds" search --json "修理見積" >"$tmp/search.json" 2>&1 || fail "gds search 修理見積: $(head -c 300 "$tmp/search.json")"
grep -qF '"name": "parts.txt"' "$tmp/search.json" || fail "gds search 修理見積 does not find the upload titled 修理見積: $(head -c 400 "$tmp/search.json")"
n=$((n + 1))
printf 'ok  %-52s %s\n' "gds search finds the upload by its title" "exit"

# A body that is not JSON: 400 naming the position, not the decoder's text.
check "POST /api/v1/chat with bad JSON: 400 naming the position" 400 'line 1, column 15 (byte 15)' \
	-H "$json" -d '{"question": nope}' "$base/api/v1/chat"
! grep -qF 'invalid character' "$tmp/body" || fail "bad JSON: the decoder's text: $(head -c 300 "$tmp/body")"
check "POST /api/v1/chat under a threshold: no CLI flag" 200 'score_threshold' \
	-H "$json" -d '{"question":"zzzz qqqq","score_threshold":1}' "$base/api/v1/chat"
! grep -qF -- '--score-threshold' "$tmp/body" || fail "chat names a CLI flag: $(head -c 300 "$tmp/body")"

# Errors.
printf 'MZ\x90\x00' >"$tmp/tool.exe"
check "upload an .exe: 400 naming it" 400 'tool.exe' -F "file=@$tmp/tool.exe" "$base/api/v1/documents/upload"
header_is "400" Content-Type application/problem+json
dd if=/dev/zero of="$tmp/big.txt" bs=1048576 count=0 seek=51 2>/dev/null # sparse, 51 MB
check "upload over 50 MB: 413" 413 '"status":413' -F "file=@$tmp/big.txt" "$base/api/v1/documents/upload"
check "search top_k 101: 422" 422 '"status":422' -H "$json" -d '{"query":"x","top_k":101}' "$base/api/v1/search"
check "chat with an empty question: 422" 422 '"status":422' -H "$json" -d '{"question":""}' "$base/api/v1/chat"
check "list per_page=0: 422" 422 '"status":422' "$base/api/v1/documents?per_page=0"
check "GET a missing document: 404" 404 '"status":404' "$base/api/v1/documents/no-such-document"
check "GET an unknown path: 404" 404 '"status":404' "$base/api/v1/no-such-endpoint"
check "GET on a POST endpoint: 405" 405 '"status":405' "$base/api/v1/search"
header_is "405" Allow POST
head -c 210000 /dev/zero | tr '\0' a >"$tmp/long"
printf '{"query":"%s"}' "$(cat "$tmp/long")" >"$tmp/long.json"
check "search with a 206 KB query: 422" 422 '"status":422' -H "$json" --data-binary "@$tmp/long.json" "$base/api/v1/search"
[ "$(wc -c <"$tmp/body")" -lt 4096 ] || fail "the 422 body echoes the request: $(wc -c <"$tmp/body") bytes"

# A foreign Host (a page that rebinds its name to 127.0.0.1) gets 421
# everywhere; loopback names are answered.
port="${base##*:}"
check "GET /health with Host attacker.example: 421" 421 '--allow-host' -H "Host: attacker.example:$port" "$base/health"
header_is "421" Content-Type application/problem+json
check "GET /api/v1/documents with a foreign Host: 421" 421 '"status":421' -H "Host: attacker.example" "$base/api/v1/documents"
check "GET /ui/ with a foreign Host: 421" 421 '"status":421' -H "Host: attacker.example" "$base/ui/"
check "upload with a foreign Host: 421" 421 '"status":421' -H "Host: attacker.example" \
	-F "file=@$pdf;type=application/pdf" "$base/api/v1/documents/upload"
check "DELETE with a foreign Host: 421" 421 '"status":421' -X DELETE -H "Host: attacker.example" "$base/api/v1/documents/$id"
check "GET the document after it: still there" 200 "\"id\":\"$id\"" "$base/api/v1/documents/$id"
check "GET /health with Host localhost" 200 '"status":"healthy"' -H "Host: localhost:$port" "$base/health"

check "DELETE /api/v1/documents/{id}" 204 '' -X DELETE "$base/api/v1/documents/$id"
check "GET the deleted document: 404" 404 '"status":404' "$base/api/v1/documents/$id"
check "DELETE it again: 404" 404 '"status":404' -X DELETE "$base/api/v1/documents/$id"
check "search after the delete" 200 '"results":' -H "$json" -d '{"query":"bottles of water"}' "$base/api/v1/search"
! grep -qF "\"document_id\":\"$id\"" "$tmp/body" || fail "search after the delete still finds $id"
stop_server

# ---------------------------------------------------------------- with a token
start_server "$tmp/home2" --token check-token-0123456789
check "GET /api/v1/documents without a bearer: 401" 401 '"status":401' "$base/api/v1/documents"
header_is "401" WWW-Authenticate Bearer
check "POST /api/v1/search with a wrong bearer: 401" 401 '"status":401' \
	-H 'Authorization: Bearer wrong' -H "$json" -d '{"query":"x"}' "$base/api/v1/search"
check "GET /api/v1/documents with the bearer" 200 '"total":0' -H 'Authorization: Bearer check-token-0123456789' "$base/api/v1/documents"
check "GET /health needs no bearer" 200 '"status":"healthy"' "$base/health"
stop_server

# ---------------------------------------------------------------- addresses
if "${gds_env[@]}" GDS_HOME="$tmp/home3" "$tmp/gds" serve --addr 0.0.0.0:0 >"$tmp/out" 2>&1; then
	fail "gds serve --addr 0.0.0.0:0 without a token started"
fi
grep -qi 'token' "$tmp/out" || fail "gds serve --addr 0.0.0.0:0 refused without naming the token: $(head -c 300 "$tmp/out")"
n=$((n + 1))
printf 'ok  %-52s %s\n' "non-loopback --addr without a token refused" "exit"
for tok in a ' ' 0123456789abcde; do
	code=0
	"${gds_env[@]}" GDS_HOME="$tmp/home3" "$tmp/gds" serve --addr 0.0.0.0:0 --token "$tok" >"$tmp/out" 2>&1 || code=$?
	[ "$code" = 2 ] || fail "gds serve --token '$tok' exited $code, want 2: $(head -c 300 "$tmp/out")"
	grep -qE 'fewer than 16|white space' "$tmp/out" || fail "gds serve --token '$tok' refused without the reason: $(head -c 300 "$tmp/out")"
	n=$((n + 1))
	printf 'ok  %-52s %s\n' "--token '$tok' refused (exit 2)" "exit"
done

printf '==> serve-check: all %d checks passed\n' "$n" >&2
