package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// gdsBinary builds the gds binary once per test process.
func gdsBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the gds binary")
	}
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "gds-e2e-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "gds")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func crawlCmd(bin, home, dir string) *exec.Cmd {
	cmd := exec.Command(bin, "crawl", "--source", "local:"+dir, "--concurrency", "4")
	cmd.Env = append(os.Environ(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "DATABASE_URL=", "SUPABASE_DB_URL=", "LANG=C")
	return cmd
}
