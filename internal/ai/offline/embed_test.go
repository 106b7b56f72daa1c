package offline

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type corpus struct {
	files   []string
	texts   []string
	queries []string // queries[i] is answered by texts[i]
}

func loadCorpus(t testing.TB, lang string) corpus {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", lang, "queries.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c corpus
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		file, q, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("bad line %q", sc.Text())
		}
		b, err := os.ReadFile(filepath.Join("testdata", lang, file))
		if err != nil {
			t.Fatal(err)
		}
		c.files = append(c.files, file)
		c.texts = append(c.texts, string(b))
		c.queries = append(c.queries, q)
	}
	if len(c.files) < 5 {
		t.Fatalf("only %d test documents", len(c.files))
	}
	return c
}

func TestEmbeddingRanksMatchingParagraphFirst(t *testing.T) {
	p := New()
	for _, lang := range []string{"ja", "en"} {
		c := loadCorpus(t, lang)
		docs, err := p.Embed(context.Background(), c.texts)
		if err != nil {
			t.Fatal(err)
		}
		qs, err := p.Embed(context.Background(), c.queries)
		if err != nil {
			t.Fatal(err)
		}
		hits := 0
		for i, q := range qs {
			best, bestSim := -1, -2.0
			for j, d := range docs {
				if s := cosine(q, d); s > bestSim {
					best, bestSim = j, s
				}
			}
			if best == i {
				hits++
			} else {
				t.Logf("%s: %q → %s, want %s", lang, c.queries[i], c.files[best], c.files[i])
			}
		}
		// Two of the Japanese paragraphs are about the same party; allow one miss.
		if hits < len(qs)-1 {
			t.Errorf("%s: matching paragraph ranked first for %d of %d queries", lang, hits, len(qs))
		}
	}
}

func TestEmbeddingIsNormalisedAndDeterministic(t *testing.T) {
	p := New()
	if m := p.EmbeddingModel(context.Background()); m.Name != EmbeddingModelName || m.Dim != EmbeddingDim {
		t.Fatalf("model = %+v", m)
	}
	texts := []string{"", "   ", "議事録", "Quarterly roadmap", "の", strings.Repeat("a b c ", 1000)}
	a, err := p.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := p.Embed(context.Background(), texts)
	for i, v := range a {
		if len(v) != EmbeddingDim {
			t.Fatalf("%q: dim %d", texts[i], len(v))
		}
		var n float64
		for k, x := range v {
			n += float64(x) * float64(x)
			if x != b[i][k] {
				t.Fatalf("%q: not deterministic", texts[i])
			}
		}
		if math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: norm² %f", texts[i], n)
		}
	}
	// One English word is one hashed feature; plurals and case fold.
	v := Embedding("roadmap")
	nonZero := 0
	for _, x := range v {
		if x != 0 {
			nonZero++
		}
	}
	if nonZero != 1 {
		t.Errorf("one word has %d non-zero dimensions, want 1", nonZero)
	}
	if s := cosine(Embedding("Roadmaps"), v); s < 0.999 {
		t.Errorf("plural and case change the embedding: cosine %f", s)
	}
}

func TestEmbedHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New().Embed(ctx, []string{"x"}); err == nil {
		t.Error("Embed on a cancelled context succeeded")
	}
}

func BenchmarkEmbedQuery(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Embedding("先月の議事録 プロジェクトアルファ Q3 roadmap")
	}
}
