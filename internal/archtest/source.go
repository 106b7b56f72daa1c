package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
)

// SourceRule keeps a kind of read in one place, by what the source says
// rather than what it imports: outside the packages of Owners (and the
// files Allow names, each with why), no non-test Go file may name one of
// Strings in a string literal or call one of Calls.
type SourceRule struct {
	Name    string
	Why     string
	Strings []string // string literals, e.g. environment variable names
	// Calls are "import/path.Func" (a leading "./" stands for the module
	// path); "import/path.*" is every function of that package.
	Calls  []string
	Owners []string          // package patterns, as in Rule
	Allow  map[string]string // file relative to the module root (slashes) → why it may
}

// Uses returns the uses r forbids in the Go source src of the file name
// (relative to the module root, slashes), one "name:line: what" each. A
// file of an Owners package, an allowed file and a test file have none.
func (r SourceRule) Uses(module, name string, src []byte) ([]string, error) {
	if strings.HasSuffix(name, "_test.go") || r.Allow[name] != "" || matchAny(module, r.Owners, module+"/"+path.Dir(name)) {
		return nil, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	imports := map[string]string{} // local name → import path
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		local := strings.TrimPrefix(path.Base(p), "go-")
		if im.Name != nil {
			local = im.Name.Name
		}
		imports[local] = p
	}
	var found []string
	report := func(pos token.Pos, what string) {
		found = append(found, fmt.Sprintf("%s:%d: %s", name, fset.Position(pos).Line, what))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				break
			}
			if v, err := strconv.Unquote(n.Value); err == nil && slices.Contains(r.Strings, v) {
				report(n.Pos(), n.Value)
			}
		case *ast.SelectorExpr:
			id, ok := n.X.(*ast.Ident)
			if !ok {
				break
			}
			p, ok := imports[id.Name]
			if ok && r.calls(module, p, n.Sel.Name) {
				report(n.Pos(), id.Name+"."+n.Sel.Name)
			}
		}
		return true
	})
	return found, nil
}

// calls reports whether fn of the package at importPath is one of r.Calls.
func (r SourceRule) calls(module, importPath, fn string) bool {
	for _, c := range r.Calls {
		i := strings.LastIndex(c, ".")
		if expand(module, c[:i]) == importPath && (c[i+1:] == "*" || c[i+1:] == fn) {
			return true
		}
	}
	return false
}
