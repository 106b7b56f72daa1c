package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSteady(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	var ts []time.Time
	for i := range 100 { // a slow start, then 10 a second
		d := 9*time.Second + time.Duration(i-9)*100*time.Millisecond
		if i < 10 {
			d = time.Duration(i) * time.Second
		}
		ts = append(ts, t0.Add(d))
	}
	if got := steady(ts); got < 9.9 || got > 10.1 {
		t.Errorf("steady = %.2f, want 10 (the slow start left out)", got)
	}
	if steady(ts[:5]) != 0 {
		t.Error("a rate from 5 samples")
	}
}

// TestRateBenchSmoke runs the benchmark small: every file crawled, the
// graph built, the figures filled in.
func TestRateBenchSmoke(t *testing.T) {
	corpus := t.TempDir()
	for i := range 40 {
		if err := os.WriteFile(filepath.Join(corpus, fmt.Sprintf("doc%02d.txt", i)), []byte(fmt.Sprintf("Budget meeting %d about the roadmap and hiring.", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	err := runRateBench(context.Background(), []string{"--corpus", corpus, "--files", "40", "--rpm", "6000", "--latency", "20ms±10ms", "--json"}, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var rs []rateResult
	if err := json.Unmarshal(out.Bytes(), &rs); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if len(rs) != 2 || rs[0].Job != "crawl" || rs[0].Items != 40 || rs[0].Failed != 0 || rs[0].ChatRequests < 40 || rs[0].EmbedRequests == 0 ||
		rs[1].Job != "graph-build" || rs[1].Items == 0 || rs[1].ChatCalls == 0 {
		t.Errorf("results = %+v", rs)
	}
}
