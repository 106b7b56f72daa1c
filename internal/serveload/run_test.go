package serveload_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/serveload"
	"github.com/gds-cli/gds/internal/server"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// startServer runs the real API (internal/server) on a fresh gds home with
// the offline provider and a few real documents of testdata/realdocs
// uploaded: SQLite, or Postgres when pg is set and GDS_TEST_DATABASE_URL is.
func startServer(t *testing.T, pg bool, token string) string {
	t.Helper()
	home := t.TempDir()
	vars := map[string]string{"GDS_HOME": home, "GDS_AI_PROVIDER": "offline"}
	if pg {
		url := os.Getenv("GDS_TEST_DATABASE_URL")
		if url == "" {
			t.Skip("GDS_TEST_DATABASE_URL is not set")
		}
		vars["DATABASE_URL"] = url
		vars["GDS_DB_SCHEMA"] = storetest.FreshSchema(t, url, "serveload")
	}
	cfg, err := config.Load(config.LoadOptions{LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, HomeDir: home})
	if err != nil {
		t.Fatal(err)
	}
	d := app.New(app.Options{Config: cfg})
	ctx := context.Background()
	st, err := d.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	d.ShareStore(st)
	for _, name := range []string{"unstructured-fake-memo.pdf", "markitdown-autogen-page.pdf", "unstructured-fake-text.txt"} {
		f, err := os.Open(filepath.Join("../../testdata/realdocs", name))
		if err != nil {
			t.Fatal(err)
		}
		_, err = d.UploadDocument(ctx, app.UploadRequest{Filename: name, Body: f})
		f.Close()
		if err != nil {
			t.Fatalf("upload %s: %v", name, err)
		}
	}
	ts := httptest.NewServer(server.New(d, server.Options{Token: token, UploadDir: cfg.UploadDir}).Handler())
	t.Cleanup(ts.Close)
	return ts.URL
}

// A short run of the load generator against the real server: every chat
// stream reaches its done frame and every search answers, with nothing
// dropped and no error response. No assertion on speed.
func TestShortRunSQLite(t *testing.T)   { testShortRun(t, false) }
func TestShortRunPostgres(t *testing.T) { testShortRun(t, true) }

func testShortRun(t *testing.T, pg bool) {
	const token = "load-test-token"
	url := startServer(t, pg, token)
	ctx := context.Background()
	qs, err := serveload.FetchQueries(ctx, nil, url, token, 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 3 {
		t.Fatalf("only %d queries from three documents: %q", len(qs), qs)
	}
	rep, err := serveload.Run(ctx, serveload.Options{
		URL: url, Token: token, ChatClients: 3, SearchClients: 3, Duration: 2 * time.Second, Grace: time.Minute, Queries: qs, Baseline: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.Failures(); len(f) != 0 {
		t.Fatalf("load run failed: %q\nchat %+v\nsearch %+v", f, rep.Chat, rep.Search)
	}
	if rep.Chat.Requests != rep.Chat.OK || rep.Search.Requests != rep.Search.OK || rep.Chat.FramesPerChat < 2 {
		t.Fatalf("chat %+v\nsearch %+v", rep.Chat, rep.Search)
	}
	if b := rep.Baseline; b == nil || b.Chat.OK != 3 || b.Search.OK != 3 || serveload.Ratio(rep.Chat, b.Chat) <= 0 {
		t.Fatalf("baseline %+v", rep.Baseline)
	}

	// Without the token every request is a 401: the run reports them as
	// error responses and fails.
	bad, err := serveload.Run(ctx, serveload.Options{URL: url, ChatClients: 1, SearchClients: 1, Duration: 200 * time.Millisecond, Queries: qs})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad.Failures()) == 0 || bad.Chat.Statuses[401] == 0 || bad.Search.Statuses[401] == 0 || bad.Chat.OK+bad.Search.OK != 0 {
		t.Fatalf("a run without the token passed: chat %+v search %+v", bad.Chat, bad.Search)
	}
}

func TestRunRefusesOtherHosts(t *testing.T) {
	_, err := serveload.Run(context.Background(), serveload.Options{URL: "http://192.0.2.1:8000", ChatClients: 1, Duration: time.Second, Queries: []string{"x"}})
	if err == nil {
		t.Fatal("Run accepted a non-loopback target")
	}
}
