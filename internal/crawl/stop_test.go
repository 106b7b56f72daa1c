package crawl_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

var errSignIn = errors.New("the sign-in was revoked")

// stopSource lists n files; from file stopAt on, Open fails with a Stop
// error (as the Drive source does when the sign-in is revoked).
type stopSource struct {
	n, stopAt int
	opened    atomic.Int64
}

func (*stopSource) Kind() string        { return "test" }
func (*stopSource) Fingerprint() string { return "test" }
func (s *stopSource) List(_ context.Context, _ time.Time, fn func(crawl.Entry) error) error {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range s.n {
		if err := fn(crawl.Entry{ID: fmt.Sprint(i), Name: fmt.Sprintf("f%03d.txt", i), MimeType: "text/plain", ModifiedAt: t0.Add(time.Duration(i) * time.Minute)}); err != nil {
			return err
		}
	}
	return nil
}
func (s *stopSource) Open(_ context.Context, e crawl.Entry) (io.ReadCloser, error) {
	s.opened.Add(1)
	var i int
	fmt.Sscan(e.ID, &i)
	if i >= s.stopAt {
		return nil, crawl.Stop(fmt.Errorf("open %s: %w", e.Name, errSignIn))
	}
	return io.NopCloser(strings.NewReader("text of " + e.Name)), nil
}

// A Stop error ends the crawl: Run returns it (errors.Is reaches the cause),
// opens no more than the files already in flight, and the checkpoint stays
// before the first file that was not committed.
func TestStopErrorEndsTheCrawl(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	src := &stopSource{n: 200, stopAt: 10}
	const workers = 4
	sum, err := crawl.Run(ctx, crawl.Options{Source: src, Index: st, Provider: openaitest.NewSimpleBackend(8), SummaryMaxLength: 100, Concurrency: workers})
	if !errors.Is(err, errSignIn) {
		t.Fatalf("Run = %v, want the stop error", err)
	}
	if opened := int(src.opened.Load()); opened > src.stopAt+2*workers {
		t.Errorf("%d files opened after the stop at file %d: the feed did not stop", opened, src.stopAt)
	}
	if sum.New > src.stopAt || len(sum.Failed) == 0 || len(sum.Failed) > 2*workers {
		t.Errorf("summary %d new, %d failed", sum.New, len(sum.Failed))
	}
	if want := time.Date(2026, 1, 1, 0, src.stopAt-1, 0, 0, time.UTC); sum.Checkpoint.After(want) {
		t.Errorf("checkpoint %v passed the first stopped file (%v)", sum.Checkpoint, want)
	}
}
