package eval

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/tokenize"
)

// The honest-search sets (gds eval --mode honest) are derived from a query
// set and its corpus with a fixed seed, by this recipe:
//
//   - Unanswerable: the files of RemovedShare of the corpus's articles
//     (files grouped by their first line, the article title) are left out
//     of the index, and their questions kept, up to Size.Unanswerable.
//   - Invented word: a word no document holds (lower-case letters in
//     consonant–vowel syllables for English, katakana for Japanese) is
//     inserted at a word boundary of an answerable question (English:
//     between two words; Japanese: at the start, the end, or between two
//     hiragana, so that it stands as a word of its own), Size.Invented
//     of them.
//   - One typo (English questions only): in the longest content word
//     (rules.ContentWords, four letters or more; the first of equal
//     length), two adjacent letters swapped, one dropped or one
//     substituted, Size.Typo of them.
//   - Clean: Size.Clean answerable questions as they are, the reference
//     for the others (and for how often a clean question's output says
//     the match is weak: false alarms).
//
// Answerable questions are those whose relevant files all stay indexed.
// Each set draws its own sample from them (without replacement within a
// set), so the sets are independent of each other's sizes.

// HonestSizes are the sizes of the derived sets (at most; fewer when the
// query set has fewer questions that fit).
type HonestSizes struct {
	Clean, Invented, Typo, Unanswerable int
}

// DefaultHonestSizes are the sizes of the held-out sets (300
// invented-word and 400 one-typo questions), with as many clean and
// unanswerable ones as invented.
var DefaultHonestSizes = HonestSizes{Clean: 300, Invented: 300, Typo: 400, Unanswerable: 300}

// RemovedShare is the share of articles whose files are left out of the
// index, their questions becoming unanswerable.
const RemovedShare = 0.1

// Variant is a question changed by the recipe: the query as changed, the
// word inserted or misspelt (Word), and for a typo the word it was
// (Original).
type Variant struct {
	Query    Query
	Word     string
	Original string
	// Asked is the question as the set's source asked it (before the
	// change), for the paired clean figures.
	Asked string
}

// HonestSets are the derived sets of one query set.
type HonestSets struct {
	// Removed are the corpus files left out of the index.
	Removed      []string
	Clean        []Query
	Invented     []Variant
	Typo         []Variant
	Unanswerable []Query
}

// BuildHonest derives the sets from the corpus (file name → text, as
// ReadCorpus returns it) and its queries, with seed. ja selects the
// Japanese recipe (katakana invented words, no typo set).
func BuildHonest(docs map[string]string, queries []Query, seed uint64, ja bool, size HonestSizes) HonestSets {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	var out HonestSets

	// Articles, in a fixed order, and the ones removed.
	byTitle := map[string][]string{}
	for name, text := range docs {
		title, _, _ := strings.Cut(text, "\n")
		title = strings.TrimSpace(title)
		byTitle[title] = append(byTitle[title], name)
	}
	titles := make([]string, 0, len(byTitle))
	for t := range byTitle {
		titles = append(titles, t)
	}
	sort.Strings(titles)
	rng.Shuffle(len(titles), func(i, j int) { titles[i], titles[j] = titles[j], titles[i] })
	nRemove := max(1, int(float64(len(titles))*RemovedShare+0.5))
	if len(titles) < 2 {
		nRemove = 0
	}
	removed := map[string]bool{}
	for _, t := range titles[:nRemove] {
		for _, name := range byTitle[t] {
			removed[name] = true
		}
	}
	for name := range removed {
		out.Removed = append(out.Removed, name)
	}
	sort.Strings(out.Removed)

	var answerable, unanswerable []Query
	for _, q := range queries {
		gone := slices.ContainsFunc(q.Relevant, func(r string) bool { return removed[r] })
		if gone {
			unanswerable = append(unanswerable, q)
		} else {
			answerable = append(answerable, q)
		}
	}
	out.Unanswerable = sample(rng, unanswerable, size.Unanswerable)
	out.Clean = sample(rng, answerable, size.Clean)

	corpus := lowerCorpus(docs)
	for _, q := range sample(rng, answerable, size.Invented) {
		var word string
		for tries := 0; word == "" && tries < 100; tries++ {
			w := inventWord(rng, ja)
			if !strings.Contains(corpus, tokenize.Normalize(w)) {
				word = w
			}
		}
		if word == "" {
			continue
		}
		if text, ok := insertWord(rng, q.Query, word, ja); ok {
			v := q
			v.Query = text
			out.Invented = append(out.Invented, Variant{Query: v, Word: word, Asked: q.Query})
		}
	}
	if !ja {
		for _, q := range sample(rng, answerable, size.Typo) {
			word := LongestContentWord(q.Query)
			if word == "" {
				continue
			}
			typo := Misspell(rng, word)
			if typo == word {
				continue
			}
			v := q
			v.Query = replaceWord(q.Query, word, typo)
			out.Typo = append(out.Typo, Variant{Query: v, Word: typo, Original: word, Asked: q.Query})
		}
	}
	return out
}

// sample returns n queries of qs drawn without replacement (all of them,
// shuffled, when there are fewer), in draw order.
func sample(rng *rand.Rand, qs []Query, n int) []Query {
	idx := rng.Perm(len(qs))
	out := make([]Query, 0, min(n, len(qs)))
	for _, i := range idx[:min(n, len(qs))] {
		out = append(out, qs[i])
	}
	return out
}

// lowerCorpus is every document's normalised text, joined: an invented
// word must occur in none.
func lowerCorpus(docs map[string]string) string {
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(tokenize.Normalize(docs[n]))
		b.WriteByte('\n')
	}
	return b.String()
}

const (
	consonants = "bdfgklmnprstvz"
	vowels     = "aeiou"
	katakana   = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワガギグゲゴザジズゼゾダデドバビブベボパピプペポ"
)

// inventWord makes a word: three consonant–vowel syllables and a final
// consonant in English (zoravek), four or five katakana in Japanese.
func inventWord(rng *rand.Rand, ja bool) string {
	var b strings.Builder
	if ja {
		ks := []rune(katakana)
		for range 4 + rng.IntN(2) {
			b.WriteRune(ks[rng.IntN(len(ks))])
		}
		return b.String()
	}
	for range 3 {
		b.WriteByte(consonants[rng.IntN(len(consonants))])
		b.WriteByte(vowels[rng.IntN(len(vowels))])
	}
	b.WriteByte(consonants[rng.IntN(len(consonants))])
	return b.String()
}

// insertWord puts word at a random word boundary of q: between two
// space-separated words (English), or where neither neighbour is kanji,
// katakana, a Latin letter or a digit (Japanese; the end when there is no
// such place). ok is false when q has no place.
func insertWord(rng *rand.Rand, q, word string, ja bool) (string, bool) {
	if !ja {
		ws := strings.Fields(q)
		if len(ws) < 2 {
			return q, false
		}
		i := 1 + rng.IntN(len(ws)-1)
		return strings.Join(append(ws[:i:i], append([]string{word}, ws[i:]...)...), " "), true
	}
	rs := []rune(strings.TrimRight(q, "？?。"))
	tail := strings.TrimPrefix(q, string(rs))
	// A place whose neighbours are hiragana, punctuation or the ends: the
	// word stands alone, not inside a kanji or katakana compound.
	free := func(i int) bool {
		return i < 0 || i >= len(rs) || unicode.Is(unicode.Hiragana, rs[i]) || !unicode.IsLetter(rs[i]) && !unicode.IsDigit(rs[i])
	}
	var places []int
	for i := 0; i <= len(rs); i++ {
		if free(i-1) && free(i) {
			places = append(places, i)
		}
	}
	if len(places) == 0 {
		places = []int{len(rs)}
	}
	i := places[rng.IntN(len(places))]
	return string(rs[:i]) + word + string(rs[i:]) + tail, true
}

// LongestContentWord is the typo set's target in q: the longest of its
// content words (rules.ContentWords) made of letters only, four letters
// or more; the first of equal length; "" when there is none.
func LongestContentWord(q string) string {
	best := ""
	for _, w := range rules.ContentWords(q) {
		if utf8.RuneCountInString(w) < 4 || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) || r > unicode.MaxLatin1 }) >= 0 {
			continue
		}
		if utf8.RuneCountInString(w) > utf8.RuneCountInString(best) {
			best = w
		}
	}
	return best
}

// Misspell makes one typo in word: two adjacent letters swapped, one
// dropped or one substituted (by a lower-case letter), the kind and the
// place drawn from rng. It returns word when the typo would not change it
// (a swap of equal letters).
func Misspell(rng *rand.Rand, word string) string {
	rs := []rune(word)
	switch rng.IntN(3) {
	case 0: // swap
		i := rng.IntN(len(rs) - 1)
		rs[i], rs[i+1] = rs[i+1], rs[i]
	case 1: // drop
		i := rng.IntN(len(rs))
		rs = append(rs[:i:i], rs[i+1:]...)
	default: // substitute
		i := rng.IntN(len(rs))
		r := rune('a' + rng.IntN(26))
		if unicode.ToLower(rs[i]) == r {
			r = 'a' + (r-'a'+1)%26
		}
		rs[i] = r
	}
	return string(rs)
}

// replaceWord replaces the first whole-word occurrence of word in q.
func replaceWord(q, word, with string) string {
	for off := 0; off < len(q); {
		i := strings.Index(q[off:], word)
		if i < 0 {
			break
		}
		i += off
		end := i + len(word)
		before, _ := utf8.DecodeLastRuneInString(q[:i])
		after, _ := utf8.DecodeRuneInString(q[end:])
		if (i == 0 || !unicode.IsLetter(before)) && (end == len(q) || !unicode.IsLetter(after)) {
			return q[:i] + with + q[end:]
		}
		off = end
	}
	return q
}
