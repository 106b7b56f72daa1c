package app

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
)

func TestListingProgress(t *testing.T) {
	var w bytes.Buffer
	progress, done := ListingProgress(iostreams.IOStreams{Stderr: &w, Lang: i18n.En})
	done()
	if w.Len() != 0 {
		t.Fatalf("done without progress wrote %q", w.String())
	}
	progress("drive@work", 500)
	progress("drive@work", 1000)
	done()
	out := w.String()
	if !strings.Contains(out, "drive@work: 1000") || !strings.HasSuffix(out, "\r\033[K") {
		t.Errorf("progress %q: want the latest count, then the line cleared", out)
	}
}

func TestCoverageRules(t *testing.T) {
	for _, tt := range []struct {
		ocr  bool
		mime string
		want bool
	}{
		{false, "application/pdf", true}, {false, "text/markdown", true},
		{false, "application/vnd.google-apps.document", true}, {false, "video/mp4", false},
		{false, "image/png", false}, {true, "image/png", true}, {true, "application/zip", false},
	} {
		if got := CoverageRules(tt.ocr).ReadsType(tt.mime); got != tt.want {
			t.Errorf("ocr %v, %s: %v, want %v", tt.ocr, tt.mime, got, tt.want)
		}
	}
}

// Listing a Drive that does not answer stops when the context ends: the
// coverage check of a slow Drive can be interrupted like a crawl.
func TestCoverageStopsWhenCancelled(t *testing.T) {
	e := driveemu.New()
	top := e.AddFolder("root", "Projects")
	e.AddDoc(top, "Plan", "Project plan.")
	e.Faults().Add(driveemu.Latency(time.Hour).On(driveemu.EndpointList))
	srv := httptest.NewServer(e)
	defer srv.Close()
	d := New(Options{Config: loadConfig(t, map[string]string{
		config.EnvDriveEndpoint: srv.URL, config.EnvDriveFolderIDs: top, config.EnvAIProvider: "offline",
	})})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for e.Stats().Faults[driveemu.FaultLatency] == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	srcs, err := d.Coverage(ctx, CoverageRequest{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Coverage = %+v, %v; want context.Canceled", srcs, err)
	}
}
