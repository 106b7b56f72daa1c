#!/usr/bin/env bash
# scripts/raycast.sh install|check — the Raycast extension in raycast/.
#
#   install  npm ci from raycast/package-lock.json into raycast/node_modules,
#            only when it is missing or the lock file changed since (a stamp
#            holds the lock's hash), with no install scripts and npm's cache
#   check    install, build gds as Homebrew installs it (the front, gds, and
#            gds-core beside it) into a temporary directory, then in
#            raycast/: tsc --noEmit, `ray build` (into that directory),
#            ESLint with the Store's config
#            (@raycast/eslint-config), Prettier, and the vitest tests — the
#            data layer's among them against that gds on a small index
#            (GDS_TEST_BIN). `ray lint` is the same ESLint and Prettier plus
#            a manifest check that asks raycast.com (the author and the
#            schema); test/manifest.test.ts checks the rest of it offline.
#
# Needs Node 20+ and npm; the npm registry for the first install.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../raycast"

install() {
	command -v npm >/dev/null 2>&1 || { echo "raycast.sh: npm is not installed" >&2; exit 1; }
	local want have=""
	want="$(sha256sum package-lock.json | cut -d' ' -f1)"
	[ -f node_modules/.gds-lock-sha ] && have="$(cat node_modules/.gds-lock-sha)"
	if [ "$want" != "$have" ]; then
		npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2
		echo "$want" >node_modules/.gds-lock-sha
	fi
}

case "${1:-}" in
install)
	install
	;;
check)
	install
	bin="$(mktemp -d)"
	trap 'rm -rf "$bin"' EXIT
	if [ -n "${GDS_TEST_BIN_DIR:-}" ]; then # scripts/test.sh built them once for the run
		ln -s "$GDS_TEST_BIN_DIR/gds" "$bin/gds" && ln -s "$GDS_TEST_BIN_DIR/gds-core" "$bin/gds-core"
	else
		(cd .. && go build -o "$bin/gds" ./cmd/gds-front && go build -o "$bin/gds-core" ./cmd/gds)
	fi
	export PATH="$PWD/node_modules/.bin:$PATH"
	echo "==> raycast: tsc --noEmit" >&2
	tsc --noEmit
	echo "==> raycast: eslint (@raycast/eslint-config)" >&2
	eslint src test
	echo "==> raycast: prettier --check" >&2
	prettier --check . >/dev/null
	echo "==> raycast: ray build (the Store's build: esbuild and TypeScript)" >&2
	ray build -e dist -I --exit-on-error -o "$bin/extension" >/dev/null
	echo "==> raycast: vitest (the data layer against gds)" >&2
	GDS_TEST_BIN="$bin/gds" vitest run
	;;
*)
	echo "usage: scripts/raycast.sh install|check" >&2
	exit 2
	;;
esac
