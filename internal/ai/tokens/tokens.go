// Package tokens counts and truncates text in model tokens, for budgets
// (context windows, chunk sizes, map-reduce batches) and for billing (the
// usage the OpenAI emulator reports and gds's estimate counts). Count and
// Truncate use the o200k_base encoding of OpenAI's current chat models
// (gpt-4o, gpt-4.1, gpt-5, the o-series); Embedding and ForModel use the
// encoding of the model named (EncodingFor): cl100k_base for OpenAI's
// embedding models. Both come from github.com/tiktoken-go/tokenizer, whose
// vocabularies are compiled in: it works offline and never downloads
// anything. For local models the counts are estimates of the same order.
//
// Only the o200k_base and cl100k_base codecs are linked
// (codec.NewO200kBase and codec.NewCl100kBase, not the package's Get,
// which links all four encodings), each only by a binary that calls it:
// cl100k_base only through ForModel (and Embedding, which calls it). The
// vocabularies add several MB to a binary (docs/BENCHMARKS.md), so this
// package stands apart: internal/ai does not import it, and a binary that
// counts no tokens does not link it. Each vocabulary is built on its first
// use (about 0.1 s), never at start-up.
package tokens

import (
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Encoding names the encoding Count and Truncate use.
const Encoding = O200kBase

// Counter counts and truncates text in tokens, so that budget code can
// take any tokenizer (tests may pass a simpler one).
type Counter interface {
	// Count returns the number of tokens of text.
	Count(text string) int
	// Truncate returns the longest prefix of text that is at most max
	// tokens and valid UTF-8 (text itself when it fits).
	Truncate(text string, limit int) string
}

// O200k is the Counter of the o200k_base encoding; Count and Truncate use it.
var O200k Counter = &codecCounter{o200kCodec}

// Count returns the number of o200k_base tokens of text.
func Count(text string) int { return O200k.Count(text) }

// Truncate returns the longest prefix of text of at most max o200k_base
// tokens, cut at a token boundary and never inside a character.
func Truncate(text string, limit int) string { return O200k.Truncate(text, limit) }

var o200kCodec = sync.OnceValue(codec.NewO200kBase)

// codecCounter is the Counter of one tiktoken codec, built on first use.
type codecCounter struct{ codec func() *codec.Codec }

func (c *codecCounter) Count(text string) int {
	if text == "" {
		return 0
	}
	n, err := c.codec().Count(text)
	if err != nil {
		// The codec fails only on a regular-expression error; a token
		// is at least one byte, so the length bounds the count.
		return len(text)
	}
	return n
}

func (c *codecCounter) Truncate(text string, limit int) string {
	if limit <= 0 {
		return ""
	}
	if len(text) <= limit {
		return text // a token is at least one byte
	}
	_, pieces, err := c.codec().Encode(text)
	if err != nil {
		return validPrefix(text[:limit])
	}
	if len(pieces) <= limit {
		return text
	}
	end := 0
	for _, p := range pieces[:limit] {
		end += len(p)
	}
	out := validPrefix(text[:end])
	// Re-encoding a prefix may split its end differently; drop characters
	// until it fits.
	for out != "" && c.Count(out) > limit {
		_, size := utf8.DecodeLastRuneInString(out)
		out = out[:len(out)-size]
	}
	return out
}

// validPrefix drops an incomplete UTF-8 sequence at the end of s (a token
// boundary may fall inside a multi-byte character).
func validPrefix(s string) string {
	for i := 1; i <= utf8.UTFMax && i <= len(s); i++ {
		if utf8.RuneStart(s[len(s)-i]) {
			if !utf8.FullRuneInString(s[len(s)-i:]) {
				return s[:len(s)-i]
			}
			return s
		}
	}
	return s
}
