package postgres

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// BenchmarkQuery10k measures the search loop's store calls on 10,000
// synthetic files (GDS_BENCH_FILES overrides): a two-term keyword query
// followed by a vector search restricted to its hits, and an unrestricted
// HNSW vector search. Run against PGlite:
//
//	export GDS_TEST_DATABASE_URL="$(scripts/pglite.sh start)"
//	go test -run '^$' -bench Query10k -benchtime 200x ./internal/store/postgres/
//
// p50/p95 are reported per operation as p50-ms and p95-ms.
func BenchmarkQuery10k(b *testing.B) {
	url := os.Getenv("GDS_TEST_DATABASE_URL")
	if url == "" {
		b.Skip("GDS_TEST_DATABASE_URL is not set; start PGlite with scripts/pglite.sh start")
	}
	n := 10000
	if v, err := strconv.Atoi(os.Getenv("GDS_BENCH_FILES")); err == nil && v > 0 {
		n = v
	}
	const dim = 256
	ctx := context.Background()
	s := openTest(b, url, storetest.FreshSchema(b, url, "gds_test_"))
	if err := s.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: "bench", Dim: dim}); err != nil {
		b.Fatal(err)
	}
	vocab := make([]string, 2000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%04dx", i)
	}
	randVec := func(r *rand.Rand) []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	start := time.Now()
	var wg sync.WaitGroup
	errc := make(chan error, 4)
	for w := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for i := w; i < n; i += 4 {
				var text strings.Builder
				for range 200 {
					text.WriteString(vocab[r.IntN(len(vocab))])
					text.WriteByte(' ')
				}
				f := store.File{
					ID: fmt.Sprintf("file-%05d", i), Name: fmt.Sprintf("%s report %d.pdf", vocab[r.IntN(len(vocab))], i),
					Summary: "synthetic summary " + vocab[r.IntN(len(vocab))], Keywords: []string{vocab[r.IntN(len(vocab))]},
					Embedding: randVec(r), ModifiedAt: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour),
					MimeType: "application/pdf", Text: text.String(),
				}
				if err := s.UpsertFile(ctx, f, nil); err != nil {
					errc <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
	b.Logf("loaded %d files in %v", n, time.Since(start).Round(time.Millisecond))

	measure := func(b *testing.B, op func(r *rand.Rand) error) {
		r := rand.New(rand.NewPCG(3, 4))
		var lat []time.Duration
		for b.Loop() {
			t := time.Now()
			if err := op(r); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(t))
		}
		slices.Sort(lat)
		pct := func(p float64) float64 {
			i := int(math.Ceil(p*float64(len(lat)))) - 1
			return float64(lat[max(i, 0)].Microseconds()) / 1000
		}
		b.ReportMetric(pct(0.50), "p50-ms")
		b.ReportMetric(pct(0.95), "p95-ms")
	}
	b.Run("keyword+vector", func(b *testing.B) {
		hitsTotal := 0
		measure(b, func(r *rand.Rand) error {
			res, err := s.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))]}, Match: store.MatchAll})
			if err != nil {
				return err
			}
			hitsTotal += res.Total
			ids := make([]string, len(res.Hits))
			for i, h := range res.Hits {
				ids[i] = h.ID
			}
			_, err = s.VectorSearch(ctx, randVec(r), store.Filter{IDs: ids}, 10)
			return err
		})
		b.ReportMetric(float64(hitsTotal)/float64(b.N), "hits/op")
	})
	b.Run("vector-hnsw", func(b *testing.B) {
		measure(b, func(r *rand.Rand) error {
			_, err := s.VectorSearch(ctx, randVec(r), store.Filter{}, 10)
			return err
		})
	})
	b.Run("keyword-any", func(b *testing.B) {
		measure(b, func(r *rand.Rand) error {
			_, err := s.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))]}, Match: store.MatchAny})
			return err
		})
	})
}
