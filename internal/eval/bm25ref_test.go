package eval

import (
	"context"
	"math"
	"reflect"
	"testing"
)

func TestRefTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"What is the Steam Engine?", []string{"steam", "engine"}},
		{"ＡＢＣ　Ｄｅｆ", []string{"abc", "def"}}, // NFKC: full-width letters and space
		{"東京タワーの高さ", []string{"東京", "京タ", "タワ", "ワー", "ーの", "の高", "高さ"}},
		{"日 本", []string{"日", "本"}},                                 // one-character runs stay unigrams
		{"ﾃｽﾄ 2024年", []string{"テス", "スト", "20", "02", "24", "4年"}}, // half-width kana folded; a run with CJK is bigrammed whole
		{"Temür's", []string{"temür", "s"}},
		{"the of and", nil},
	} {
		if got := RefTokens(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("RefTokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The ranking is BM25 as specified: a rarer term outweighs a common one,
// a shorter document outranks a longer one with the same counts, ties go
// by name, and documents without a query term are not returned.
func TestRefBM25Rank(t *testing.T) {
	ix := NewRefBM25(map[string]string{
		"a.txt": "apple banana",
		"b.txt": "apple cherry cherry",
		"c.txt": "banana banana banana banana banana banana banana banana apple",
		"d.txt": "durian",
		"e.txt": "apple banana",
	})
	if got := ix.Rank("cherry", 10); !reflect.DeepEqual(got, []string{"b.txt"}) {
		t.Errorf("cherry: %v", got)
	}
	// apple is in 4 of 5 documents, cherry in 1: the cherry document leads.
	if got := ix.Rank("apple cherry", 10); len(got) != 4 || got[0] != "b.txt" {
		t.Errorf("apple cherry: %v", got)
	}
	// a.txt and e.txt are identical: a tie, broken by name.
	got := ix.Rank("apple banana", 10)
	for i, n := range got {
		if n == "a.txt" && (i+1 >= len(got) || got[i+1] != "e.txt") {
			t.Errorf("apple banana: %v; want e.txt right after its twin a.txt", got)
		}
	}
	if len(got) != 4 {
		t.Errorf("apple banana: %v; want the 4 documents holding either word", got)
	}
	if got := ix.Rank("zebra the", 10); len(got) != 0 {
		t.Errorf("no shared term: %v", got)
	}
	// The score of one term, by hand: idf·tf·(k1+1)/(tf+k1·(1−b+b·len/avg)).
	n, df := 5.0, 1.0
	idf := math.Log(1 + (n-df+0.5)/(df+0.5))
	avg := (2 + 3 + 9 + 1 + 2) / 5.0
	want := idf * 2 * (refK1 + 1) / (2 + refK1*(1-refB+refB*3/avg))
	if s := ix.score(1, []string{"cherry"}); math.Abs(s-want) > 1e-12 {
		t.Errorf("score = %v, want %v", s, want)
	}
}

func TestReadCorpusAndSystem(t *testing.T) {
	docs, err := ReadCorpus(context.Background(), "testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no documents read")
	}
	for name, text := range docs {
		if text == "" {
			t.Errorf("%s: empty text", name)
		}
	}
	if _, err := ReadCorpus(context.Background(), "testdata/no-such-folder"); err == nil {
		t.Error("a missing corpus folder: no error")
	}
}
