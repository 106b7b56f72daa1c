package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/reliability"
)

// runChanges is the full form of the incremental-crawl crash harness
// (reliability.RunChangesCrash): a first crawl, the corpus changed, then
// the incremental crawl (Drive changes feed, local listing) killed at
// planned points. Each combination gets its own corpus (it is changed).
func runChanges(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	k, err := parseKillFlags("changes", args, stderr, "corpus files before the changes",
		"signals during the incremental crawl", "seed of the corpus, the changes and the stop plan")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "gdsreliability-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	type row struct {
		Source string `json:"source"`
		Store  string `json:"store"`
		reliability.ChangesReport
		Error string `json:"error,omitempty"`
	}
	var rows []row
	failed := false
	for _, src := range strings.Split(*k.sources, ",") {
		for _, st := range strings.Split(*k.stores, ",") {
			src, st := strings.TrimSpace(src), strings.TrimSpace(st)
			home, err := reliability.TempHome(tmp, "home-"+src+"-"+st)
			if err != nil {
				return err
			}
			corpus, err := reliability.WriteCorpus(filepath.Join(tmp, "corpus-"+src+"-"+st), *k.files, *k.seed)
			if err != nil {
				return err
			}
			fmt.Fprintf(stderr, "changes: %s source, %s store, %d files, %d × %s...\n", src, st, *k.files, *k.stops, *k.sigName)
			setup := reliability.Setup{Bin: *k.bin, Home: home, Source: src, Store: st, PostgresURL: *k.pgURL, Concurrency: *k.conc}
			cfg := reliability.ChangesConfig{Corpus: corpus, Kind: src, Stops: *k.stops, Signal: k.sig, Seed: *k.seed}
			if src == reliability.SourceDrive {
				fx, err := driveemu.FromDir(corpus.Dir)
				if err != nil {
					return err
				}
				setup.Drive, cfg.Emu, cfg.PathPrefix = fx, fx.Emu, filepath.Base(corpus.Dir)+"/"
			}
			g, open, _, cleanup, err := reliability.Prepare(ctx, corpus, setup)
			if err != nil {
				return usageError{err}
			}
			cfg.GDS, cfg.Index = g, open
			if *k.verbose {
				cfg.Logf = func(format string, a ...any) { fmt.Fprintf(stderr, "  "+format+"\n", a...) }
			}
			rep, err := reliability.RunChangesCrash(ctx, cfg)
			cleanup()
			r := row{Source: src, Store: st, ChangesReport: rep}
			if err != nil {
				r.Error, failed = err.Error(), true
				fmt.Fprintf(stderr, "  FAILED: %v\n", err)
			}
			rows = append(rows, r)
		}
	}
	if *k.asJSON {
		if err := json.NewEncoder(stdout).Encode(rows); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "%-6s %-9s %-7s %6s %-28s %6s %5s %7s %7s %10s %11s %9s %12s  %s\n", "source", "store", "signal", "files",
			"changes (mod/mov/ren/del/add)", "stops", "runs", "reruns", "checks", "files lost", "wrong paths", "seconds", "peak RSS MB", "result")
		for _, r := range rows {
			res := "ok"
			if r.Error != "" {
				res = "FAILED: " + r.Error
			}
			m := r.Mutation
			fmt.Fprintf(stdout, "%-6s %-9s %-7s %6d %-28s %6d %5d %7d %7d %10d %11d %9.1f %12.0f  %s\n", r.Source, r.Store, r.Signal,
				r.Files, fmt.Sprintf("%d/%d/%d/%d/%d", m.Modified, m.Moved, m.Renamed, m.Deleted, m.Added), r.Stops, r.Runs,
				r.RerunsToFinish, r.Checks, r.FilesLost, r.WrongPaths, r.Seconds, r.PeakRSSMB, res)
		}
	}
	if failed {
		return errors.New("an invariant failed (see above)")
	}
	return nil
}
