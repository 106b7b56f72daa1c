package archtest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const repoRoot = "../.."

func readDoc(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, p))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The real documents stay within their limits.
func TestDocsWithinLimits(t *testing.T) {
	for _, l := range DocLimits {
		text := readDoc(t, l.Path)
		for _, p := range CheckLimit(text, l) {
			t.Error(p)
		}
		t.Logf("%s: %d of %d lines", l.Path, strings.Count(text, "\n"), l.MaxLines)
	}
}

// The README and the user guides speak to users: no internal terms, and
// every guide opens with an example.
func TestUserDocsSpeakToUsers(t *testing.T) {
	for _, p := range append([]string{"README.md", "docs/JSON.md"}, UserGuides...) {
		text := readDoc(t, p)
		for _, term := range InternalTerms(text) {
			t.Errorf("%s: internal term %s", p, term)
		}
	}
	for _, p := range UserGuides {
		if !OpensWithExample(readDoc(t, p)) {
			t.Errorf("%s: no example (a code block) before its first section", p)
		}
	}
}

// Every guide is listed in UserGuides and linked from the README or another
// guide, and every relative link of every document leads somewhere.
func TestDocsLinksResolve(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	all := []string{"README.md", "alfred/README.md"}
	for _, d := range docs {
		all = append(all, "docs/"+filepath.Base(d))
	}
	linked := map[string]bool{}
	for _, p := range all {
		text := readDoc(t, p)
		for _, problem := range CheckLinks(repoRoot, p, text) {
			t.Error(problem)
		}
		for _, l := range RelativeLinks(text) {
			if l.File != "" {
				linked[filepath.ToSlash(filepath.Join(filepath.Dir(p), l.File))] = true
			}
		}
	}
	for _, p := range all[2:] {
		if !linked[p] {
			t.Errorf("%s is linked from no document", p)
		}
		known := slices.Contains(UserGuides, p) || slices.ContainsFunc(DocLimits, func(l DocLimit) bool { return l.Path == p })
		if !known && !slices.Contains([]string{"docs/ERRORS.md", "docs/JSON.md"}, p) {
			t.Errorf("%s is neither a user guide (UserGuides) nor a bounded document (DocLimits)", p)
		}
	}
}

func TestCheckLimit(t *testing.T) {
	l := DocLimit{Path: "x.md", MaxLines: 3, MaxLineChars: 5}
	for _, tc := range []struct {
		text string
		want int
	}{
		{"a\nb\nc\n", 0},
		{"a\nb\nc", 0},
		{"a\nb\nc\nd\n", 1},
		{"abcde\n", 0},
		{"abcdef\n", 1},
		{"日本語日本\n", 0}, // characters, not bytes
		{"日本語日本語\n", 1},
		{"abcdef\nabcdef\nx\ny\n", 3},
	} {
		if got := CheckLimit(tc.text, l); len(got) != tc.want {
			t.Errorf("CheckLimit(%q) = %v, want %d problems", tc.text, got, tc.want)
		}
	}
}

func TestInternalTerms(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"the hybrid loop of seed §6", 1},
		{"Seed 002 builds a graph", 1},
		{"issue 15's loss classes", 1},
		{"see Issue #28", 1},
		{"FR-QG-03 says so; NFR-RL-01 too", 2},
		{"R@1 0.93 and MRR@10", 2},
		{"measured on wt-quality", 1},
		{"a fixed seed, issues are welcome, 15 issues", 0},
		{"```\ngdsbench loop --seed 1\nR@1\n```\n", 0}, // code blocks are commands, not prose
		{"recall at 1 (the share first)", 0},
	} {
		if got := InternalTerms(tc.text); len(got) != tc.want {
			t.Errorf("InternalTerms(%q) = %v, want %d", tc.text, got, tc.want)
		}
	}
}

func TestOpensWithExample(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"# T\n\n```sh\ngds search x\n```\n\n## More\n", true},
		{"# T\n\nSome words.\n\n## Usage\n\n```sh\ngds\n```\n", false},
		{"# T\n\nno example at all\n", false},
	} {
		if got := OpensWithExample(tc.text); got != tc.want {
			t.Errorf("OpensWithExample(%q) = %v", tc.text, got)
		}
	}
}

func TestSlugAndAnchors(t *testing.T) {
	for title, want := range map[string]string{
		"gds serve under load":                        "gds-serve-under-load",
		"When a service is slow or down":              "when-a-service-is-slow-or-down",
		"HTTP API and web UI: `gds serve`":            "http-api-and-web-ui-gds-serve",
		"Search Drive, Slack and GitHub at once":      "search-drive-slack-and-github-at-once",
		"Try the Drive path without a Google account": "try-the-drive-path-without-a-google-account",
		"日本語": "日本語",
	} {
		if got := Slug(title); got != want {
			t.Errorf("Slug(%q) = %q, want %q", title, got, want)
		}
	}
	a := Anchors("# Top\n## Usage\n```\n## not a heading\n```\n## Usage\n#hashtag\n")
	for _, want := range []string{"top", "usage", "usage-1"} {
		if !a[want] {
			t.Errorf("Anchors: no %q in %v", want, a)
		}
	}
	if a["not-a-heading"] || a["hashtag"] {
		t.Errorf("Anchors took a code line or a hashtag for a heading: %v", a)
	}
}

func TestCheckLinks(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	must(os.WriteFile(filepath.Join(root, "docs", "guide.md"), []byte("# Guide\n## Set up\n"), 0o600))
	text := "[ok](docs/guide.md) [anchor](docs/guide.md#set-up) [self](#top)\n" +
		"[gone](docs/missing.md) [bad anchor](docs/guide.md#nothing) [web](https://example.com/x.md)\n" +
		"`[code](nowhere.md)`\n```\n[block](nowhere.md)\n```\n# Top\n"
	must(os.WriteFile(filepath.Join(root, "README.md"), []byte(text), 0o600))
	got := CheckLinks(root, "README.md", text)
	if len(got) != 2 || !strings.Contains(got[0], "docs/missing.md") || !strings.Contains(got[1], "#nothing") {
		t.Errorf("CheckLinks = %q, want the missing file and the missing anchor", got)
	}
}
