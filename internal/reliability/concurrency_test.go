package reliability

// In-process concurrent use of the store contract: one writer
// goroutine rewrites every file, generation after generation, while reader
// goroutines on the same handle and on a second handle (its own read pool
// and vector cache, as another process would have) check after every read
// that nothing is torn or stale. The whole-process form, with the built
// binary's Alfred fast path during a real crawl, is cmd/gds/concurrency_test.go.

import (
	"context"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/postgres"
	"github.com/gds-cli/gds/internal/store/sqlite"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// concSpace is the embedding space of the synthetic files.
var concSpace = store.EmbeddingSpace{Model: "reliability-generation-angle", Dim: 4}

// concQuery is the query vector; a vector's cosine against it encodes the
// generation it was written in (concAngle).
var concQuery = []float32{1, 0, 0, 0}

// concAngle is the angle of generation g's vectors from concQuery: distinct
// generations differ by 0.005 rad, far above float32 rounding.
func concAngle(g int) float64 { return 0.3 + 0.005*float64(g) }

// concVec is the embedding of every vector written in generation g.
func concVec(g int) []float32 {
	a := concAngle(g)
	return []float32{float32(math.Cos(a)), float32(math.Sin(a)), 0, 0}
}

// concGenOfScore recovers the generation from a cosine score against concQuery.
func concGenOfScore(score float64) int {
	return int(math.Round((math.Acos(math.Min(1, score)) - 0.3) / 0.005))
}

// concChunks is how many chunks file i has in generation g (1–4, varying,
// so a reader that mixed two generations sees a wrong count).
func concChunks(i, g int) int { return 1 + (i+g)%4 }

func concID(i int) string { return fmt.Sprintf("conc-%03d", i) }

// concFile is file i as written in generation g, with its chunks.
func concFile(i, g int, base time.Time) (store.File, []store.Chunk) {
	f := store.File{
		ID: concID(i), Name: fmt.Sprintf("conc-%03d.txt", i),
		Summary:  fmt.Sprintf("file %03d generation %d", i, g),
		Keywords: []string{"zebra"}, Embedding: concVec(g),
		ModifiedAt: base.Add(time.Duration(g) * time.Minute), MimeType: "text/plain",
		WebLink: "file:///conc/" + concID(i), ContentHash: fmt.Sprintf("%d-%d", i, g),
		Source: "local", Provider: "offline", IndexedAt: base,
		Text: fmt.Sprintf("zebra file %03d generation %d", i, g),
	}
	n := concChunks(i, g)
	chunks := make([]store.Chunk, n)
	for o := range n {
		chunks[o] = store.Chunk{Ordinal: o, Text: fmt.Sprintf("file %03d generation %d chunk %d of %d", i, g, o, n), Embedding: concVec(g)}
	}
	return f, chunks
}

// concForm sizes one run.
type concForm struct {
	files, rounds, readers int
}

// concBackend opens the writer's store and a second, independent handle on
// the same index.
type concBackend func(t *testing.T) (writer, other store.Store)

func concBackends(t *testing.T) map[string]concBackend {
	out := map[string]concBackend{
		"sqlite": func(t *testing.T) (store.Store, store.Store) {
			ctx := context.Background()
			p := filepath.Join(t.TempDir(), "index.db")
			w, err := sqlite.Open(ctx, p, sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { w.Close() })
			r, err := sqlite.Open(ctx, p, sqlite.Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			return w, r
		},
	}
	if url := os.Getenv("GDS_TEST_DATABASE_URL"); url != "" {
		out["postgres"] = func(t *testing.T) (store.Store, store.Store) {
			schema := storetest.FreshSchema(t, url, "gds_conc_test_")
			var ss [2]store.Store
			for i := range ss {
				s, err := postgres.Open(context.Background(), url, postgres.WithSchema(schema))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				ss[i] = s
			}
			return ss[0], ss[1]
		}
	} else if os.Getenv("CI") != "" {
		t.Fatal("GDS_TEST_DATABASE_URL is not set under CI: the Postgres concurrency test must not be skipped")
	}
	return out
}

// TestConcurrentStoreReadsDuringWrites: while one goroutine rewrites every
// file round after round (UpsertFile: row, full-text row and chunks in one
// transaction), readers on the writer's handle and on a second handle never
// see an error, a missing file, a file whose columns or chunks come from
// different writes, or an older generation than they saw before (which is
// what a stale vector cache would show).
func TestConcurrentStoreReadsDuringWrites(t *testing.T) {
	for name, open := range concBackends(t) {
		t.Run(name, func(t *testing.T) {
			form := concForm{files: 16, rounds: 4, readers: 4}
			if name == "postgres" { // PGlite runs one statement at a time
				form = concForm{files: 20, rounds: 3, readers: 4}
			}
			if full() {
				form = concForm{files: 100, rounds: 40, readers: 8}
			}
			runConcStore(t, open, form)
		})
	}
}

// concReader is one reader goroutine's view: the newest generation it has
// seen of every file, which later reads must never go below.
type concReader struct {
	t     *testing.T
	st    store.Store
	seen  []int
	reads map[string]int
	rng   *mrand.Rand
}

// fail reports a violation; it returns false so callers can stop.
func (r *concReader) fail(format string, args ...any) bool {
	r.t.Errorf(format, args...)
	return false
}

// see records generation g of file i from a read of the given kind and
// checks it is not older than what this reader saw before.
func (r *concReader) see(kind string, i, g int) bool {
	if g < r.seen[i] {
		return r.fail("%s: file %d at generation %d after this reader saw generation %d (stale read)", kind, i, g, r.seen[i])
	}
	r.seen[i] = g
	return true
}

// round runs one pass of every read kind; false means a violation.
func (r *concReader) round(ctx context.Context, ids []string) bool {
	// Rows: every file present, each row's columns from one write.
	files, err := r.st.GetFiles(ctx, ids)
	if err != nil {
		return r.fail("GetFiles: %v", err)
	}
	r.reads["get"]++
	if len(files) != len(ids) {
		return r.fail("GetFiles returned %d of %d files during writes", len(files), len(ids))
	}
	for i, f := range files {
		var fi, g int
		if _, err := fmt.Sscanf(f.Summary, "file %d generation %d", &fi, &g); err != nil || fi != i || f.ID != concID(i) || f.Name != fmt.Sprintf("conc-%03d.txt", i) {
			return r.fail("file %d: row %q / %q / %q is not one write", i, f.ID, f.Name, f.Summary)
		}
		if f.ContentHash != fmt.Sprintf("%d-%d", i, g) {
			return r.fail("file %d: content hash %q with summary of generation %d (torn row)", i, f.ContentHash, g)
		}
		if !r.see("GetFiles", i, g) {
			return false
		}
	}
	// Vectors (SQLite: the in-process cache): every file, none older.
	hits, err := r.st.VectorSearch(ctx, concQuery, store.Filter{}, len(ids))
	if err != nil {
		return r.fail("VectorSearch: %v", err)
	}
	r.reads["vector"]++
	if len(hits) != len(ids) {
		return r.fail("VectorSearch found %d of %d files during writes", len(hits), len(ids))
	}
	for _, h := range hits {
		var i int
		if _, err := fmt.Sscanf(h.ID, "conc-%d", &i); err != nil || i < 0 || i >= len(ids) {
			return r.fail("VectorSearch hit %q", h.ID)
		}
		if !r.see("VectorSearch", i, concGenOfScore(h.Score)) {
			return false
		}
	}
	// Chunks of one file: all from the same write, complete.
	i := r.rng.IntN(len(ids))
	chs, err := r.st.ChunkSearch(ctx, concQuery, store.Filter{IDs: []string{ids[i]}}, 16)
	if err != nil {
		return r.fail("ChunkSearch: %v", err)
	}
	r.reads["chunk"]++
	if len(chs) == 0 {
		return r.fail("file %d has no chunks during writes", i)
	}
	g0 := -1
	ords := map[int]bool{}
	for _, c := range chs {
		var fi, g, o, n int
		if _, err := fmt.Sscanf(c.Text, "file %d generation %d chunk %d of %d", &fi, &g, &o, &n); err != nil || fi != i || c.FileID != ids[i] || o != c.Ordinal {
			return r.fail("file %d: chunk %q of %s ordinal %d", i, c.Text, c.FileID, c.Ordinal)
		}
		if g0 == -1 {
			g0 = g
		}
		if g != g0 || concGenOfScore(c.Score) != g || n != concChunks(i, g) {
			return r.fail("file %d: chunks of generations %d and %d (score says %d, %d of %d) in one read (torn chunks)", i, g0, g, concGenOfScore(c.Score), o, n)
		}
		ords[o] = true
	}
	if len(ords) != concChunks(i, g0) || len(chs) != len(ords) {
		return r.fail("file %d generation %d: %d chunks read, want %d (torn chunks)", i, g0, len(chs), concChunks(i, g0))
	}
	if !r.see("ChunkSearch", i, g0) {
		return false
	}
	// Full text: the replaced full-text row never goes missing.
	kr, err := r.st.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"zebra"}, Match: store.MatchAny, Limit: len(ids)})
	if err != nil {
		return r.fail("KeywordSearch: %v", err)
	}
	r.reads["keyword"]++
	if kr.Total != len(ids) || len(kr.Hits) != len(ids) {
		return r.fail("KeywordSearch found %d (total %d) of %d files during writes", len(kr.Hits), kr.Total, len(ids))
	}
	return true
}

func runConcStore(t *testing.T, open concBackend, form concForm) {
	ctx := context.Background()
	w, other := open(t)
	if err := w.EnsureEmbeddingSpace(ctx, concSpace); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ids := make([]string, form.files)
	for i := range ids {
		ids[i] = concID(i)
		f, cs := concFile(i, 0, base)
		if err := w.UpsertFile(ctx, f, cs); err != nil {
			t.Fatal(err)
		}
	}

	var done atomic.Bool
	var writes atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the writer
		defer wg.Done()
		defer done.Store(true)
		for g := 1; g <= form.rounds; g++ {
			for i := range ids {
				f, cs := concFile(i, g, base)
				if err := w.UpsertFile(ctx, f, cs); err != nil {
					t.Errorf("writer: generation %d: %v", g, err)
					return
				}
				writes.Add(1)
			}
		}
	}()
	results := make([]map[string]int, form.readers)
	for n := range form.readers {
		st := w
		if n%2 == 1 {
			st = other
		}
		r := &concReader{t: t, st: st, seen: make([]int, form.files), reads: map[string]int{}, rng: mrand.New(mrand.NewPCG(uint64(n), 7))}
		results[n] = r.reads
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !done.Load() {
				if !r.round(ctx, ids) {
					return
				}
			}
			// One more pass after the last write: everything at the last generation.
			if r.round(ctx, ids) {
				for i, g := range r.seen {
					if g != form.rounds {
						t.Errorf("after the writes: file %d at generation %d, want %d", i, g, form.rounds)
						return
					}
				}
			}
		}()
	}
	wg.Wait()

	total := map[string]int{}
	for _, m := range results {
		for k, v := range m {
			total[k] += v
		}
	}
	if total["get"] < form.readers {
		t.Errorf("only %d read rounds ran", total["get"])
	}
	t.Logf("RELIABILITY store-concurrency: %d writes (%d files × %d rounds), %d readers on 2 handles; reads: %d GetFiles, %d VectorSearch, %d ChunkSearch, %d KeywordSearch; violations: %v",
		writes.Load(), form.files, form.rounds, form.readers, total["get"], total["vector"], total["chunk"], total["keyword"], t.Failed())
}
