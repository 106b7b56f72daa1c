package eval

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func honestCorpus() (map[string]string, []Query) {
	docs := map[string]string{}
	var qs []Query
	titles := []string{"Steam engine", "Prime number", "Tesla", "Oxygen", "Rhine", "Victoria", "Normans", "Warsaw", "Amazon", "Kenya"}
	for i, t := range titles {
		for p := range 3 {
			name := t + "-" + string(rune('a'+p)) + ".txt"
			docs[name] = t + "\n\nParagraph " + string(rune('a'+p)) + " about " + strings.ToLower(t) + " and its history."
			qs = append(qs, Query{ID: name, Query: "What is the history of the " + strings.ToLower(t) + " number " + string(rune('0'+i)) + "?", Relevant: []string{name}})
		}
	}
	return docs, qs
}

// The sets follow the recipe and depend on the seed alone.
func TestBuildHonest(t *testing.T) {
	docs, qs := honestCorpus()
	size := HonestSizes{Clean: 5, Invented: 6, Typo: 7, Unanswerable: 100}
	a := BuildHonest(docs, qs, 1, false, size)
	if b := BuildHonest(docs, qs, 1, false, size); !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave other sets")
	}
	if c := BuildHonest(docs, qs, 2, false, size); reflect.DeepEqual(a.Removed, c.Removed) && reflect.DeepEqual(a.Invented, c.Invented) {
		t.Error("another seed gave the same sets")
	}
	// One article of ten (three files) removed; its three questions unanswerable.
	if len(a.Removed) != 3 || len(a.Unanswerable) != 3 {
		t.Fatalf("removed %v, %d unanswerable", a.Removed, len(a.Unanswerable))
	}
	gone := map[string]bool{}
	for _, r := range a.Removed {
		gone[r] = true
	}
	for _, q := range a.Unanswerable {
		if !gone[q.Relevant[0]] {
			t.Errorf("unanswerable %q answered by kept %s", q.Query, q.Relevant[0])
		}
	}
	if len(a.Clean) != 5 || len(a.Invented) != 6 || len(a.Typo) != 7 {
		t.Fatalf("sizes %d clean, %d invented, %d typo", len(a.Clean), len(a.Invented), len(a.Typo))
	}
	for _, v := range append(append([]Variant{}, a.Invented...), a.Typo...) {
		if gone[v.Query.Relevant[0]] {
			t.Errorf("%q: answered by a removed file", v.Query.Query)
		}
		if !strings.Contains(v.Query.Query, v.Word) {
			t.Errorf("%q does not hold %q", v.Query.Query, v.Word)
		}
	}
	for _, v := range a.Invented {
		if strings.Contains(strings.ToLower(strings.Join(mapValues(docs), " ")), v.Word) {
			t.Errorf("invented %q occurs in the corpus", v.Word)
		}
	}
	asked := map[string]bool{}
	for _, q := range qs {
		asked[q.Query] = true
	}
	for _, v := range a.Typo {
		orig := strings.Replace(v.Query.Query, v.Word, v.Original, 1)
		if !asked[orig] || LongestContentWord(orig) != v.Original || v.Word == v.Original {
			t.Errorf("typo %q of %q in %q: want one typo in the longest content word of a question", v.Word, v.Original, v.Query.Query)
		}
	}
	if ja := BuildHonest(docs, qs, 1, true, size); len(ja.Typo) != 0 {
		t.Errorf("Japanese sets have %d typos", len(ja.Typo))
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func TestMisspell(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	kinds := map[int]int{}
	for range 300 {
		w := Misspell(rng, "efficiency")
		switch utf8.RuneCountInString(w) {
		case 9:
			kinds[1]++ // dropped
		case 10:
			if w != "efficiency" {
				diff := 0
				for i := range w {
					if w[i] != "efficiency"[i] {
						diff++
					}
				}
				kinds[diff]++ // 1: substituted, 2: swapped
			}
		default:
			t.Fatalf("Misspell gave %q", w)
		}
	}
	if kinds[1] == 0 || kinds[2] == 0 {
		t.Errorf("kinds of typo %v: want drops, substitutions and swaps", kinds)
	}
}

func TestInsertWordJapanese(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for range 50 {
		got, ok := insertWord(rng, "東京大学が設立されたのはいつ？", "ズヴォルク", true)
		if !ok || !strings.HasSuffix(got, "？") {
			t.Fatalf("insertWord = %q, %v", got, ok)
		}
		i := strings.Index(got, "ズヴォルク")
		before, _ := utf8.DecodeLastRuneInString(got[:i])
		after, _ := utf8.DecodeRuneInString(got[i+len("ズヴォルク"):])
		kanji := func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff }
		if kanji(before) || kanji(after) {
			t.Errorf("%q: the word touches kanji", got)
		}
	}
}

func TestLongestContentWord(t *testing.T) {
	for q, want := range map[string]string{
		"What year did the steam engine first appear?": "engine",
		"Who founded Microsoft in 1975?":               "Microsoft",
		"What is it?":                                  "",
	} {
		if got := LongestContentWord(q); got != want {
			t.Errorf("LongestContentWord(%q) = %q, want %q", q, got, want)
		}
	}
}
