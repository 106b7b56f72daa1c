package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/isolate"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// emulatorSource, when set (crawl_emulator.go), serves dir through the Drive
// API emulator with the given per-call latency and returns a Drive source.
var emulatorSource func(ctx context.Context, dir string, latency time.Duration) (src crawl.Source, stop func(), err error)

type crawlResult struct {
	Source      string  `json:"source"`
	Extract     string  `json:"extract"`
	Concurrency int     `json:"concurrency"`
	Files       int     `json:"files"`
	Failed      int     `json:"failed"`
	Seconds     float64 `json:"seconds"`
	FilesPerSec float64 `json:"files_per_sec"`
	PeakRSSMB   float64 `json:"peak_rss_mb"`
}

// runCrawlBench measures full crawls of N corpus files with the offline
// provider into a fresh SQLite index, once per concurrency, each in its own
// child process so peak RSS is per run.
func runCrawlBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("crawl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpus := fs.String("corpus", "", "folder of .txt documents (e.g. a JSQuAD paragraph corpus)")
	files := fs.Int("files", 2000, "number of corpus files to crawl")
	source := fs.String("source", "local", "local, or emulator (the Drive API emulator serving the files)")
	latency := fs.Duration("latency", 50*time.Millisecond, "injected latency per emulator call")
	concs := fs.String("concurrency", "1,4,16", "comma-separated crawl concurrencies")
	modes := fs.String("extract", "isolated", "comma-separated: isolated (worker processes, as gds crawls) and/or in-process")
	asJSON := fs.Bool("json", false, "print JSON")
	child := fs.Bool("child", false, "internal: run one crawl and print its result")
	dirFlag := fs.String("dir", "", "internal: prepared folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *child {
		c, _ := strconv.Atoi(*concs)
		return crawlOnce(ctx, *dirFlag, *source, *latency, c, *modes, stdout)
	}
	if *corpus == "" {
		return errors.New("--corpus is required")
	}
	if *source == "emulator" && emulatorSource == nil {
		return errors.New("this build has no Drive emulator source")
	}
	dir, err := os.MkdirTemp("", "gdsbench-crawl-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := copyCorpus(*corpus, dir, *files); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var results []crawlResult
	for _, cs := range strings.Split(*concs, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(cs))
		if err != nil || c < 1 {
			return fmt.Errorf("bad --concurrency %q", cs)
		}
		for _, mode := range strings.Split(*modes, ",") {
			mode = strings.TrimSpace(mode)
			if mode != "isolated" && mode != "in-process" {
				return fmt.Errorf("bad --extract %q (isolated or in-process)", mode)
			}
			fmt.Fprintf(stderr, "crawl: %s source, %d files, concurrency %d, %s extraction...\n", *source, *files, c, mode)
			cmd := exec.CommandContext(ctx, self, "crawl", "--child", "--dir", dir, "--source", *source,
				"--latency", latency.String(), "--concurrency", strconv.Itoa(c), "--extract", mode)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, stderr
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("crawl child: %w", err)
			}
			var r crawlResult
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				return fmt.Errorf("crawl child output %q: %w", out.String(), err)
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				r.PeakRSSMB = float64(ru.Maxrss) / 1024 // Linux reports KiB
			}
			results = append(results, r)
		}
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(results)
	}
	fmt.Fprintf(stdout, "%-9s %-10s %11s %6s %7s %9s %8s %12s %13s\n", "source", "extract", "concurrency", "files", "failed", "seconds", "files/s", "vs first", "peak RSS MB")
	for _, r := range results {
		fmt.Fprintf(stdout, "%-9s %-10s %11d %6d %7d %9.2f %8.1f %11.2fx %13.0f\n", r.Source, r.Extract, r.Concurrency, r.Files, r.Failed,
			r.Seconds, r.FilesPerSec, r.FilesPerSec/results[0].FilesPerSec, r.PeakRSSMB)
	}
	return nil
}

func copyCorpus(src, dst string, n int) error {
	names, err := filepath.Glob(filepath.Join(src, "*.txt"))
	if err != nil {
		return err
	}
	sort.Strings(names)
	if len(names) < n {
		return fmt.Errorf("--corpus %s has %d .txt files, fewer than --files %d", src, len(names), n)
	}
	for i, p := range names[:n] {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sub := filepath.Join(dst, fmt.Sprintf("d%02d", i%20))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(sub, filepath.Base(p)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func crawlOnce(ctx context.Context, dir, source string, latency time.Duration, concurrency int, mode string, stdout io.Writer) error {
	home, err := os.MkdirTemp("", "gdsbench-home-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	var src crawl.Source
	switch source {
	case "local":
		if src, err = crawl.NewLocalSource(dir); err != nil {
			return err
		}
	case "emulator":
		var stop func()
		if src, stop, err = emulatorSource(ctx, dir, latency); err != nil {
			return err
		}
		defer stop()
	default:
		return fmt.Errorf("unknown --source %q", source)
	}
	st, err := sqlite.Open(ctx, filepath.Join(home, "index.db"), sqlite.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	var x crawl.Extractor
	if mode == "isolated" {
		// As gds crawls: every file read by a worker process (this
		// binary in worker mode, see main).
		pool := isolate.New(isolate.Options{Size: max(4, concurrency)})
		defer pool.Close()
		x = pool
	}
	start := time.Now()
	sum, err := crawl.Run(ctx, crawl.Options{Source: src, Index: st, Provider: offline.New(), SummaryMaxLength: 200, Concurrency: concurrency, Extractor: x})
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	n := sum.New + sum.Updated + sum.Unchanged
	return json.NewEncoder(stdout).Encode(crawlResult{Source: source, Extract: mode, Concurrency: concurrency, Files: n,
		Failed: len(sum.Failed), Seconds: secs, FilesPerSec: float64(n) / secs})
}
