package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/ocr"
)

// runOCRRecall compares the OCR text gds kept for page images (in the OCR
// cache of --home, as gds crawl wrote it) with the text of the PDF pages
// they were rendered from. The images are named NAME-N.png (pdftoppm's
// names: page N of NAME.pdf in --pdfs; N may be zero-padded); each PDF's
// language comes from --manifest (testdata/realdocs/MANIFEST.tsv). English
// is scored by words (lower-cased letter and digit runs), Japanese by
// characters (letters and digits, spaces and punctuation left out): the
// recall is the share of the reference's tokens, counted with their
// repetitions, that the OCR text holds as often.
func runOCRRecall(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ocr-recall", flag.ContinueOnError)
	fs.SetOutput(stderr)
	home := fs.String("home", "", "the gds home the crawl used (its ocr-cache)")
	scans := fs.String("scans", "", "the folder of page images gds crawled")
	pdfs := fs.String("pdfs", "testdata/realdocs", "the folder of the PDFs the images were rendered from")
	manifest := fs.String("manifest", "testdata/realdocs/MANIFEST.tsv", "file → language (the lang column)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *home == "" || *scans == "" {
		return fmt.Errorf("--home and --scans are required")
	}
	langs, err := readLangs(*manifest)
	if err != nil {
		return err
	}
	tess, err := ocr.FindTesseract(ctx, ocr.Limits{})
	if err != nil {
		return err
	}
	cache := ocr.DirCache{Dir: filepath.Join(*home, ocr.DirName)}
	images, err := filepath.Glob(filepath.Join(*scans, "*.png"))
	if err != nil {
		return err
	}
	sort.Strings(images)
	type total struct{ hit, ref, pages, missing int }
	totals := map[string]*total{"en": {}, "ja": {}}
	refs := map[string]extract.Doc{}
	fmt.Fprintf(stdout, "engine: %s\n%-48s %-4s %8s %8s %7s\n", tess.ID(), "page image", "lang", "found", "of", "recall")
	for _, img := range images {
		base := strings.TrimSuffix(filepath.Base(img), ".png")
		i := strings.LastIndexByte(base, '-')
		if i < 0 {
			return fmt.Errorf("%s: not named NAME-N.png", img)
		}
		name, page := base[:i]+".pdf", 0
		if page, err = strconv.Atoi(base[i+1:]); err != nil {
			return fmt.Errorf("%s: not named NAME-N.png", img)
		}
		lang := langs[name]
		if totals[lang] == nil {
			return fmt.Errorf("%s: language %q of %s is neither en nor ja", img, lang, name)
		}
		ref, ok := refs[name]
		if !ok {
			f, err := os.Open(filepath.Join(*pdfs, name))
			if err != nil {
				return err
			}
			ref, err = extract.Extract(ctx, "application/pdf", f, 0)
			f.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			refs[name] = ref
		}
		var refText string
		for _, p := range ref.Pages {
			if p.Number == page {
				refText = p.Text
			}
		}
		data, err := os.ReadFile(img)
		if err != nil {
			return err
		}
		t := totals[lang]
		t.pages++
		got, ok := cache.Get(ocr.CacheKey(data, tess.ID()))
		if !ok {
			t.missing++
		}
		hit, n := recall(lang, refText, got.Text())
		t.hit += hit
		t.ref += n
		fmt.Fprintf(stdout, "%-48s %-4s %8d %8d %7.3f\n", filepath.Base(img), lang, hit, n, ratio(hit, n))
	}
	for _, lang := range []string{"en", "ja"} {
		t := totals[lang]
		unit := "word"
		if lang == "ja" {
			unit = "character"
		}
		fmt.Fprintf(stdout, "%s: %d pages (%d not read by gds), %s recall %.3f (%d of %d)\n", lang, t.pages, t.missing, unit, ratio(t.hit, t.ref), t.hit, t.ref)
	}
	return nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// recall counts the reference's tokens the OCR text holds (each as often
// as the reference has it, at most) and the reference's tokens.
func recall(lang, ref, got string) (hit, n int) {
	tok := ocrWords
	if lang == "ja" {
		tok = ocrChars
	}
	have := map[string]int{}
	for _, w := range tok(got) {
		have[w]++
	}
	for _, w := range tok(ref) {
		n++
		if have[w] > 0 {
			have[w]--
			hit++
		}
	}
	return hit, n
}

func ocrWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func ocrChars(s string) []string {
	var out []string
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, string(unicode.ToLower(r)))
		}
	}
	return out
}

// readLangs reads the file and lang columns of a MANIFEST.tsv.
func readLangs(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	fileCol, langCol := -1, -1
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if fileCol < 0 {
			for i, c := range cols {
				switch c {
				case "file":
					fileCol = i
				case "lang":
					langCol = i
				}
			}
			if fileCol < 0 || langCol < 0 {
				return nil, fmt.Errorf("%s: no file and lang columns", path)
			}
			continue
		}
		if len(cols) > max(fileCol, langCol) {
			out[cols[fileCol]] = cols[langCol]
		}
	}
	return out, sc.Err()
}
