package archtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The real tree stays within its size limits.
func TestPackagesWithinSizeLimits(t *testing.T) {
	for _, l := range SizeLimits {
		n, err := GoLines(filepath.Join("..", "..", l.Dir))
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatalf("%s: no Go lines counted (wrong directory?)", l.Dir)
		}
		if n > l.Max {
			t.Errorf("%s has %d lines of non-test Go, more than %d: %s", l.Dir, n, l.Max, l.Why)
		}
		t.Logf("%s: %d of %d lines", l.Dir, n, l.Max)
	}
}

// GoLines counts what `wc -l` counts over the non-test files, so a
// package grown past its limit fails the test above.
func TestGoLinesCountsNonTestFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines int) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Repeat("// x\n", lines)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", 1500)
	write("b.go", 501)
	write("a_test.go", 9000)
	write("notes.txt", 100)
	n, err := GoLines(dir)
	if err != nil || n != 2001 {
		t.Fatalf("GoLines = %d, %v; want 2001", n, err)
	}
	if n <= SizeLimits[0].Max {
		t.Errorf("a package of %d lines passes the %d limit", n, SizeLimits[0].Max)
	}
}
