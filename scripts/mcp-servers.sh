#!/usr/bin/env bash
# mcp-servers.sh install|path — third-party MCP servers for the gds tests.
#
# The tests of gds federate drive one real MCP server that no one here wrote:
# @modelcontextprotocol/server-filesystem, pinned in
# scripts/mcp-servers/package-lock.json and installed with `npm ci` into
# scripts/mcp-servers/node_modules only when missing (nothing global).
#
#   install  install if needed and print the server's entry point (dist/index.js)
#   path     print the entry point (exit 1 when not installed)
#
# Typical use:  export GDS_TEST_MCP_FILESYSTEM="$(bash scripts/mcp-servers.sh install)"
set -euo pipefail

dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/mcp-servers"
entry="$dir/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"

case "${1:-}" in
install)
	if [ ! -f "$entry" ]; then
		command -v npm >/dev/null 2>&1 || { echo "mcp-servers.sh: npm is not installed" >&2; exit 1; }
		(cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts >&2)
	fi
	echo "$entry"
	;;
path)
	[ -f "$entry" ] || exit 1
	echo "$entry"
	;;
*)
	echo "usage: scripts/mcp-servers.sh install|path" >&2
	exit 2
	;;
esac
