package extract

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
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
