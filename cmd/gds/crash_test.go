package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/reliability"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// Reduced forms of the crash-safety and graceful-stop harness
// (internal/reliability); scripts/reliability.sh runs the full forms
// (≥ 1,000 files, 20 kills, both stores, both sources). See
// docs/RELIABILITY.md.

// crashStores lists the stores to run against: SQLite always, Postgres when
// GDS_TEST_DATABASE_URL is set (scripts/test.sh starts PGlite and sets it).
func crashStores(t *testing.T) []string {
	stores := []string{reliability.StoreSQLite}
	if os.Getenv("GDS_TEST_DATABASE_URL") != "" {
		stores = append(stores, reliability.StorePostgres)
	} else if os.Getenv("CI") != "" {
		t.Fatal("GDS_TEST_DATABASE_URL is not set under CI: the Postgres crash test must not be skipped")
	}
	return stores
}

// runCrashForm runs the harness over one corpus for every source and store,
// in parallel subtests; stops(store) is the number of stops per run.
func runCrashForm(t *testing.T, sig os.Signal, files int, stops func(store string) int, seed uint64) {
	bin := gdsBinary(t)
	corpus, err := reliability.WriteCorpus(t.TempDir(), files, seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, source := range []string{reliability.SourceLocal, reliability.SourceDrive} {
		for _, st := range crashStores(t) {
			t.Run(source+"/"+st, func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				g, open, exp, cleanup, err := reliability.Prepare(ctx, corpus, reliability.Setup{
					Bin: bin, Home: t.TempDir(), Source: source, Store: st,
					PostgresURL: os.Getenv("GDS_TEST_DATABASE_URL"),
				})
				if err != nil {
					t.Fatal(err)
				}
				defer cleanup()
				rep, err := reliability.RunCrash(ctx, reliability.CrashConfig{
					GDS: g, Index: open, Files: exp, Stops: stops(st), Signal: sig, Seed: seed, Logf: t.Logf,
				})
				t.Logf("%+v", rep)
				if err != nil {
					t.Fatal(err)
				}
				if rep.FilesLost != 0 {
					t.Errorf("%d files lost", rep.FilesLost)
				}
				// At least one stop must land mid-crawl, or the test proved nothing.
				if rep.Stops == 0 {
					t.Errorf("no stop landed mid-crawl: %+v", rep)
				}
			})
		}
	}
}

// TestCrawlSurvivesSIGKILL kills `gds crawl` at start-up, during the first
// commits and at random points, reruns it, and checks after every kill that
// the checkpoint never claims an uncommitted file and at the end that the
// index is complete (hashes, chunks, no extra rows); local folder and Drive
// emulator, SQLite and Postgres.
func TestCrawlSurvivesSIGKILL(t *testing.T) {
	t.Parallel() // mostly waits (see TestMain); own GDS_HOME, no t.Setenv
	runCrashForm(t, syscall.SIGKILL, 150, func(string) int { return 4 }, 11)
}

// TestCrawlStopsGracefullyOnSIGTERM sends SIGTERM at several points: each
// stop exits 130 with the checkpoint covering what was committed, and a
// rerun completes the index. On PGlite a stop that cancels a query in flight
// takes up to 15 s (pgx waits that long for the server to close the
// cancelled connection), so the Postgres runs stop once.
func TestCrawlStopsGracefullyOnSIGTERM(t *testing.T) {
	t.Parallel() // mostly waits (see TestMain); own GDS_HOME, no t.Setenv
	runCrashForm(t, syscall.SIGTERM, 150, func(st string) int {
		if st == reliability.StorePostgres {
			return 1
		}
		return 3
	}, 12)
}

// TestCrawlMemoryBound crawls a synthetic in-memory Drive and bounds the
// gds child's peak RSS. The reduced form uses 3,000 files; the full form
// (100,000 files) is `gdsreliability memory`.
//
// The crawl is started by the small gdsreliability process, not by this
// test process: Linux reports a child's peak RSS including what it
// inherited at fork, before exec (the rusage high-water mark survives
// exec), so a child forked from a test process that has grown to hundreds
// of MB over the suite would report that size, not gds's.
func TestCrawlMemoryBound(t *testing.T) {
	t.Parallel() // mostly waits (see TestMain); own GDS_HOME, no t.Setenv
	bin := gdsBinary(t)
	harness := filepath.Join(t.TempDir(), "gdsreliability")
	if out, err := exec.Command("go", "build", "-o", harness, "../gdsreliability").CombinedOutput(); err != nil {
		t.Fatalf("go build gdsreliability: %v\n%s", err, out)
	}
	out, err := exec.Command(harness, "memory", "-gds", bin, "-files", "3000", "-limit-mb", "500", "-json").Output()
	var rep reliability.MemoryReport
	if jerr := json.Unmarshal(out, &rep); jerr != nil {
		t.Fatalf("gdsreliability memory: %v; output %q (%v)", jerr, out, err)
	}
	t.Logf("%+v", rep)
	if err != nil {
		t.Errorf("gdsreliability memory: %v", err)
	}
	if rep.Indexed != 3000 || rep.PeakRSSMB <= 0 || rep.PeakRSSMB > 500 {
		t.Errorf("indexed %d of 3000, peak RSS %.0f MB, want (0, 500]", rep.Indexed, rep.PeakRSSMB)
	}
}

// TestCrawlSkipsFilesOverTheSizeLimit: a file one byte over the extraction
// limit (extract.DefaultMaxBytes) is skipped with a reason, from a local
// folder and from the Drive emulator, and the crawl still indexes the rest.
func TestCrawlSkipsFilesOverTheSizeLimit(t *testing.T) {
	bin := gdsBinary(t)
	dir := t.TempDir()
	big := bytes.Repeat([]byte("lorem ipsum "), extract.DefaultMaxBytes/12+1)[:extract.DefaultMaxBytes+1]
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "small.txt"), []byte("a small note about the budget"), 0o644); err != nil {
		t.Fatal(err)
	}
	fx, err := driveemu.FromDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	url, stop, err := reliability.ServeEmulator(fx.Emu)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	abs, _ := filepath.Abs(dir)
	for _, tc := range []struct {
		name     string
		args     []string
		env      []string
		big, sml string
	}{
		{"local", []string{"--source", "local:" + dir}, nil, crawl.LocalID(abs, "big.txt"), crawl.LocalID(abs, "small.txt")},
		{"drive", nil, []string{"GDS_SOURCE=drive", "GDS_DRIVE_ENDPOINT=" + url, "GOOGLE_DRIVE_TARGET_FOLDER_IDS=" + fx.Targets[0]},
			fx.IDs["big.txt"], fx.IDs["small.txt"]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			cmd := exec.Command(bin, append([]string{"crawl"}, tc.args...)...)
			cmd.Dir = home
			cmd.Env = append(os.Environ(), append([]string{"GDS_HOME=" + home, "GDS_AI_PROVIDER=offline", "DATABASE_URL=",
				"SUPABASE_DB_URL=", "LANG=C", "LC_ALL="}, tc.env...)...)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("crawl: %v\n%s", err, out)
			}
			skipped := false
			for _, line := range strings.Split(string(out), "\n") {
				skipped = skipped || strings.Contains(line, "big.txt") && strings.Contains(line, "larger than")
			}
			if !skipped || !strings.Contains(string(out), "1 new") || !strings.Contains(string(out), "1 skipped") {
				t.Errorf("summary does not show big.txt skipped for its size and small.txt indexed:\n%s", out)
			}
			st, err := sqlite.Open(context.Background(), filepath.Join(home, "index.db"), sqlite.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			// A file over the limit is indexed by name only with the
			// reason: locally its extraction refuses it, from Drive it is
			// skipped before download (so later crawls remember it).
			files, err := st.GetFiles(context.Background(), []string{tc.big, tc.sml})
			if err != nil {
				t.Fatal(err)
			}
			var content, nameOnly []string
			for _, f := range files {
				if f.NameOnly() {
					nameOnly = append(nameOnly, f.ID)
				} else {
					content = append(content, f.ID)
				}
			}
			wantNameOnly := 1
			if len(content) != 1 || content[0] != tc.sml || len(nameOnly) != wantNameOnly || wantNameOnly == 1 && nameOnly[0] != tc.big {
				t.Errorf("indexed with content %v, by name only %v; want small.txt with content and %d name-only (big.txt)", content, nameOnly, wantNameOnly)
			}
			if cs, err := st.FileChunks(context.Background(), tc.big, 0); err == nil && len(cs) != 0 {
				t.Errorf("big.txt has %d chunks, want none", len(cs))
			}
		})
	}
}
