package offline

import (
	"fmt"
	"strings"
	"sync"
	"unicode"

	"github.com/ikawaha/kagome-dict/ipa"
	"github.com/ikawaha/kagome/v2/tokenizer"

	"github.com/gds-cli/gds/internal/ai/offline/rules"
)

// japanese is the kagome morphological analyser with the IPA dictionary,
// loaded once on first use (about 0.7 s). Only document summaries use it.
type japanese struct {
	once sync.Once
	tok  *tokenizer.Tokenizer
	err  error
}

func (j *japanese) tokenizer() (*tokenizer.Tokenizer, error) {
	j.once.Do(func() {
		j.tok, j.err = tokenizer.New(ipa.DictShrink(), tokenizer.OmitBosEos())
		if j.err != nil {
			j.err = fmt.Errorf("load Japanese dictionary: %w", j.err)
		}
	})
	return j.tok, j.err
}

// term is a noun compound found by the morphological analyser.
type term struct {
	text   string
	proper bool // contains a 固有名詞
}

// nounCompounds returns the noun compounds of text: adjacent nouns joined
// (議事 + 録 → 議事録), with pronouns, non-independent nouns and bare
// numbers left out.
func (j *japanese) nounCompounds(text string) ([]term, error) {
	t, err := j.tokenizer()
	if err != nil {
		return nil, err
	}
	var out []term
	var cur strings.Builder
	proper := false
	flush := func() {
		if cur.Len() > 0 {
			s := strings.Trim(cur.String(), "・ー-")
			// Compounds that start with a number are counts and dates
			// (1946年6月, 3人), not topics.
			if s != "" && rules.ClassOf([]rune(s)[0]) != rules.ClassDigit {
				out = append(out, term{text: s, proper: proper})
			}
		}
		cur.Reset()
		proper = false
	}
	for _, tk := range t.Tokenize(text) {
		f := tk.Features()
		pos, sub := "", ""
		if len(f) > 0 {
			pos = f[0]
		}
		if len(f) > 1 {
			sub = f[1]
		}
		joinable := pos == "名詞" && sub != "代名詞" && sub != "非自立" ||
			pos == "接頭詞" && sub == "名詞接続" && cur.Len() == 0
		if pos == "名詞" && sub == "数" && cur.Len() == 0 {
			joinable = true // 第3四半期 keeps its number
		}
		if !joinable || !isContent(tk.Surface) {
			flush()
			continue
		}
		if sub == "固有名詞" && !isLowerLatin(tk.Surface) {
			proper = true // kagome calls every unknown Latin word a proper noun
		}
		cur.WriteString(tk.Surface)
	}
	flush()
	return out, nil
}

// isContent reports whether s is made of letters and digits only.
func isContent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if rules.ClassOf(r) == rules.ClassSep {
			return false
		}
	}
	return true
}

func isLowerLatin(s string) bool {
	for _, r := range s {
		if rules.ClassOf(r) != rules.ClassLatin || unicode.IsUpper(r) {
			return false
		}
	}
	return s != ""
}
