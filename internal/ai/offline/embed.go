package offline

import (
	"hash/fnv"
	"math"
	"strings"

	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/tokenize"
)

// The offline embedding model. Changing the features or the dimension
// changes the name, so that stores refuse to mix old and new vectors.
const (
	EmbeddingModelName = "gds-offline-hash-v1"
	EmbeddingDim       = 512
)

// hiraganaWeight scales n-grams made only of hiragana: they are mostly
// particles and inflections (した, ます), weak evidence of topic.
const hiraganaWeight = 0.25

// Embedding returns the offline lexical embedding of text: hashed features
// of English words (lower-cased, plural -s removed, stop words dropped) and
// of Japanese character bigrams and trigrams, weighted 1+ln(tf), signed-
// hashed into EmbeddingDim dimensions with FNV-1a and L2-normalised. It is
// deterministic across runs and machines. A text with no features embeds to
// one fixed unit vector, so cosine similarity is always defined.
func Embedding(text string) []float32 {
	tf := features(text)
	v := make([]float64, EmbeddingDim)
	if len(tf) == 0 {
		tf = map[string]float64{"\x00empty": 1}
	}
	for f, w := range tf {
		h := fnv.New64a()
		h.Write([]byte(f))
		sum := h.Sum64()
		idx := int(sum % EmbeddingDim)
		weight := (1 + math.Log(w)) // w is the (possibly fractional) count
		if w < 1 {
			weight = w
		}
		if sum>>63 == 1 {
			weight = -weight
		}
		v[idx] += weight
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	norm = math.Sqrt(norm)
	out := make([]float32, EmbeddingDim)
	if norm == 0 { // every feature cancelled out: fall back to the fixed vector
		return Embedding("")
	}
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

// features returns the weighted feature counts of text.
func features(text string) map[string]float64 {
	tf := map[string]float64{}
	s := []rune(tokenize.Normalize(text))
	for i := 0; i < len(s); {
		c := rules.ClassOf(s[i])
		switch {
		case c == rules.ClassLatin || c == rules.ClassDigit:
			j := i
			for j < len(s) && (rules.ClassOf(s[j]) == rules.ClassLatin || rules.ClassOf(s[j]) == rules.ClassDigit) {
				j++
			}
			w := string(s[i:j])
			if !rules.EnStop()[w] && (j-i > 1 || c == rules.ClassDigit) {
				tf["w:"+stem(w)]++
			}
			i = j
		case c == rules.ClassKanji || c == rules.ClassKatakana || c == rules.ClassHiragana:
			j := i
			for j < len(s) && isJaClass(rules.ClassOf(s[j])) {
				j++
			}
			run := s[i:j]
			if len(run) == 1 {
				tf["u:"+string(run)]++
			}
			for k := 0; k+2 <= len(run); k++ {
				tf["b:"+string(run[k:k+2])] += ngramWeight(run[k : k+2])
			}
			for k := 0; k+3 <= len(run); k++ {
				tf["t:"+string(run[k:k+3])] += ngramWeight(run[k : k+3])
			}
			i = j
		default:
			i++
		}
	}
	return tf
}

func isJaClass(c rules.RuneClass) bool {
	return c == rules.ClassKanji || c == rules.ClassKatakana || c == rules.ClassHiragana
}

func ngramWeight(g []rune) float64 {
	for _, r := range g {
		if rules.ClassOf(r) != rules.ClassHiragana {
			return 1
		}
	}
	return hiraganaWeight
}

// stem is a light English normalisation: plural endings only.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// cosine returns the cosine similarity of two L2-normalised vectors.
func cosine(a, b []float32) float64 {
	var s float64
	for i := range a {
		if i < len(b) {
			s += float64(a[i]) * float64(b[i])
		}
	}
	return s
}
