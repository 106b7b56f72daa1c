package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/coverage"
	"github.com/gds-cli/gds/internal/drive/drivetest"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/i18n"
)

// brokenPDF claims to be a PDF and is not one: its text cannot be read.
var brokenPDF = []byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >>\ntruncated")

// coverageOf returns the coverage of source key in a `gds db status
// --json --coverage` or `gds doctor --json` document.
func coverageOf(t *testing.T, out, key string) coverage.Source {
	t.Helper()
	var doc struct {
		Coverage []coverage.Source `json:"coverage"`
		Checks   []struct {
			ID       string           `json:"id"`
			Status   string           `json:"status"`
			Fix      string           `json:"fix"`
			Coverage *coverage.Source `json:"coverage"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, c := range doc.Checks {
		if c.ID == "coverage" && c.Coverage != nil {
			doc.Coverage = append(doc.Coverage, *c.Coverage)
		}
	}
	for _, s := range doc.Coverage {
		if s.Source == key {
			return s
		}
	}
	t.Fatalf("no coverage of %s in\n%s", key, out)
	return coverage.Source{}
}

// wantGroups checks every reason's count and that its examples name the
// expected files (and, for a name-only file, its stored reason).
func wantGroups(t *testing.T, s coverage.Source, want map[coverage.Reason]string) {
	t.Helper()
	if s.Error != "" {
		t.Fatalf("%s: %s", s.Source, s.Error)
	}
	got := map[coverage.Reason]string{}
	for _, g := range s.Groups {
		var names []string
		for _, e := range g.Examples {
			names = append(names, e.Name)
			if g.Reason == coverage.NameOnly && e.Detail == "" {
				t.Errorf("%s: name-only %s without its reason", s.Source, e.Name)
			}
		}
		if g.Count != len(names) {
			t.Errorf("%s: count %d for %d examples", g.Reason, g.Count, len(names))
		}
		got[g.Reason] = strings.Join(names, ",")
	}
	for _, r := range coverage.Reasons {
		if got[r] != want[r] {
			t.Errorf("%s %s: %q, want %q", s.Source, r, got[r], want[r])
		}
	}
}

// A local folder with a type gds does not read, a file over the size
// limit, a broken PDF, then a new, a changed and a deleted file: gds
// doctor and gds db status --coverage name each with its reason and the
// crawl to run; after that crawl only what no crawl changes remains.
func TestCoverageLocal(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("notes.txt", []byte("Notes about the spring launch."))
	write("keep.txt", []byte("A file that stays as it is."))
	write("old.txt", []byte("A file deleted after the crawl."))
	write("clip.mp4", []byte("not really a video"))
	write("broken.pdf", brokenPDF)
	// Sparse: over the limit without writing its bytes.
	f, err := os.Create(filepath.Join(dir, "huge.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(extract.DefaultMaxBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()

	h := newHarness(t)
	h.env[config.EnvSources] = "local:" + dir
	h.env[config.EnvAIProvider] = "offline"
	h.env[config.EnvOCR] = config.OCROff
	if code := h.run("crawl"); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s%s", code, h.stdout.String(), h.stderr.String())
	}
	write("new.txt", []byte("A file added after the crawl."))
	if err := os.Remove(filepath.Join(dir, "old.txt")); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "notes.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	key := "local:" + dir

	h.run("doctor", "--json", "--offline")
	s := coverageOf(t, h.stdout.String(), key)
	wantGroups(t, s, map[coverage.Reason]string{
		coverage.SkippedType: "clip.mp4", coverage.TooLarge: "huge.txt", coverage.NameOnly: "broken.pdf",
		coverage.NotCrawled: "new.txt", coverage.Changed: "notes.txt", coverage.Gone: "old.txt",
	})
	if s.Listed != 6 || s.Indexed != 6 || s.Complete != 1 {
		t.Errorf("listed %d indexed %d complete %d, want 6 6 1", s.Listed, s.Indexed, s.Complete)
	}
	if want := "gds crawl --source " + key; s.Fix != want && s.Fix != "gds crawl --source '"+key+"'" {
		t.Errorf("fix %q, want %q", s.Fix, want)
	}

	if code := h.run("db", "status", "--json", "--coverage"); code != exitOK {
		t.Fatalf("db status: exit %d\n%s", code, h.stderr.String())
	}
	if got := coverageOf(t, h.stdout.String(), key); got.Count(coverage.NotCrawled) != 1 || got.Count(coverage.Gone) != 1 {
		t.Errorf("db status coverage %+v", got.Groups)
	}

	h.lang = i18n.Ja
	h.run("doctor", "--offline")
	if out := h.stdout.String(); !strings.Contains(out, "未クロール 1 件（new.txt）") || !strings.Contains(out, "broken.pdf: ") {
		t.Errorf("doctor in Japanese does not name the differences:\n%s", out)
	}
	h.lang = i18n.En

	if code := h.run("crawl"); code != exitOK {
		t.Fatalf("second crawl: exit %d\n%s", code, h.stderr.String())
	}
	h.run("doctor", "--json", "--offline")
	s = coverageOf(t, h.stdout.String(), key)
	wantGroups(t, s, map[coverage.Reason]string{
		coverage.SkippedType: "clip.mp4", coverage.TooLarge: "huge.txt", coverage.NameOnly: "broken.pdf",
	})
	if want := "gds crawl --full --source " + key; s.Fix != want {
		t.Errorf("fix after the crawl %q, want %q", s.Fix, want)
	}
}

// The same on an emulator Drive read through the real drive/v3 client:
// the listing compared is the crawler's, and every difference is named.
func TestCoverageDrive(t *testing.T) {
	e := driveemu.New()
	top := e.AddFolder("root", "Projects")
	e.AddDoc(top, "Plan", "Project plan: ship the Drive crawler in March.")
	notes := e.AddBlob(top, "notes.txt", "text/plain", []byte("Alpha notes about the launch."))
	old := e.AddBlob(top, "old.txt", "text/plain", []byte("Deleted after the crawl."))
	e.AddBlob(top, "logo.png", "image/png", []byte("\x89PNG\r\n\x1a\n"))
	e.AddBlob(top, "broken.pdf", "application/pdf", brokenPDF)
	e.AddBlob(top, "huge.txt", "text/plain", bytes.Repeat([]byte("a"), extract.DefaultMaxBytes+1))
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	h := newHarness(t)
	h.env[config.EnvDriveEndpoint] = srv.URL
	h.env[config.EnvDriveFolderIDs] = top
	h.env[config.EnvAIProvider] = "offline"
	h.env[config.EnvOCR] = config.OCROff
	if code := h.run("crawl"); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s%s", code, h.stdout.String(), h.stderr.String())
	}
	e.AddBlob(top, "new.txt", "text/plain", []byte("Added after the crawl."))
	e.Delete(old)
	e.Touch(notes, []byte("Alpha notes, revised."), time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))

	if code := h.run("db", "status", "--json", "--coverage"); code != exitOK {
		t.Fatalf("db status: exit %d\n%s", code, h.stderr.String())
	}
	s := coverageOf(t, h.stdout.String(), "drive")
	wantGroups(t, s, map[coverage.Reason]string{
		coverage.SkippedType: "logo.png", coverage.TooLarge: "huge.txt", coverage.NameOnly: "broken.pdf",
		coverage.NotCrawled: "new.txt", coverage.Changed: "notes.txt", coverage.Gone: "old.txt",
	})
	if s.Complete != 1 || s.Fix != "gds crawl --source drive" {
		t.Errorf("complete %d fix %q, want 1 and gds crawl --source drive", s.Complete, s.Fix)
	}
	h.run("doctor", "--json")
	if got := coverageOf(t, h.stdout.String(), "drive"); got.Count(coverage.Gone) != 1 {
		t.Errorf("doctor: %+v", got.Groups)
	}
	// --offline does not list Drive.
	h.run("doctor", "--json", "--offline")
	if got := coverageOf(t, h.stdout.String(), "drive"); !got.Skipped {
		t.Errorf("doctor --offline listed Drive: %+v", got)
	}
}

// Coverage of drive@NAME sources: each account's Drive is listed with its
// own sign-in; a file added to one account's folder is named for that
// source only, and a revoked account makes its sources' comparison fail
// alone, naming the login to run, while the other account's is still
// compared.
func TestCoverageTwoAccounts(t *testing.T) {
	o := newTwoAccounts(t)
	o.mustRun("crawl")
	o.home.AddBlob(o.homeFolder, "packing list.txt", "text/plain", []byte("Passport, charger, umbrella."))
	o.mustRun("db", "status", "--json", "--coverage")
	out := o.stdout.String()
	home := coverageOf(t, out, "drive:"+o.homeFolder)
	wantGroups(t, home, map[coverage.Reason]string{coverage.NotCrawled: "packing list.txt"})
	if home.Fix != "gds crawl --source drive:"+o.homeFolder {
		t.Errorf("home fix %q", home.Fix)
	}
	var doc struct {
		Coverage []coverage.Source `json:"coverage"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Coverage) != 3 {
		t.Fatalf("want 3 sources: %v\n%s", err, out)
	}
	for _, s := range doc.Coverage[1:] {
		if !strings.HasPrefix(s.Source, "drive@work:") || s.Error != "" || len(s.Groups) != 0 || s.Listed == 0 || s.Complete != s.Listed {
			t.Errorf("work source %+v: want every listed file complete", s)
		}
	}

	o.srv.RevokeUser("alice@work")
	o.mustRun("db", "status", "--json", "--coverage")
	out = o.stdout.String()
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Coverage) != 3 {
		t.Fatalf("want 3 sources: %v\n%s", err, out)
	}
	if got := doc.Coverage[0]; got.Error != "" || got.Count(coverage.NotCrawled) != 1 {
		t.Errorf("home with work revoked: %+v", got)
	}
	for _, s := range doc.Coverage[1:] {
		if !strings.Contains(s.Error, "gds auth login --account work") {
			t.Errorf("revoked %s: error %q does not name the login", s.Source, s.Error)
		}
	}
}

// A file whose download keeps failing on an emulator Drive (read through
// the real drive/v3 client, with its retries) is named "failed" with its
// reason and the crawl to run — not "not crawled yet" — by gds db status
// and gds doctor, in English and Japanese; the next crawl tries it again
// (one attempt more); once Drive serves it, a crawl indexes it and the
// coverage is clean.
func TestCoverageFailedDownload(t *testing.T) {
	e := driveemu.New()
	top := e.AddFolder("root", "Projects")
	e.AddBlob(top, "notes.txt", "text/plain", []byte("Alpha notes about the launch."))
	bad := e.AddBlob(top, "ledger.txt", "text/plain", []byte("Quarterly ledger of the zeppelin fund."))
	fault := e.Faults().Add(driveemu.Rule{Kind: driveemu.FaultStatus, Status: 500, Domain: "global", Reason: "backendError",
		Message: "Backend Error", PathPrefix: "/drive/v3/files/" + bad}.On(driveemu.EndpointDownload))
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	h := newHarness(t)
	h.driveRetry = drivetest.Instant(3) // the real retries, without their waits
	h.env[config.EnvDriveEndpoint] = srv.URL
	h.env[config.EnvDriveFolderIDs] = top
	h.env[config.EnvAIProvider] = "offline"
	h.env[config.EnvOCR] = config.OCROff

	failedOf := func(want int) coverage.Source {
		t.Helper()
		if code := h.run("db", "status", "--json", "--coverage"); code != exitOK {
			t.Fatalf("db status: exit %d\n%s", code, h.stderr.String())
		}
		s := coverageOf(t, h.stdout.String(), "drive")
		wantGroups(t, s, map[coverage.Reason]string{coverage.Failed: "ledger.txt"})
		g := s.Groups[0]
		ex := g.Examples[0]
		if ex.Kind != "unavailable" || g.Kinds["unavailable"] != 1 || !strings.Contains(ex.Detail, "ledger.txt") || ex.Attempts != want {
			t.Errorf("failed example %+v kinds %v, want kind unavailable, the file named, %d attempts", ex, g.Kinds, want)
		}
		if s.Complete != 1 || s.Listed != 2 || s.Fix != "gds crawl --source drive" {
			t.Errorf("complete %d of %d, fix %q; want 1 of 2 and gds crawl --source drive", s.Complete, s.Listed, s.Fix)
		}
		return s
	}

	h.run("crawl")
	if out := h.stdout.String() + h.stderr.String(); !strings.Contains(out, "ledger.txt") {
		t.Fatalf("the crawl does not report the failed file:\n%s", out)
	}
	failedOf(1)
	// Not searchable: the failure is no index record.
	h.run("search", "--json", "zeppelin")
	if strings.Contains(h.stdout.String(), "ledger.txt") {
		t.Errorf("a failed file is a search result:\n%s", h.stdout.String())
	}
	h.run("doctor")
	if out := h.stdout.String(); !strings.Contains(out, "1 failed in the last crawl") || !strings.Contains(out, "ledger.txt: the source kept failing to answer") {
		t.Errorf("doctor does not name the failure:\n%s", out)
	}
	h.lang = i18n.Ja
	h.run("doctor")
	if out := h.stdout.String(); !strings.Contains(out, "前回のクロールで失敗 1 件") || !strings.Contains(out, "ソースが応答に失敗し続けた") {
		t.Errorf("doctor in Japanese does not name the failure:\n%s", out)
	}
	h.lang = i18n.En

	// Still failing: tried again, not skipped as unchanged.
	h.run("crawl")
	failedOf(2)

	e.Faults().Remove(fault)
	if code := h.run("crawl"); code != exitOK {
		t.Fatalf("crawl once Drive serves the file: exit %d\n%s%s", code, h.stdout.String(), h.stderr.String())
	}
	h.run("db", "status", "--json", "--coverage")
	s := coverageOf(t, h.stdout.String(), "drive")
	wantGroups(t, s, nil)
	if s.Complete != 2 || s.Fix != "" {
		t.Errorf("after the fault: complete %d fix %q, want 2 and none", s.Complete, s.Fix)
	}
	h.run("search", "--json", "zeppelin")
	if !strings.Contains(h.stdout.String(), "ledger.txt") {
		t.Errorf("the file indexed after the fault is not found:\n%s", h.stdout.String())
	}
}
