package driveemu

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/gds-cli/gds/internal/extract"
)

// runeClass groups runes for tokenisation. Drive does not document how it
// tokenises CJK text, so the emulator picks this rule: a token is a maximal
// run of runes of one class. Latin letters, digits and other alphabets form
// words; kanji, hiragana, katakana and hangul each form their own runs.
// Consequently 'tokyo' finds "Tokyo-2026" but '東京' does NOT find "東京都",
// and 'データ' finds "データ分析" (katakana run, then a kanji run).
type class int

const (
	classNone class = iota
	classWord
	classHan
	classHiragana
	classKatakana
	classHangul
)

func runeClass(r rune) class {
	if r < utf8.RuneSelf {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return classWord
		}
		return classNone
	}
	switch {
	case unicode.Is(unicode.Han, r) || r == '々' || r == '〆':
		return classHan
	case unicode.Is(unicode.Hiragana, r):
		return classHiragana
	case unicode.Is(unicode.Katakana, r) || r == 'ー':
		return classKatakana
	case unicode.Is(unicode.Hangul, r):
		return classHangul
	case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
		return classWord
	}
	return classNone
}

// normalize folds case and width (NFKC, lower case) so that matching is
// case-insensitive and full-width Latin matches ASCII.
func normalize(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, " ")
	}
	if !norm.NFKC.IsNormalString(s) {
		s = norm.NFKC.String(s)
	}
	return strings.ToLower(s)
}

// Tokens splits text into the tokens fullText contains matches against:
// NFKC-normalised, lower-cased maximal runs of one rune class (see class).
func Tokens(text string) []string {
	var out []string
	s := []rune(normalize(text))
	for i := 0; i < len(s); {
		c := runeClass(s[i])
		if c == classNone {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && runeClass(s[j]) == c {
			j++
		}
		out = append(out, string(s[i:j]))
		i = j
	}
	return out
}

// fullTextQuery is a parsed fullText value: every word and every phrase must
// be found.
type fullTextQuery struct {
	words   []string
	phrases [][]string
}

// parseFullText splits a fullText value into bare words (whole tokens, any
// order) and double-quoted phrases (consecutive tokens).
func parseFullText(v string) (fullTextQuery, error) {
	var q fullTextQuery
	for v != "" {
		i := strings.IndexByte(v, '"')
		if i < 0 {
			q.words = append(q.words, Tokens(v)...)
			break
		}
		q.words = append(q.words, Tokens(v[:i])...)
		rest := v[i+1:]
		j := strings.IndexByte(rest, '"')
		if j < 0 {
			return q, fmt.Errorf("unterminated phrase in fullText value")
		}
		if ph := Tokens(rest[:j]); len(ph) > 0 {
			q.phrases = append(q.phrases, ph)
		}
		v = rest[j+1:]
	}
	return q, nil
}

// docTokens is a document's token sequence and token set.
type docTokens struct {
	seq []string
	set map[string]struct{}
}

func newDocTokens(text string) *docTokens {
	seq := Tokens(text)
	set := make(map[string]struct{}, len(seq))
	for _, t := range seq {
		set[t] = struct{}{}
	}
	return &docTokens{seq: seq, set: set}
}

// match reports whether the document contains every word and phrase. A
// query with no tokens at all matches nothing.
func (q fullTextQuery) match(doc *docTokens) bool {
	if len(q.words) == 0 && len(q.phrases) == 0 {
		return false
	}
	for _, w := range q.words {
		if _, ok := doc.set[w]; !ok {
			return false
		}
	}
	for _, ph := range q.phrases {
		if !containsSeq(doc.seq, ph) {
			return false
		}
	}
	return true
}

func containsSeq(doc, ph []string) bool {
outer:
	for i := 0; i+len(ph) <= len(doc); i++ {
		for j := range ph {
			if doc[i+j] != ph[j] {
				continue outer
			}
		}
		return true
	}
	return false
}

// searchText is what fullText searches: name, description, export text of
// native files, IndexText, the content of text blobs and the extracted
// text of PDF and Office blobs.
func searchText(f *File) string {
	var b strings.Builder
	b.WriteString(f.Name)
	b.WriteString("\n")
	b.WriteString(f.Description)
	b.WriteString("\n")
	b.WriteString(f.ExportText)
	b.WriteString("\n")
	b.WriteString(f.IndexText)
	switch {
	case f.IsNative():
	case isTextMime(f.MimeType) && utf8.Valid(f.Content):
		b.WriteString("\n")
		b.Write(f.Content)
	case len(f.Content) > 0:
		// PDF and Office blobs: Drive indexes their text, so the emulator
		// extracts it with gds's own extractors (a file they cannot read
		// is matched by name and IndexText only). Indexing happens as a file
		// is stored, for no request: the emulator's own context.
		if doc, err := extract.Extract(context.Background(), f.MimeType, bytes.NewReader(f.Content), 0); err == nil {
			b.WriteString("\n")
			b.WriteString(doc.Text())
		}
	}
	return b.String()
}

func isTextMime(m string) bool {
	return strings.HasPrefix(m, "text/") || m == "application/json" || m == "application/xml"
}

// searchTokens returns f's tokens, cached until f changes. Callers hold e.mu.
func (e *Emulator) searchTokens(f *File) *docTokens {
	e.tokMu.Lock()
	toks, ok := e.tokens[f.ID]
	e.tokMu.Unlock()
	if ok {
		return toks
	}
	toks = newDocTokens(searchText(f))
	e.tokMu.Lock()
	e.tokens[f.ID] = toks
	e.tokMu.Unlock()
	return toks
}
