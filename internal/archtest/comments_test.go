package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOutsideRefs(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"package p\n// the hybrid loop of seed §6.4\nvar x = 1\n", 1},
		{"package p\n/* fitted on ../shared/bench and\n   issue 15's data */\nvar x = 1\n", 2},
		{"package p\nvar x = \"issue 4290 not found\" // a fixed seed, issues welcome\n", 0},
		{"package p\n// Seed 002 builds a graph; see Issue #28\nfunc f() {}\n", 2},
	} {
		got, err := OutsideRefs("p.go", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tc.want {
			t.Errorf("OutsideRefs(%q) = %v, want %d", tc.src, got, tc.want)
		}
	}
}

// TestCommentsStandAlone: no comment of the repository's Go code cites a
// document outside it (outsideRefs).
func TestCommentsStandAlone(t *testing.T) {
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && p != repoRoot) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, p)
		found, err := OutsideRefs(filepath.ToSlash(rel), src)
		if err != nil {
			return err
		}
		for _, f := range found {
			t.Errorf("%s cites a document outside the repository; say what it means instead", f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
