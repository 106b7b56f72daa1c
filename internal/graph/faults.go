package graph

import (
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/gds-cli/gds/internal/textseg"
)

// Fault kinds of a text shown to a reader (an answer, a report, a DRIFT
// follow-up): what the model's context holds and a reader must never see.
const (
	FaultEscape   = "escape"   // a literal \n, \t or \" left from a table cell
	FaultID       = "id"       // an entity, relationship or chunk ID (e3926fa710e6a, f1#0)
	FaultDataRef  = "data_ref" // a [Data: …] reference or "Reports (3)"
	FaultRow      = "row"      // a table row or header (cells separated by |)
	FaultMarkup   = "markup"   // the context's section markers and headings (-----Reports-----, ## Title, Importance Score:)
	FaultScore    = "score"    // a score such as 0.3636
	FaultRepeated = "repeated" // a sentence said twice
	FaultFragment = "fragment" // a sentence cut inside (starts in lower case or ends in …)
	FaultEmpty    = "empty"    // nothing at all
)

// faultPatterns are the patterns of the Fault kinds found by a regular
// expression, compiled on first use (nothing at package initialisation).
var faultPatterns = sync.OnceValue(func() []faultPattern {
	return []faultPattern{
		{FaultEscape, regexp.MustCompile(`\\[ntr"]`)},
		{FaultID, regexp.MustCompile(`\b[erc]?[0-9a-f]{12,}\b|\b[A-Za-z0-9_-]{6,}#\d+\b`)},
		{FaultDataRef, regexp.MustCompile(`(?i)\[Data:|\b(Reports|Entities|Sources|Relationships)\s*\(\s*\d`)},
		{FaultRow, regexp.MustCompile(`(?m)^[^|\n]*\|[^|\n]*\|`)},
		{FaultMarkup, regexp.MustCompile(`(?m)-{4,}|^\s*#{1,6}\s|Importance Score:|\bAnalyst \d|\(query: `)},
		{FaultScore, regexp.MustCompile(`\b0\.\d{3,}\b`)},
	}
})

type faultPattern struct {
	kind string
	re   *regexp.Regexp
}

// Faults lists what a text shown to a reader must not hold (the Fault
// kinds), each kind once, in the order above: the literal escapes, IDs,
// [Data: …] references, table rows, markup and scores of a model's
// context; a sentence said twice; a sentence cut inside. Pure; the graph
// answers' tests and `gdsbench graph-answers` count them.
func Faults(text string) []string {
	if strings.TrimSpace(text) == "" {
		return []string{FaultEmpty}
	}
	var out []string
	for _, c := range faultPatterns() {
		for _, m := range c.re.FindAllString(text, -1) {
			if c.kind == FaultID && !hasDigitAndLetter(m) {
				continue // a long word of hex letters only ("effaced") is a word
			}
			out = append(out, c.kind)
			break
		}
	}
	if RepeatedSentences(text) > 0 {
		out = append(out, FaultRepeated)
	}
	for _, s := range textseg.Sentences(unescape(text)) {
		r := []rune(s)
		if unicode.IsLower(r[0]) || strings.HasSuffix(s, "…") {
			out = append(out, FaultFragment)
			break
		}
	}
	return out
}

// unescape turns literal \n left in a text into line breaks, so the
// sentences on either side are read apart.
func unescape(s string) string { return strings.ReplaceAll(s, `\n`, "\n") }

func hasDigitAndLetter(s string) bool {
	return strings.ContainsAny(s, "0123456789") && strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// RepeatedSentences is the number of sentences of text that repeat an
// earlier one (compared in lower case, letters and digits only).
func RepeatedSentences(text string) int {
	seen := map[string]bool{}
	n := 0
	for _, s := range textseg.Sentences(unescape(text)) {
		var b strings.Builder
		for _, r := range strings.ToLower(s) {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			}
		}
		k := b.String()
		if k == "" {
			continue
		}
		if seen[k] {
			n++
		}
		seen[k] = true
	}
	return n
}
