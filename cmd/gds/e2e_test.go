package main

import (
	"flag"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"

	"github.com/gds-cli/gds/internal/testbin"
)

// Parallel tests: the tests that spend most of their time waiting — on a
// service that does not answer (the degrade tests), on retries, on crawl
// processes killed and rerun (the crash tests, whose subtests already run in
// parallel) — call t.Parallel, so their waits overlap; so do the longest
// in-process runs (the ask, agentic and graph tests over real documents),
// whose CPU work fills those waits. Each has its own
// GDS_HOME (and Postgres schema), sets no environment variable of this
// process (t.Setenv), and asserts nothing about elapsed time. The tests
// that stall a PGlite connection (TestSearchFailsWhenDatabaseStopsMidSearch)
// stay serial, and so does the full form of the ones that measure latencies
// under load (concurrency_test.go, GDS_RELIABILITY_FULL=1).
// Since the parallel ones mostly wait on child processes, up to
// minParallel of them run at once even on a 2-core machine (go test's
// default is GOMAXPROCS); an explicit -parallel wins.
const minParallel = 4

func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if p := flag.Lookup("test.parallel"); !explicit && p != nil && runtime.GOMAXPROCS(0) < minParallel {
		_ = p.Value.Set(strconv.Itoa(minParallel))
	}
	// The interactive time budget is a wall-clock policy: tests that are
	// not about it must not depend on this machine's speed, so they get
	// generous limits. The failure tests (degrade_test.go) set the limit of
	// the service they break back to its default.
	for k, v := range map[string]string{"GDS_SEARCH_TIMEOUT": "120s", "GDS_SEARCH_DRIVE_TIMEOUT": "60s",
		"GDS_SEARCH_AI_TIMEOUT": "60s", "GDS_SEARCH_DB_TIMEOUT": "60s"} {
		if _, set := os.LookupEnv(k); !set {
			os.Setenv(k, v)
		}
	}
	code := m.Run()
	testbin.Cleanup()
	os.Exit(code)
}

// gdsBinary is the full CLI as the end-to-end tests run it: the one
// scripts/test.sh built for the whole run, else built once per test
// process (internal/testbin).
func gdsBinary(t *testing.T) string {
	t.Helper()
	return testbin.Core(t)
}

func crawlCmd(bin, home, dir string) *exec.Cmd {
	cmd := exec.Command(bin, "crawl", "--source", "local:"+dir, "--concurrency", "4")
	cmd.Env = append(os.Environ(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "DATABASE_URL=", "SUPABASE_DB_URL=", "LANG=C")
	return cmd
}
