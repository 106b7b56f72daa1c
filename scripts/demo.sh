#!/usr/bin/env bash
# Quick start: build gds, index the sample corpus in testdata/sample with the
# built-in offline provider into a throwaway home (.gds-demo), and run a real
# search. No keys, no network, no server.
#
#   ./scripts/demo.sh                 # searches for 梅雨明けの別名は？
#   ./scripts/demo.sh "steam engine efficiency"
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> building gds" >&2
mkdir -p bin
go build -o bin/gds ./cmd/gds

export GDS_HOME="$PWD/.gds-demo"
export GDS_AI_PROVIDER=offline
unset DATABASE_URL SUPABASE_DB_URL GDS_SOURCE

echo "==> indexing testdata/sample into $GDS_HOME (incremental after the first run)" >&2
./bin/gds crawl --source "local:testdata/sample"

query="${*:-梅雨明けの別名は？}"
echo "==> gds search \"$query\"" >&2
./bin/gds search "$query"
