package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/server"
	"github.com/gds-cli/gds/internal/testbin"
)

func TestServeLoadRefuses(t *testing.T) {
	for _, args := range [][]string{
		{"--url", "http://192.0.2.7:8000", "--duration", "1s"},
		{"--url", "http://example.com:8000", "--duration", "1s"},
		{"--url", "http://127.0.0.1:1", "--gds", "gds"},
		{"--data", "testdata"},
		{},
	} {
		var out, errb bytes.Buffer
		if err := run(context.Background(), append([]string{"serve-load"}, args...), &out, &errb); err == nil {
			t.Errorf("serve-load %q ran", args)
		}
	}
}

// TestServeLoadShortRun is the benchmark end to end, briefly: it builds
// gds, indexes testdata/realdocs, starts gds serve on a loopback port and
// loads it for two seconds. It asserts nothing was dropped and no request
// failed — never how fast.
func TestServeLoadShortRun(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := testbin.Core(t)
	var out, errb bytes.Buffer
	err = run(context.Background(), []string{"serve-load", "--gds", bin, "--data", filepath.Join(root, "testdata", "realdocs"),
		"--chat", "2", "--search", "2", "--duration", "2s", "--json"}, &out, &errb)
	if err != nil {
		t.Fatalf("serve-load: %v\n%s\n%s", err, out.String(), errb.String())
	}
	var res serveLoadResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if len(res.Failures) != 0 || res.Chat.OK == 0 || res.Search.OK == 0 || res.Chat.Errors+res.Chat.Dropped+res.Search.Errors+res.Search.Dropped != 0 {
		t.Fatalf("result: %s", out.String())
	}
	if res.Store != "SQLite" || res.Documents < 10 || res.Chunks < res.Documents || !strings.HasPrefix(res.Target, "http://127.0.0.1:") {
		t.Fatalf("server: store %s, %d documents, %d chunks, target %s", res.Store, res.Documents, res.Chunks, res.Target)
	}
}

// serve-load --url loads a running server (here the real API in-process,
// with a token) without starting one.
func TestServeLoadURL(t *testing.T) {
	home := t.TempDir()
	vars := map[string]string{"GDS_HOME": home, "GDS_AI_PROVIDER": "offline"}
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
	defer st.Close()
	d.ShareStore(st)
	if _, err := d.UploadDocument(ctx, app.UploadRequest{Filename: "notes.md",
		Body: strings.NewReader("# Notes\n\nThe quarterly budget review is on Friday. The office closes at six on Fridays in summer.")}); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(server.New(d, server.Options{Token: "tk", UploadDir: cfg.UploadDir}).Handler())
	defer ts.Close()

	args := []string{"serve-load", "--url", ts.URL, "--chat", "1", "--search", "1", "--duration", "500ms", "--baseline", "2", "--json"}
	var out, errb bytes.Buffer
	if err := run(ctx, append(args, "--token", "tk"), &out, &errb); err != nil {
		t.Fatalf("serve-load --url: %v\n%s\n%s", err, out.String(), errb.String())
	}
	var res serveLoadResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Chat.OK == 0 || res.Search.OK == 0 || res.Baseline == nil || res.Baseline.Chat.OK != 2 || len(res.Failures) != 0 || res.Store != "running server" {
		t.Fatalf("result %s", out.String())
	}
	// Without the token: the server's documents cannot even be listed.
	out.Reset()
	if err := run(ctx, append(args, "--token", ""), &out, &errb); err == nil {
		t.Fatalf("serve-load without the token passed: %s", out.String())
	}
}
