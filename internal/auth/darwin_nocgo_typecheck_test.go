package auth

import (
	"go/build"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestDarwinNoCgoVariantTypeChecks type-checks the package as the macOS
// release builds it without cgo (store_darwin_nocgo.go in, the file store's
// default out): the quick form of scripts/release-check.sh's darwin build,
// which cross-compiles every package and runs in the full test run
// (GDS_TEST_FULL=1, CI). This package holds the module's only darwin-only
// files.
func TestDarwinNoCgoVariantTypeChecks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}} {{.Export}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	exports := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if p, e, ok := strings.Cut(l, " "); ok && e != "" {
			exports[p] = e
		}
	}
	fset := token.NewFileSet()
	ctxt := build.Default
	ctxt.GOOS, ctxt.GOARCH, ctxt.CgoEnabled = "darwin", "arm64", false
	files := parseBuildDir(t, fset, ctxt, ".")
	var names []string
	for _, f := range files {
		names = append(names, fset.File(f.Pos()).Name())
	}
	joined := strings.Join(names, " ")
	if !strings.Contains(joined, "store_darwin_nocgo.go") || strings.Contains(joined, "store_other.go") || strings.Contains(joined, "keychain_darwin_cgo.go") {
		t.Fatalf("the darwin build without cgo has the wrong files: %s", joined)
	}
	conf := types.Config{
		Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) }),
		Error:    func(err error) { t.Error(err) },
	}
	conf.Check("github.com/gds-cli/gds/internal/auth", fset, files, nil)
}
