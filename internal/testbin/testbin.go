// Package testbin gives end-to-end tests the gds binaries they run: the
// full CLI (cmd/gds, released as gds-core) and the front (cmd/gds-front,
// installed as gds), both stamped with Stamp and side by side in one
// folder, as a release lays them out.
//
// scripts/test.sh builds them once for the whole run and names the folder
// in GDS_TEST_BIN_DIR, so the test packages (cmd/gds, cmd/gds-front,
// cmd/gdsbench) and the scripts (serve-check.sh, shell-docs.sh) share one
// build instead of linking their own. Without the variable (go test alone)
// each test process builds them once, on first use.
//
// Only tests import this package.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// EnvDir names the folder of prebuilt binaries (gds-core and gds).
const EnvDir = "GDS_TEST_BIN_DIR"

// Stamp is the version the binaries carry (`gds version`): 9.8.7, commit
// feedbee, built 2030-01-01. scripts/test.sh stamps its build alike
// (cmd/gds TestVersionStamping checks the binary it gets).
const Stamp = "-X main.version=9.8.7 -X main.commit=feedbee -X main.date=2030-01-01T00:00:00Z"

var (
	mu    sync.Mutex
	dir   string // this process's build folder, when it built any
	built = map[string]error{}
)

// Core returns the full CLI (cmd/gds).
func Core(t testing.TB) string { return binary(t, "gds-core", "github.com/gds-cli/gds/cmd/gds") }

// Front returns the front binary (cmd/gds-front), with gds-core beside it.
func Front(t testing.TB) string {
	Core(t)
	return binary(t, "gds", "github.com/gds-cli/gds/cmd/gds-front")
}

// Cleanup removes what this process built (from TestMain, after m.Run).
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if dir != "" {
		os.RemoveAll(dir)
	}
}

// binary returns name from GDS_TEST_BIN_DIR, else builds pkg as name once
// per process. Tests run with -short skip (they would build).
func binary(t testing.TB, name, pkg string) string {
	t.Helper()
	if pre := os.Getenv(EnvDir); pre != "" {
		p := filepath.Join(pre, name)
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s=%s has no %s: %v", EnvDir, pre, name, err)
		}
		return p
	}
	if testing.Short() {
		t.Skip("builds the gds binaries")
	}
	mu.Lock()
	defer mu.Unlock()
	if dir == "" {
		d, err := os.MkdirTemp("", "gds-testbin-")
		if err != nil {
			t.Fatal(err)
		}
		dir = d
	}
	p := filepath.Join(dir, name)
	err, done := built[name]
	if !done {
		out, berr := exec.Command("go", "build", "-ldflags", Stamp, "-o", p, pkg).CombinedOutput()
		if berr != nil {
			err = fmt.Errorf("go build %s: %w\n%s", pkg, berr, out)
		}
		built[name] = err
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}
