package app

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/gds-cli/gds/internal/textseg"
	"github.com/gds-cli/gds/internal/tokenize"
)

// reCiteRun matches a run of citations after a claim: "[1]", "[2][4]",
// "[1, 3]" (compiled on first use, as reCiteNum).
var reCiteRun = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:\s*\[\d{1,3}(?:\s*,\s*\d{1,3})*\])+`) })

var reCiteNum = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d{1,3}`) })

// claims splits an answer into the text before each run of citations
// and maps every cited ref to the claims that cite it, in order. Text
// after the last citation cites nothing. Pure.
func claims(answer string) map[int][]string {
	out := map[int][]string{}
	last := 0
	for _, loc := range reCiteRun().FindAllStringIndex(answer, -1) {
		claim := strings.TrimSpace(answer[last:loc[0]])
		last = loc[1]
		seen := map[int]bool{}
		for _, m := range reCiteNum().FindAllString(answer[loc[0]:loc[1]], -1) {
			n, _ := strconv.Atoi(m)
			if !seen[n] {
				seen[n] = true
				out[n] = append(out[n], claim)
			}
		}
	}
	return out
}

// splitCited divides the sources into those the answer cites, in their
// order, and reports whether it cites any. An answer that cites no source
// says the passages do not answer (the offline provider's, or a model's
// that found nothing): its sources are then only the closest passages.
func splitCited(answer string, srcs []Source) (cited []Source, byRef map[int][]string) {
	byRef = claims(answer)
	for _, s := range srcs {
		if len(byRef[s.Ref]) > 0 {
			cited = append(cited, s)
		}
	}
	return cited, byRef
}

// quoteSentences is how many sentences a quote holds at most: the cited
// sentence and one on each side.
const quoteSentences = 3

// Quote is what a reader checks a citation against: the sentence of a
// passage that best matches the claims citing it, with the sentence before
// and after it, joined on one line. It is "" when no sentence shares a word
// with the claims. Pure.
func Quote(passage string, claims []string) string {
	sents := textseg.Sentences(passage)
	if len(sents) == 0 || len(claims) == 0 {
		return ""
	}
	want := map[string]bool{}
	for _, c := range claims {
		for _, t := range tokenize.Tokens(c) {
			want[t] = true
		}
	}
	best, bestScore := -1, 0.0
	for i, s := range sents {
		toks := tokenize.Tokens(s)
		if len(toks) == 0 {
			continue
		}
		seen := map[string]bool{}
		hit := 0
		for _, t := range toks {
			if want[t] && !seen[t] {
				seen[t] = true
				hit++
			}
		}
		// The share of the claims' words the sentence holds, and of the
		// sentence's words the claims hold: an exact quote scores 2.
		score := float64(hit)/float64(len(want)) + float64(hit)/float64(len(distinct(toks)))
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return ""
	}
	from := max(0, best-1)
	to := min(len(sents), from+quoteSentences)
	if best == 0 {
		to = min(len(sents), 2)
	}
	return joinSentences(sents[from:to])
}

// joinSentences joins sentences with a space, without one between two
// Japanese sentences.
func joinSentences(sents []string) string {
	var b strings.Builder
	for i, s := range sents {
		if i > 0 {
			prev := []rune(sents[i-1])
			if last := prev[len(prev)-1]; !tokenize.IsCJK(last) && !strings.ContainsRune("。！？」』）", last) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(s)
	}
	return b.String()
}

func distinct(toks []string) map[string]bool {
	m := make(map[string]bool, len(toks))
	for _, t := range toks {
		m[t] = true
	}
	return m
}
