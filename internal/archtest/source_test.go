package archtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSourceRuleUses(t *testing.T) {
	const module = "example.com/m"
	r := SourceRule{
		Strings: []string{"NO_COLOR", "LANG"},
		Calls:   []string{"golang.org/x/term.IsTerminal", "github.com/mattn/go-isatty.*", "./internal/i18n.Detect"},
		Owners:  []string{"./internal/iostreams"},
		Allow:   map[string]string{"cmd/tool/main.go": "a reason"},
	}
	for _, tc := range []struct {
		name, file, src string
		want            []string
	}{
		{"a literal", "internal/render/x.go", `package render
import "os"
var _ = os.Getenv("NO_COLOR")`, []string{`internal/render/x.go:3: "NO_COLOR"`}},
		{"a raw literal in a list", "internal/render/x.go", "package render\nvar names = []string{`LANG`}", []string{"internal/render/x.go:2: `LANG`"}},
		{"a comment or a longer string is not a use", "internal/render/x.go", `package render
// NO_COLOR is read elsewhere
var s = "LANGUAGE NO_COLOR"`, nil},
		{"a call", "internal/app/x.go", `package app
import "golang.org/x/term"
var _ = term.IsTerminal(1)
var _ = term.MakeRaw`, []string{"internal/app/x.go:3: term.IsTerminal"}},
		{"a renamed import", "internal/app/x.go", `package app
import t "golang.org/x/term"
var _ = t.IsTerminal(1)`, []string{"internal/app/x.go:3: t.IsTerminal"}},
		{"every function of a package", "internal/app/x.go", `package app
import "github.com/mattn/go-isatty"
var _ = isatty.IsCygwinTerminal(1)`, []string{"internal/app/x.go:3: isatty.IsCygwinTerminal"}},
		{"the module's own package", "internal/app/x.go", `package app
import "example.com/m/internal/i18n"
var _ = i18n.Detect(nil)
var _ = i18n.T`, []string{"internal/app/x.go:3: i18n.Detect"}},
		{"an owner", "internal/iostreams/x.go", `package iostreams
var _ = "NO_COLOR"`, nil},
		{"an allowed file", "cmd/tool/main.go", `package main
var _ = "LANG"`, nil},
		{"a test", "internal/render/x_test.go", `package render
var _ = "LANG"`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Uses(module, tc.file, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Uses = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTreeFollowsTheSourceRules runs SourceRules over the repository's Go
// files, and checks that each allowance still names a file that needs it.
func TestTreeFollowsTheSourceRules(t *testing.T) {
	const module = "github.com/gds-cli/gds"
	for _, r := range SourceRules {
		needed := map[string]bool{}
		bare := r
		bare.Allow = nil
		err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != repoRoot) {
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
			rel = filepath.ToSlash(rel)
			found, err := bare.Uses(module, rel, src)
			if err != nil {
				return err
			}
			if r.Allow[rel] != "" {
				needed[rel] = len(found) > 0
				return nil
			}
			for _, f := range found {
				t.Errorf("%s: %s (%s)", r.Name, f, r.Why)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for file := range r.Allow {
			if !needed[file] {
				t.Errorf("%s: %s is allowed but does not need to be (gone, or it no longer reads them): remove it from Allow", r.Name, file)
			}
		}
	}
}
