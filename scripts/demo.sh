#!/usr/bin/env bash
# Quick start: build gds, index the sample corpus in testdata/sample with the
# built-in offline provider into a throwaway home (.gds-demo), and run a real
# search. No keys, no network, no server. It ends by saying how to keep
# using the binary and the index.
#
#   ./scripts/demo.sh                 # searches for 梅雨明けの別名は？
#   ./scripts/demo.sh "steam engine efficiency"
#
# GDS_DEMO_BIN=PATH uses that gds binary instead of building bin/gds, and
# GDS_DEMO_HOME=DIR keeps the index there instead of .gds-demo (the tests
# run the demo so).
set -euo pipefail
cd "$(dirname "$0")/.."

gds="${GDS_DEMO_BIN:-}"
if [ -z "$gds" ]; then
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
	gds=./bin/gds
fi

export GDS_HOME="${GDS_DEMO_HOME:-$PWD/.gds-demo}"
export GDS_AI_PROVIDER=offline
unset DATABASE_URL SUPABASE_DB_URL GDS_SOURCE GDS_SOURCES

echo "==> indexing testdata/sample into $GDS_HOME (incremental after the first run)" >&2
"$gds" crawl --source "local:testdata/sample"

query="${*:-梅雨明けの別名は？}"
echo "==> gds search \"$query\"" >&2
"$gds" search "$query"

# How to go on: the binary, and the index, which lives in .gds-demo only
# while GDS_HOME names it.
cat >&2 <<EOT

==> done. The binary is $gds; this index is in $GDS_HOME. To keep using it:
      export GDS_HOME="$GDS_HOME" GDS_AI_PROVIDER=offline
      $gds search "steam engine"      # or: $gds ask "What is the Rankine cycle?"
    To index your own folder instead (your default gds home, not this one):
      $gds init                       # or: $gds init --source local:~/Documents --no-input
      $gds crawl && $gds search "your words"
EOT
