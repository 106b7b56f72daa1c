#!/usr/bin/env bash
# scripts/web-assets.sh — refreshes the third-party front-end files that gds
# embeds (internal/server/web/static/vendor): Swagger UI for /docs and ReDoc for
# /redoc. The copied files are committed, so `go build` needs no npm; run
# this only to change a version (edit the pins below, then commit the diff).
#
# Each package is fetched with `npm pack` at a pinned version and checked
# against its recorded sha512 integrity before anything is copied. (`npm
# install redoc` does not resolve here: redoc 3.0.1 depends on a telemetry
# package whose required version the registry lacks. Its standalone bundle
# carries its dependencies, so the tarball is all gds needs.)
#
# Needs Node.js with npm and the npm registry.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# name version sha512-integrity
PINS="
swagger-ui-dist 5.35.0 sha512-U06rpMtW9V3XPGOBeamTUSr0Z09jMX4IJuANpE/EZbAhw0G8CgwrzU4YmXkn/h0wCDNsXdGarTNNHC3sU8yVUQ==
redoc 3.0.1 sha512-KDfoKaYW19LCl4YStgBnwlaNjYEFfs5zCNt1s1WZ2YM5u8d26Yuzd2l43fZO851ZsgIMe/D640fDJkD8eaRQKQ==
"
# files copied from each package (besides LICENSE / NOTICE)
files_swagger_ui_dist="swagger-ui-bundle.js swagger-ui-bundle.js.LICENSE.txt swagger-ui.css"
files_redoc="bundles/redoc.standalone.js"

dest=internal/server/web/static/vendor
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

command -v npm >/dev/null 2>&1 || { echo "scripts/web-assets.sh: npm is not installed" >&2; exit 1; }

echo "$PINS" | while read -r name version integrity; do
	[ -n "$name" ] || continue
	(cd "$work" && npm pack --silent "$name@$version" >/dev/null)
	tgz="$work/$name-$version.tgz"
	got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
	if [ "$got" != "$integrity" ]; then
		echo "scripts/web-assets.sh: $name@$version: integrity $got, want $integrity" >&2
		exit 1
	fi
	mkdir -p "$work/$name"
	tar xzf "$tgz" -C "$work/$name"
	rm -rf "${dest:?}/$name"
	mkdir -p "$dest/$name"
	var="files_${name//-/_}"
	for f in ${!var} LICENSE NOTICE; do
		src="$work/$name/package/$f"
		if [ -f "$src" ]; then
			cp "$src" "$dest/$name/$(basename "$f")"
		elif [ "$f" != NOTICE ]; then
			echo "scripts/web-assets.sh: $name@$version has no $f" >&2
			exit 1
		fi
	done
	printf '%s %s %s\n' "$name" "$version" "$integrity" >"$dest/$name/VERSION"
	echo "$name@$version -> $dest/$name" >&2
done
