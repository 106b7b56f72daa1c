#!/usr/bin/env bash
# scripts/release-check.sh — release checks, run by scripts/test.sh (and so by CI):
#
#   1. the macOS binary without cgo builds and vets clean:
#      GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 go build ./... and go vet ./...
#      (amd64 too with GDS_RELEASE_CHECK_AMD64=1: each architecture is a cold
#      compile of every dependency, the largest cost of a fresh CI run, and the
#      Go code is the same for both);
#   2. `goreleaser check` validates .goreleaser.yaml with goreleaser $GORELEASER_VERSION,
#      installed from the Go module proxy into a cache directory.
#
# Installing goreleaser from source is slow: 12.5 min with a cold module cache
# on this project's 2-vCPU CI machine (measured: `time go install
# github.com/goreleaser/goreleaser/v2@v2.16.0`), about 3.6 min with warm modules.
# That does not fit CI's 15-minute budget next to the tests, so step 2 runs when
# the pinned binary is already in the cache, or when GDS_RELEASE_CHECK_GORELEASER=1
# (which installs it first); otherwise it prints a notice and is skipped.
# GDS_RELEASE_CHECK_GORELEASER=0 always skips it.
#
# Environment:
#   GDS_RELEASE_CHECK_GORELEASER  1 = install goreleaser if needed and check; 0 = skip
#   GDS_RELEASE_CHECK_AMD64       1 = also build darwin/amd64
#   GDS_TOOLS_CACHE               cache directory (default: ${XDG_CACHE_HOME:-~/.cache}/gds-tools)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

GORELEASER_VERSION=v2.16.0
cache="${GDS_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gds-tools}"
goreleaser="$cache/goreleaser-$GORELEASER_VERSION/goreleaser"

step() { printf '\n==> %s\n' "$*" >&2; }
fail() {
	printf '\n*** scripts/release-check.sh FAILED: %s ***\n' "$*" >&2
	exit 1
}

archs="arm64"
if [ "${GDS_RELEASE_CHECK_AMD64:-0}" = 1 ]; then
	archs="arm64 amd64"
fi
for arch in $archs; do
	step "GOOS=darwin GOARCH=$arch CGO_ENABLED=0 go build ./..."
	GOOS=darwin GOARCH=$arch CGO_ENABLED=0 go build ./... || fail "darwin/$arch build without cgo"
done
step "GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 go vet ./..."
GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 go vet ./... || fail "go vet for darwin"

want="${GDS_RELEASE_CHECK_GORELEASER:-auto}"
if [ "$want" = 0 ]; then
	echo "notice: goreleaser check skipped (GDS_RELEASE_CHECK_GORELEASER=0)" >&2
	exit 0
fi
if [ ! -x "$goreleaser" ]; then
	if [ "$want" != 1 ]; then
		echo "notice: goreleaser check skipped: goreleaser $GORELEASER_VERSION is not in $cache and installing it" >&2
		echo "        takes 4-13 minutes; run GDS_RELEASE_CHECK_GORELEASER=1 scripts/release-check.sh to install it and check." >&2
		exit 0
	fi
	step "installing goreleaser $GORELEASER_VERSION into $cache (several minutes)"
	mkdir -p "$(dirname "$goreleaser")"
	GOBIN="$(dirname "$goreleaser")" GOFLAGS=-mod=mod go install "github.com/goreleaser/goreleaser/v2@$GORELEASER_VERSION" ||
		fail "go install goreleaser $GORELEASER_VERSION"
fi
step "goreleaser check ($GORELEASER_VERSION)"
# .goreleaser.yaml names its GitHub repository (release.github), so the check
# needs no git remote; it runs on a fresh clone as well as on a bare export.
"$goreleaser" check || fail "goreleaser check: .goreleaser.yaml is invalid or uses deprecated settings"
