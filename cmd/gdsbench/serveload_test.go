package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
	if testing.Short() {
		t.Skip("builds gds")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "gds")
	build := exec.Command("go", "build", "-o", bin, "./cmd/gds")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/gds: %v\n%s", err, out)
	}
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
