#!/usr/bin/env bash
# scripts/redocly.sh lint FILE — lints an OpenAPI document with Redocly's
# recommended rules (scripts/redocly/redocly.yaml) and fails on any error
# or warning. The Redocly CLI is pinned in scripts/redocly/package-lock.json
# and installed with `npm ci` into scripts/redocly/node_modules only when it
# is missing or the lock changed (one package, ~15 MB). scripts/serve-check.sh
# runs it on the /openapi.json of a running gds serve.
set -euo pipefail

dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/redocly"

install() {
	command -v npm >/dev/null 2>&1 || { echo "redocly.sh: npm is not installed" >&2; exit 1; }
	local want have=""
	want="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
	[ -f "$dir/node_modules/.gds-lock-sha" ] && have="$(cat "$dir/node_modules/.gds-lock-sha")"
	if [ "$want" != "$have" ]; then
		(cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2)
		echo "$want" >"$dir/node_modules/.gds-lock-sha"
	fi
}

case "${1:-}" in
lint)
	[ -n "${2:-}" ] || { echo "usage: scripts/redocly.sh lint FILE" >&2; exit 2; }
	file="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
	install
	# No telemetry, no update notice: nothing leaves the machine. `lint`
	# exits 0 on warnings, so the totals of its JSON report decide; the
	# readable report is printed when there is anything to fix.
	redocly() { (cd "$dir" && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true node node_modules/@redocly/cli/bin/cli.js "$@"); }
	report="$(redocly lint --config redocly.yaml --format json "$file" 2>/dev/null || true)"
	totals="$(node -e 'const r = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(`${r.totals.errors} ${r.totals.warnings} ${r.version}`)' <<<"$report" 2>/dev/null)" ||
		{ redocly lint --config redocly.yaml "$file" >&2 || true; echo "redocly.sh: no JSON report from redocly lint" >&2; exit 1; }
	read -r errors warnings version <<<"$totals"
	if [ "$errors" != 0 ] || [ "$warnings" != 0 ]; then
		redocly lint --config redocly.yaml --format stylish "$file" >&2 || true
		echo "redocly.sh: $2: $errors errors, $warnings warnings (Redocly CLI $version, recommended rules)" >&2
		exit 1
	fi
	echo "redocly lint (Redocly CLI $version, recommended rules): no error, no warning" >&2
	;;
install)
	install
	;;
*)
	echo "usage: scripts/redocly.sh lint FILE | install" >&2
	exit 2
	;;
esac
