package extract

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/hostile"
)

// hostileTimeout bounds one hostile file: far above what any takes (well
// under a second each without -race), far below a hang.
const hostileTimeout = 2 * time.Minute

// hostileWant is what one corpus file must end with.
type hostileWant struct {
	// outcome is "text", "truncated" (text with Doc.Truncated) or the
	// sentinel the error must match.
	outcome string
	err     error
	// contains must be in the text.
	contains string
	// maxAlloc bounds the bytes allocated during the extraction
	// (runtime.MemStats.TotalAlloc). Without the fixes several files
	// allocate tens to hundreds of GB, or die allocating.
	maxAlloc uint64
}

const mib = 1 << 20

// hostileWants lists every corpus file (TestHostileCorpus fails on a file
// missing here).
var hostileWants = map[string]hostileWant{
	"pdf-xref-prev-self.pdf":                {outcome: "text", contains: "Prev loop survived", maxAlloc: 16 * mib},
	"pdf-xref-prev-cycle.pdf":               {outcome: "text", contains: "Prev cycle survived", maxAlloc: 16 * mib},
	"pdf-xrefstream-prev-self.pdf":          {outcome: "text", contains: "XRef stream Prev loop survived", maxAlloc: 16 * mib},
	"pdf-xref-huge-subsection.pdf":          {outcome: "text", contains: "huge subsection survived", maxAlloc: 16 * mib},
	"pdf-xrefstream-huge-size.pdf":          {outcome: "text", contains: "huge Size survived", maxAlloc: 16 * mib},
	"pdf-form-recursive.pdf":                {outcome: "text", contains: "recursive form", maxAlloc: 16 * mib},
	"pdf-form-fanout.pdf":                   {outcome: "truncated", contains: "fan-out", maxAlloc: 1024 * mib},
	"pdf-page-tree-cycle.pdf":               {outcome: "text", contains: "page after a cyclic page tree", maxAlloc: 16 * mib},
	"pdf-page-tree-dag.pdf":                 {outcome: "text", contains: "page after a doubling page tree", maxAlloc: 16 * mib},
	"pdf-deep-nesting-content.pdf":          {outcome: "text", contains: "before the nesting\nafter the nesting", maxAlloc: 64 * mib},
	"pdf-deep-nesting-object.pdf":           {err: ErrMalformed, maxAlloc: 64 * mib},
	"pdf-flate-bomb.pdf":                    {outcome: "text", contains: "before the bomb", maxAlloc: 64 * mib},
	"pdf-flate-bomb-operators.pdf":          {outcome: "truncated", contains: "before the bomb", maxAlloc: 64 * mib},
	"pdf-objstm-bomb.pdf":                   {err: ErrTooComplex, maxAlloc: 256 * mib},
	"pdf-objstm-extends-cycle.pdf":          {err: ErrMalformed, maxAlloc: 16 * mib},
	"pdf-objstm-self.pdf":                   {err: ErrMalformed, maxAlloc: 16 * mib},
	"pdf-shared-content.pdf":                {outcome: "truncated", contains: "the same content stream on every page", maxAlloc: 256 * mib},
	"pdf-contents-array.pdf":                {outcome: "truncated", contains: "one of many content streams", maxAlloc: 1024 * mib},
	"pdf-shared-resources.pdf":              {outcome: "truncated", contains: "a page with shared resources", maxAlloc: 4096 * mib},
	"pdf-rebuild-quadratic.pdf":             {err: ErrMalformed, maxAlloc: 256 * mib},
	"pdf-cmap-bfrange.pdf":                  {outcome: "text", contains: "AB", maxAlloc: 512 * mib},
	"xlsx-shared-string-amplification.xlsx": {outcome: "truncated", contains: "amplified amplified", maxAlloc: 128 * mib},
	"xlsx-many-shared-strings.xlsx":         {outcome: "text", contains: "s\ts", maxAlloc: 1024 * mib},
	"xlsx-billion-laughs.xlsx":              {err: ErrMalformed, maxAlloc: 16 * mib},
	"docx-huge-part.docx":                   {outcome: "truncated", contains: "The quick brown fox", maxAlloc: 128 * mib},
	"pptx-huge-part.pptx":                   {outcome: "truncated", contains: "A slide that never ends", maxAlloc: 128 * mib},
	"docx-zip-bomb-declared.docx":           {err: ErrMalformed, maxAlloc: 16 * mib},
	"docx-zip-bomb-lying.docx":              {err: ErrMalformed, maxAlloc: 16 * mib},
	"docx-repeated-part.docx":               {outcome: "text", contains: "again.\n\nheader text", maxAlloc: 512 * mib},
	"docx-billion-laughs.docx":              {err: ErrMalformed, maxAlloc: 16 * mib},
	"docx-deep-nesting.docx":                {outcome: "text", contains: "deep text", maxAlloc: 256 * mib},
	"html-deep-nesting.html":                {outcome: "text", contains: "deep text", maxAlloc: 64 * mib},
	"html-many-elements.html":               {outcome: "truncated", contains: "x\nx", maxAlloc: 512 * mib},
	"text-huge-line.txt":                    {err: ErrTooLarge, maxAlloc: 256 * mib},
	"text-long-line.txt":                    {outcome: "truncated", contains: "abcdefghi abcdefghi", maxAlloc: 256 * mib},
	"text-utf16le-invalid.txt":              {outcome: "text", contains: "Hello, 世界 \ufffd after \ufffd end", maxAlloc: mib},
	"text-utf16be-invalid.txt":              {outcome: "text", contains: "Hello, 世界 \ufffd after \ufffd end", maxAlloc: mib},
}

// hostileRun is the measured extraction of one file.
type hostileRun struct {
	doc      Doc
	err      error
	wall     time.Duration
	alloc    uint64 // TotalAlloc during the extraction
	peakHeap uint64 // sampled live heap above the start, every 2 ms
}

// runHostile extracts f in this process; a file larger than 64 MiB is
// streamed through a pipe (Extract must stop reading at its size limit).
func runHostile(t testing.TB, f hostile.File) hostileRun {
	t.Helper()
	var r io.Reader
	if f.Size > 64<<20 {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(f.Write(pw)) }()
		defer pr.Close() // ends the writer
		r = pr
	} else {
		var b bytes.Buffer
		if err := f.Write(&b); err != nil {
			t.Fatal(err)
		}
		r = &b
	}
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	base := liveHeap()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			if h := liveHeap(); h > base && h-base > peak.Load() {
				peak.Store(h - base)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), hostileTimeout)
	defer cancel()
	start := time.Now()
	doc, err := Extract(ctx, MimeTypeByName(f.Name), r, 0)
	run := hostileRun{doc: doc, err: err, wall: time.Since(start)}
	close(stop)
	<-sampled
	runtime.ReadMemStats(&m1)
	run.alloc, run.peakHeap = m1.TotalAlloc-m0.TotalAlloc, peak.Load()
	return run
}

func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestHostileCorpus pushes every file of the hostile corpus through
// Extract: each ends with its expected outcome (text, text cut at
// MaxTextBytes, or a refusal matching a sentinel), allocating less than its
// bound. Before the fixes, the PDF cross-reference, form and page-tree
// files never returned, the huge-table PDFs and the objstm-self PDF killed
// the process, and the XLSX amplification ran out of memory.
//
// With -v it logs, per file, the wall time (also as a ratio to extracting
// testdata/realdocs/pdftools-hello.pdf in the same run), the bytes
// allocated and the sampled peak of the live heap:
//
//	go test -run TestHostileCorpus -v ./internal/extract/
//
// The race build runs it with the PDF work limits, the text limit and the
// shared string limit divided by 8: the race detector makes parsing about
// ten times slower, and finds nothing in a single goroutine (nor are its
// allocation figures comparable: its sync.Pools drop objects on purpose,
// so the bounds are not checked there); scripts/test.sh runs it once more
// without -race, with the real limits and the bounds.
func TestHostileCorpus(t *testing.T) {
	if raceEnabled {
		saved, savedText, savedShared := pdfLimits, textLimit, maxSharedStrings
		pdfLimits.work, pdfLimits.content, pdfLimits.streams = saved.work/8, saved.content/8, saved.streams/8
		textLimit, maxSharedStrings = savedText/8, savedShared/8
		t.Cleanup(func() { pdfLimits, textLimit, maxSharedStrings = saved, savedText, savedShared })
		t.Log("race build: PDF work limits, the text limit and the shared string limit divided by 8")
	}
	ref, err := os.ReadFile(filepath.Join(realdocs, "pdftools-hello.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	baseline := time.Hour
	for range 5 {
		start := time.Now()
		if _, err := Extract(context.Background(), "application/pdf", bytes.NewReader(ref), 0); err != nil {
			t.Fatal(err)
		}
		baseline = min(baseline, time.Since(start))
	}
	t.Logf("baseline: pdftools-hello.pdf in %v", baseline)
	for _, f := range hostile.Corpus(hostile.Options{}) {
		t.Run(f.Name, func(t *testing.T) {
			want, ok := hostileWants[f.Name]
			if !ok {
				t.Fatalf("no expectation for %s (%s): add it to hostileWants", f.Name, f.Probe)
			}
			run := runHostile(t, f)
			text := run.doc.Text()
			t.Logf("%s: %s, %d bytes of text, truncated %v, %v (%.0f× baseline), allocated %d MiB, peak heap %d MiB; %v",
				f.Probe, outcomeOf(run), len(text), run.doc.Truncated, run.wall.Round(time.Millisecond),
				float64(run.wall)/float64(baseline), run.alloc>>20, run.peakHeap>>20, run.err)
			switch {
			case want.err != nil:
				if !errors.Is(run.err, want.err) {
					t.Errorf("error %v, want %v", run.err, want.err)
				}
			case run.err != nil:
				t.Errorf("error %v, want %s", run.err, want.outcome)
			case run.doc.Truncated != (want.outcome == "truncated"):
				t.Errorf("Truncated %v, want %s", run.doc.Truncated, want.outcome)
			}
			if !strings.Contains(text, want.contains) {
				t.Errorf("text lacks %q: %.200q", want.contains, text)
			}
			if total := pagesLen(run.doc); total > textLimit {
				t.Errorf("%d bytes of text, more than MaxTextBytes", total)
			}
			if run.alloc > want.maxAlloc && !raceEnabled { // the race build's sync.Pools drop objects on purpose
				t.Errorf("allocated %d MiB, bound %d MiB", run.alloc>>20, want.maxAlloc>>20)
			}
		})
	}
}

func outcomeOf(r hostileRun) string {
	switch {
	case r.err != nil:
		return "error"
	case r.doc.Truncated:
		return "truncated"
	}
	return "text"
}

func pagesLen(d Doc) int {
	n := 0
	for _, p := range d.Pages {
		n += len(p.Text)
	}
	return n
}
