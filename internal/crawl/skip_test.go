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
