#!/usr/bin/env bash
# scripts/ocr.sh — makes sure tesseract (with English and Japanese data,
# horizontal and vertical) and
# poppler's pdftoppm are installed for the OCR tests (internal/ocr,
# cmd/gds ocr_test.go), which read real scans with them.
#
# Installs Debian's tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-jpn,
# tesseract-ocr-jpn-vert and poppler-utils with apt when one is missing (needs root: CI and the
# project's machines run as root). As another user it installs nothing and
# says how to; the OCR tests then skip locally, and fail when CI=true.
# On macOS: brew install tesseract tesseract-lang poppler.
#
#   bash scripts/ocr.sh          # install when missing
#   bash scripts/ocr.sh check    # only check (exit 1 when something is missing)
set -euo pipefail

have_all() {
	command -v tesseract >/dev/null 2>&1 || return 1
	command -v pdftoppm >/dev/null 2>&1 || return 1
	local langs
	langs="$(tesseract --list-langs 2>/dev/null)" || return 1
	grep -qx eng <<<"$langs" && grep -qx jpn <<<"$langs" && grep -qx jpn_vert <<<"$langs"
}

if have_all; then
	exit 0
fi
if [ "${1:-}" = check ]; then
	exit 1
fi

if [ "$(id -u)" != 0 ]; then
	echo "scripts/ocr.sh: tesseract (eng, jpn) or pdftoppm missing, and installing them needs root:" >&2
	echo "  sudo apt-get install -y tesseract-ocr tesseract-ocr-eng tesseract-ocr-jpn tesseract-ocr-jpn-vert poppler-utils" >&2
	echo "  (macOS: brew install tesseract tesseract-lang poppler; the OCR tests skip without them, and fail when CI=true)" >&2
	exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "scripts/ocr.sh: no apt-get here; install tesseract with its eng and jpn data and poppler's pdftoppm" >&2
	exit 1
fi

echo "scripts/ocr.sh: installing tesseract-ocr (eng, jpn) and poppler-utils with apt (~40 MB)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2 || echo "scripts/ocr.sh: apt-get update failed; trying the install anyway" >&2
apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends tesseract-ocr tesseract-ocr-eng tesseract-ocr-jpn tesseract-ocr-jpn-vert poppler-utils >&2
have_all || {
	echo "scripts/ocr.sh: installed, but tesseract with eng and jpn data or pdftoppm is still missing" >&2
	exit 1
}
