// Command gdsreliability runs the full forms of gds's crash-safety,
// graceful-stop and memory-bound harness (internal/reliability); the
// reduced forms run in `go test ./cmd/gds` (crash_test.go).
// scripts/reliability.sh builds gds, starts PGlite and runs every full form:
//
//	gdsreliability crash  -gds ./gds -signal kill -files 1000 -stops 20
//	gdsreliability crash  -gds ./gds -signal term -files 1000 -stops 5
//	gdsreliability changes -gds ./gds -signal kill -files 1000 -stops 20
//	gdsreliability memory -gds ./gds -files 100000
//	gdsreliability search -gds ./gds -runs 20
//
// crash runs every combination of -sources (local, drive) and -stores
// (sqlite, postgres; Postgres at GDS_TEST_DATABASE_URL, a fresh schema per
// run). Results print as a table, or JSON with -json. The exit status is 1
// when an invariant failed, 2 on a usage error.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/gds-cli/gds/internal/reliability"
)

const usage = `usage: gdsreliability <crash|memory> [flags]

  crash    crawl a generated corpus with gds, stop it with SIGKILL or SIGTERM
           at planned points, check the checkpoint after every stop and the
           whole index at the end (gdsreliability crash -h)
  changes  crawl a generated corpus, change it (modify, move, rename, delete,
           move in old files), kill the incremental crawl at planned points,
           check after every kill and the whole index at the end
           (gdsreliability changes -h)
  memory   crawl N synthetic files from an in-memory Drive emulator and report
           the gds process's peak RSS (gdsreliability memory -h)
  search   run gds search --json N times under each failure (Drive refusing,
           429 storm, hanging; OpenAI refusing; database black hole) and
           report the time to an answer or an error (gdsreliability search -h)
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	var ue usageError
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		os.Exit(2)
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "gdsreliability:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "gdsreliability:", err)
		os.Exit(1)
	}
}

type usageError struct{ error }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageError{errors.New("no form given")}
	}
	switch args[0] {
	case "crash":
		return runCrash(ctx, args[1:], stdout, stderr)
	case "memory":
		return runMemory(ctx, args[1:], stdout, stderr)
	case "changes":
		return runChanges(ctx, args[1:], stdout, stderr)
	case "search":
		return runSearchFaults(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stderr, usage)
		return flag.ErrHelp
	}
	fmt.Fprint(stderr, usage)
	return usageError{fmt.Errorf("unknown form %q", args[0])}
}

// killFlags are the flags the crash harnesses share.
type killFlags struct {
	bin, sigName, sources, stores, pgURL *string
	files, stops, conc                   *int
	seed                                 *uint64
	asJSON, verbose                      *bool
	sig                                  os.Signal
}

// parseKillFlags parses the shared flags of a crash harness; the help of
// -files, -stops and -seed is the harness's own.
func parseKillFlags(name string, args []string, stderr io.Writer, filesHelp, stopsHelp, seedHelp string) (*killFlags, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	k := &killFlags{
		bin:     fs.String("gds", "", "the gds binary (go build -o gds ./cmd/gds)"),
		sigName: fs.String("signal", "kill", "kill (SIGKILL, crash) or term (SIGTERM, graceful stop)"),
		files:   fs.Int("files", 1000, filesHelp),
		stops:   fs.Int("stops", 20, stopsHelp),
		sources: fs.String("sources", "local,drive", "comma-separated: local, drive (the Drive API emulator)"),
		stores:  fs.String("stores", "sqlite,postgres", "comma-separated: sqlite, postgres"),
		pgURL:   fs.String("pg-url", os.Getenv("GDS_TEST_DATABASE_URL"), "Postgres URL for the postgres store"),
		seed:    fs.Uint64("seed", 1, seedHelp),
		conc:    fs.Int("concurrency", 4, "gds crawl --concurrency"),
		asJSON:  fs.Bool("json", false, "print JSON"),
		verbose: fs.Bool("v", false, "log every gds run"),
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if *k.bin == "" {
		return nil, usageError{errors.New("-gds is required")}
	}
	switch *k.sigName {
	case "kill":
		k.sig = syscall.SIGKILL
	case "term":
		k.sig = syscall.SIGTERM
	default:
		return nil, usageError{fmt.Errorf("-signal %q: want kill or term", *k.sigName)}
	}
	return k, nil
}

func runCrash(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	k, err := parseKillFlags("crash", args, stderr, "corpus files (one in 40 is a binary file gds skips)",
		"signals per run, spread over the crawl", "seed of the corpus and the stop plan")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "gdsreliability-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	corpus, err := reliability.WriteCorpus(tmp+"/corpus", *k.files, *k.seed)
	if err != nil {
		return err
	}
	type row struct {
		Source string `json:"source"`
		Store  string `json:"store"`
		reliability.CrashReport
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
			fmt.Fprintf(stderr, "crash: %s source, %s store, %d files, %d × %s...\n", src, st, *k.files, *k.stops, *k.sigName)
			g, open, exp, cleanup, err := reliability.Prepare(ctx, corpus, reliability.Setup{
				Bin: *k.bin, Home: home, Source: src, Store: st, PostgresURL: *k.pgURL, Concurrency: *k.conc})
			if err != nil {
				return usageError{err}
			}
			cfg := reliability.CrashConfig{GDS: g, Index: open, Files: exp, Stops: *k.stops, Signal: k.sig, Seed: *k.seed}
			if *k.verbose {
				cfg.Logf = func(format string, a ...any) { fmt.Fprintf(stderr, "  "+format+"\n", a...) }
			}
			rep, err := reliability.RunCrash(ctx, cfg)
			cleanup()
			r := row{Source: src, Store: st, CrashReport: rep}
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
		fmt.Fprintf(stdout, "%-6s %-9s %-7s %6s %9s %8s %5s %7s %7s %10s %9s %12s  %s\n", "source", "store", "signal", "files",
			"indexable", "stops", "runs", "reruns", "checks", "files lost", "seconds", "peak RSS MB", "result")
		for _, r := range rows {
			res := "ok"
			if r.Error != "" {
				res = "FAILED: " + r.Error
			}
			fmt.Fprintf(stdout, "%-6s %-9s %-7s %6d %9d %5d/%-2d %5d %7d %7d %10d %9.1f %12.0f  %s\n", r.Source, r.Store, r.Signal,
				r.Files, r.Indexable, r.Stops, r.Planned, r.Runs, r.RerunsToFinish, r.Checks, r.FilesLost, r.Seconds, r.PeakRSSMB, res)
		}
	}
	if failed {
		return errors.New("an invariant failed (see above)")
	}
	return nil
}

func runMemory(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("memory", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bin := fs.String("gds", "", "the gds binary")
	files := fs.Int("files", 100000, "synthetic files served by the in-memory Drive emulator")
	limit := fs.Float64("limit-mb", 500, "fail when the gds process's peak RSS exceeds this")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bin == "" {
		return usageError{errors.New("-gds is required")}
	}
	home, err := os.MkdirTemp("", "gdsreliability-mem-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	fmt.Fprintf(stderr, "memory: crawling %d synthetic files from the Drive emulator...\n", *files)
	rep, err := reliability.RunMemory(ctx, *bin, home, *files)
	if *asJSON {
		_ = json.NewEncoder(stdout).Encode(rep)
	} else {
		fmt.Fprintf(stdout, "files %d, indexed %d, %.1f s (%.0f files/s), peak RSS %.0f MB (limit %.0f MB)\n",
			rep.Files, rep.Indexed, rep.Seconds, float64(rep.Indexed)/max(rep.Seconds, 1e-9), rep.PeakRSSMB, *limit)
	}
	if err != nil {
		return err
	}
	if rep.PeakRSSMB > *limit {
		return fmt.Errorf("peak RSS %.0f MB exceeds %.0f MB", rep.PeakRSSMB, *limit)
	}
	return nil
}

func runSearchFaults(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bin := fs.String("gds", "", "the gds binary")
	runs := fs.Int("runs", 20, "searches per failure")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bin == "" || *runs < 1 {
		return usageError{errors.New("-gds is required and -runs must be at least 1")}
	}
	home, err := os.MkdirTemp("", "gdsreliability-search-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)
	rows, err := reliability.RunSearchFaults(ctx, *bin, home, *runs, func(format string, a ...any) {
		fmt.Fprintf(stderr, "search: "+format+"\n", a...)
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(rows)
	}
	fmt.Fprintln(stdout, "| failure | runs | time to answer p50 / p95 (max) | right file found | degraded | errors | what the user got |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Fprintf(stdout, "| %s | %d | %.2f s / %.2f s (%.2f s) | %d | %d | %d | %s |\n", r.Fault, r.Runs, r.P50, r.P95, r.Max,
			r.Answered, r.Degraded, r.Errors, strings.ReplaceAll(r.Outcome, "|", "\\|"))
	}
	return nil
}
