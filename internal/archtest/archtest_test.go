package archtest

import (
	"context"
	"slices"
	"strings"
	"testing"
)

const mod = "example.com/m"

// graph builds a synthetic graph from "pkg: imp imp ..." lines; "./" stands
// for the module path.
func graph(lines ...string) Graph {
	g := Graph{Module: mod, Packages: map[string]*Package{}}
	for _, l := range lines {
		from, imps, _ := strings.Cut(l, ":")
		p := &Package{ImportPath: expand(mod, strings.TrimSpace(from))}
		for _, imp := range strings.Fields(imps) {
			p.Imports = append(p.Imports, expand(mod, imp))
		}
		g.Packages[p.ImportPath] = p
	}
	return g
}

// testRules mirror the real table's shapes on the synthetic module.
var testRules = []Rule{
	{Name: "search ↛ drive", Why: "loop", From: []string{"./search"}, Forbid: []string{"./drive/..."}},
	{Name: "drive ↛ crawl", Why: "client", From: []string{"./drive/..."}, Forbid: []string{"./crawl/..."}},
	{Name: "pure", Why: "no I/O", From: []string{"./search", "./ai", "./tok"},
		Forbid: []string{"net/http/...", "os", "os/exec", "github.com/jackc/...", "./..."},
		Except: []string{"./search", "./ai", "./tok"}},
}

func chains(vs []Violation) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Rule.Name+": "+strings.Join(v.Chain, " > "))
	}
	return out
}

func TestCheck(t *testing.T) {
	m := mod + "/"
	tests := []struct {
		name  string
		graph Graph
		want  []string
	}{
		{"clean", graph(
			"./search: ./ai ./tok fmt context",
			"./ai: ./tok encoding/json",
			"./tok: strings golang.org/x/text/unicode/norm",
			"./drive: ./i18n net/http google.golang.org/api/drive/v3",
			"./driveemu: ./crawl", // not under ./drive/...
			"./crawl/drivesource: ./crawl ./drive",
			"./crawl: ./ai os",
			"./searchx: ./drive",                 // not ./search
			"fmt: os",                            // the standard library is not followed
			"golang.org/x/text/unicode/norm: os", // nor are third-party packages
		), nil},
		{"search imports drive", graph(
			"./search: ./ai ./drive",
			"./drive: net/http",
		), []string{
			"search ↛ drive: " + m + "search > " + m + "drive",
			"pure: " + m + "search > " + m + "drive",
		}},
		{"drive imports a crawl subpackage", graph(
			"./drive/sub: ./crawl/x",
			"./crawl/x: ./crawl",
		), []string{"drive ↛ crawl: " + m + "drive/sub > " + m + "crawl/x"}},
		{"pure package reaches I/O through another pure one", graph(
			"./search: ./ai",
			"./ai: ./tok context",
			"./tok: os/exec github.com/jackc/pgx/v5",
		), []string{
			"pure: " + m + "ai > " + m + "tok > github.com/jackc/pgx/v5",
			"pure: " + m + "ai > " + m + "tok > os/exec",
			"pure: " + m + "search > " + m + "ai > " + m + "tok > github.com/jackc/pgx/v5",
			"pure: " + m + "search > " + m + "ai > " + m + "tok > os/exec",
			"pure: " + m + "tok > github.com/jackc/pgx/v5",
			"pure: " + m + "tok > os/exec",
		}},
		{"shortest chain, reported once", graph(
			"./search: ./ai ./tok",
			"./ai: ./tok",
			"./tok: ./x",
			"./x: ./drive/y ./z",
			"./z: ./drive/y",
		), []string{
			"search ↛ drive: " + m + "search > " + m + "tok > " + m + "x > " + m + "drive/y",
			// ./x is not pure: it is reported, and not walked through.
			"pure: " + m + "ai > " + m + "tok > " + m + "x",
			"pure: " + m + "search > " + m + "tok > " + m + "x",
			"pure: " + m + "tok > " + m + "x",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := chains(Check(tt.graph, testRules))
			if !slices.Equal(got, tt.want) {
				t.Errorf("violations\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestViolationMessageNamesTheChain(t *testing.T) {
	vs := Check(graph("./search: ./x", "./x: ./drive"), testRules[:1])
	if len(vs) != 1 {
		t.Fatalf("violations %v, want 1", chains(vs))
	}
	msg := vs[0].String()
	for _, want := range []string{"search ↛ drive", mod + "/search must not depend on " + mod + "/drive",
		mod + "/search → " + mod + "/x → " + mod + "/drive", "(loop)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, tt := range []struct {
		pattern, path string
		want          bool
	}{
		{"net/http/...", "net/http", true},
		{"net/http/...", "net/http/httptest", true},
		{"net/http/...", "net/httpx", false},
		{"net", "net/url", false},
		{"./internal/drive/...", mod + "/internal/driveemu", false},
		{"./internal/drive/...", mod + "/internal/drive/drivetest", true},
		{"./...", mod, true},
		{"./...", mod + "x/y", false},
		{"os", "os/exec", false},
	} {
		if got := Match(mod, tt.pattern, tt.path); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

func TestUnmatchedNamesRulesAboutMissingPackages(t *testing.T) {
	got := Unmatched(graph("./search: ./ai", "./ai:", "./drive/x:", "./tok:"), testRules)
	if len(got) != 0 {
		t.Errorf("unmatched %v, want none", got)
	}
	got = Unmatched(graph("./searchloop: ./ai", "./ai:", "./drive:", "./tok:"), testRules)
	if want := []string{"search ↛ drive: ./search", "pure: ./search"}; !slices.Equal(got, want) {
		t.Errorf("unmatched %v, want %v", got, want)
	}
}

func TestParse(t *testing.T) {
	g, err := parse(strings.NewReader(`{"ImportPath":"fmt","Imports":["os"]}
{"ImportPath":"example.com/m/a","Imports":["fmt"],"Module":{"Path":"example.com/m","Main":true}}
{"ImportPath":"github.com/x/y","Module":{"Path":"github.com/x/y"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if g.Module != mod || len(g.Packages) != 3 || !slices.Equal(g.Packages[mod+"/a"].Imports, []string{"fmt"}) {
		t.Errorf("graph %+v", g)
	}
	if _, err := parse(strings.NewReader(`{"ImportPath":"fmt"}`)); err == nil {
		t.Error("a graph without the main module parsed")
	}
}

// loadTree is the import graph of this module (go list, no network).
func loadTree(t *testing.T) Graph {
	t.Helper()
	g, err := Load(context.Background(), "../..", "./...")
	if err != nil {
		t.Fatal(err)
	}
	if g.Module != "github.com/gds-cli/gds" {
		t.Fatalf("module %q", g.Module)
	}
	return g
}

// TestTreeFollowsTheRules is the check CI relies on: the real import graph
// against the real rules.
func TestTreeFollowsTheRules(t *testing.T) {
	g := loadTree(t)
	if u := Unmatched(g, Rules); len(u) > 0 {
		t.Errorf("rules about packages that do not exist (renamed? update rules.go and docs/ARCHITECTURE.md): %v", u)
	}
	for _, v := range Check(g, Rules) {
		t.Error(v)
	}
}

// TestTreeRulesCatchForbiddenImports adds the imports the rules exist to
// prevent to the real graph (in memory) and expects each to be reported.
func TestTreeRulesCatchForbiddenImports(t *testing.T) {
	const m = "github.com/gds-cli/gds/internal/"
	tree := loadTree(t)
	for _, tt := range []struct{ from, imp, rule string }{
		{m + "search", m + "drive", "search ↛ drive"},
		{m + "search", m + "store/sqlite", "search ↛ drive"},
		{m + "drive", m + "crawl", "drive ↛ crawl"},
		{m + "tokenize", "net/http", "pure packages do no I/O"},
		{m + "store", "database/sql", "pure packages do no I/O"},
		{m + "ai/offline", "os", "pure packages do no I/O"},
		{m + "i18n", m + "config", "pure packages do no I/O"},
		{m + "ai", "github.com/jackc/pgx/v5", "pure packages do no I/O"},
		{m + "server", "github.com/chromedp/chromedp", "the browser driver stays in tests"},
		{m + "launcher", m + "ai/offline", "the front binary links only the keystroke path"},
		{m + "launcher", m + "app", "the front binary links only the keystroke path"},
		{m + "launcher", "github.com/openai/openai-go/v3", "the front binary links only the keystroke path"},
		{m + "launcher", "github.com/danielgtaylor/huma/v2", "the front binary links only the keystroke path"},
		{m + "launcher", "encoding/gob", "the front binary links only the keystroke path"},
		{m + "render/scriptfilter", m + "render", "the front binary links only the keystroke path"},
		{m + "launcher", m + "search", "the front binary links only the keystroke path"},
		{m + "launcher", m + "store/sqlite", "the front binary links only the keystroke path"},
		{m + "launcher", m + "keystroke", "the front binary links only the keystroke path"},
		{"github.com/gds-cli/gds/cmd/gds-front", "modernc.org/sqlite", "the front binary links only the keystroke path"},
		{"github.com/gds-cli/gds/cmd/gds-front", m + "crawl", "the front binary links only the keystroke path"},
		{"github.com/gds-cli/gds/cmd/gds-front", "github.com/ledongthuc/pdf", "the front binary links only the keystroke path"},
	} {
		g := Graph{Module: tree.Module, Packages: map[string]*Package{}}
		for path, p := range tree.Packages {
			g.Packages[path] = &Package{ImportPath: p.ImportPath, Imports: slices.Clone(p.Imports)}
		}
		p := g.Packages[tt.from]
		if p == nil {
			t.Fatalf("%s is not in the graph", tt.from)
		}
		p.Imports = append(p.Imports, tt.imp)
		found := false
		for _, v := range Check(g, Rules) {
			if v.Rule.Name == tt.rule && v.Chain[0] == tt.from && v.Chain[len(v.Chain)-1] == tt.imp {
				found = true
			}
		}
		if !found {
			t.Errorf("%s importing %s is not reported by %q", tt.from, tt.imp, tt.rule)
		}
	}
}

// TestFrontBinaryLinksNoHeavyPackage checks the whole dependency set of the
// front binary — through third-party packages too, which the rules do not
// walk — against FrontForbid, and that the check fails when one of them
// links a forbidden package.
func TestFrontBinaryLinksNoHeavyPackage(t *testing.T) {
	const front = "github.com/gds-cli/gds/cmd/gds-front"
	tree := loadTree(t)
	if bad := tree.Linked(front, FrontForbid); len(bad) > 0 {
		t.Errorf("cmd/gds-front links %v; keep the front binary to internal/launcher's dependencies (rules.go FrontForbid)", bad)
	}
	closure := tree.Closure(front)
	if !slices.Contains(closure, "golang.org/x/term") || !slices.Contains(closure, "github.com/gds-cli/gds/internal/launcher") {
		t.Fatalf("the closure of %s misses the launcher or the terminal check: %v", front, closure)
	}
	// A third-party package the front links that starts importing gob (as
	// the kagome dictionary does) is caught although no rule walks it.
	g := Graph{Module: tree.Module, Packages: map[string]*Package{}}
	for path, p := range tree.Packages {
		g.Packages[path] = &Package{ImportPath: p.ImportPath, Imports: slices.Clone(p.Imports)}
	}
	g.Packages["golang.org/x/term"].Imports = append(g.Packages["golang.org/x/term"].Imports, "encoding/gob")
	if bad := g.Linked(front, FrontForbid); !slices.Equal(bad, []string{"encoding/gob"}) {
		t.Errorf("a gob import under golang.org/x/term: Linked = %v, want [encoding/gob]", bad)
	}
	// And the full CLI does link them: the list names real packages.
	if bad := tree.Linked("github.com/gds-cli/gds/cmd/gds", FrontForbid); len(bad) < 10 {
		t.Errorf("cmd/gds links only %v of FrontForbid; is the list stale?", bad)
	}
}
