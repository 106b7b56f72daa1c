package crawl_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// byName answers for the files it knows and reads the rest in process.
type byName map[string]func() (extract.Doc, error)

func (b byName) Extract(ctx context.Context, mimeType string, r io.Reader, maxBytes int64) (extract.Doc, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return extract.Doc{}, err
	}
	if f, ok := b[string(data)]; ok {
		return f()
	}
	return extract.Extract(ctx, mimeType, bytesReader(data), maxBytes)
}

// The crawl reads files through its Extractor: a file over a limit is
// indexed by name only with the limit as its reason, a file read in part
// is indexed and listed as such, and the crawl goes on.
func TestCrawlUsesItsExtractor(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	files := map[string]string{"loop.pdf": "%PDF-1.4 loop", "long.txt": "LONG", "plain.txt": "an ordinary note about engines"}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x := byName{
		"%PDF-1.4 loop": func() (extract.Doc, error) {
			return extract.Doc{}, errors.Join(extract.ErrTooComplex, errors.New("needed more than 20s of processor time"))
		},
		"LONG": func() (extract.Doc, error) {
			return extract.Doc{Pages: []extract.Page{{Text: "the first part of a long text"}}, Truncated: true}, nil
		},
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	src, err := crawl.NewLocalSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := crawl.Run(ctx, crawl.Options{Source: src, Index: st, Provider: offline.New(), SummaryMaxLength: 120, Concurrency: 2, Extractor: x})
	if err != nil {
		t.Fatal(err)
	}
	if sum.New != 2 || len(sum.Skipped) != 1 || len(sum.Failed) != 0 {
		t.Fatalf("new %d, skipped %v, failed %v; want 2 new (long, plain), loop.pdf skipped", sum.New, sum.Skipped, sum.Failed)
	}
	if sk := sum.Skipped[0]; sk.Name != "loop.pdf" || !contains(sk.Reason, "too complex to read safely") || !contains(sk.Reason, crawl.NameOnlySuffix) {
		t.Errorf("skipped %+v: want loop.pdf, too complex, by name only", sk)
	}
	if len(sum.Truncated) != 1 || sum.Truncated[0].Name != "long.txt" || sum.Truncated[0].Reason != crawl.TruncatedDetail {
		t.Errorf("truncated %+v, want long.txt", sum.Truncated)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
