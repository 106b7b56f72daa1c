package crawl

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/store"
)

var benchListed = flag.Int("listed", 100000, "files listed by BenchmarkReconcileMemory")

// synthSource lists n files generated on the fly (nothing on disk or in
// memory); every changeEvery-th file differs from its indexed record.
type synthSource struct{ n int }

var synthBase = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func synthEntry(i int) Entry {
	return Entry{ID: fmt.Sprintf("syn-%09d", i), Name: fmt.Sprintf("f%09d.txt", i), MimeType: "text/plain",
		ModifiedAt: synthBase.Add(time.Duration(i) * time.Second), Size: int64(200 + i%200),
		Path: fmt.Sprintf("folder%04d", i/1000), WebLink: fmt.Sprintf("file:///synthetic/folder%04d/f%09d.txt", i/1000, i)}
}

func (s synthSource) Kind() string        { return "local" }
func (s synthSource) Fingerprint() string { return "synthetic:" + strconv.Itoa(s.n) }
func (s synthSource) List(ctx context.Context, _ time.Time, fn func(Entry) error) error {
	for i := range s.n {
		if err := fn(synthEntry(i)); err != nil {
			return err
		}
	}
	return nil
}
func (s synthSource) Open(context.Context, Entry) (io.ReadCloser, error) {
	return io.NopCloser(strings.NewReader("synthetic text")), nil
}

// synthIndex answers as an index holding every synthetic file would, from
// the IDs alone (it holds nothing), so that the measured memory is the
// crawl's: its records equal the listing, except every 100th file, which
// has an older time (changed since the last crawl).
type synthIndex struct {
	n       int
	fpText  string
	written atomic.Int64
}

func (x *synthIndex) EnsureEmbeddingSpace(context.Context, store.EmbeddingSpace) error { return nil }
func (x *synthIndex) UpsertFile(context.Context, store.File, []store.Chunk) error {
	x.written.Add(1)
	return nil
}
func (x *synthIndex) ContentHashes(context.Context, []string) (map[string]string, error) {
	return map[string]string{}, nil
}
func (x *synthIndex) GetFiles(_ context.Context, ids []string) ([]store.File, error) {
	out := make([]store.File, 0, len(ids))
	for _, id := range ids {
		i, _ := strconv.Atoi(strings.TrimPrefix(id, "syn-"))
		e := synthEntry(i)
		if i%100 == 0 {
			e.ModifiedAt = e.ModifiedAt.Add(-time.Hour)
		}
		out = append(out, store.File{ID: e.ID, Name: e.Name, MimeType: e.MimeType, ModifiedAt: e.ModifiedAt,
			Size: e.Size, Path: e.Path, WebLink: e.WebLink})
	}
	return out, nil
}
func (x *synthIndex) SyncState(_ context.Context, key string) (store.SyncState, error) {
	return store.SyncState{Source: key, Fingerprint: x.fpText, ModifiedAt: synthBase}, nil
}
func (x *synthIndex) SetSyncState(context.Context, store.SyncState) error { return nil }
func (x *synthIndex) Reset(context.Context) error                         { return nil }
func (x *synthIndex) SourceIDs(context.Context, string) ([]string, error) {
	ids := make([]string, x.n)
	for i := range ids {
		ids[i] = fmt.Sprintf("syn-%09d", i)
	}
	return ids, nil
}
func (x *synthIndex) ClaimFiles(context.Context, string, string, []string) (int, error) {
	return 0, nil
}
func (x *synthIndex) DeleteFiles(context.Context, []string) error { return nil }
func (x *synthIndex) RecordFailures(context.Context, []store.Failure) error {
	return nil
}
func (x *synthIndex) ClearFailures(context.Context, string, []string) error { return nil }
func (x *synthIndex) SourceFailures(context.Context, string) ([]store.Failure, error) {
	return nil, nil
}

// peakHeap runs fn and returns the peak heap in use while it ran (sampled
// every 5 ms) and the heap in use before it.
func peakHeap(fn func()) (peak, base uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base = ms.HeapInuse
	var p atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > p.Load() {
				p.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	fn()
	close(done)
	<-stopped
	return p.Load(), base
}

// BenchmarkListingMemoryBaseline is the baseline of
// BenchmarkReconcileMemory, measured the same way: the peak heap of
// holding every listed entry of the same synthetic source in a slice, as a
// full scan does (and as every crawl of a local folder once did).
func BenchmarkListingMemoryBaseline(b *testing.B) {
	n := *benchListed
	for range b.N {
		var kept []Entry
		peak, _ := peakHeap(func() {
			_ = synthSource{n: n}.List(context.Background(), time.Time{}, func(e Entry) error {
				kept = append(kept, e)
				return nil
			})
		})
		if len(kept) != n {
			b.Fatal(len(kept))
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	}
}

// BenchmarkReconcileMemory measures the peak Go heap of an incremental
// crawl (the listing compared with the index) of -listed files, 1 % of
// them changed. Nothing else is held: the source generates the listing
// and the index answers from the IDs. Reported: peak heap in use (MB),
// its growth over the heap before the crawl, and bytes per listed file.
//
//	go test ./internal/crawl -run '^$' -bench 'ReconcileMemory|ListingMemoryBaseline' -benchtime 1x -args -listed 1000000
func BenchmarkReconcileMemory(b *testing.B) {
	n := *benchListed
	for range b.N {
		src := synthSource{n: n}
		idx := &synthIndex{n: n, fpText: fingerprint(src)}
		var (
			sum Summary
			err error
		)
		peak, base := peakHeap(func() {
			sum, err = Run(context.Background(), Options{Source: src, Index: idx, Provider: offline.New(), SummaryMaxLength: 50})
		})
		if err != nil {
			b.Fatal(err)
		}
		if sum.Mode != "reconcile" || sum.Listed != n || sum.Processed != (n+99)/100 {
			b.Fatalf("summary %+v", sum)
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(peak-min(base, peak))/float64(n), "B/listed-file")
	}
}
