package main

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/i18n"
)

// driveHarness serves a small Drive tree and points gds at it.
func driveHarness(t *testing.T) (*harness, string) {
	t.Helper()
	e := driveemu.New()
	top := e.AddFolder("root", "Projects")
	e.AddDoc(top, "Plan", "Project plan: ship the Drive crawler in March.")
	sub := e.AddFolder(top, "Alpha")
	e.AddBlob(sub, "notes.txt", "text/plain", []byte("Alpha notes about the launch."))
	e.AddBlob(sub, "logo.png", "image/png", []byte("\x89PNG\r\n\x1a\n"))
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	h := newHarness(t)
	h.env[config.EnvDriveEndpoint] = srv.URL
	h.env[config.EnvDriveFolderIDs] = top
	h.env[config.EnvAIProvider] = "offline"
	// The image stays refused whether tesseract is installed or not
	// (TestOCRDriveE2E reads Drive's images).
	h.env[config.EnvOCR] = config.OCROff
	return h, top
}

func TestCrawlDriveThroughTheEndpoint(t *testing.T) {
	h, _ := driveHarness(t)
	if code := h.run("crawl"); code != exitOK {
		t.Fatalf("crawl: exit %d\nstdout %s\nstderr %s", code, h.stdout.String(), h.stderr.String())
	}
	if want := i18n.T(i18n.En, "crawl.summary", 2, 0, 0, 0, 0); !strings.Contains(h.stdout.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, h.stdout.String())
	}
	if code := h.run("crawl"); code != exitOK || !strings.Contains(h.stdout.String(), i18n.T(i18n.En, "crawl.summary", 0, 0, 0, 0, 0)) {
		t.Errorf("second crawl: exit %d\n%s%s", code, h.stdout.String(), h.stderr.String())
	}
}

func TestCrawlDriveMissingFolder(t *testing.T) {
	h, top := driveHarness(t)
	missing := "1NoSuchFolderXXXXXXXXXXXXXXXXXXXXX"
	h.env[config.EnvDriveFolderIDs] = top + "," + missing
	h.lang = i18n.Ja
	if code := h.run("crawl"); code != exitError {
		t.Fatalf("exit %d, want %d", code, exitError)
	}
	if msg := h.stderr.String(); !strings.Contains(msg, missing) || !strings.Contains(msg, "見つからない") {
		t.Errorf("stderr %q does not name the folder in Japanese", msg)
	}
	if h.stdout.Len() != 0 {
		t.Errorf("a crawl that failed on its folders printed a summary: %s", h.stdout.String())
	}
}

func TestCrawlDriveNeedsFolders(t *testing.T) {
	h, _ := driveHarness(t)
	delete(h.env, config.EnvDriveFolderIDs)
	h.env[config.EnvSource] = config.SourceDrive // chosen, without a folder
	if code := h.run("crawl"); code != exitConfig || !strings.Contains(h.stderr.String(), config.EnvDriveFolderIDs) {
		t.Errorf("exit %d, stderr %s", code, h.stderr.String())
	}
}

// Without an endpoint override the crawl needs the OAuth client of
// Deps.GoogleHTTPClient, which fails here (no client configured, no token).
func TestCrawlDriveWithoutEndpointNeedsAuth(t *testing.T) {
	h, _ := driveHarness(t)
	delete(h.env, config.EnvDriveEndpoint)
	code := h.run("crawl")
	if code == exitOK || h.stdout.Len() != 0 || !strings.Contains(strings.ToLower(h.stderr.String()), "auth") {
		t.Errorf("exit %d, stdout %q, stderr %s", code, h.stdout.String(), h.stderr.String())
	}
}
