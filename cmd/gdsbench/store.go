package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
	"github.com/gds-cli/gds/internal/tokenize"
)

type storeFlags struct {
	backend string
	url     string
	path    string
	files   int
	queries int
	warmup  int
	dim     int
	seed    uint64
	corpus  []string
	asJSON  bool
	slowest int
}

func runStore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f storeFlags
	fs := flag.NewFlagSet("gdsbench store", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.backend, "backend", "sqlite", "store back end: sqlite or postgres")
	fs.StringVar(&f.url, "url", os.Getenv("DATABASE_URL"), "Postgres URL for --backend postgres (default $DATABASE_URL)")
	fs.StringVar(&f.path, "path", "", "SQLite file for --backend sqlite; reused when it already holds the same synthetic index (default: a temporary file, removed afterwards)")
	fs.IntVar(&f.files, "files", 10000, "number of synthetic indexed files")
	fs.IntVar(&f.queries, "queries", 300, "number of timed queries")
	fs.IntVar(&f.warmup, "warmup", 20, "untimed queries run first")
	fs.IntVar(&f.dim, "dim", 256, "embedding dimension")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the pseudo-random choices")
	fs.Func("corpus", "directory of .txt files for file text (repeatable)", func(s string) error {
		f.corpus = append(f.corpus, s)
		return nil
	})
	fs.BoolVar(&f.asJSON, "json", false, "print the result as JSON")
	fs.IntVar(&f.slowest, "slowest", 0, "also list the N slowest queries (terms, keyword and vector time, matches)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(f.corpus) == 0 {
		return fmt.Errorf("give at least one --corpus directory of .txt files (e.g. a SQuAD paragraph corpus)")
	}
	if f.files <= 0 || f.queries <= 0 || f.dim <= 0 || f.warmup < 0 {
		return fmt.Errorf("--files, --queries and --dim must be positive, --warmup not negative")
	}
	docs, err := loadCorpus(f.corpus)
	if err != nil {
		return err
	}

	cfg := backendConfig{url: f.url, path: f.path}
	if f.backend == "sqlite" && f.path == "" {
		dir, err := os.MkdirTemp("", "gdsbench-*")
		if err != nil {
			return fmt.Errorf("create a temporary directory: %w", err)
		}
		defer os.RemoveAll(dir)
		cfg.path = filepath.Join(dir, "index.db")
	}
	s, err := openBackend(ctx, f.backend, cfg)
	if err != nil {
		return err
	}
	defer s.Close()

	res := result{Backend: f.backend, Files: f.files, Dim: f.dim, Queries: f.queries, Warmup: f.warmup,
		GOMAXPROCS: runtime.GOMAXPROCS(0), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	fp := fingerprint(f, docs)
	st, err := s.Stats(ctx)
	if err != nil {
		return fmt.Errorf("read index stats: %w", err)
	}
	if st.Files == f.files && st.Sync.Fingerprint == fp {
		res.Reused = true
	} else {
		fmt.Fprintf(stderr, "building a synthetic index of %d files (dim %d) from %d corpus documents...\n", f.files, f.dim, len(docs))
		start := time.Now()
		if err := buildIndex(ctx, s, f, docs, fp, stderr); err != nil {
			return err
		}
		res.BuildSeconds = time.Since(start).Seconds()
	}

	rng := rand.New(rand.NewPCG(f.seed, 2))
	qs := makeQueries(rng, docs, f.warmup+f.queries, f.dim)
	ids := make([]string, f.warmup+f.queries)
	for i := range ids {
		ids[i] = fileID(rng.IntN(f.files))
	}
	var path, kw, vec, get []time.Duration
	var hits, totals []int
	var slow []slowQuery
	for i, q := range qs {
		t0 := time.Now()
		kr, err := s.KeywordSearch(ctx, store.KeywordQuery{Terms: q.terms, Match: store.MatchAny, Limit: 100})
		if err != nil {
			return fmt.Errorf("keyword search %q: %w", q.terms, err)
		}
		t1 := time.Now()
		hitIDs := make([]string, len(kr.Hits))
		for j, h := range kr.Hits {
			hitIDs[j] = h.ID
		}
		if _, err := s.VectorSearch(ctx, q.vec, store.Filter{IDs: hitIDs}, 10); err != nil {
			return fmt.Errorf("vector search: %w", err)
		}
		t2 := time.Now()
		g0 := time.Now()
		got, err := s.GetFiles(ctx, []string{ids[i]})
		if err != nil || len(got) != 1 {
			return fmt.Errorf("GetFiles(%s) = %d files, %v; want 1", ids[i], len(got), err)
		}
		g1 := time.Now()
		if i < f.warmup {
			continue
		}
		path = append(path, t2.Sub(t0))
		kw = append(kw, t1.Sub(t0))
		vec = append(vec, t2.Sub(t1))
		get = append(get, g1.Sub(g0))
		slow = append(slow, slowQuery{Terms: q.terms, KeywordMS: ms(t1.Sub(t0)), VectorMS: ms(t2.Sub(t1)), Total: kr.Total})
		hits = append(hits, len(kr.Hits))
		totals = append(totals, kr.Total)
	}
	res.Query = summarize(path)
	res.Keyword = summarize(kw)
	res.Vector = summarize(vec)
	res.GetFiles = summarize(get)
	res.RatioP50 = res.Query.P50 / res.GetFiles.P50
	res.RatioP95 = res.Query.P95 / res.GetFiles.P95
	res.MeanHits = mean(hits)
	res.MeanTotal = mean(totals)
	res.ExampleTerms = qs[f.warmup].terms
	if f.slowest > 0 {
		slices.SortFunc(slow, func(a, b slowQuery) int {
			return cmp.Compare(b.KeywordMS+b.VectorMS, a.KeywordMS+a.VectorMS)
		})
		res.Slowest = slow[:min(f.slowest, len(slow))]
	}

	if f.backend == "sqlite" {
		// The Alfred path opens the index read-only in a new process per keystroke.
		var opens []time.Duration
		for i := range 20 {
			t0 := time.Now()
			ro, err := sqlite.Open(ctx, cfg.path, sqlite.Options{ReadOnly: true})
			if err != nil {
				return fmt.Errorf("open read-only: %w", err)
			}
			_, err = ro.KeywordSearch(ctx, store.KeywordQuery{Terms: qs[i].terms, Match: store.MatchAny, Limit: 100})
			ro.Close()
			if err != nil {
				return fmt.Errorf("keyword search after read-only open: %w", err)
			}
			opens = append(opens, time.Since(t0))
		}
		s := summarize(opens)
		res.OpenReadOnlyAndQuery = &s
	}

	if f.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	res.print(stdout)
	return nil
}

type doc struct {
	title string
	text  string
	terms []string // candidate query terms
}

func loadCorpus(dirs []string) ([]doc, error) {
	var docs []doc
	for _, dir := range dirs {
		names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
		if err != nil {
			return nil, fmt.Errorf("list corpus %s: %w", dir, err)
		}
		slices.Sort(names)
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				return nil, fmt.Errorf("read corpus file: %w", err)
			}
			title, text, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
			text = strings.TrimSpace(text)
			if text == "" {
				text, title = title, filepath.Base(name)
			}
			d := doc{title: strings.ReplaceAll(title, "_", " "), text: text, terms: candidateTerms(title + "\n" + text)}
			if len(d.terms) >= 3 {
				docs = append(docs, d)
			}
		}
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("no usable .txt files in %s", strings.Join(dirs, ", "))
	}
	return docs, nil
}

var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the and was for that with his her which from are were has had its this not but they
		their also been have than into more other such these when who after most first some only over between during
		there would can being one two three all any may many new one out she him them then our your you use used
		what where how why while about against under upon within without before since until each both few own same`) {
		stopwords[w] = true
	}
}

// candidateTerms returns keyword-like terms of a text, the kind the query
// analysis emits: Latin words of three or more letters (no stop words) and
// 2–4 character pieces of kanji/katakana runs (hiragana, mostly particles
// and inflections, ends a run).
func candidateTerms(text string) []string {
	runes := []rune(tokenize.Normalize(text))
	content := func(r rune) bool { return tokenize.IsCJK(r) && !unicode.Is(unicode.Hiragana, r) }
	var out []string
	for i := 0; i < len(runes); {
		r := runes[i]
		j := i + 1
		switch {
		case content(r):
			for j < len(runes) && content(runes[j]) {
				j++
			}
			for k := i; k+2 <= j; k += 3 {
				l := min(2+k%3, j-k)
				out = append(out, string(runes[k:k+l]))
			}
		case unicode.IsLetter(r) && !tokenize.IsCJK(r) || unicode.IsDigit(r):
			for j < len(runes) && (unicode.IsLetter(runes[j]) || unicode.IsDigit(runes[j])) && !tokenize.IsCJK(runes[j]) {
				j++
			}
			if w := string(runes[i:j]); j-i >= 3 && !stopwords[w] {
				out = append(out, w)
			}
		}
		i = j
	}
	return out
}

var mimeTypes = []string{
	"application/pdf",
	"application/vnd.google-apps.document",
	"application/vnd.google-apps.spreadsheet",
	"application/vnd.google-apps.presentation",
	"text/plain",
}

func fileID(i int) string { return fmt.Sprintf("bench-%06d", i) }

func fingerprint(f storeFlags, docs []doc) string {
	h := fnv.New64a()
	for _, d := range docs {
		h.Write([]byte(d.title)) // a hash never fails
		h.Write([]byte(d.text))
	}
	return fmt.Sprintf("gdsbench v1 files=%d dim=%d seed=%d corpus=%x", f.files, f.dim, f.seed, h.Sum64())
}

// randomUnit returns a deterministic pseudo-random unit vector.
func randomUnit(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var n float64
	for i := range v {
		x := rng.NormFloat64()
		v[i] = float32(x)
		n += x * x
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v
}

// syntheticFile derives file i from corpus document i mod len(docs); later
// rounds rotate the text so repeated documents are not identical.
func syntheticFile(i int, f storeFlags, docs []doc) store.File {
	d := docs[i%len(docs)]
	round := i / len(docs)
	rng := rand.New(rand.NewPCG(f.seed, uint64(i)+1000))
	text := d.text
	if round > 0 {
		r := []rune(text)
		off := (round * 97) % len(r)
		text = string(r[off:]) + "\n" + string(r[:off])
	}
	summary := []rune(text)
	if len(summary) > 160 {
		summary = summary[:160]
	}
	kw := make([]string, 0, 3)
	for range 3 {
		kw = append(kw, d.terms[rng.IntN(len(d.terms))])
	}
	mod := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.Int64N(int64(4 * 365 * 24 * time.Hour))))
	name := d.title
	if round > 0 {
		name = fmt.Sprintf("%s (%d)", d.title, round+1)
	}
	return store.File{
		ID:          fileID(i),
		Name:        name,
		Summary:     string(summary),
		Keywords:    kw,
		Embedding:   randomUnit(rng, f.dim),
		ModifiedAt:  mod,
		MimeType:    mimeTypes[i%len(mimeTypes)],
		WebLink:     "https://drive.google.com/file/d/" + fileID(i) + "/view",
		Parents:     []string{fmt.Sprintf("folder-%02d", i%17)},
		Path:        fmt.Sprintf("Bench/Folder %02d", i%17),
		Size:        int64(len(text)),
		ContentHash: fmt.Sprintf("%x", fnv.New64a().Sum([]byte(text))),
		Source:      "local",
		Provider:    "gdsbench",
		IndexedAt:   time.Now(),
		Text:        text,
	}
}

func buildIndex(ctx context.Context, s store.Store, f storeFlags, docs []doc, fp string, progress io.Writer) error {
	if err := s.Reset(ctx); err != nil {
		return fmt.Errorf("reset the index: %w", err)
	}
	if err := s.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: "gdsbench-random", Dim: f.dim}); err != nil {
		return err
	}
	for i := range f.files {
		if err := s.UpsertFile(ctx, syntheticFile(i, f, docs), nil); err != nil {
			return fmt.Errorf("index synthetic file %d: %w", i, err)
		}
		if (i+1)%2000 == 0 {
			fmt.Fprintf(progress, "  %d/%d\n", i+1, f.files)
		}
	}
	return s.SetSyncState(ctx, store.SyncState{Source: "gdsbench", ModifiedAt: time.Now(), Fingerprint: fp})
}

type query struct {
	terms []string
	vec   []float32
}

func makeQueries(rng *rand.Rand, docs []doc, n, dim int) []query {
	out := make([]query, n)
	for i := range out {
		d := docs[rng.IntN(len(docs))]
		k := 2 + rng.IntN(2)
		var terms []string
		for len(terms) < k {
			t := d.terms[rng.IntN(len(d.terms))]
			if !slices.Contains(terms, t) {
				terms = append(terms, t)
			} else if len(d.terms) < 4 {
				break
			}
		}
		out[i] = query{terms: terms, vec: randomUnit(rng, dim)}
	}
	return out
}

// stats are latencies in milliseconds.
type stats struct {
	P50  float64 `json:"p50_ms"`
	P95  float64 `json:"p95_ms"`
	P99  float64 `json:"p99_ms"`
	Max  float64 `json:"max_ms"`
	Mean float64 `json:"mean_ms"`
}

type result struct {
	Backend              string      `json:"backend"`
	Files                int         `json:"files"`
	Dim                  int         `json:"dim"`
	Queries              int         `json:"queries"`
	Warmup               int         `json:"warmup"`
	GOMAXPROCS           int         `json:"gomaxprocs"`
	GOOS                 string      `json:"goos"`
	GOARCH               string      `json:"goarch"`
	Reused               bool        `json:"index_reused"`
	BuildSeconds         float64     `json:"build_seconds,omitempty"`
	Query                stats       `json:"keyword_plus_vector"`
	Keyword              stats       `json:"keyword"`
	Vector               stats       `json:"vector"`
	GetFiles             stats       `json:"getfiles_baseline"`
	RatioP50             float64     `json:"ratio_p50"`
	RatioP95             float64     `json:"ratio_p95"`
	MeanHits             float64     `json:"mean_keyword_hits"`
	MeanTotal            float64     `json:"mean_keyword_total"`
	ExampleTerms         []string    `json:"example_terms"`
	OpenReadOnlyAndQuery *stats      `json:"open_read_only_and_query,omitempty"`
	Slowest              []slowQuery `json:"slowest,omitempty"`
}

// slowQuery is one timed query, for --slowest.
type slowQuery struct {
	Terms     []string `json:"terms"`
	KeywordMS float64  `json:"keyword_ms"`
	VectorMS  float64  `json:"vector_ms"`
	Total     int      `json:"total_matches"`
}

func percentile(sorted []time.Duration, p float64) float64 {
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	i = max(0, min(i, len(sorted)-1))
	return ms(sorted[i])
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func summarize(ds []time.Duration) stats {
	s := slices.Clone(ds)
	slices.Sort(s)
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	return stats{P50: percentile(s, 0.50), P95: percentile(s, 0.95), P99: percentile(s, 0.99),
		Max: ms(s[len(s)-1]), Mean: ms(sum) / float64(len(s))}
}

func mean(xs []int) float64 {
	var t int
	for _, x := range xs {
		t += x
	}
	return float64(t) / float64(len(xs))
}

func (r result) print(w io.Writer) {
	fmt.Fprintf(w, "gdsbench store: backend %s, %d files, dim %d, %d queries after %d warm-up, GOMAXPROCS %d (%s/%s)\n",
		r.Backend, r.Files, r.Dim, r.Queries, r.Warmup, r.GOMAXPROCS, r.GOOS, r.GOARCH)
	if r.Reused {
		fmt.Fprintln(w, "index: reused (same synthetic index already present)")
	} else {
		fmt.Fprintf(w, "index: built in %.1f s (%.2f ms per file)\n", r.BuildSeconds, r.BuildSeconds*1000/float64(r.Files))
	}
	fmt.Fprintf(w, "keyword search: MatchAny, limit 100; mean %.1f hits, mean %.0f total matches; e.g. %q\n",
		r.MeanHits, r.MeanTotal, r.ExampleTerms)
	fmt.Fprintf(w, "%-34s %9s %9s %9s %9s %9s\n", "latency (ms)", "p50", "p95", "p99", "max", "mean")
	row := func(name string, s stats) {
		fmt.Fprintf(w, "%-34s %9.2f %9.2f %9.2f %9.2f %9.2f\n", name, s.P50, s.P95, s.P99, s.Max, s.Mean)
	}
	row("keyword + vector (query path)", r.Query)
	row("  keyword search", r.Keyword)
	row("  vector search (k 10, hits only)", r.Vector)
	row("GetFiles of one ID (baseline)", r.GetFiles)
	if r.OpenReadOnlyAndQuery != nil {
		row("open read-only + keyword (n 20)", *r.OpenReadOnlyAndQuery)
	}
	fmt.Fprintf(w, "ratio query path / baseline: p50 %.1fx, p95 %.1fx\n", r.RatioP50, r.RatioP95)
	for _, q := range r.Slowest {
		fmt.Fprintf(w, "slow: keyword %6.2f ms, vector %5.2f ms, %5d matches: %q\n", q.KeywordMS, q.VectorMS, q.Total, q.Terms)
	}
}
