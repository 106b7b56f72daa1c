// Package archtest checks the module's import graph against dependency
// rules stated as data (Rules, in rules.go). The graph comes from
// `go list -deps -json` (Load); the test in this package runs the rules over
// the real tree, so `go test ./...` fails when a forbidden import is added,
// naming the import chain that brought it in.
//
// The same tests keep sizes in check: SizeLimits bounds the lines of
// non-test Go of cmd/gds, and DocLimits, UserGuides and the link checks
// (docs.go) bound the README and the docs, keep internal terms out of the
// user guides, make each guide open with an example and every relative link
// lead somewhere.
package archtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// Package is one node of the import graph.
type Package struct {
	ImportPath string
	Imports    []string // direct imports (non-test)
}

// Graph is the import graph of a module: its own packages and everything
// they import. Only the module's own packages are followed when a rule
// walks the graph: a standard or third-party package is judged by its
// path, not by what it imports in turn (fmt imports os; a dictionary
// package may offer a file loader the module never calls).
type Graph struct {
	Module   string              // module path, e.g. github.com/gds-cli/gds
	Packages map[string]*Package // by import path
}

// Rule forbids the packages matching From (and not ExceptFrom) to depend,
// directly or through other packages of the module, on a package
// matching Forbid and not Except.
//
// A pattern is an import path, or a path ending in "/..." which matches
// that path and every path below it (as the go command reads patterns).
// A leading "./" stands for the module path.
type Rule struct {
	Name       string // short, e.g. "search ↛ drive"
	Why        string // one line: what the rule protects
	From       []string
	ExceptFrom []string
	Forbid     []string
	Except     []string
}

// Violation is one forbidden dependency: Chain runs from the package the
// rule applies to, through the module's own packages, to the forbidden
// import (the shortest such chain).
type Violation struct {
	Rule  Rule
	Chain []string
}

// String names the rule, the offending package and the import chain.
func (v Violation) String() string {
	return fmt.Sprintf("%s: %s must not depend on %s (%s)\n\timport chain: %s",
		v.Rule.Name, v.Chain[0], v.Chain[len(v.Chain)-1], v.Rule.Why, strings.Join(v.Chain, " → "))
}

// Match reports whether path matches pattern ("x/..." matches x and below;
// "./" at the start stands for module).
func Match(module, pattern, path string) bool {
	pattern = expand(module, pattern)
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pattern
}

func expand(module, pattern string) string {
	if rest, ok := strings.CutPrefix(pattern, "./"); ok {
		return module + "/" + rest
	}
	return pattern
}

func matchAny(module string, patterns []string, path string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return Match(module, p, path) })
}

// local reports whether path is one of the module's own packages.
func (g Graph) local(path string) bool {
	return path == g.Module || strings.HasPrefix(path, g.Module+"/")
}

// Check returns every violation of rules in g, in a stable order: per
// rule, per package the rule applies to, per forbidden import.
func Check(g Graph, rules []Rule) []Violation {
	var out []Violation
	for _, r := range rules {
		for _, from := range g.sorted() {
			if !g.local(from) || !matchAny(g.Module, r.From, from) || matchAny(g.Module, r.ExceptFrom, from) {
				continue
			}
			out = append(out, g.walk(r, from)...)
		}
	}
	return out
}

// walk is a breadth-first search from start over the module's own
// packages; it reports each forbidden package reached, with the chain
// that reached it first, and does not walk through a forbidden package.
func (g Graph) walk(r Rule, start string) []Violation {
	forbidden := func(p string) bool { return matchAny(g.Module, r.Forbid, p) && !matchAny(g.Module, r.Except, p) }
	prev := map[string]string{start: ""}
	queue := []string{start}
	var out []Violation
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		pkg := g.Packages[cur]
		if pkg == nil {
			continue
		}
		imports := slices.Clone(pkg.Imports)
		slices.Sort(imports)
		for _, imp := range imports {
			if _, seen := prev[imp]; seen {
				continue
			}
			prev[imp] = cur
			switch {
			case forbidden(imp):
				out = append(out, Violation{Rule: r, Chain: chain(prev, imp)})
			case g.local(imp):
				queue = append(queue, imp)
			}
		}
	}
	return out
}

func chain(prev map[string]string, end string) []string {
	var c []string
	for p := end; p != ""; p = prev[p] {
		c = append(c, p)
	}
	slices.Reverse(c)
	return c
}

func (g Graph) sorted() []string {
	paths := make([]string, 0, len(g.Packages))
	for p := range g.Packages {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

// Unmatched returns the From patterns of rules that match none of the
// module's packages: a rule about a package that was renamed or moved
// would otherwise pass without checking anything.
func Unmatched(g Graph, rules []Rule) []string {
	var out []string
	for _, r := range rules {
		for _, pat := range r.From {
			found := false
			for p := range g.Packages {
				if g.local(p) && Match(g.Module, pat, p) {
					found = true
					break
				}
			}
			if !found {
				out = append(out, r.Name+": "+pat)
			}
		}
	}
	return out
}

// Load runs `go list -deps -json` on patterns in dir (inside the module)
// and returns the graph of the main module's packages and their
// dependencies. It needs the go command and the module's dependencies in
// the module cache; it never downloads (GOPROXY=off).
func Load(ctx context.Context, dir string, patterns ...string) (Graph, error) {
	args := append([]string{"list", "-deps", "-json=ImportPath,Imports,Module"}, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return Graph{}, fmt.Errorf("go list: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return parse(bytes.NewReader(out))
}

// parse reads the JSON stream of go list.
func parse(r io.Reader) (Graph, error) {
	g := Graph{Packages: map[string]*Package{}}
	dec := json.NewDecoder(r)
	for {
		var p struct {
			ImportPath string
			Imports    []string
			Module     *struct {
				Path string
				Main bool
			}
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return Graph{}, fmt.Errorf("read go list output: %w", err)
		}
		if p.Module != nil && p.Module.Main {
			g.Module = p.Module.Path
		}
		g.Packages[p.ImportPath] = &Package{ImportPath: p.ImportPath, Imports: p.Imports}
	}
	if g.Module == "" {
		return Graph{}, errors.New("go list: no package of the main module")
	}
	return g, nil
}

// Closure is every package from depends on, directly or through any
// package (standard, third-party or the module's), sorted; from itself is
// not included.
func (g Graph) Closure(from string) []string {
	seen := map[string]bool{from: true}
	queue := []string{from}
	var out []string
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		pkg := g.Packages[cur]
		if pkg == nil {
			continue
		}
		for _, imp := range pkg.Imports {
			if !seen[imp] {
				seen[imp] = true
				out = append(out, imp)
				queue = append(queue, imp)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Linked returns the packages of from's closure that match forbid.
func (g Graph) Linked(from string, forbid []string) []string {
	var out []string
	for _, p := range g.Closure(from) {
		if matchAny(g.Module, forbid, p) {
			out = append(out, p)
		}
	}
	return out
}
