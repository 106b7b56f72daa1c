#!/usr/bin/env bash
# scripts/shell-docs.sh [DIR] — the shell completion scripts and the man page
# of gds, written from its command tree (`gds completion SHELL`, the hidden
# `gds man`), into DIR (default: dist/shell-docs):
#
#   DIR/completions/gds.bash  DIR/completions/_gds  DIR/completions/gds.fish
#   DIR/man/gds.1
#
# The release runs it before packing (.goreleaser.yaml `before` hook, into
# the repository root) and the Homebrew cask installs the files;
# scripts/release-check.sh runs it and checks that bash, zsh and fish
# parse the scripts (bash -n, zsh -n, fish -n) and that the man page
# renders without warnings (groff -man -ww). The texts are English (LANG=C).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="${1:-dist/shell-docs}"
mkdir -p "$out/completions" "$out/man"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
if [ -n "${GDS_TEST_BIN_DIR:-}" ]; then # scripts/test.sh built it once for the run
	cp "$GDS_TEST_BIN_DIR/gds-core" "$bin/gds"
else
	go build -o "$bin/gds" ./cmd/gds
fi
run() { env -u LC_ALL -u LC_MESSAGES LANG=C "$bin/gds" "$@"; }
run completion bash >"$out/completions/gds.bash"
run completion zsh >"$out/completions/_gds"
run completion fish >"$out/completions/gds.fish"
run man >"$out/man/gds.1"
echo "$out"
