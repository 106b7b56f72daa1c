package extract

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/hostile"
)

// BenchmarkExtractRealdocs extracts every file of testdata/realdocs once
// per iteration (b.N × 23 files) and reports the time per file. The
// "baseline" sub-benchmark only reads the same bytes through io.ReadAll,
// which Extract must do anyway, so the ratio of the two is the cost of
// extraction itself:
//
//	go test -run '^$' -bench BenchmarkExtractRealdocs -benchmem ./internal/extract/
func BenchmarkExtractRealdocs(b *testing.B) {
	rows := readManifest(b)
	files := make([][]byte, len(rows))
	mimes := make([]string, len(rows))
	for i, r := range rows {
		data, err := os.ReadFile(filepath.Join(realdocs, r.file))
		if err != nil {
			b.Fatal(err)
		}
		files[i], mimes[i] = data, MimeTypeByName(r.file)
	}
	ctx := context.Background()
	b.Run("baseline", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, data := range files {
				if _, err := io.ReadAll(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(files)), "ns/file")
	})
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, data := range files {
				if _, err := Extract(ctx, mimes[i], bytes.NewReader(data), 0); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(files)), "ns/file")
	})
	for i, r := range rows {
		b.Run(r.file, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Extract(ctx, mimes[i], bytes.NewReader(files[i]), 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOrderRepairs extracts the hostile corpus's 10,000-page PDF
// (one 1 MB content stream of text lines on every page, read until the
// text limit) without the repairs of pdforder.go ("baseline") and with
// them ("repairs"): the ratio of the two is their cost on a long run of
// plain lines. Besides the wall time it reports the process's CPU time
// per extraction (cpu-ns/op), which other work on a loaded machine does
// not inflate as much. Compare the two with benchstat over -count runs:
//
//	go test -run '^$' -bench BenchmarkOrderRepairs -benchtime 3x -count 8 ./internal/extract/
func BenchmarkOrderRepairs(b *testing.B) {
	f, ok := hostile.Get("pdf-shared-content.pdf", hostile.Options{})
	if !ok {
		b.Fatal("no pdf-shared-content.pdf in the hostile corpus")
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	ctx := context.Background()
	for _, on := range []bool{false, true} {
		name := "baseline"
		if on {
			name = "repairs"
		}
		b.Run(name, func(b *testing.B) {
			saved := orderRepairs
			orderRepairs = on
			defer func() { orderRepairs = saved }()
			start := cpuTime()
			for b.Loop() {
				if _, err := Extract(ctx, "application/pdf", bytes.NewReader(data), 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
