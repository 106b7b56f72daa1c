package crawl_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// openErrSource lists two files whose Open fails: one with ErrSkip, one
// with an ordinary error.
type openErrSource struct{}

func (openErrSource) Kind() string        { return "test" }
func (openErrSource) Fingerprint() string { return "test" }
func (openErrSource) List(_ context.Context, _ time.Time, fn func(crawl.Entry) error) error {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := fn(crawl.Entry{ID: "skip", Name: "big.pdf", MimeType: "application/pdf", ModifiedAt: t}); err != nil {
		return err
	}
	return fn(crawl.Entry{ID: "fail", Name: "net.pdf", MimeType: "application/pdf", ModifiedAt: t.Add(time.Hour)})
}
func (openErrSource) Open(_ context.Context, e crawl.Entry) (io.ReadCloser, error) {
	if e.ID == "skip" {
		return nil, fmt.Errorf("%w: larger than 50 MB", crawl.ErrSkip)
	}
	return nil, errors.New("connection reset")
}

func TestOpenErrSkipIsASkipNotAFailure(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sum, err := crawl.Run(ctx, crawl.Options{Source: openErrSource{}, Index: st, Provider: offline.New(), SummaryMaxLength: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Skipped) != 1 || sum.Skipped[0].Name != "big.pdf" || !strings.Contains(sum.Skipped[0].Reason, "larger than 50 MB") {
		t.Errorf("skipped = %+v", sum.Skipped)
	}
	if len(sum.Failed) != 1 || sum.Failed[0].Name != "net.pdf" {
		t.Errorf("failed = %+v", sum.Failed)
	}
	// The skip is final, so the checkpoint covers it; the failure holds it back.
	if want := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); !sum.Checkpoint.Equal(want) {
		t.Errorf("checkpoint %v, want %v", sum.Checkpoint, want)
	}
}

// stallSource lists one file whose content stops coming after a few bytes
// until the per-file limit ends the read, while healthy is false.
type stallSource struct{ healthy bool }

func (*stallSource) Kind() string        { return "test" }
func (*stallSource) Fingerprint() string { return "test" }
func (*stallSource) List(_ context.Context, _ time.Time, fn func(crawl.Entry) error) error {
	return fn(crawl.Entry{ID: "slow", Name: "mount.txt", MimeType: "text/plain", ModifiedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
}
func (s *stallSource) Open(ctx context.Context, _ crawl.Entry) (io.ReadCloser, error) {
	if s.healthy {
		return io.NopCloser(strings.NewReader("quarterly budget review notes")), nil
	}
	return io.NopCloser(io.MultiReader(strings.NewReader("quarterly "), ctxReader{ctx})), nil
}

type ctxReader struct{ ctx context.Context }

func (r ctxReader) Read([]byte) (int, error) {
	<-r.ctx.Done()
	return 0, r.ctx.Err()
}

// Content that stops coming is a failure the next crawl tries again, not
// a final skip: the file is indexed once it can be read.
func TestStalledReadIsRetriedNotSkipped(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	src := &stallSource{}
	opts := crawl.Options{Source: src, Index: st, Provider: offline.New(), SummaryMaxLength: 100, FileTimeout: 100 * time.Millisecond}
	sum, err := crawl.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Failed) != 1 || len(sum.Skipped) != 0 || !strings.Contains(sum.Failed[0].Reason, "deadline") {
		t.Fatalf("stalled read: failed %+v, skipped %+v; want one failure naming the deadline", sum.Failed, sum.Skipped)
	}
	src.healthy = true
	if sum, err = crawl.Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	if sum.New != 1 {
		t.Errorf("second crawl: %+v, want the file indexed", sum)
	}
}
