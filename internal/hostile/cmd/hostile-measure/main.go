// Command hostile-measure runs hostile corpus files (package
// internal/hostile) through extract.Extract in this process and prints,
// per file, the outcome, the text size, the wall time (also as a ratio to
// extracting a reference document in the same run), the sampled peak of
// the live heap and the bytes allocated:
//
//	go run ./internal/hostile/cmd/hostile-measure [-timeout 60s] NAME...
//
// Run one file per process (a file may crash the process, which is what
// the "before" figures of docs/RELIABILITY.md measure, under ulimit -v):
//
//	for f in $(go run ./internal/hostile/cmd/hostile-corpus DIR | cut -f1); do
//	  (ulimit -v 10000000; go run ./internal/hostile/cmd/hostile-measure "$(basename "$f")")
//	done
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/hostile"
)

func main() {
	timeout := flag.Duration("timeout", 60*time.Second, "deadline of each extraction")
	ref := flag.String("ref", "testdata/realdocs/pdftools-hello.pdf", "the reference document (best of 20 runs)")
	flag.Parse()
	refData, err := os.ReadFile(*ref)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile-measure:", err)
		os.Exit(1)
	}
	baseline := time.Hour
	for range 20 {
		start := time.Now()
		if _, err := extract.Extract(context.Background(), extract.MimeTypeByName(*ref), bytes.NewReader(refData), 0); err != nil {
			fmt.Fprintln(os.Stderr, "hostile-measure: reference:", err)
			os.Exit(1)
		}
		baseline = min(baseline, time.Since(start))
	}
	files := map[string]hostile.File{}
	for _, f := range hostile.Corpus(hostile.Options{}) {
		files[f.Name] = f
	}
	for _, name := range flag.Args() {
		f, ok := files[name]
		if !ok {
			fmt.Fprintln(os.Stderr, "hostile-measure: no corpus file", name)
			os.Exit(2)
		}
		measure(f, *timeout, baseline)
	}
	fmt.Printf("reference %s: %v\n", *ref, baseline)
}

func measure(f hostile.File, timeout, baseline time.Duration) {
	var r io.Reader
	if f.Size > 64<<20 { // streamed: Extract must stop at its size limit
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(f.Write(pw)) }()
		defer pr.Close()
		r = pr
	} else {
		var b bytes.Buffer
		if err := f.Write(&b); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		r = &b
	}
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	base := liveHeap()
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		for {
			if h := liveHeap(); h > base && h-base > peak.Load() {
				peak.Store(h - base)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	doc, err := extract.Extract(ctx, extract.MimeTypeByName(f.Name), r, 0)
	wall := time.Since(start)
	close(stop)
	runtime.ReadMemStats(&m1)
	text := 0
	for _, p := range doc.Pages {
		text += len(p.Text)
	}
	fmt.Printf("%s\t%s\ttruncated=%v\ttext=%d\twall=%.3fs\tratio=%.0f\tpeakheap=%dMiB\talloc=%dMiB\t%v\n", f.Name, outcome(doc, err), doc.Truncated,
		text, wall.Seconds(), float64(wall)/float64(baseline), peak.Load()>>20, (m1.TotalAlloc-m0.TotalAlloc)>>20, err)
}

func outcome(doc extract.Doc, err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline"
	case err != nil:
		return "error"
	case doc.Truncated:
		return "truncated"
	}
	return "text"
}

func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
