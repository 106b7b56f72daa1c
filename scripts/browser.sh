#!/usr/bin/env bash
# scripts/browser.sh — makes sure a headless Chromium is installed for the
# real-browser end-to-end test of the web UI (internal/server/browser_test.go).
#
# Installs Debian's chromium-headless-shell with apt when no browser is found
# (needs root: CI and the project's machines run as root). As another user it
# installs nothing and says how to; the test then skips locally, and fails
# when CI=true. Prints the browser's path on stdout when one is there.
#
#   bash scripts/browser.sh          # install when missing, print the path
#   bash scripts/browser.sh path     # only print the path (exit 1 when none)
#
# The test finds the browser the same way: $GDS_BROWSER, else the first of
# the names below on PATH or in /usr/lib/chromium.
set -euo pipefail

find_browser() {
	if [ -n "${GDS_BROWSER:-}" ] && [ -x "$GDS_BROWSER" ]; then
		echo "$GDS_BROWSER"
		return 0
	fi
	local c
	for c in chromium-headless-shell chromium chromium-browser google-chrome; do
		if command -v "$c" >/dev/null 2>&1; then
			command -v "$c"
			return 0
		fi
	done
	for c in /usr/lib/chromium/chromium-headless-shell /usr/lib/chromium/headless_shell /usr/lib/chromium/chromium; do
		if [ -x "$c" ]; then
			echo "$c"
			return 0
		fi
	done
	return 1
}

if find_browser; then
	exit 0
fi
if [ "${1:-}" = path ]; then
	exit 1
fi

if [ "$(id -u)" != 0 ]; then
	echo "scripts/browser.sh: no headless Chromium found, and installing one needs root:" >&2
	echo "  sudo apt-get install -y chromium-headless-shell   (or chromium), or set GDS_BROWSER" >&2
	echo "  (the browser test skips without it, and fails when CI=true)" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "scripts/browser.sh: no apt-get here; install a headless Chromium and set GDS_BROWSER to its path" >&2
	exit 1
fi

echo "scripts/browser.sh: installing Debian's chromium-headless-shell with apt (~100 MB)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 || echo "scripts/browser.sh: apt-get update failed; trying the install anyway" >&2
if ! apt-get install -y -qq --no-install-recommends chromium-headless-shell >&2; then
	echo "scripts/browser.sh: chromium-headless-shell did not install; trying chromium" >&2
	apt-get install -y -qq --no-install-recommends chromium >&2
fi
find_browser || {
	echo "scripts/browser.sh: installed, but no browser binary found" >&2
	exit 1
}
