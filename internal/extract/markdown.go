package extract

import (
	"regexp"
	"strings"
	"sync"
)

// The Markdown patterns are compiled on first use, not before main.
var (
	mdImage     = lazyRegexp(`!\[([^\]\n]*)\]\([^)\n]*\)`)
	mdImageRef  = lazyRegexp(`!\[([^\]\n]*)\]\[[^\]\n]*\]`)
	mdLink      = lazyRegexp(`\[([^\]\n]*)\]\([^)\n]*\)`)
	mdLinkRef   = lazyRegexp(`\[([^\]\n]+)\]\[[^\]\n]*\]`)
	mdRefDef    = lazyRegexp(`(?m)^ {0,3}\[[^\]\n]+\]:\s+\S+.*$`)
	mdAutolink  = lazyRegexp(`<(https?|mailto|ftp):[^>\s]*>`)
	mdHTMLTag   = lazyRegexp(`</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?>`)
	mdHTMLComm  = lazyRegexp(`(?s)<!--.*?-->`)
	mdEmptyLine = lazyRegexp(`(?m)^[ \t]*[-*+]?[ \t]*$`)
)

// markdownText keeps the text of a Markdown document and drops the markup
// noise that would pollute search: link URLs (the link text stays), image
// markup (the alt text stays), reference definitions, autolinks, HTML tags
// and comments. Headings, lists and code blocks keep their text; code
// fences are left as is (they hold text worth finding).
func markdownText(s string) string {
	// Outside fenced code blocks only: code may legitimately contain
	// brackets and tags.
	var b strings.Builder
	inFence := false
	fence := ""
	var block []string
	flush := func() {
		if len(block) == 0 {
			return
		}
		t := strings.Join(block, "\n")
		t = mdHTMLComm().ReplaceAllString(t, "")
		for range 2 { // badges nest an image inside a link
			t = mdImage().ReplaceAllString(t, "$1")
			t = mdImageRef().ReplaceAllString(t, "$1")
			t = mdLink().ReplaceAllString(t, "$1")
			t = mdLinkRef().ReplaceAllString(t, "$1")
		}
		t = mdRefDef().ReplaceAllString(t, "")
		t = mdAutolink().ReplaceAllString(t, "")
		t = mdHTMLTag().ReplaceAllString(t, "")
		t = mdEmptyLine().ReplaceAllString(t, "")
		b.WriteString(t)
		b.WriteByte('\n')
		block = block[:0]
	}
	for _, line := range strings.Split(s, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if !inFence && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			flush()
			inFence, fence = true, trimmed[:3]
			continue
		}
		if inFence {
			if strings.HasPrefix(trimmed, fence) {
				inFence = false
				continue
			}
			b.WriteString(line)
			b.WriteByte('\n')
			continue
		}
		block = append(block, line)
	}
	flush()
	return cleanLines(b.String())
}

// lazyRegexp returns a function that compiles expr on its first call and
// returns the same *regexp.Regexp afterwards (an invalid expr panics then, as
// regexp.MustCompile does; the tests call each one). Package-level
// MustCompile would run in every gds process before main.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
