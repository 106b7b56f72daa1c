package auth

import (
	"encoding/json"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDarwinCgoVariantTypeChecks type-checks the package as a darwin build
// with cgo (keychain_darwin_cgo.go included) against go-keychain's real
// API. Building it needs a macOS SDK, which this machine lacks, so cgo's
// C declarations are faked (types.Config.FakeImportC): the check catches
// wrong names, types and signatures of go-keychain calls, not C problems.
func TestDarwinCgoVariantTypeChecks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dl, err := exec.Command("go", "mod", "download", "-json", "github.com/keybase/go-keychain").Output()
	if err != nil {
		t.Skipf("go-keychain sources unavailable (offline?): %v", err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(dl, &mod); err != nil || mod.Dir == "" {
		t.Skipf("go mod download: %v", err)
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
	gc := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	ctxt := build.Default
	ctxt.GOOS, ctxt.GOARCH, ctxt.CgoEnabled = "darwin", "arm64", true

	kconf := types.Config{Importer: gc, FakeImportC: true, Error: func(error) {}}
	kc, _ := kconf.Check("github.com/keybase/go-keychain", fset, parseBuildDir(t, fset, ctxt, mod.Dir), nil)
	if kc.Scope().Lookup("NewItem") == nil {
		t.Fatal("go-keychain did not type-check as darwin")
	}
	files := parseBuildDir(t, fset, ctxt, ".")
	found := false
	for _, f := range files {
		found = found || strings.HasSuffix(fset.File(f.Pos()).Name(), "keychain_darwin_cgo.go")
	}
	if !found {
		t.Fatal("keychain_darwin_cgo.go is not part of the darwin cgo build")
	}
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "github.com/keybase/go-keychain" {
				return kc, nil
			}
			return gc.Import(path)
		}),
		Error: func(err error) { t.Error(err) },
	}
	conf.Check("github.com/gds-cli/gds/internal/auth", fset, files, nil)
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func parseBuildDir(t *testing.T, fset *token.FileSet, ctxt build.Context, dir string) []*ast.File {
	t.Helper()
	bp, err := ctxt.ImportDir(dir, 0)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	var files []*ast.File
	for _, name := range append(bp.GoFiles, bp.CgoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}
