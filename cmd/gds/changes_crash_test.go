package main

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/reliability"
)

// TestIncrementalCrawlSurvivesSIGKILL is the reduced form of the crash
// harness of incremental crawls (docs/RELIABILITY.md): after a
// first crawl, the corpus is changed (files modified, moved, renamed,
// deleted, and moved in with old modification times), then the
// incremental crawl — the Drive changes feed, or the local listing
// compared with the index — is killed at start-up and at random points.
// After every kill no untouched file is lost and the page token is never
// ahead of the committed rows; after the reruns the index equals a full
// scan of the changed corpus (hashes, chunks, folder paths, no extra row).
func TestIncrementalCrawlSurvivesSIGKILL(t *testing.T) {
	t.Parallel() // mostly waits (see TestMain); own GDS_HOME, no t.Setenv
	bin := gdsBinary(t)
	for _, source := range []string{reliability.SourceLocal, reliability.SourceDrive} {
		for _, st := range crashStores(t) {
			t.Run(source+"/"+st, func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				corpus, err := reliability.WriteCorpus(filepath.Join(t.TempDir(), "corpus"), 150, 21)
				if err != nil {
					t.Fatal(err)
				}
				setup := reliability.Setup{Bin: bin, Home: t.TempDir(), Source: source, Store: st,
					PostgresURL: os.Getenv("GDS_TEST_DATABASE_URL")}
				cfg := reliability.ChangesConfig{Corpus: corpus, Kind: source, Stops: 4, Signal: syscall.SIGKILL, Seed: 21, Logf: t.Logf}
				if source == reliability.SourceDrive {
					fx, err := driveemu.FromDir(corpus.Dir)
					if err != nil {
						t.Fatal(err)
					}
					setup.Drive, cfg.Emu = fx, fx.Emu
					cfg.PathPrefix = filepath.Base(corpus.Dir) + "/"
				}
				g, open, _, cleanup, err := reliability.Prepare(ctx, corpus, setup)
				if err != nil {
					t.Fatal(err)
				}
				defer cleanup()
				cfg.GDS, cfg.Index = g, open
				rep, err := reliability.RunChangesCrash(ctx, cfg)
				t.Logf("%+v", rep)
				if err != nil {
					t.Fatal(err)
				}
				if rep.FilesLost != 0 || rep.WrongPaths != 0 {
					t.Errorf("%d files lost, %d wrong paths", rep.FilesLost, rep.WrongPaths)
				}
				if rep.Stops == 0 || rep.Mutation.Added == 0 || rep.Mutation.Deleted == 0 || rep.Mutation.Moved == 0 {
					t.Errorf("the test proved nothing: %+v", rep)
				}
			})
		}
	}
}
