package postgres

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Postgres tsvector limits.
const (
	maxPos        = 16383   // positions beyond share this one
	maxPosPerLex  = 256     // positions kept per lexeme
	maxLexBytes   = 2046    // longer words are rejected by Postgres
	maxLexemeData = 900_000 // stay below the 1 MB tsvector limit
)

// quoteLexeme quotes a lexeme for a tsvector or tsquery literal.
func quoteLexeme(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `'`, `''`)
	return "'" + s + "'"
}

// buildTSVector returns the tsvector literal of a file: name and keywords
// with weight A, summary B, text D. A gap of one position separates fields
// and keywords so a phrase never spans two of them.
func buildTSVector(f store.File) string {
	fields := []field{{f.Name, 'A'}}
	for _, k := range f.Keywords {
		fields = append(fields, field{k, 'A'})
	}
	return tsvectorOf(append(fields, field{f.Summary, 'B'}, field{f.Text, 'D'}))
}

// buildChunkTSVector returns the tsvector literal of a chunk's text.
func buildChunkTSVector(text string) string { return tsvectorOf([]field{{text, 'D'}}) }

// field is a text with its tsvector weight (A–D).
type field struct {
	text   string
	weight byte
}

// tsvectorOf returns the tsvector literal of the fields' tokens, in order,
// with a one-position gap between fields.
func tsvectorOf(fields []field) string {
	type lex struct {
		pos  []string
		last int
	}
	lexemes := map[string]*lex{}
	pos := 1
	bytes := 0
	add := func(text string, weight byte) {
		toks := tokenize.IndexTokens(text)
		if len(toks) == 0 {
			return
		}
		for _, tok := range toks {
			p := min(pos, maxPos)
			pos++
			if len(tok) > maxLexBytes || !utf8.ValidString(tok) {
				continue
			}
			l := lexemes[tok]
			if l == nil {
				if bytes+len(tok) > maxLexemeData {
					continue
				}
				bytes += len(tok)
				l = &lex{}
				lexemes[tok] = l
			}
			// Positions must be unique per lexeme; clamped ones collapse.
			if len(l.pos) < maxPosPerLex && p != l.last {
				ps := strconv.Itoa(p)
				if weight != 'D' {
					ps += string(weight)
				}
				l.pos = append(l.pos, ps)
				l.last = p
			}
		}
		pos++ // field gap
	}
	for _, f := range fields {
		add(f.text, f.weight)
	}

	keys := make([]string, 0, len(lexemes))
	for k := range lexemes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(quoteLexeme(k))
		b.WriteByte(':')
		b.WriteString(strings.Join(lexemes[k].pos, ","))
	}
	return b.String()
}

// buildTSQuery returns the tsquery literal for the terms: each term is a
// phrase of its tokens (adjacent positions); a one-character CJK token is a
// prefix (it matches where the character stands alone or starts a run of
// bigrams). Terms without tokens are ignored; "" means nothing can match.
func buildTSQuery(terms []string, mode store.MatchMode) string {
	var parts []string
	for _, t := range terms {
		toks := tokenize.IndexTokens(t)
		if len(toks) == 0 {
			continue
		}
		qs := make([]string, 0, len(toks))
		for _, tok := range toks {
			if len(tok) > maxLexBytes || !utf8.ValidString(tok) {
				continue
			}
			q := quoteLexeme(tok)
			if r, n := utf8.DecodeRuneInString(tok); n == len(tok) && tokenize.IsCJK(r) {
				q += ":*"
			}
			qs = append(qs, q)
		}
		if len(qs) == 0 {
			continue
		}
		parts = append(parts, "("+strings.Join(qs, " <-> ")+")")
	}
	op := " & "
	if mode == store.MatchAny {
		op = " | "
	}
	return strings.Join(parts, op)
}
