package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
)

// sampleDeps is Deps over a fresh gds home, offline provider, whose index
// holds testdata/sample after a real crawl.
func sampleDeps(t *testing.T) *Deps {
	t.Helper()
	cfg := loadConfig(t, map[string]string{config.EnvAIProvider: config.ProviderOffline})
	d := New(Options{Config: cfg, IO: iostreams.IOStreams{Lang: i18n.En}})
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "sample", "docs"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := d.Crawl(context.Background(), CrawlRequest{Source: "local:" + src})
	if err != nil {
		t.Fatalf("crawl: %v", err)
	}
	if sum == nil || sum.Total().New == 0 {
		t.Fatalf("crawl indexed nothing: %+v", sum)
	}
	return d
}

// Bad combinations are usage errors before any index is opened.
func TestSearchRequestValidation(t *testing.T) {
	d := New(Options{Config: loadConfig(t, nil)})
	for _, req := range []SearchRequest{
		{State: "x", Folder: "A"},
		{State: "x", Query: "q"},
		{Answer: "1"},
		{},
		{State: "not a token"},
	} {
		_, err := d.Search(context.Background(), req)
		if !errors.Is(err, apperr.Usage) {
			t.Errorf("%+v: %v, want a usage error", req, err)
		}
	}
	// A valid request on an empty home: no index yet.
	if _, err := d.Search(context.Background(), SearchRequest{Query: "q"}); !errors.Is(err, apperr.NoIndex) {
		t.Errorf("empty home: %v, want no_index", err)
	}
}

func TestKeystrokeNoIndex(t *testing.T) {
	d := New(Options{Config: loadConfig(t, nil)})
	if _, _, err := d.Keystroke(context.Background(), "budget", 9); !errors.Is(err, apperr.NoIndex) {
		t.Errorf("missing index file: %v, want no_index", err)
	}
	// The read-only keystroke path must not create the index.
	if _, err := os.Stat(d.Config.IndexPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("keystroke created the index: %v", err)
	}
}

// The application layer runs a real search and a keystroke over a crawled
// folder; a search that asks nothing ends with results, no token.
func TestSearchAndKeystrokeOverSample(t *testing.T) {
	d := sampleDeps(t)
	ctx := context.Background()
	files, onDrive, err := d.Keystroke(ctx, "pdfminer", 9)
	if err != nil {
		t.Fatal(err)
	}
	if onDrive {
		t.Error("a local folder's index reported as crawled from Drive")
	}
	if len(files) == 0 || files[0].Name != "pdfminer-README.md" {
		t.Fatalf("keystroke for pdfminer: %+v", files)
	}
	res, err := d.Search(ctx, SearchRequest{Query: "pdfminer"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Token != "" || len(res.Outcome.Results) == 0 || res.Outcome.Results[0].File.Name != "pdfminer-README.md" {
		t.Fatalf("search for pdfminer: token %q outcome %+v", res.Token, res.Outcome)
	}
	if len(res.Outcome.Degraded) != 0 {
		t.Errorf("a healthy local search was degraded: %+v", res.Outcome.Degraded)
	}
	st, err := d.IndexStatus(ctx)
	if err != nil || st.Files == 0 || st.Chunks == 0 {
		t.Errorf("status %+v %v", st, err)
	}
}

func TestDBLocationHasNoSecretOrQuery(t *testing.T) {
	got := dbLocation("postgres://gds:hunter2@db.example:5432/gds?sslmode=disable&application_name=x")
	if got != "postgres://gds:****@db.example:5432/gds" {
		t.Errorf("dbLocation = %q", got)
	}
}
