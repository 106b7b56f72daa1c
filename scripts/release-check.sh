#!/usr/bin/env bash
# scripts/release-check.sh — release checks, run by scripts/test.sh (and so by CI):
#
#   1. the macOS binary without cgo builds and vets clean:
#      GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 go build ./... and go vet ./...
#      (amd64 too with GDS_RELEASE_CHECK_AMD64=1: each architecture is a cold
#      compile of every dependency, the largest cost of a fresh CI run, and the
#      Go code is the same for both);
#   2. the release layout: every archive of .goreleaser.yaml takes, for each
#      platform, the front build (gds, ./cmd/gds-front) and the full CLI
#      (gds-core, ./cmd/gds); both are built for this machine with the
#      release's CGO_ENABLED=0 and link flags, packed and unpacked as the archive is, and the unpacked
#      gds must answer `version` itself (with gds-core hidden) and hand
#      `--help` to gds-core beside it;
#   3. the shell completion scripts and the man page (scripts/shell-docs.sh)
#      parse in bash, zsh (installed when missing) and fish (when present),
#      gds.1 formats without a groff warning, and the cask installs them;
#   4. `goreleaser check` validates .goreleaser.yaml with goreleaser $GORELEASER_VERSION,
#      installed from the Go module proxy into a cache directory; with
#      GDS_RELEASE_CHECK_SNAPSHOT=1 also `goreleaser release --snapshot` (every
#      platform, no publishing), and each archive in dist/ must hold gds and
#      gds-core, and this machine's gds must run `version`.
#
# Installing goreleaser from source is slow: 12.5 min with a cold module cache
# on this project's 2-vCPU CI machine (measured: `time go install
# github.com/goreleaser/goreleaser/v2@v2.16.0`), about 3.6 min with warm modules.
# That does not fit CI's 15-minute budget next to the tests, so step 4 runs when
# the pinned binary is already in the cache, or when GDS_RELEASE_CHECK_GORELEASER=1
# (which installs it first); otherwise it prints a notice and is skipped.
# GDS_RELEASE_CHECK_GORELEASER=0 always skips it.
#
# Environment:
#   GDS_RELEASE_CHECK_GORELEASER  1 = install goreleaser if needed and check; 0 = skip
#   GDS_RELEASE_CHECK_DARWIN      0 = skip the macOS build and vet (scripts/test.sh's default form; 1, the default here)
#   GDS_RELEASE_CHECK_AMD64       1 = also build darwin/amd64
#   GDS_RELEASE_CHECK_SNAPSHOT    1 = also build the snapshot release (needs goreleaser; minutes)
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

if [ "${GDS_RELEASE_CHECK_DARWIN:-1}" = 1 ]; then
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
else
	echo "notice: the macOS build and vet skipped (GDS_RELEASE_CHECK_DARWIN=0; go test type-checks internal/auth, the one package with darwin-only files, for darwin)" >&2
fi

step "release layout: gds (cmd/gds-front) and gds-core (cmd/gds) in every archive"
# The build ids of a platform P are gds-P (front) and gds-core-P (full CLI).
build_field() { # build_field ID FIELD → the value of FIELD in build ID
	awk -v id="$1" -v f="$2" '
		/^  - id: / { cur = $3 }
		cur == id && $1 == f":" { print $2; exit }' .goreleaser.yaml
}
archive_ids="$(awk '/^archives:/ { a = 1 } a && $1 == "ids:" { print; exit }' .goreleaser.yaml)"
for plat in linux darwin darwin-cgo; do
	[ "$(build_field "gds-$plat" main)" = ./cmd/gds-front ] && [ "$(build_field "gds-$plat" binary)" = gds ] ||
		fail "build gds-$plat must build ./cmd/gds-front as gds"
	[ "$(build_field "gds-core-$plat" main)" = ./cmd/gds ] && [ "$(build_field "gds-core-$plat" binary)" = gds-core ] ||
		fail "build gds-core-$plat must build ./cmd/gds as gds-core"
	for id in "gds-$plat" "gds-core-$plat"; do
		case "$archive_ids" in *"$id,"* | *"$id]"*) ;; *) fail "the archive does not take build $id ($archive_ids)" ;; esac
	done
done
grep -q 'binaries: \[gds, gds-core\]' .goreleaser.yaml || fail "the Homebrew cask must install gds and gds-core"
layout="$(mktemp -d)"
trap 'rm -rf "$layout"' EXIT
# The release's link flags; not -trimpath, which only changes file paths in the
# binary but would recompile every package once more (minutes on a cold CI cache).
ldflags="-s -w -X main.version=0.0.0-check -X main.commit=check -X main.date=check"
mkdir -p "$layout/pack" "$layout/unpacked"
CGO_ENABLED=0 go build -ldflags "$ldflags" -o "$layout/pack/gds" "$(build_field gds-linux main)" || fail "build the front"
CGO_ENABLED=0 go build -ldflags "$ldflags" -o "$layout/pack/gds-core" "$(build_field gds-core-linux main)" || fail "build gds-core"
tar -C "$layout/pack" -czf "$layout/gds.tar.gz" gds gds-core
listing="$(tar -tzf "$layout/gds.tar.gz" | sort | tr '\n' ' ')"
[ "$listing" = "gds gds-core " ] || fail "archive holds: $listing"
tar -C "$layout/unpacked" -xzf "$layout/gds.tar.gz"
mv "$layout/unpacked/gds-core" "$layout/gds-core.hidden"
out="$(GDS_HOME="$layout/home" "$layout/unpacked/gds" version)" || fail "the front could not run version on its own"
case "$out" in "gds 0.0.0-check (commit check, built check, "*) ;; *) fail "front version printed: $out" ;; esac
mv "$layout/gds-core.hidden" "$layout/unpacked/gds-core"
# Captured first: `grep -q` in a pipeline exits at the first match and the
# writer's next write then dies of SIGPIPE, which pipefail reports as a failure.
help="$(GDS_HOME="$layout/home" "$layout/unpacked/gds" --help)" || fail "gds --help failed"
case "$help" in *alfred*) ;; *) fail "the front did not hand --help to gds-core" ;; esac
echo "archive layout ok: gds, gds-core; gds version: $out" >&2

step "shell completion and man page (scripts/shell-docs.sh): bash -n, zsh -n, fish -n, groff -man -ww"
# zsh is small: installed from Debian's packages when missing (as root with
# apt-get), so the zsh script is always parsed; fish is checked when present.
if ! command -v zsh >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "release-check: installing zsh with apt-get" >&2
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zsh >/dev/null 2>&1 ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zsh >/dev/null; }; } ||
		echo "warning: could not install zsh" >&2
fi
docs="$(bash scripts/shell-docs.sh "$layout/shell-docs")" || fail "scripts/shell-docs.sh"
for f in gds.bash _gds gds.fish; do
	[ -s "$docs/completions/$f" ] || fail "scripts/shell-docs.sh wrote no completions/$f"
done
bash -n "$docs/completions/gds.bash" || fail "bash cannot parse gds completion bash"
if command -v zsh >/dev/null 2>&1; then
	zsh -n "$docs/completions/_gds" || fail "zsh cannot parse gds completion zsh"
	zsh -fc "autoload -U compinit && compinit -u -d '$layout/zcompdump' && source '$docs/completions/_gds' && [ \"\${_comps[gds]}\" = _gds ]" ||
		fail "gds completion zsh does not register _gds for gds"
else
	[ -z "${CI:-}" ] || fail "zsh is not installed: the zsh completion cannot be checked"
	echo "warning: zsh is not installed: gds completion zsh not parsed" >&2
fi
if command -v fish >/dev/null 2>&1; then
	fish -n "$docs/completions/gds.fish" || fail "fish cannot parse gds completion fish"
fi
grep -q '^\.TH GDS 1 ' "$docs/man/gds.1" || fail "gds.1 has no .TH GDS 1 header"
if command -v groff >/dev/null 2>&1; then
	warnings="$(groff -man -Tutf8 -ww -z "$docs/man/gds.1" 2>&1)" || fail "groff cannot format gds.1"
	[ -z "$warnings" ] || fail "groff warns about gds.1: $warnings"
fi
grep -q 'manpages: \[man/gds.1\]' .goreleaser.yaml || fail "the Homebrew cask must install man/gds.1"
grep -q 'zsh: completions/_gds' .goreleaser.yaml || fail "the Homebrew cask must install the zsh completion"
echo "shell docs ok: completions for bash, zsh$(command -v fish >/dev/null && echo ', fish'), gds.1 ($(wc -l <"$docs/man/gds.1") lines)" >&2

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

if [ "${GDS_RELEASE_CHECK_SNAPSHOT:-0}" = 1 ]; then
	step "goreleaser release --snapshot (every platform, nothing published)"
	dist="$layout/dist"
	"$goreleaser" release --snapshot --clean --skip=publish,announce,sign --dist "$dist" >&2 ||
		fail "goreleaser release --snapshot"
	n=0
	for a in "$dist"/*.tar.gz; do
		listing="$(tar -tzf "$a")"
		for b in gds gds-core; do
			grep -qx "$b" <<<"$listing" || fail "$(basename "$a") lacks $b"
		done
		n=$((n + 1))
	done
	[ "$n" -ge 4 ] || fail "expected 4 archives in dist, found $n"
	host="$(ls "$dist"/*_"$(go env GOOS)"_"$(go env GOARCH)".tar.gz)"
	mkdir -p "$layout/snap" && tar -C "$layout/snap" -xzf "$host"
	GDS_HOME="$layout/home" "$layout/snap/gds" version >&2 || fail "gds version from $(basename "$host")"
	echo "snapshot archives ok: $n, each with gds and gds-core" >&2
fi
