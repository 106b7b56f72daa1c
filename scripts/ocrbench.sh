#!/usr/bin/env bash
# scripts/ocrbench.sh — OCR word recall of gds on a scanned set built from
# real PDFs (not part of scripts/test.sh: it reads ~10 pages with tesseract).
#
#   1. renders every page of the PDFs of testdata/realdocs to a 200 dpi grey
#      PNG with poppler's pdftoppm (the scanned set: page images, no text),
#   2. crawls that folder with gds (offline provider, a fresh gds home), which
#      reads each image with tesseract,
#   3. compares the OCR text gds kept (its OCR cache) with the text of the
#      PDF page each image came from (gdsbench ocr-recall): word recall for
#      English, character recall for Japanese, per page and per language.
#
# Needs tesseract with eng, jpn and jpn_vert data and pdftoppm
# (scripts/ocr.sh installs them), and for the Japanese PDFs, whose fonts are
# not embedded, poppler-data and a Japanese font (Debian: poppler-data,
# fonts-ipafont-mincho; installed with apt when running as root).
# Figures: docs/BENCHMARKS.md, "OCR word recall".
#
#   bash scripts/ocrbench.sh
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/ocr.sh || { echo "scripts/ocrbench.sh: tesseract or pdftoppm missing (scripts/ocr.sh)" >&2; exit 1; }
if ! { [ -d /usr/share/poppler/cMap ] && fc-list :lang=ja 2>/dev/null | grep -q .; }; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "scripts/ocrbench.sh: installing poppler-data and fonts-ipafont-mincho with apt (Japanese PDFs without embedded fonts)" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends poppler-data fonts-ipafont-mincho >&2
	else
		echo "scripts/ocrbench.sh: warning: no poppler-data or Japanese font; the Japanese pages will render blank (apt-get install poppler-data fonts-ipafont-mincho)" >&2
	fi
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/scans" "$work/home"
go build -o "$work/gds" ./cmd/gds
go build -o "$work/gdsbench" ./cmd/gdsbench

for pdf in testdata/realdocs/*.pdf; do
	name="$(basename "$pdf" .pdf)"
	pdftoppm -r 200 -gray -png "$pdf" "$work/scans/$name" 2>/dev/null
done
echo "scanned set: $(ls "$work/scans" | wc -l) page images at 200 dpi from $(ls testdata/realdocs/*.pdf | wc -l) PDFs" >&2

start=$SECONDS
GDS_HOME="$work/home" GDS_AI_PROVIDER=offline DATABASE_URL= SUPABASE_DB_URL= \
	"$work/gds" crawl --source "local:$work/scans" >&2
echo "crawl with OCR: $((SECONDS - start)) s" >&2

"$work/gdsbench" ocr-recall --home "$work/home" --scans "$work/scans" \
	--pdfs testdata/realdocs --manifest testdata/realdocs/MANIFEST.tsv
