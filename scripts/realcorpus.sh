#!/usr/bin/env bash
# scripts/realcorpus.sh — text fidelity of gds on real documents (issue 31,
# docs/BENCHMARKS.md "Text fidelity on real documents"). It downloads Debian
# documentation packages with apt (PDFs made by pdfTeX, dvipdfmx, LuaTeX,
# XeTeX, Ghostscript, Acrobat Distiller, ...; Japanese ones from
# texlive-lang-japanese, Hebrew and Arabic from texlive-lang-other), unpacks
# each into its own folder without installing it, installs the reference
# extractors (poppler-utils for pdftotext, w3m, file), builds bin/gds and
# bin/gdsbench, and runs `gdsbench realcorpus`: a sample stratified by
# package and PDF producer, a reference text per file, one gds crawl with
# the offline provider, and per format the files indexed / name-only / lost,
# word recall and precision against the reference (median, 10th percentile),
# files with words run together, pages cut off, RTL words reversed, the
# crawl's files/s and peak RSS. Not part of scripts/test.sh: it needs apt
# and about 300 MB of downloads (kept in WORK/debs for the next run).
#
#   bash scripts/realcorpus.sh [WORK] [gdsbench realcorpus flags]
#
# WORK defaults to .realcorpus (git-ignored). Examples:
#   bash scripts/realcorpus.sh
#   bash scripts/realcorpus.sh "$HOME/realcorpus" --pdfs 300 --json
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

work="${1:-.realcorpus}"
[ $# -ge 1 ] && shift
mkdir -p "$work/debs" "$work/root"
work="$(cd "$work" && pwd)"

packages=(
	texlive-fonts-recommended-doc texlive-latex-base-doc texlive-latex-recommended-doc
	texlive-metapost-doc texlive-lang-japanese texlive-lang-other
)

need=()
command -v pdftotext >/dev/null || need+=(poppler-utils)
command -v w3m >/dev/null || need+=(w3m)
command -v file >/dev/null || need+=(file)
command -v iconv >/dev/null || need+=(libc-bin)
if [ ${#need[@]} -gt 0 ] || ! ls "$work"/debs/*.deb >/dev/null 2>&1; then
	echo "==> apt-get update" >&2
	apt-get update -qq
fi
if [ ${#need[@]} -gt 0 ]; then
	echo "==> apt-get install ${need[*]}" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
dpkg -s poppler-data >/dev/null 2>&1 || {
	echo "==> apt-get install poppler-data (CJK for pdftotext)" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-data >/dev/null
}

for p in "${packages[@]}"; do
	if ! ls "$work/debs/${p}"_*.deb >/dev/null 2>&1; then
		echo "==> apt-get download $p" >&2
		(cd "$work/debs" && apt-get download -qq "$p")
	fi
	if [ ! -d "$work/root/$p" ]; then
		mkdir -p "$work/root/$p.tmp"
		dpkg-deb -x "$work/debs/${p}"_*.deb "$work/root/$p.tmp"
		mv "$work/root/$p.tmp" "$work/root/$p"
	fi
done

mkdir -p bin
echo "==> building bin/gds and bin/gdsbench ($(go version | cut -d' ' -f3))" >&2
go build -o bin/gds ./cmd/gds
go build -o bin/gdsbench ./cmd/gdsbench
exec ./bin/gdsbench realcorpus --root "$work/root" --work "$work/run" --gds ./bin/gds "$@"
