package main

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/gds-cli/gds/internal/reliability"
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
	runCrashForm(t, syscall.SIGKILL, 150, func(string) int { return 4 }, 11)
}

// TestCrawlStopsGracefullyOnSIGTERM sends SIGTERM at several points: each
// stop exits 130 with the checkpoint covering what was committed, and a
// rerun completes the index. On PGlite a stop that cancels a query in flight
// takes up to 15 s (pgx waits that long for the server to close the
// cancelled connection), so the Postgres runs stop once.
func TestCrawlStopsGracefullyOnSIGTERM(t *testing.T) {
	runCrashForm(t, syscall.SIGTERM, 150, func(st string) int {
		if st == reliability.StorePostgres {
			return 1
		}
		return 3
	}, 12)
}
