#!/usr/bin/env bash
# Quick start: build gds, index the sample corpus in testdata/sample with the
# built-in offline provider into a throwaway home (.gds-demo), and run a real
# search. No keys, no network, no server.
#
#   ./scripts/demo.sh                 # searches for 梅雨明けの別名は？
#   ./scripts/demo.sh "steam engine efficiency"
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> building gds (go build -o bin/gds ./cmd/gds): the first build downloads the modules" >&2
echo "    and compiles every dependency, which can take several minutes on a small machine;" >&2
echo "    later builds take seconds." >&2
mkdir -p bin
start=$SECONDS
# go build -v names each package as it compiles: shown as one updating line
# on a terminal, as a count every 25 packages otherwise.
if [ -t 2 ]; then
	progress() { awk '{ n++; printf "\r    compiling (%d): %s\033[K", n, $0 } END { if (n) printf "\r\033[K" }' >&2; }
else
	progress() { awk '{ n++ } n % 25 == 0 { printf "    compiled %d packages\n", n; fflush() }' >&2; }
fi
buildlog="$(mktemp)"
trap 'rm -f "$buildlog"' EXIT
if ! go build -v -o bin/gds ./cmd/gds 2>&1 | tee "$buildlog" | progress; then
	cat "$buildlog" >&2
	echo "demo.sh: go build failed" >&2
	exit 1
fi
echo "    built bin/gds in $((SECONDS - start))s" >&2

export GDS_HOME="$PWD/.gds-demo"
export GDS_AI_PROVIDER=offline
unset DATABASE_URL SUPABASE_DB_URL GDS_SOURCE

echo "==> indexing testdata/sample into $GDS_HOME (incremental after the first run)" >&2
./bin/gds crawl --source "local:testdata/sample"

query="${*:-梅雨明けの別名は？}"
echo "==> gds search \"$query\"" >&2
./bin/gds search "$query"

# How to go on: the binary is bin/gds, and the index lives in .gds-demo
# only while GDS_HOME names it.
cat >&2 <<EOT

==> done. The binary is ./bin/gds; this index is in $GDS_HOME. To keep using it:
      export GDS_HOME="$GDS_HOME" GDS_AI_PROVIDER=offline
      ./bin/gds search "steam engine"      # or: ./bin/gds ask "What is the Rankine cycle?"
    To index your own folder instead (your default gds home, not this one):
      ./bin/gds init                       # or: ./bin/gds init --source local:~/Documents --no-input
      ./bin/gds crawl && ./bin/gds search "your words"
EOT
