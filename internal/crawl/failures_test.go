package crawl_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// swapSource is a local folder where, while on, the file named swap is
// replaced by a directory between the listing and its reading (as when
// someone replaces it mid-crawl): the open succeeds and the read fails
// for real, even for root.
type swapSource struct {
	*crawl.LocalSource
	dir, swap string
	on        atomic.Bool
}

func (s *swapSource) Open(ctx context.Context, e crawl.Entry) (io.ReadCloser, error) {
	if s.on.Load() && e.Name == s.swap {
		p := filepath.Join(s.dir, s.swap)
		if err := os.Rename(p, p+".aside"); err != nil {
			return nil, err
		}
		if err := os.Mkdir(p, 0o755); err != nil {
			return nil, err
		}
	}
	return s.LocalSource.Open(ctx, e)
}

// restore puts the swapped file back, with its listed modification time.
func (s *swapSource) restore(t *testing.T) {
	t.Helper()
	p := filepath.Join(s.dir, s.swap)
	if _, err := os.Stat(p + ".aside"); err != nil {
		return
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".aside", p); err != nil {
		t.Fatal(err)
	}
}

// A local file that cannot be read is recorded as failed with its reason
// (not as a searchable file); the next crawl tries it again and counts
// one attempt more; a crawl that reads it clears the record, and a
// record of a file no longer listed is forgotten.
func TestFailedFileIsRecordedRetriedAndCleared(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	for name, text := range map[string]string{"plan.txt": "The launch plan.", "ledger.txt": "Ledger of the zeppelin fund."} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	local, err := crawl.NewLocalSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	src := &swapSource{LocalSource: local, dir: dir, swap: "ledger.txt"}
	const key = "local:test"
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	run := func() crawl.Summary {
		t.Helper()
		sum, err := crawl.Run(ctx, crawl.Options{Source: src, Key: key, Index: st, Provider: offline.New(), SummaryMaxLength: 120,
			Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		src.restore(t)
		return sum
	}
	failures := func() []store.Failure {
		t.Helper()
		fs, err := st.SourceFailures(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return fs
	}
	ledgerID := crawl.LocalID(dir, "ledger.txt")

	src.on.Store(true)
	sum := run()
	if len(sum.Failed) != 1 || sum.Failed[0].Name != "ledger.txt" || sum.New != 1 {
		t.Fatalf("first crawl: failed %+v, new %d; want ledger.txt failed, 1 new", sum.Failed, sum.New)
	}
	fs := failures()
	if len(fs) != 1 {
		t.Fatalf("failures %+v, want ledger.txt's", fs)
	}
	f := fs[0]
	if f.FileID != ledgerID || f.Name != "ledger.txt" || f.Kind != "error" || !strings.Contains(f.Message, "is a directory") ||
		f.Attempts != 1 || !f.FailedAt.Equal(now) || !f.ModifiedAt.Equal(old) || f.MimeType != "text/plain" {
		t.Errorf("recorded %+v", f)
	}
	if got, _ := st.GetFiles(ctx, []string{ledgerID}); len(got) != 0 {
		t.Errorf("a failed file is in the index: %+v", got)
	}

	// Still unreadable: read again (not skipped as unchanged), one attempt more.
	now = now.Add(time.Hour)
	sum = run()
	if len(sum.Failed) != 1 || sum.Failed[0].Name != "ledger.txt" {
		t.Errorf("second crawl: failed %+v; want ledger.txt read again and failing", sum.Failed)
	}
	if fs := failures(); len(fs) != 1 || fs[0].Attempts != 2 || !fs[0].FailedAt.Equal(now) {
		t.Errorf("after a second failure: %+v, want 2 attempts", fs)
	}

	// Readable again: indexed, the record cleared.
	src.on.Store(false)
	sum = run()
	if sum.New != 1 || len(sum.Failed) != 0 {
		t.Errorf("third crawl: new %d, failed %+v; want ledger.txt indexed", sum.New, sum.Failed)
	}
	if fs := failures(); len(fs) != 0 {
		t.Errorf("records after the file was indexed: %+v", fs)
	}
	if got, _ := st.GetFiles(ctx, []string{ledgerID}); len(got) != 1 {
		t.Errorf("ledger.txt not indexed: %+v", got)
	}

	// An indexed file changed and failing: an incremental crawl keeps
	// trying it (the index holds the older copy), not skipping it.
	later := old.Add(30 * time.Minute)
	if err := os.WriteFile(filepath.Join(dir, "ledger.txt"), []byte("Ledger, revised."), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(dir, "ledger.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	src.on.Store(true)
	for attempt := 1; attempt <= 2; attempt++ {
		sum = run()
		if sum.Mode != "reconcile" || sum.Processed != 1 || len(sum.Failed) != 1 {
			t.Errorf("incremental crawl %d: mode %s, processed %d, failed %+v; want ledger.txt read and failing", attempt, sum.Mode, sum.Processed, sum.Failed)
		}
		if fs := failures(); len(fs) != 1 || fs[0].Attempts != attempt || !fs[0].ModifiedAt.Equal(later) {
			t.Errorf("incremental crawl %d: records %+v, want ledger.txt's at attempt %d", attempt, fs, attempt)
		}
	}
	src.on.Store(false)
	if sum = run(); sum.Updated != 1 || len(failures()) != 0 {
		t.Errorf("once readable: updated %d, records %+v", sum.Updated, failures())
	}

	// A record of a file the source no longer lists is forgotten.
	if err := st.RecordFailures(ctx, []store.Failure{{Source: key, FileID: "local-gone", Name: "gone.txt", Kind: "error", ModifiedAt: old, FailedAt: now}}); err != nil {
		t.Fatal(err)
	}
	run()
	if fs := failures(); len(fs) != 0 {
		t.Errorf("the record of an unlisted file stays: %+v", fs)
	}
}

// FailureOf keeps the error's kind and a bounded, one-line message
// without credentials or control characters, cut on a character boundary.
func TestFailureOf(t *testing.T) {
	long := strings.Repeat("読めない", 200)
	for _, tt := range []struct {
		name     string
		err      error
		kind     string
		has, not []string
	}{
		{"unmarked", errors.New("read: is a directory"), "error", []string{"read: is a directory"}, nil},
		{"kind kept", apperr.Mark(errors.New("download a.pdf: gave up after 3 tries"), apperr.Unavailable), "unavailable", []string{"gave up"}, nil},
		{"per-file time limit", fmt.Errorf("download a.pdf: %w", context.DeadlineExceeded), "unavailable", []string{"deadline exceeded"}, nil},
		{"credentials masked", errors.New("get https://bob:hunter2@example.com/x: refused"), "error", []string{"example.com"}, []string{"hunter2"}},
		{"one line, no control characters", errors.New("line one\nline two\x1b[31m red"), "error", []string{"line one line two"}, []string{"\n", "\x1b"}},
		{"bounded", errors.New(long), "error", []string{"…"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := crawl.FailureOf(tt.err)
			if f.Kind != tt.kind {
				t.Errorf("kind %q, want %q", f.Kind, tt.kind)
			}
			if len(f.Message) > store.MaxFailureMessage || !utf8.ValidString(f.Message) {
				t.Errorf("message of %d bytes (valid UTF-8 %v), want at most %d", len(f.Message), utf8.ValidString(f.Message), store.MaxFailureMessage)
			}
			for _, s := range tt.has {
				if !strings.Contains(f.Message, s) {
					t.Errorf("message %q lacks %q", f.Message, s)
				}
			}
			for _, s := range tt.not {
				if strings.Contains(f.Message, s) {
					t.Errorf("message %q holds %q", f.Message, s)
				}
			}
		})
	}
}
