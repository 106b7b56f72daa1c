package extract

import (
	"regexp"
	"strings"
)

var (
	mdImage     = regexp.MustCompile(`!\[([^\]\n]*)\]\([^)\n]*\)`)
	mdImageRef  = regexp.MustCompile(`!\[([^\]\n]*)\]\[[^\]\n]*\]`)
	mdLink      = regexp.MustCompile(`\[([^\]\n]*)\]\([^)\n]*\)`)
	mdLinkRef   = regexp.MustCompile(`\[([^\]\n]+)\]\[[^\]\n]*\]`)
	mdRefDef    = regexp.MustCompile(`(?m)^ {0,3}\[[^\]\n]+\]:\s+\S+.*$`)
	mdAutolink  = regexp.MustCompile(`<(https?|mailto|ftp):[^>\s]*>`)
	mdHTMLTag   = regexp.MustCompile(`</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?>`)
	mdHTMLComm  = regexp.MustCompile(`(?s)<!--.*?-->`)
	mdEmptyLine = regexp.MustCompile(`(?m)^[ \t]*[-*+]?[ \t]*$`)
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
		t = mdHTMLComm.ReplaceAllString(t, "")
		for range 2 { // badges nest an image inside a link
			t = mdImage.ReplaceAllString(t, "$1")
			t = mdImageRef.ReplaceAllString(t, "$1")
			t = mdLink.ReplaceAllString(t, "$1")
			t = mdLinkRef.ReplaceAllString(t, "$1")
		}
		t = mdRefDef.ReplaceAllString(t, "")
		t = mdAutolink.ReplaceAllString(t, "")
		t = mdHTMLTag.ReplaceAllString(t, "")
		t = mdEmptyLine.ReplaceAllString(t, "")
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
