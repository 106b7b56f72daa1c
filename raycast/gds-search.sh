#!/bin/bash

# Raycast Script Command: search Google Drive (or your local index) with gds.
# Install: Raycast → Extensions → Script Commands → Add Directories → this folder.
# gds must be installed (brew install gds) and have an index (gds crawl).
#
# Required parameters:
# @raycast.schemaVersion 1
# @raycast.title Search Drive (gds)
# @raycast.mode fullOutput
#
# Optional parameters:
# @raycast.packageName gds
# @raycast.icon 🔎
# @raycast.argument1 { "type": "text", "placeholder": "query, e.g. 先月の議事録PDF" }
# @raycast.description Find files in Google Drive with gds's hybrid search loop (name, summary and link per result).
# @raycast.author gds

set -u

# Raycast runs a non-login shell with a minimal PATH.
PATH="/opt/homebrew/bin:/usr/local/bin:$HOME/go/bin:$PATH"
gds="${GDS_BIN:-gds}"
if ! command -v "$gds" >/dev/null 2>&1; then
  echo "gds is not installed or not on PATH: brew install gds"
  exit 1
fi

# gds's own text output (numbered results: name, folder · date, summary,
# link). Standard input is not a terminal here, so a clarifying question is
# not asked: gds continues with the 100 best keyword matches.
exec "$gds" search "$1" </dev/null
