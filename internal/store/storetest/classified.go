package storetest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CheckClassified parses the Go files of a back end's package in dir (not
// its tests) and fails for every exported method of *Store whose last
// result is an error and whose body does not start with `defer
// s.classify(&err)`: the call that turns the database's report of damaged
// storage into store.ErrDamaged. A method added without it would report
// damage as an unclassified error.
func CheckClassified(t *testing.T, dir string) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() || fn.Name.Name == "Close" || !storeReceiver(fn) || !returnsError(fn) {
				continue
			}
			checked++
			if !startsWithClassify(fn) {
				t.Errorf("%s: (*Store).%s does not start with `defer s.classify(&err)`", fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
	}
	if checked < 10 {
		t.Errorf("found only %d exported methods of *Store in %s", checked, dir)
	}
}

func storeReceiver(fn *ast.FuncDecl) bool {
	star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	id, ok := star.X.(*ast.Ident)
	return ok && id.Name == "Store"
}

func returnsError(fn *ast.FuncDecl) bool {
	res := fn.Type.Results
	if res == nil || len(res.List) == 0 {
		return false
	}
	id, ok := res.List[len(res.List)-1].Type.(*ast.Ident)
	return ok && id.Name == "error"
}

func startsWithClassify(fn *ast.FuncDecl) bool {
	if fn.Body == nil || len(fn.Body.List) == 0 {
		return false
	}
	def, ok := fn.Body.List[0].(*ast.DeferStmt)
	if !ok {
		return false
	}
	sel, ok := def.Call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "classify" || len(def.Call.Args) != 1 {
		return false
	}
	u, ok := def.Call.Args[0].(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	id, ok := u.X.(*ast.Ident)
	return ok && id.Name == "err"
}
