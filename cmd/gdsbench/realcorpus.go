package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// realcorpus: text fidelity and crawl cost of gds on real documents that
// no one here wrote (scripts/realcorpus.sh unpacks Debian documentation
// packages into --root): a sample stratified by package and PDF producer,
// a reference text per file from another extractor (pdftotext for PDF,
// and a second one, mutool draw -F txt, for the judged figures: judge;
// w3m -dump for HTML, uchardet and iconv for text; for the DOCX, XLSX and PPTX that
// LibreOffice made, LibreOffice's own reading of them, exported by the
// script into --office-ref: officeRef), one `gds crawl` of the sample with
// the offline provider into a fresh home, then per format: files indexed,
// name-only (with reasons) and lost; word recall and precision of the
// stored text against the reference (median, 10th percentile); files with
// words run together (more than 2 % of the reference's word spaces lost);
// pages cut off; right-to-left words stored reversed; the crawl's files/s
// and peak RSS.

type rcItem struct {
	Name, Src, Format, Pkg, Producer string
	// Ref is, for an office file, the path of LibreOffice's exports of
	// it without their extension (officeRef).
	Ref string `json:",omitempty"`
}

type rcFile struct {
	rcItem
	Status     string // indexed, name-only, lost
	Reason     string
	Recall     float64
	Precision  float64
	Joined     int
	Boundaries int
	CutPages   int
	Pages      int
	RTLRev     int
	RTLWords   []string `json:",omitempty"` // the first reference words stored reversed
	// RTLForm counts gds's right-to-left words beginning with a letter
	// written only at a word's end (reversedByForm), RTLFormWords the
	// first of them; RefRTLForm and SecondRTLForm the same count in the
	// references' own texts.
	RTLForm                   int
	RTLFormWords              []string `json:",omitempty"`
	RefRTLForm, SecondRTLForm int
	// RefOnly and GdsOnly are the words one text holds more often than
	// the other, most frequent first: the evidence for judging the file.
	RefOnly, GdsOnly []string `json:",omitempty"`
	// The judged figures (judge): against the words pdftotext and mutool
	// agree on, for a PDF with both references (Second); for every other
	// file they are the raw ones.
	Second                                   bool
	Disagree                                 bool // the references agree on less than half the words: not judged
	JRecall, JPrecision                      float64
	JJoined, JCutPages, JRTLRev              int
	Agreed, OnlyA, OnlyB, GotOnlyA, GotOnlyB int
	Missed, Extra, DisputedA, DisputedB      []string `json:",omitempty"`
}

type rcFormat struct {
	Format                          string
	Files, Indexed, NameOnly, Lost  int
	RecallMedian, RecallP10         float64
	PrecisionMedian, PrecisionP10   float64
	RunTogether, CutPages, CutFiles int
	RTLReversed                     int
	RTLForm, RTLFormFiles           int // reversedByForm over gds's texts
	RefRTLForm, SecondRTLForm       int // the same over pdftotext's, mutool's
	Reasons                         map[string]int
	recalls, precisions             []float64
	// Judged figures (rcFile): Second counts the files judged against
	// two references; Agreed, OnlyA and OnlyB their words both, only
	// pdftotext, only mutool hold, GotOnlyA and GotOnlyB how many of the
	// disputed ones gds holds.
	Second, Disagree                         int
	JRecallMedian, JRecallP10                float64
	JPrecisionMedian, JPrecisionP10          float64
	JRunTogether, JCutPages, JCutFiles       int
	JRTLReversed                             int
	Agreed, OnlyA, OnlyB, GotOnlyA, GotOnlyB int
	jrecalls, jprecisions                    []float64
}

type rcReport struct {
	Files         int
	CrawlSeconds  float64
	FilesPerSec   float64
	PeakRSSMB     float64 // largest single process (gds or a worker)
	PeakTreeRSSMB float64 // gds and its workers together, sampled: each process's RSS summed
	// PeakTreePSSMB is the same sampled as proportional set size: the
	// pages processes share (the gds binary's code, mapped by gds and
	// each worker) counted once, as the machine holds them.
	PeakTreePSSMB  float64
	Formats        []*rcFormat
	Worst          []rcFile // lowest raw recall, any format
	WorstJudged    []rcFile // lowest judged recall, PDFs
	Unjudged       []rcFile // PDFs whose references agree on less than half their words, lowest raw recall first
	RunTogether    []rcFile // files with more than 2 % of word spaces lost (raw or judged)
	RTLReversed    []rcFile // files with right-to-left words stored reversed (raw or judged)
	PagesCut       []rcFile // files with pages cut off (raw or judged)
	NoReference    int
	CrawlExitError string `json:",omitempty"`
	// PDFProducers and PDFPackages are the sample's PDFs by producer
	// family (pdfinfo's Producer up to its version) and by package.
	PDFProducers, PDFPackages map[string]int
}

func runRealCorpus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("realcorpus", flag.ContinueOnError)
	fl.SetOutput(stderr)
	root := fl.String("root", "", "folder of unpacked packages, one subfolder per package (scripts/realcorpus.sh)")
	work := fl.String("work", "", "folder for the sample, its reference texts and the gds home (emptied first)")
	gds := fl.String("gds", "", "the gds binary to crawl with")
	nPDF := fl.Int("pdfs", 450, "PDFs in the sample (some have no text to compare)")
	nHTML := fl.Int("html", 100, "HTML files in the sample")
	nText := fl.Int("text", 180, "text files in the sample")
	officeRef := fl.String("office-ref", "", "folder of LibreOffice's exports of the office files under --root (scripts/realcorpus.sh); none: no DOCX, XLSX or PPTX")
	nOffice := fl.Int("office", 60, "DOCX, XLSX and PPTX files each in the sample (with --office-ref)")
	whole := fl.String("whole", "texlive-lang-japanese", "comma-separated packages all of whose PDFs are in the sample (counted in --pdfs)")
	include := fl.String("include", "microtype.pdf,microtype-code.pdf,lscape.pdf,pdflscape.pdf,pazotest.pdf,psnfss2e.pdf,cjhebrew.pdf,hebrew.pdf,example-arabic.pdf",
		"comma-separated PDF names always in the sample")
	concurrency := fl.Int("concurrency", 0, "gds crawl --concurrency (0: gds's default)")
	worst := fl.Int("worst", 12, "list this many files of lowest recall")
	asJSON := fl.Bool("json", false, "print JSON")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *root == "" || *work == "" || *gds == "" {
		return errors.New("--root, --work and --gds are required")
	}
	for _, tool := range []string{"pdftotext", "pdfinfo", "mutool", "w3m", "iconv", "uchardet", "file"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s not found (scripts/realcorpus.sh installs poppler-utils, mupdf-tools, w3m, uchardet and file): %w", tool, err)
		}
	}
	if err := os.RemoveAll(*work); err != nil {
		return err
	}
	filesDir, refDir, home := filepath.Join(*work, "files"), filepath.Join(*work, "ref"), filepath.Join(*work, "home")
	for _, d := range []string{filesDir, refDir, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "realcorpus: choosing the sample in %s...\n", *root)
	items, err := rcSelect(ctx, *root, *officeRef, rcCounts{PDF: *nPDF, HTML: *nHTML, Text: *nText, Office: *nOffice}, strings.Split(*include, ","), strings.Split(*whole, ","))
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "realcorpus: %d files; reference texts...\n", len(items))
	items, noRef := rcReferences(ctx, items, filesDir, refDir)
	rep := rcReport{Files: len(items), NoReference: noRef, PDFProducers: map[string]int{}, PDFPackages: map[string]int{}}
	for _, it := range items {
		if it.Format == "PDF" {
			rep.PDFProducers[strings.TrimSpace(producerFamily.FindString(it.Producer))]++
			rep.PDFPackages[it.Pkg]++
		}
	}
	fmt.Fprintf(stderr, "realcorpus: gds crawl of %d files...\n", len(items))
	if err := rcCrawl(ctx, *gds, home, filesDir, *concurrency, &rep, stderr); err != nil {
		return err
	}
	files, err := rcMeasure(ctx, home, refDir, items)
	if err != nil {
		return err
	}
	rep.Formats = rcAggregate(files)
	sort.SliceStable(files, func(i, j int) bool { return files[i].Recall < files[j].Recall })
	for _, f := range files {
		if len(rep.Worst) >= *worst {
			break
		}
		if f.Status == "indexed" {
			rep.Worst = append(rep.Worst, f)
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].JRecall < files[j].JRecall })
	for _, f := range files {
		if len(rep.WorstJudged) >= *worst {
			break
		}
		if f.Status == "indexed" && f.Format == "PDF" && !f.Disagree {
			rep.WorstJudged = append(rep.WorstJudged, f)
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].Recall < files[j].Recall })
	for _, f := range files {
		if f.Status == "indexed" && f.Disagree {
			rep.Unjudged = append(rep.Unjudged, f)
		}
	}
	for _, f := range files {
		if f.Status == "indexed" && (runTogether(f.Joined, f.Boundaries) || runTogether(f.JJoined, f.Boundaries)) {
			rep.RunTogether = append(rep.RunTogether, f)
		}
		if f.CutPages > 0 || f.JCutPages > 0 {
			rep.PagesCut = append(rep.PagesCut, f)
		}
		if f.RTLRev > 0 || f.JRTLRev > 0 || f.RTLForm > 0 {
			rep.RTLReversed = append(rep.RTLReversed, f)
		}
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(rep)
	}
	rcPrint(stdout, rep)
	return nil
}

var producerFamily = regexp.MustCompile(`^[^0-9(]*`)

// runTogether tells whether a file loses more than 2 % of its word
// spaces.
func runTogether(joined, boundaries int) bool {
	return boundaries > 0 && float64(joined) > 0.02*float64(boundaries)
}

// rcCounts is how many files of each format the sample takes (Office: of
// each of DOCX, XLSX and PPTX).
type rcCounts struct{ PDF, HTML, Text, Office int }

// rcSelect walks root (one subfolder per package) and returns the sample:
// the PDFs named in include and every PDF of the packages in whole, then
// PDFs taken in turn from each (package, producer) group, HTML files and text files in turn from each package,
// and, when officeRef is set, the DOCX, XLSX and PPTX files of
// root/office-*/usr/share/doc/SOURCE in turn from each source package.
func rcSelect(ctx context.Context, root, officeRef string, n rcCounts, include, whole []string) ([]rcItem, error) {
	groups := map[string][]rcItem{}
	must, all := map[string]bool{}, map[string]bool{}
	for _, n := range include {
		if n = strings.TrimSpace(n); n != "" {
			must[n] = true
		}
	}
	for _, p := range whole {
		if p = strings.TrimSpace(p); p != "" {
			all[p] = true
		}
	}
	var picked []rcItem
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		pkg, _, _ := strings.Cut(rel, string(filepath.Separator))
		info, err := d.Info()
		if err != nil || info.Size() < 200 || info.Size() > 8<<20 {
			return nil
		}
		base := strings.ToLower(d.Name())
		it := rcItem{Src: p, Pkg: pkg, Name: pkg + "__" + strings.ReplaceAll(strings.TrimPrefix(rel, pkg+"/usr/share/doc/"), "/", "_")}
		if f, ok := officeFormats[path.Ext(base)]; ok && strings.HasPrefix(pkg, "office-") {
			if officeRef == "" {
				return nil
			}
			it.Format, it.Ref = f, filepath.Join(officeRef, strings.TrimSuffix(rel, filepath.Ext(rel)))
			src, _, _ := strings.Cut(strings.TrimPrefix(rel, pkg+"/usr/share/doc/"), "/")
			groups[f+"\x00"+src] = append(groups[f+"\x00"+src], it)
			return nil
		}
		switch {
		case strings.HasSuffix(base, ".pdf"):
			it.Format = "PDF"
			out, _ := exec.CommandContext(ctx, "pdfinfo", p).Output()
			for _, line := range strings.Split(string(out), "\n") {
				if v, ok := strings.CutPrefix(line, "Producer:"); ok {
					it.Producer = strings.TrimSpace(v)
				}
			}
			if must[d.Name()] || all[pkg] {
				picked = append(picked, it)
				delete(must, d.Name())
				return nil
			}
			fam := strings.TrimSpace(producerFamily.FindString(it.Producer))
			groups["PDF\x00"+pkg+"\x00"+fam] = append(groups["PDF\x00"+pkg+"\x00"+fam], it)
		case strings.HasSuffix(base, ".html") || strings.HasSuffix(base, ".htm"):
			it.Format = "HTML"
			groups["HTML\x00"+pkg] = append(groups["HTML\x00"+pkg], it)
		case (strings.HasSuffix(base, ".txt") || strings.HasPrefix(base, "readme")) && info.Size() < 1<<20 && !strings.Contains(base, "."+"gz"):
			it.Format = "text"
			if !strings.HasSuffix(base, ".txt") {
				it.Name += ".txt" // a README is text/plain as Drive would type it
			}
			groups["text\x00"+pkg] = append(groups["text\x00"+pkg], it)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	take := func(format string, n int) {
		var keys []string
		for k := range groups {
			if strings.HasPrefix(k, format+"\x00") {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for k := range keys {
			g := groups[keys[k]]
			sort.Slice(g, func(i, j int) bool { return g[i].Src < g[j].Src })
		}
		have := 0
		for _, it := range picked {
			if it.Format == format {
				have++
			}
		}
		// Each group in a fixed random order, then one file of each
		// group in turn.
		rng := rand.New(rand.NewPCG(31, 1))
		for _, k := range keys {
			g := groups[k]
			rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
		}
		for round := 0; have < n; round++ {
			added := false
			for _, k := range keys {
				if g := groups[k]; round < len(g) && have < n {
					picked = append(picked, g[round])
					have++
					added = true
				}
			}
			if !added {
				break
			}
		}
	}
	take("PDF", n.PDF)
	take("HTML", n.HTML)
	take("text", n.Text)
	for _, f := range []string{"DOCX", "XLSX", "PPTX"} {
		take(f, n.Office)
	}
	return picked, nil
}

// officeFormats are the formats LibreOffice made, by extension.
var officeFormats = map[string]string{".docx": "DOCX", ".xlsx": "XLSX", ".pptx": "PPTX"}

// rcReferences copies each file into filesDir and writes its reference
// text into refDir (pages separated by form feeds); files without a
// reference are dropped (counted).
func rcReferences(ctx context.Context, items []rcItem, filesDir, refDir string) ([]rcItem, int) {
	out := make([]bool, len(items))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, it := range items {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = rcReference(ctx, it, filesDir, refDir) == nil
		}()
	}
	wg.Wait()
	var kept []rcItem
	for i, it := range items {
		if out[i] {
			kept = append(kept, it)
		}
	}
	return kept, len(items) - len(kept)
}

func rcReference(ctx context.Context, it rcItem, filesDir, refDir string) error {
	data, err := os.ReadFile(it.Src)
	if err != nil {
		return err
	}
	ref := filepath.Join(refDir, it.Name+".txt")
	var text []byte
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	switch it.Format {
	case "PDF":
		text, err = exec.CommandContext(ctx, "pdftotext", "-q", "-enc", "UTF-8", it.Src, "-").Output()
		// The second reference (MuPDF, pages ended by form feeds); a
		// file it cannot read is judged against pdftotext alone.
		second := filepath.Join(refDir, it.Name+".mutool.txt")
		if merr := exec.CommandContext(ctx, "mutool", "draw", "-q", "-F", "txt", "-o", second, it.Src).Run(); merr != nil {
			_ = os.Remove(second)
		}
	case "HTML":
		args := []string{"-dump", "-T", "text/html", "-O", "UTF-8", "-cols", "200"}
		if !utf8.Valid(data) && !declaresCharset(data) {
			// w3m reads an undeclared 8-bit page as ASCII and drops
			// every accented letter: tell it what uchardet reads.
			enc, ferr := rcTextCharset(ctx, it.Src)
			if ferr != nil {
				return ferr
			}
			args = append(args, "-I", enc)
		}
		text, err = exec.CommandContext(ctx, "w3m", append(args, it.Src)...).Output()
	case "DOCX", "XLSX", "PPTX":
		text, err = officeRefText(it)
	default:
		if bytes.IndexByte(data, 0) >= 0 {
			return errors.New("binary")
		}
		text = data
		if !utf8.Valid(data) {
			enc, ferr := rcTextCharset(ctx, it.Src)
			if ferr != nil {
				return ferr
			}
			text, err = exec.CommandContext(ctx, "iconv", "-f", enc, "-t", "UTF-8", it.Src).Output()
		}
	}
	if err != nil || len(bytes.TrimSpace(text)) == 0 {
		return fmt.Errorf("no reference for %s: %v", it.Src, err)
	}
	if err := os.WriteFile(ref, text, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(filesDir, it.Name), data, 0o644)
}

// declaresCharset tells whether an HTML page names its charset (a meta
// charset or an XML declaration's encoding) near its start.
func declaresCharset(page []byte) bool {
	head := bytes.ToLower(page[:min(len(page), 4096)])
	return bytes.Contains(head, []byte("charset=")) || bytes.Contains(head, []byte("charset =")) ||
		bytes.Contains(head, []byte("encoding="))
}

// rcTextCharset names the charset of a text file that is not UTF-8 for
// iconv: uchardet's (Mozilla's detector, which knows the Cyrillic, Greek
// and Central European code pages; file(1) calls them all ISO-8859), or
// file's when uchardet does not know.
func rcTextCharset(ctx context.Context, name string) (string, error) {
	out, err := exec.CommandContext(ctx, "uchardet", name).Output()
	if err != nil {
		return "", fmt.Errorf("uchardet %s: %w", name, err)
	}
	if enc := strings.TrimSpace(string(out)); enc != "" && !strings.EqualFold(enc, "unknown") {
		return enc, nil
	}
	out, err = exec.CommandContext(ctx, "file", "-b", "--mime-encoding", name).Output()
	if err != nil {
		return "", fmt.Errorf("file %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// rcCrawl runs gds crawl on filesDir with the offline provider into home,
// timing it and sampling the RSS of gds and its worker processes.
func rcCrawl(ctx context.Context, gds, home, filesDir string, concurrency int, rep *rcReport, stderr io.Writer) error {
	args := []string{"crawl", "--source", "local:" + filesDir}
	if concurrency > 0 {
		args = append(args, "--concurrency", strconv.Itoa(concurrency))
	}
	cmd := exec.CommandContext(ctx, gds, args...)
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "DATABASE_URL", "SUPABASE_DB_URL", "GDS_SOURCE", "GDS_SOURCES", "GDS_HOME", "GDS_AI_PROVIDER", "OPENAI_API_KEY", "LANG", "LC_ALL":
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "LANG=C")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	var peak, peakPSS int64
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				rss, pss := treeMemory(cmd.Process.Pid)
				peak, peakPSS = max(peak, rss), max(peakPSS, pss)
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	rep.CrawlSeconds = time.Since(start).Seconds()
	rep.FilesPerSec = float64(rep.Files) / rep.CrawlSeconds
	rep.PeakTreeRSSMB = float64(peak) / (1 << 20)
	rep.PeakTreePSSMB = float64(peakPSS) / (1 << 20)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rep.PeakRSSMB = float64(ru.Maxrss) / 1024
	}
	if err != nil {
		// A crawl that reports skipped files exits non-zero: the
		// index still says what happened to each file.
		rep.CrawlExitError = err.Error()
		tail := out.String()
		if len(tail) > 2000 {
			tail = tail[len(tail)-2000:]
		}
		fmt.Fprintf(stderr, "realcorpus: gds crawl: %v\n%s\n", err, tail)
	}
	return nil
}

// treeMemory sums the resident set of pid and its descendants (Linux
// /proc), and their proportional set size (a process's RSS where the
// kernel has no smaps_rollup).
func treeMemory(pid int) (rss, pss int64) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, 0
	}
	parent := map[int]int{}
	res := map[int]int64{}
	page := int64(os.Getpagesize())
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 22 {
			continue
		}
		pp, _ := strconv.Atoi(f[1])
		r, _ := strconv.ParseInt(f[21], 10, 64)
		parent[p], res[p] = pp, r*page
	}
	var total, proportional int64
	for p, r := range res {
		for q := p; q > 1; q = parent[q] {
			if q == pid {
				total += r
				proportional += pssOf(p, r)
				break
			}
		}
	}
	return total, proportional
}

// pssOf reads a process's proportional set size from
// /proc/PID/smaps_rollup; rss when it cannot.
func pssOf(pid int, rss int64) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "smaps_rollup"))
	if err != nil {
		return rss
	}
	if pss, ok := rollupPSS(string(b)); ok {
		return pss
	}
	return rss
}

// rollupPSS is the "Pss:" line of a smaps_rollup, in bytes.
func rollupPSS(rollup string) (int64, bool) {
	for _, line := range strings.Split(rollup, "\n") {
		if v, ok := strings.CutPrefix(line, "Pss:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// rcMeasure compares the text of each file in the index at home with its
// reference.
func rcMeasure(ctx context.Context, home, refDir string, items []rcItem) ([]rcFile, error) {
	var dbPath string
	_ = filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "index.db" {
			dbPath = p
		}
		return nil
	})
	if dbPath == "" {
		return nil, errors.New("gds crawl left no index.db")
	}
	st, err := sqlite.Open(ctx, dbPath, sqlite.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	ids, err := st.IndexedIDs(ctx)
	if err != nil {
		return nil, err
	}
	got, err := st.GetFiles(ctx, ids)
	if err != nil {
		return nil, err
	}
	byName := map[string]int{}
	for i, f := range got {
		byName[f.Name] = i
	}
	var out []rcFile
	for _, it := range items {
		f := rcFile{rcItem: it, Status: "lost"}
		i, ok := byName[it.Name]
		if ok && got[i].NameOnly() {
			f.Status, f.Reason = "name-only", got[i].SkipReason
		}
		refBytes, err := os.ReadFile(filepath.Join(refDir, it.Name+".txt"))
		if err != nil {
			return nil, err
		}
		ref := string(refBytes)
		if ok && !got[i].NameOnly() {
			f.Status = "indexed"
			chunks, err := st.FileChunks(ctx, got[i].ID, 1<<24)
			if err != nil {
				return nil, err
			}
			pages := map[int]string{}
			var all strings.Builder
			prev, prevPage := "", -1
			for _, c := range chunks {
				t := c.Text
				if c.Page == prevPage {
					t = dropOverlap(prev, t)
				}
				pages[c.Page] += t + " "
				all.WriteString(t + " ")
				prev, prevPage = c.Text, c.Page
			}
			text := all.String()
			refWords, gotWords := foldRTL(words(ref)), foldRTL(words(text))
			f.Recall, f.Precision = recallPrecision(refWords, gotWords)
			f.RefOnly, f.GdsOnly = onlyIn(refWords, gotWords, 6), onlyIn(gotWords, refWords, 6)
			f.Joined, f.Boundaries = joinedWords(ref, text)
			rev := reversedRTL(ref, text)
			f.RTLRev, f.RTLWords = len(rev), rev[:min(len(rev), 6)]
			f.RTLForm, f.RTLFormWords = reversedByForm(text, 6)
			f.RefRTLForm, _ = reversedByForm(ref, 0)
			if it.Format == "PDF" {
				for n, p := range strings.Split(ref, "\f") {
					if strings.TrimSpace(p) == "" {
						continue
					}
					f.Pages++
					if cutOff(p, pages[n+1]) {
						f.CutPages++
					}
				}
			}
			f.JRecall, f.JPrecision, f.JJoined, f.JCutPages, f.JRTLRev = f.Recall, f.Precision, f.Joined, f.CutPages, max(f.RTLRev, f.RTLForm)
			f.Missed, f.Extra = f.RefOnly, f.GdsOnly
			if second, err := os.ReadFile(filepath.Join(refDir, it.Name+".mutool.txt")); err == nil && it.Format == "PDF" {
				j := judge(ref, string(second), text, 6)
				f.SecondRTLForm, _ = reversedByForm(string(second), 0)
				if !j.Judgeable {
					// No reference can say which words are reversed:
					// only the letter-form count, which needs none.
					f.Disagree, f.JRTLRev = true, f.RTLForm
					out = append(out, f)
					continue
				}
				f.Second = true
				// MuPDF writes right-to-left lines in drawn order: it
				// cannot confirm which way round a word is, so the judged
				// count is the letter-form one (j.RTL stays evidence).
				f.JRecall, f.JPrecision, f.JJoined, f.JRTLRev = j.Recall, j.Precision, j.Joined, f.RTLForm
				f.Agreed, f.OnlyA, f.OnlyB, f.GotOnlyA, f.GotOnlyB = j.Agreed, j.OnlyA, j.OnlyB, j.GotOnlyA, j.GotOnlyB
				f.Missed, f.Extra, f.DisputedA, f.DisputedB = j.Missed, j.Extra, j.DisputedA, j.DisputedB
				f.JCutPages, _ = judgedCutPages(ref, string(second), pages)
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// dropOverlap removes from next the text it repeats from the end of prev
// (chunks overlap by at most crawl.ChunkMaxOverlap characters; no more is
// taken, or a document repeating itself would lose text).
func dropOverlap(prev, next string) string {
	limit, n := len(next), 0
	for i := range next {
		if n == crawl.ChunkMaxOverlap {
			limit = i
			break
		}
		n++
	}
	for k := min(len(prev), limit); k > 0; k-- {
		if strings.HasSuffix(prev, next[:k]) {
			return next[k:]
		}
	}
	return next
}

func rcAggregate(files []rcFile) []*rcFormat {
	byFormat := map[string]*rcFormat{}
	var order []string
	for _, f := range files {
		a := byFormat[f.Format]
		if a == nil {
			a = &rcFormat{Format: f.Format, Reasons: map[string]int{}}
			byFormat[f.Format] = a
			order = append(order, f.Format)
		}
		a.Files++
		switch f.Status {
		case "indexed":
			a.Indexed++
			a.recalls = append(a.recalls, f.Recall)
			a.precisions = append(a.precisions, f.Precision)
			if runTogether(f.Joined, f.Boundaries) {
				a.RunTogether++
			}
			a.CutPages += f.CutPages
			if f.CutPages > 0 {
				a.CutFiles++
			}
			a.RTLReversed += f.RTLRev
			a.RTLForm += f.RTLForm
			if f.RTLForm > 0 {
				a.RTLFormFiles++
			}
			a.RefRTLForm += f.RefRTLForm
			a.SecondRTLForm += f.SecondRTLForm
			// A file whose references disagree has no judged text
			// figures (listed apart, rcReport.Unjudged); its reversed
			// words are still counted by letter form.
			if !f.Disagree {
				a.jrecalls = append(a.jrecalls, f.JRecall)
				a.jprecisions = append(a.jprecisions, f.JPrecision)
				if runTogether(f.JJoined, f.Boundaries) {
					a.JRunTogether++
				}
				a.JCutPages += f.JCutPages
				if f.JCutPages > 0 {
					a.JCutFiles++
				}
			}
			a.JRTLReversed += f.JRTLRev
			if f.Second {
				a.Second++
			}
			if f.Disagree {
				a.Disagree++
			}
			a.Agreed += f.Agreed
			a.OnlyA += f.OnlyA
			a.OnlyB += f.OnlyB
			a.GotOnlyA += f.GotOnlyA
			a.GotOnlyB += f.GotOnlyB
		case "name-only":
			a.NameOnly++
			a.Reasons[f.Reason]++
		default:
			a.Lost++
		}
	}
	var out []*rcFormat
	for _, k := range order {
		a := byFormat[k]
		a.RecallMedian, a.RecallP10 = quantile(a.recalls, 0.5), quantile(a.recalls, 0.1)
		a.PrecisionMedian, a.PrecisionP10 = quantile(a.precisions, 0.5), quantile(a.precisions, 0.1)
		a.JRecallMedian, a.JRecallP10 = quantile(a.jrecalls, 0.5), quantile(a.jrecalls, 0.1)
		a.JPrecisionMedian, a.JPrecisionP10 = quantile(a.jprecisions, 0.5), quantile(a.jprecisions, 0.1)
		out = append(out, a)
	}
	return out
}

func rcPrint(w io.Writer, r rcReport) {
	fmt.Fprintf(w, "%d files (%d more without a reference text); gds crawl %.1f s, %.2f files/s, peak RSS %.0f MB (largest process); gds and workers together %.0f MB PSS (shared pages once), %.0f MB summing each one's RSS\n\n",
		r.Files, r.NoReference, r.CrawlSeconds, r.FilesPerSec, r.PeakRSSMB, r.PeakTreePSSMB, r.PeakTreeRSSMB)
	for _, m := range []struct {
		title string
		n     map[string]int
	}{{"PDFs by producer", r.PDFProducers}, {"PDFs by package", r.PDFPackages}} {
		fmt.Fprintf(w, "%s:", m.title)
		keys := slices.Collect(maps.Keys(m.n))
		slices.SortFunc(keys, func(a, b string) int {
			if m.n[a] != m.n[b] {
				return m.n[b] - m.n[a]
			}
			return strings.Compare(a, b)
		})
		for _, k := range keys {
			name := k
			if name == "" {
				name = "(none)"
			}
			fmt.Fprintf(w, " %s %d;", name, m.n[k])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nraw: against the first reference (pdftotext, w3m -dump, the text itself, LibreOffice)\n")
	fmt.Fprintf(w, "%-6s %5s %7s %9s %4s %15s %15s %12s %17s %12s\n", "format", "files", "indexed", "name-only", "lost",
		"recall med/p10", "precis med/p10", "run together", "pages cut (files)", "RTL reversed")
	for _, f := range r.Formats {
		fmt.Fprintf(w, "%-6s %5d %7d %9d %4d %7.3f/%.3f %7.3f/%.3f %12d %11d (%3d) %12d\n", f.Format, f.Files, f.Indexed, f.NameOnly, f.Lost,
			f.RecallMedian, f.RecallP10, f.PrecisionMedian, f.PrecisionP10, f.RunTogether, f.CutPages, f.CutFiles, f.RTLReversed)
		for reason, n := range f.Reasons {
			fmt.Fprintf(w, "       name-only %d: %s\n", n, reason)
		}
	}
	for _, f := range r.Formats {
		if f.Format != "PDF" {
			continue
		}
		share := func(a, b int) float64 {
			if b == 0 {
				return 0
			}
			return 100 * float64(a) / float64(b)
		}
		fmt.Fprintf(w, "\njudged PDF: against the words pdftotext and mutool both hold (%d of %d indexed PDFs; %d without mutool's text: raw figures; %d where they agree on less than half the words: not judged, listed below; RTL reversed: by letter form, as MuPDF writes right-to-left lines in drawn order)\n",
			f.Second, f.Indexed, f.Indexed-f.Second-f.Disagree, f.Disagree)
		fmt.Fprintf(w, "%-6s %15s %15s %12s %17s %12s\n", "format", "recall med/p10", "precis med/p10", "run together", "pages cut (files)", "RTL reversed")
		fmt.Fprintf(w, "%-6s %7.3f/%.3f %7.3f/%.3f %12d %11d (%3d) %12d\n", f.Format, f.JRecallMedian, f.JRecallP10, f.JPrecisionMedian, f.JPrecisionP10,
			f.JRunTogether, f.JCutPages, f.JCutFiles, f.JRTLReversed)
		fmt.Fprintf(w, "right-to-left words beginning with a letter written only at a word's end (%s: stored reversed, no reference needed): gds %d in %d files; pdftotext %d, mutool %d\n",
			strings.Join(strings.Split(endOnly, ""), " "), f.RTLForm, f.RTLFormFiles, f.RefRTLForm, f.SecondRTLForm)
		fmt.Fprintf(w, "words both references hold %d; disputed: only pdftotext %d (%.1f %%; gds holds %.0f %% of them), only mutool %d (%.1f %%; gds holds %.0f %%)\n",
			f.Agreed, f.OnlyA, share(f.OnlyA, f.Agreed+f.OnlyA), share(f.GotOnlyA, f.OnlyA), f.OnlyB, share(f.OnlyB, f.Agreed+f.OnlyB), share(f.GotOnlyB, f.OnlyB))
	}
	for _, list := range []struct {
		title  string
		files  []rcFile
		judged bool
	}{{"lowest raw recall", r.Worst, false}, {"lowest judged recall, PDF", r.WorstJudged, true}, {"not judged: the references agree on less than half the words", r.Unjudged, false}, {"words run together", r.RunTogether, true}, {"pages cut off", r.PagesCut, true}} {
		if len(list.files) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (recall, precision, spaces lost, pages cut/pages raw; judged recall, precision, spaces lost, pages cut; producer, file):\n", list.title)
		for _, f := range list.files {
			lost, jlost := 0.0, 0.0
			if f.Boundaries > 0 {
				lost, jlost = float64(f.Joined)/float64(f.Boundaries), float64(f.JJoined)/float64(f.Boundaries)
			}
			fmt.Fprintf(w, "  %.3f %.3f %5.1f%% %3d/%-3d | %.3f %.3f %5.1f%% %3d  %-28.28s %s\n", f.Recall, f.Precision, 100*lost, f.CutPages, f.Pages,
				f.JRecall, f.JPrecision, 100*jlost, f.JCutPages, f.Producer, f.Name)
			switch {
			case list.judged && f.Second:
				fmt.Fprintf(w, "        missed (both hold): %s | gds only (neither holds): %s\n", strings.Join(f.Missed, " "), strings.Join(f.Extra, " "))
				fmt.Fprintf(w, "        disputed, only pdftotext: %s | only mutool: %s\n", strings.Join(f.DisputedA, " "), strings.Join(f.DisputedB, " "))
			case len(f.RefOnly)+len(f.GdsOnly) > 0:
				fmt.Fprintf(w, "        reference only: %s | gds only: %s\n", strings.Join(f.RefOnly, " "), strings.Join(f.GdsOnly, " "))
			}
		}
	}
	if len(r.RTLReversed) > 0 {
		fmt.Fprintf(w, "\nright-to-left words stored reversed (raw count, judged count, by letter form; file: the reference's words | gds's words by letter form):\n")
		for _, f := range r.RTLReversed {
			fmt.Fprintf(w, "  %d %d %d %s: %s | %s\n", f.RTLRev, f.JRTLRev, f.RTLForm, f.Name, strings.Join(f.RTLWords, " "), strings.Join(f.RTLFormWords, " "))
		}
	}
}

// officeRefText is LibreOffice's own text of an office file, from the
// exports scripts/realcorpus.sh made next to it.Ref: the text export of a
// DOCX (REF.txt), the CSV export of each sheet of an XLSX (REF-SHEET.csv,
// tab-separated), and for a PPTX, which Impress cannot export as text, its
// ODP conversion (REF.odp), whose paragraphs are taken slide by slide.
func officeRefText(it rcItem) ([]byte, error) {
	switch it.Format {
	case "DOCX":
		b, err := os.ReadFile(it.Ref + ".txt")
		return bytes.TrimPrefix(b, []byte("\ufeff")), err
	case "XLSX":
		sheets, err := filepath.Glob(it.Ref + "-*.csv")
		if err != nil || len(sheets) == 0 {
			return nil, fmt.Errorf("no CSV export of %s: %v", it.Src, err)
		}
		// Postp-col.xlsx's sheets match Postp-*.csv too: a sheet is of the
		// workbook with the longest name it starts with.
		others, _ := filepath.Glob(filepath.Join(filepath.Dir(it.Src), filepath.Base(it.Ref)+"-*.xlsx"))
		var out []byte
		for _, s := range sheets {
			if slices.ContainsFunc(others, func(o string) bool {
				return strings.HasPrefix(filepath.Base(s), strings.TrimSuffix(filepath.Base(o), ".xlsx")+"-")
			}) {
				continue
			}
			b, err := os.ReadFile(s)
			if err != nil {
				return nil, err
			}
			out = append(append(out, b...), '\n')
		}
		return out, nil
	}
	return odpText(it.Ref + ".odp")
}

// odpText is the text of an OpenDocument presentation: the paragraphs and
// headings of each slide (draw:page; speaker notes left out), one a line,
// slides separated by form feeds.
func odpText(name string) ([]byte, error) {
	zr, err := zip.OpenReader(name)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	rc, err := zr.Open("content.xml")
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	const textNS = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
	var out bytes.Buffer
	dec := xml.NewDecoder(rc)
	notes, para := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case t.Name.Local == "notes":
				notes++
			case t.Name.Space == textNS && (t.Name.Local == "p" || t.Name.Local == "h"):
				para++
			case t.Name.Space == textNS && t.Name.Local == "s" && notes == 0:
				out.WriteByte(' ')
			case t.Name.Space == textNS && (t.Name.Local == "tab" || t.Name.Local == "line-break") && notes == 0:
				out.WriteByte('\n')
			}
		case xml.EndElement:
			switch {
			case t.Name.Local == "notes":
				notes--
			case t.Name.Space == textNS && (t.Name.Local == "p" || t.Name.Local == "h"):
				para--
				if notes == 0 {
					out.WriteByte('\n')
				}
			case t.Name.Local == "page":
				out.WriteByte('\f')
			}
		case xml.CharData:
			if para > 0 && notes == 0 {
				out.Write(t)
			}
		}
	}
}
