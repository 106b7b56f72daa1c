package archtest

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DocLimit bounds one document of the repository: how many lines it may
// have and how long one line may be (0: no bound).
type DocLimit struct {
	Path         string // relative to the repository root
	MaxLines     int
	MaxLineChars int // in characters, not bytes
	Why          string
}

// DocLimits keep the documents readable: a README a newcomer reads in
// minutes, an architecture page that points into the package doc comments,
// and benchmark and reliability pages that keep the current figure of each
// measurement (its history lives in git).
var DocLimits = []DocLimit{
	{Path: "README.md", MaxLines: 250, MaxLineChars: 300, Why: "a newcomer reads it in five minutes; details go to the guides in docs/"},
	{Path: "docs/ARCHITECTURE.md", MaxLines: 300, Why: "details go into the package doc comments, next to the code"},
	{Path: "docs/BENCHMARKS.md", MaxLines: 500, Why: "the current figure of each benchmark with its command, machine and date; history lives in git"},
	{Path: "docs/RELIABILITY.md", MaxLines: 500, Why: "the current figure of each test with its command, machine and date; history lives in git"},
}

// UserGuides are the guides for users under docs/. Each opens with a working
// example (a code block before its first section), and like the README they
// carry no internal terms (InternalTerms).
var UserGuides = []string{
	"docs/install.md", "docs/google-drive.md", "docs/search.md", "docs/alfred.md", "docs/raycast.md",
	"docs/ask.md", "docs/serve.md", "docs/agentic.md", "docs/graph.md", "docs/federate.md", "docs/mcp.md",
	"docs/schedule.md", "docs/configuration.md", "docs/troubleshooting.md", "docs/development.md",
	"docs/ocr.md", "docs/estimate.md",
}

// internalTerms are words users cannot decode: the project's requirement,
// seed and issue numbers, worktree names, and benchmark shorthand without
// its explanation (docs/BENCHMARKS.md explains R@1 and friends).
var internalTerms = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bseeds?\s*(§|\d{3}\b)`),
	regexp.MustCompile(`(?i)\bissue\s+#?\d+`),
	regexp.MustCompile(`\bFR-[A-Z]+-\d+`),
	regexp.MustCompile(`\bNFR-[A-Z]+-\d+`),
	regexp.MustCompile(`\b[RP]@\d+`),
	regexp.MustCompile(`\bMRR@\d+`),
	regexp.MustCompile(`\bwt-[a-z]+\b`),
}

// InternalTerms returns the internal terms found in text, outside code
// blocks, with their line numbers.
func InternalTerms(text string) []string {
	var found []string
	forProse(text, func(n int, line string) {
		for _, re := range internalTerms {
			for _, m := range re.FindAllString(line, -1) {
				found = append(found, fmt.Sprintf("line %d: %q", n, m))
			}
		}
	})
	return found
}

// CheckLimit returns what in text breaks l.
func CheckLimit(text string, l DocLimit) []string {
	var problems []string
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if l.MaxLines > 0 && len(lines) > l.MaxLines {
		problems = append(problems, fmt.Sprintf("%s has %d lines, more than %d: %s", l.Path, len(lines), l.MaxLines, l.Why))
	}
	if l.MaxLineChars > 0 {
		for i, line := range lines {
			if n := utf8.RuneCountInString(line); n > l.MaxLineChars {
				problems = append(problems, fmt.Sprintf("%s:%d is %d characters long, more than %d", l.Path, i+1, n, l.MaxLineChars))
			}
		}
	}
	return problems
}

// OpensWithExample reports whether a fenced code block comes before the
// first section heading (##) of text: the guide shows what to type before
// it explains.
func OpensWithExample(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			return true
		case strings.HasPrefix(line, "## "):
			return false
		}
	}
	return false
}

// Link is a relative link of a Markdown document.
type Link struct {
	Line   int
	File   string // the target path as written (may be empty: same document)
	Anchor string // after #, may be empty
}

var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// RelativeLinks returns the links of text that point into the repository
// (not http, https or mailto), outside code blocks and code spans.
func RelativeLinks(text string) []Link {
	var links []Link
	forProse(text, func(n int, line string) {
		for _, m := range linkRE.FindAllStringSubmatch(stripCodeSpans(line), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			links = append(links, Link{Line: n, File: file, Anchor: anchor})
		}
	})
	return links
}

// Anchors returns the anchors GitHub gives the headings of text: lower
// case, punctuation dropped, spaces as hyphens, a repeated heading numbered.
func Anchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	forProse(text, func(_ int, line string) {
		if !strings.HasPrefix(line, "#") {
			return
		}
		title := strings.TrimLeft(line, "#")
		if title == line || !strings.HasPrefix(title, " ") {
			return
		}
		slug := Slug(strings.TrimSpace(title))
		if k := seen[slug]; k > 0 {
			anchors[fmt.Sprintf("%s-%d", slug, k)] = true
		} else {
			anchors[slug] = true
		}
		seen[slug]++
	})
	return anchors
}

// Slug is GitHub's anchor for a heading.
func Slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// CheckLinks returns the relative links of the document at docPath (its
// text given) whose file does not exist under root, or whose anchor is not
// a heading of the Markdown file it names.
func CheckLinks(root, docPath, text string) []string {
	var problems []string
	for _, l := range RelativeLinks(text) {
		target := docPath
		if l.File != "" {
			target = path.Join(path.Dir(docPath), l.File)
		}
		b, err := os.ReadFile(path.Join(root, target))
		if err != nil {
			if st, serr := os.Stat(path.Join(root, target)); serr == nil && st.IsDir() && l.Anchor == "" {
				continue
			}
			problems = append(problems, fmt.Sprintf("%s:%d links to %s, which does not exist", docPath, l.Line, target))
			continue
		}
		if l.Anchor != "" && strings.HasSuffix(target, ".md") && !Anchors(string(b))[l.Anchor] {
			problems = append(problems, fmt.Sprintf("%s:%d links to %s#%s, which has no such heading", docPath, l.Line, target, l.Anchor))
		}
	}
	return problems
}

// forProse calls f with every line of text outside fenced code blocks.
func forProse(text string, f func(n int, line string)) {
	inCode := false
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if !inCode {
			f(i+1, line)
		}
	}
}

// stripCodeSpans removes `code spans` from line, so that a link written as
// code is not taken for one.
func stripCodeSpans(line string) string {
	var b strings.Builder
	in := false
	for _, r := range line {
		if r == '`' {
			in = !in
			continue
		}
		if !in {
			b.WriteRune(r)
		}
	}
	return b.String()
}
