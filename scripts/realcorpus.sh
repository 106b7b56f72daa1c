#!/usr/bin/env bash
# scripts/realcorpus.sh — text fidelity of gds on real documents (issue 31,
# docs/BENCHMARKS.md "Text fidelity on real documents"). It downloads Debian
# documentation packages with apt (PDFs made by pdfTeX, dvipdfmx, LuaTeX,
# XeTeX, Ghostscript from groff and dvips, Acrobat Distiller, Quartz, cairo,
# FOP, ...; every Japanese one of texlive-lang-japanese, Chinese and Korean,
# Hebrew and Arabic, the European languages of the texlive-lang-* packs),
# unpacks each into its own folder without installing it, installs the
# reference extractors (poppler-utils for pdftotext, mupdf-tools for the
# second PDF reference, w3m, file), builds bin/gds and bin/gdsbench, and
# runs `gdsbench realcorpus`: a sample stratified by package and PDF
# producer, a reference text per file, one gds crawl with the offline
# provider, and per format the files indexed / name-only / lost, word
# recall and precision against the reference (median, 10th percentile),
# files with words run together, pages cut off, RTL words reversed, the
# crawl's files/s and peak RSS; for PDFs both raw (against pdftotext) and
# judged (against the words pdftotext and `mutool draw -F txt` agree on).
#
# DOCX, XLSX and PPTX are made by LibreOffice (installed with apt, without
# its GUI) from real sources, once, into WORK/root/office-*: DOCX from the
# HTML of the Debian Reference and the Debian New Maintainers' Guide
# (English and Japanese), XLSX from real tables (distro-info-data's release
# dates, mecab-ipadic's Japanese dictionary, tzdata's zone tables,
# unicode-data), PPTX from slide and sample PDFs of the TeX packages
# (beamer, MetaPost slideshow, Japanese samples) imported into Impress.
# Their reference text, in WORK/officeref, is LibreOffice's own reading of
# the converted file: its text export for DOCX, its CSV export of every
# sheet for XLSX, and for PPTX its ODP conversion (gdsbench takes the
# paragraphs of each slide; Impress has no text export, and its PDF export
# took minutes per slide deck here).
#
# Not part of scripts/test.sh: it needs apt and about 620 MB of downloads
# (kept in WORK/debs for the next run) and LibreOffice (about 350 MB).
#
#   bash scripts/realcorpus.sh [WORK] [gdsbench realcorpus flags]
#
# WORK defaults to .realcorpus (git-ignored). Examples:
#   bash scripts/realcorpus.sh
#   bash scripts/realcorpus.sh "$HOME/realcorpus" --pdfs 300 --json
#
# REALCORPUS_SET=heldout measures the same on packages no fix was tuned
# on (science, humanities, Greek, French, music, games, plain TeX, BibTeX
# styles: about 470 MB), without the office files; give it a WORK of its
# own, or its packages join the first set's sample:
#   REALCORPUS_SET=heldout bash scripts/realcorpus.sh "$HOME/heldout"
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

work="${1:-.realcorpus}"
[ $# -ge 1 ] && shift
mkdir -p "$work/debs" "$work/root"
work="$(cd "$work" && pwd)"

packages=(
	texlive-fonts-recommended-doc texlive-latex-base-doc texlive-latex-recommended-doc
	texlive-metapost-doc texlive-lang-japanese texlive-lang-other
	texlive-lang-cjk texlive-lang-chinese texlive-lang-korean texlive-lang-arabic
	texlive-lang-cyrillic texlive-lang-german texlive-lang-european texlive-lang-italian
	texlive-lang-polish texlive-lang-czechslovak texlive-lang-spanish texlive-lang-portuguese
	graphviz-doc gnuplot-doc asymptote-doc fop-doc
)
# Sources of the DOCX and XLSX files (unpacked into WORK/officesrc).
office_packages=(
	debian-reference-en debian-reference-ja maint-guide maint-guide-ja
	distro-info-data mecab-ipadic tzdata unicode-data
)
case "${REALCORPUS_SET:-dev}" in
dev) ;;
heldout)
	packages=(
		texlive-science-doc texlive-humanities-doc texlive-lang-greek texlive-lang-french
		texlive-music texlive-games texlive-plain-generic texlive-formats-extra texlive-bibtex-extra
	)
	office_packages=()
	;;
*)
	echo "realcorpus.sh: REALCORPUS_SET is dev or heldout, not ${REALCORPUS_SET}" >&2
	exit 2
	;;
esac

need=()
command -v pdftotext >/dev/null || need+=(poppler-utils)
command -v mutool >/dev/null || need+=(mupdf-tools)
command -v w3m >/dev/null || need+=(w3m)
command -v file >/dev/null || need+=(file)
command -v uchardet >/dev/null || need+=(uchardet)
command -v iconv >/dev/null || need+=(libc-bin)
[ ${#office_packages[@]} -eq 0 ] || command -v soffice >/dev/null || need+=(libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui)
if [ ${#need[@]} -gt 0 ] || ! ls "$work"/debs/*.deb >/dev/null 2>&1; then
	echo "==> apt-get update" >&2
	apt-get update -qq
fi
if [ ${#need[@]} -gt 0 ]; then
	echo "==> apt-get install ${need[*]}" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
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
		# graphviz-doc's manual pages (groff, Ghostscript) are gzipped.
		find "$work/root/$p.tmp" -name '*.pdf.gz' -type f -exec gunzip -f {} +
		mv "$work/root/$p.tmp" "$work/root/$p"
	fi
done

for p in "${office_packages[@]}"; do
	if ! ls "$work/debs/${p}"_*.deb >/dev/null 2>&1; then
		echo "==> apt-get download $p" >&2
		(cd "$work/debs" && apt-get download -qq "$p")
	fi
	if [ ! -d "$work/officesrc/$p" ]; then
		mkdir -p "$work/officesrc/$p.tmp"
		dpkg-deb -x "$work/debs/${p}"_*.deb "$work/officesrc/$p.tmp"
		mv "$work/officesrc/$p.tmp" "$work/officesrc/$p"
	fi
done

# soffice runs headless with its own profile; one call converts many files.
soffice() {
	command soffice -env:UserInstallation="file://$work/lo-profile" --headless "$@" 2>&1 |
		grep -v -e javaldx -e '^convert ' -e '^Writing sheet' >&2 || true
}

# office FORMAT SRCPKG INFILTER FILES...: converts FILES (read with the
# import filter INFILTER, "" for LibreOffice's choice) to FORMAT into
# WORK/root/office-FORMAT/usr/share/doc/SRCPKG.
office() {
	local fmt=$1 pkg=$2 filter=$3 out
	shift 3
	out="$work/root/office-$fmt/usr/share/doc/$pkg"
	mkdir -p "$out"
	local export=docx:"MS Word 2007 XML"
	case $fmt in
	xlsx) export=xlsx:"Calc MS Excel 2007 XML" ;;
	pptx) export=pptx:"Impress MS PowerPoint 2007 XML" ;;
	esac
	if [ -n "$filter" ]; then
		soffice --infilter="$filter" --convert-to "$export" --outdir "$out" "$@"
	else
		soffice --convert-to "$export" --outdir "$out" "$@"
	fi
}

# table SEP IN OUT: a real table without its comment lines, at most 400
# rows, in UTF-8 (the comma-separated input of LibreOffice's CSV import).
table() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$2" | head -n 400 | tr "$1" , >"$3" || true
}

if [ ${#office_packages[@]} -gt 0 ] && { [ ! -d "$work/root/office-docx" ] || [ ! -d "$work/root/office-xlsx" ] || [ ! -d "$work/root/office-pptx" ]; }; then
	echo "==> LibreOffice: DOCX, XLSX and PPTX from real sources (once; minutes)" >&2
	rm -rf "$work/root/office-"* "$work/officeref" "$work/officecsv"
	src="$work/officesrc"
	for p in debian-reference-en debian-reference-ja maint-guide maint-guide-ja; do
		mapfile -t html < <(find "$src/$p" -name '*.html' | sort)
		office docx "$p" "HTML (StarWriter)" "${html[@]}"
	done
	# Dates, numbers and text: "detect special numbers" makes the ISO
	# dates of the CSV date cells with a date format.
	csv="$work/officecsv"
	mkdir -p "$csv/distro-info-data" "$csv/mecab-ipadic" "$csv/tzdata" "$csv/unicode-data"
	cp "$src"/distro-info-data/usr/share/distro-info/*.csv "$csv/distro-info-data/"
	for f in "$src"/mecab-ipadic/usr/share/mecab/dic/ipadic/*.csv; do
		iconv -f EUC-JP -t UTF-8 "$f" | head -n 400 >"$csv/mecab-ipadic/$(basename "$f")" || true
	done
	for f in "$src"/tzdata/usr/share/zoneinfo/*.tab; do
		table $'\t' "$f" "$csv/tzdata/$(basename "$f" .tab).csv"
	done
	for n in Blocks CJKRadicals Jamo NameAliases NamedSequences UnicodeData EastAsianWidth; do
		f=$(find "$src/unicode-data" -name "$n.txt" | head -n 1)
		if [ -n "$f" ]; then table ';' "$f" "$csv/unicode-data/$n.csv"; fi
	done
	for p in distro-info-data mecab-ipadic tzdata unicode-data; do
		office xlsx "$p" "CSV:44,34,76,1,,1033,false,true" "$csv/$p"/*.csv
	done
	# Slides: beamer and MetaPost slideshow decks, and short Japanese
	# samples (one or two pages), of at most 40 pages and 2 MB.
	mapfile -t slides < <(find "$work/root/texlive-latex-recommended-doc" "$work/root/texlive-metapost-doc" \
		\( -path '*/beamer/*' -o -path '*/slideshow/*' \) -name '*.pdf' -size -2M | sort)
	mapfile -t japanese < <(find "$work/root/texlive-lang-japanese" -name '*.pdf' -size -2M | sort)
	decks=() samples=()
	for f in "${slides[@]}"; do
		n=$(pdfinfo "$f" 2>/dev/null | awk '/^Pages:/ { print $2 }')
		if [ "${n:-99}" -le 40 ]; then decks+=("$f"); fi
	done
	for f in "${japanese[@]}"; do
		n=$(pdfinfo "$f" 2>/dev/null | awk '/^Pages:/ { print $2 }')
		if [ "${n:-99}" -le 2 ] && [ ${#samples[@]} -lt 14 ]; then samples+=("$f"); fi
	done
	office pptx texlive-slides impress_pdf_import "${decks[@]}"
	office pptx texlive-lang-japanese impress_pdf_import "${samples[@]}"
	# The references: LibreOffice's reading of each converted file.
	for fmt in docx xlsx pptx; do
		for d in "$work/root/office-$fmt"/usr/share/doc/*; do
			ref="$work/officeref/office-$fmt/usr/share/doc/$(basename "$d")"
			mkdir -p "$ref"
			case $fmt in
			docx) soffice --convert-to "txt:Text (encoded):UTF8" --outdir "$ref" "$d"/*.docx ;;
			xlsx) soffice --convert-to "csv:Text - txt - csv (StarCalc):9,34,76,1,,0,false,true,true,false,false,-1" --outdir "$ref" "$d"/*.xlsx ;;
			pptx) soffice --convert-to odp --outdir "$ref" "$d"/*.pptx ;;
			esac
		done
	done
fi

mkdir -p bin
echo "==> building bin/gds and bin/gdsbench ($(go version | cut -d' ' -f3))" >&2
go build -o bin/gds ./cmd/gds
go build -o bin/gdsbench ./cmd/gdsbench
officeref="$work/officeref"
if [ ${#office_packages[@]} -eq 0 ]; then officeref=""; fi
exec ./bin/gdsbench realcorpus --root "$work/root" --office-ref "$officeref" --work "$work/run" --gds ./bin/gds "$@"
