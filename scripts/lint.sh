#!/usr/bin/env bash
# scripts/lint.sh — golangci-lint with the project's .golangci.yml, run by
# scripts/test.sh (and so by CI):
#
#   scripts/lint.sh            lint every package
#   scripts/lint.sh --fix      also apply the fixes the linters offer
#   scripts/lint.sh fmt        group the imports (gci) in place
#
# The pinned golangci-lint is installed from the Go module proxy with
# `go install` into the tools cache, once per version and Go toolchain (a
# golangci-lint built by an older Go refuses code of a newer one); that takes
# a few minutes once. golangci-lint keeps its own analysis cache
# (${XDG_CACHE_HOME:-~/.cache}/golangci-lint), so a run over unchanged
# packages takes seconds.
#
# Environment:
#   GDS_TOOLS_CACHE   cache directory (default: ${XDG_CACHE_HOME:-~/.cache}/gds-tools)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

GOLANGCI_LINT_VERSION=v2.15.0
cache="${GDS_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gds-tools}"
bin="$cache/golangci-lint-$GOLANGCI_LINT_VERSION-$(go env GOVERSION)/golangci-lint"

if [ ! -x "$bin" ]; then
	printf 'installing golangci-lint %s into %s (once; a few minutes)\n' "$GOLANGCI_LINT_VERSION" "$(dirname "$bin")" >&2
	tmp="$(mktemp -d "$cache/.install.XXXXXX" 2>/dev/null || { mkdir -p "$cache" && mktemp -d "$cache/.install.XXXXXX"; })"
	trap 'rm -rf "$tmp"' EXIT
	GOBIN="$tmp" GOFLAGS=-mod=mod go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_LINT_VERSION"
	mkdir -p "$(dirname "$bin")"
	mv "$tmp/golangci-lint" "$bin" # whole or not at all: a stopped install leaves nothing behind
fi

if [ "${1:-}" = fmt ]; then
	shift
	exec "$bin" fmt "$@"
fi
# Several checkouts on one machine lint one after another instead of failing
# ("parallel golangci-lint is running").
exec "$bin" run --allow-serial-runners "$@"
