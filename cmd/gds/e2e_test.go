package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store/sqlite"
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

// crashCorpus writes copies× the sample corpus with distinct content and
// distinct, shuffled modification times, and returns the folder and the
// modification time of every file by path.
func crashCorpus(t *testing.T, copies int) (string, map[string]time.Time) {
	t.Helper()
	dir := t.TempDir()
	var texts [][]byte
	err := filepath.WalkDir("../../testdata/sample", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) == ".csv" {
			return err
		}
		b, err := os.ReadFile(p)
		texts = append(texts, b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	n := copies * len(texts)
	rng := rand.New(rand.NewPCG(1, 2))
	perm := rng.Perm(n)
	base := time.Now().Add(-48 * time.Hour).Truncate(time.Second)
	mtimes := map[string]time.Time{}
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("c%d", i%copies), fmt.Sprintf("f%04d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := append(append([]byte{}, texts[i/copies]...), fmt.Sprintf("\n\ncopy %d\n", i)...)
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		mt := base.Add(time.Duration(perm[i]) * time.Second)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
		mtimes[p] = mt
	}
	return dir, mtimes
}

// checkCheckpoint asserts the sync state never claims a file that is not
// committed: every file modified at or before the checkpoint is indexed.
// It returns the number of indexed files.
func checkCheckpoint(t *testing.T, home, dir string, mtimes map[string]time.Time) int {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(home, "index.db"), sqlite.Options{ReadOnly: true})
	if err != nil {
		return 0 // killed before the index was created
	}
	defer st.Close()
	state, err := st.SyncState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	var claimed, all []string
	for p, mt := range mtimes {
		rel, _ := filepath.Rel(dir, p)
		id := crawl.LocalID(abs, rel)
		all = append(all, id)
		if !state.ModifiedAt.IsZero() && !mt.After(state.ModifiedAt) {
			claimed = append(claimed, id)
		}
	}
	got, err := st.FilterIndexed(ctx, claimed)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(claimed) {
		t.Fatalf("checkpoint %v claims %d files but only %d are indexed", state.ModifiedAt, len(claimed), len(got))
	}
	indexed, err := st.FilterIndexed(ctx, all)
	if err != nil {
		t.Fatal(err)
	}
	return len(indexed)
}

func crawlCmd(bin, home, dir string) *exec.Cmd {
	cmd := exec.Command(bin, "crawl", "--source", "local:"+dir, "--concurrency", "4")
	cmd.Env = append(os.Environ(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "DATABASE_URL=", "SUPABASE_DB_URL=", "LANG=C")
	return cmd
}

// TestCrawlSurvivesSIGKILL kills a crawl subprocess at several points and
// reruns it: the checkpoint never gets ahead of committed rows, and the
// final index is complete.
func TestCrawlSurvivesSIGKILL(t *testing.T) {
	bin := gdsBinary(t)
	dir, mtimes := crashCorpus(t, 5)
	home := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	kills := 0
	for attempt := 0; attempt < 6; attempt++ {
		cmd := crawlCmd(bin, home, dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := time.Duration(100+rng.IntN(900)) * time.Millisecond
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("crawl finished with %v", err)
			}
		case <-time.After(delay):
			cmd.Process.Kill()
			<-done
			kills++
		}
		checkCheckpoint(t, home, dir, mtimes)
	}
	// Finish the crawl.
	if out, err := crawlCmd(bin, home, dir).CombinedOutput(); err != nil {
		t.Fatalf("final crawl: %v\n%s", err, out)
	}
	if n := checkCheckpoint(t, home, dir, mtimes); n != len(mtimes) {
		t.Fatalf("after %d kills: %d of %d files indexed", kills, n, len(mtimes))
	}
	t.Logf("%d kills survived, %d files indexed", kills, len(mtimes))
	if kills == 0 {
		t.Error("no crawl was killed mid-way; the test proved nothing")
	}
}

// TestCrawlStopsGracefullyOnSIGTERM: SIGTERM ends the crawl with exit code
// 130 and a consistent checkpoint; the next run completes the index.
func TestCrawlStopsGracefullyOnSIGTERM(t *testing.T) {
	bin := gdsBinary(t)
	dir, mtimes := crashCorpus(t, 5)
	home := t.TempDir()
	cmd := crawlCmd(bin, home, dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitInterrupted {
		t.Skipf("crawl was not interrupted mid-way (%v); machine too fast for this corpus", err)
	}
	partial := checkCheckpoint(t, home, dir, mtimes)
	if out, err := crawlCmd(bin, home, dir).CombinedOutput(); err != nil {
		t.Fatalf("second crawl: %v\n%s", err, out)
	}
	if n := checkCheckpoint(t, home, dir, mtimes); n != len(mtimes) {
		t.Fatalf("%d of %d files indexed after resuming", n, len(mtimes))
	}
	t.Logf("SIGTERM after %d files; resumed to %d", partial, len(mtimes))
}
