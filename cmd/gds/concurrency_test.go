package main

// Concurrent use of the built binary: several worker goroutines
// each run `gds alfred filter QUERY` as whole processes, one after another,
// while `gds crawl` processes rewrite the index (every file of the corpus
// gets a new revision, round after round). Once against the embedded SQLite
// index, once against Postgres (PGlite, GDS_TEST_DATABASE_URL) in a fresh
// schema (GDS_DB_SCHEMA).
//
// Every query must exit 0 with an empty stderr and print valid Script Filter
// JSON; nothing may say "database is locked"; every result item must be one
// consistent file (its title and the revision header of its summary name the
// same file, and a worker never sees a file go back to an older revision);
// a query for a file's name must always find it (a rewrite never hides a
// file). After the run the store API checks that every file's row and
// chunks are of the last revision and every uid seen during the run still
// names the same file.
//
// The reduced form runs in CI; GDS_RELIABILITY_FULL=1 runs ≥ 1,000 queries
// during writes per back end (scripts/reliability.sh). Each run logs one
// "RELIABILITY alfred-concurrency-…" line with the figures for
// docs/RELIABILITY.md.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/render/alfred"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/postgres"
	"github.com/gds-cli/gds/internal/store/sqlite"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// concForm sizes one run of the whole-process concurrency test.
type concForm struct {
	files    int // corpus size
	baseline int // queries with no crawl running
	queries  int // queries while crawls rewrite the index
	workers  int // concurrent query processes
}

func concFormFor(backend string) concForm {
	if os.Getenv("GDS_RELIABILITY_FULL") == "1" {
		return concForm{files: 600, baseline: 500, queries: 1000, workers: 4}
	}
	if backend == "postgres" { // PGlite runs one statement at a time
		return concForm{files: 120, baseline: 60, queries: 200, workers: 4}
	}
	return concForm{files: 300, baseline: 100, queries: 200, workers: 4}
}

// concCorpus is the folder the crawls index: files f0000.txt … each
// starting with "Document fNNNN revision R." followed by the start of a
// sample text. The files are short, so the offline provider's extractive
// summary (at most 200 characters) starts with that header: every result
// item shows which revision of which file it was read from.
type concCorpus struct {
	dir   string
	texts []string // the first 150 characters of each sample text
	n     int
	base  time.Time
}

func newConcCorpus(t *testing.T, n int) *concCorpus {
	t.Helper()
	c := &concCorpus{dir: t.TempDir(), n: n, base: time.Now().Add(-30 * 24 * time.Hour).Truncate(time.Second)}
	err := filepath.WalkDir("../../testdata/sample", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".txt" {
			return err
		}
		b, err := os.ReadFile(p)
		if r := []rune(string(b)); len(r) > 150 {
			b = []byte(string(r[:150]))
		}
		c.texts = append(c.texts, string(b))
		return err
	})
	if err != nil || len(c.texts) == 0 {
		t.Fatalf("read the sample corpus: %v (%d texts)", err, len(c.texts))
	}
	return c
}

func (c *concCorpus) name(i int) string { return fmt.Sprintf("f%04d.txt", i) }

// header is the first sentence of file i at revision rev; the offline
// provider's extractive summary starts with it.
func (c *concCorpus) header(i, rev int) string {
	return fmt.Sprintf("Document f%04d revision %d.", i, rev)
}

// write gives every file revision rev, with modification times after every
// earlier revision's, so an incremental crawl picks all of them up.
func (c *concCorpus) write(rev int) error {
	for i := range c.n {
		p := filepath.Join(c.dir, c.name(i))
		body := c.header(i, rev) + "\n" + c.texts[i%len(c.texts)]
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
		mt := c.base.Add(time.Duration(rev)*time.Hour + time.Duration(i)*time.Second)
		if err := os.Chtimes(p, mt, mt); err != nil {
			return err
		}
	}
	return nil
}

// concQuery is one finished `gds alfred filter` process.
type concQuery struct {
	worker      int
	query       string
	want        int // file index the query names, or -1
	dur         time.Duration
	duringCrawl bool // a crawl process was running when the query started and when it ended
	code        int
	stdout      string
	stderr      string
}

// concRun drives one back end.
type concRun struct {
	t      *testing.T
	bin    string
	env    []string
	corpus *concCorpus
	form   concForm
	cwd    string

	crawling  atomic.Bool
	crawls    atomic.Int64
	crawlErrs []string // guarded by mu
	mu        sync.Mutex
}

// "document revision" reads "document" as a file type; the .txt files are
// text, so the keystroke drops that filter and every item says so first.
var concSummaryRe = regexp.MustCompile(`^(?:No documents; showing other file types · )?Document (f\d{4}) revision (\d+)\.`)

// crawl runs one `gds crawl` process. It closes started (when not nil) once
// the first file is indexed, or at the end.
func (r *concRun) crawl(started chan<- struct{}) error {
	cmd := exec.Command(r.bin, "crawl", "--source", "local:"+r.corpus.dir, "--concurrency", "4")
	cmd.Env, cmd.Dir = r.env, r.cwd
	var out bytes.Buffer
	cmd.Stdout = &out
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	var errb bytes.Buffer
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			errb.WriteString(line + "\n")
			if started != nil && strings.Contains(line, " indexed ") {
				close(started)
				started = nil
			}
		}
		io.Copy(io.Discard, pr)
	}()
	r.crawling.Store(true)
	err := cmd.Run()
	r.crawling.Store(false)
	pw.Close()
	<-scanned
	if started != nil {
		close(started) // nothing was indexed: let the waiter see the error
	}
	r.crawls.Add(1)
	if err != nil || strings.Contains(out.String()+errb.String(), "database is locked") {
		return fmt.Errorf("gds crawl: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	return nil
}

// queryText picks the k-th query: half name one file, the rest match many.
func (r *concRun) queryText(rng *mrand.Rand, k int) (string, int) {
	switch k % 4 {
	case 0, 1:
		i := rng.IntN(r.corpus.n)
		return fmt.Sprintf("f%04d", i), i
	case 2:
		return "document revision", -1
	default:
		return "日本", -1
	}
}

// queries runs n queries over the workers and returns them in the order
// each worker ran them.
func (r *concRun) queries(n int, seed uint64) []concQuery {
	var next atomic.Int64
	out := make([][]concQuery, r.form.workers)
	var wg sync.WaitGroup
	for w := range r.form.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := mrand.New(mrand.NewPCG(seed, uint64(w)))
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				q, want := r.queryText(rng, k)
				cmd := exec.Command(r.bin, "alfred", "filter", q)
				cmd.Env, cmd.Dir = r.env, r.cwd
				var so, se bytes.Buffer
				cmd.Stdout, cmd.Stderr = &so, &se
				before := r.crawling.Load()
				start := time.Now()
				err := cmd.Run()
				dur := time.Since(start)
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					code = -1
					se.WriteString(err.Error())
				}
				out[w] = append(out[w], concQuery{worker: w, query: q, want: want, dur: dur, duringCrawl: before && r.crawling.Load(),
					code: code, stdout: so.String(), stderr: se.String()})
			}
		}()
	}
	wg.Wait()
	return slices.Concat(out...)
}

// percentile is the nearest-rank p-th percentile (0 < p ≤ 100).
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.999999) - 1
	return s[max(0, min(i, len(s)-1))]
}

func TestPercentile(t *testing.T) {
	ds := []time.Duration{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{50, 5}, {95, 10}, {10, 1}, {100, 10}, {1, 1}} {
		if got := percentile(ds, c.p); got != c.want {
			t.Errorf("percentile(%v) = %d, want %d", c.p, got, c.want)
		}
	}
	if percentile(nil, 50) != 0 {
		t.Error("empty input")
	}
}

// check validates every query and returns the uid → title of every result
// item seen. maxRev is the newest revision written so far.
func (r *concRun) check(qs []concQuery, maxRev int, uids map[string]string) (errs int) {
	t := r.t
	seen := map[int]map[string]int{} // worker → uid → newest revision seen
	for _, q := range qs {
		bad := func(format string, args ...any) {
			errs++
			if errs <= 10 {
				t.Errorf("query %q (worker %d): %s", q.query, q.worker, fmt.Sprintf(format, args...))
			}
		}
		if strings.Contains(q.stdout+q.stderr, "database is locked") {
			bad("output says database is locked:\n%s%s", q.stdout, q.stderr)
		}
		if q.code != 0 || q.stderr != "" {
			bad("exit %d, stderr %q", q.code, q.stderr)
			continue
		}
		items := alfredItems(t, q.stdout)
		if len(items) == 0 || items[0].Valid || !strings.HasPrefix(items[0].Autocomplete, alfred.Marker) {
			bad("no \"search Drive\" item first: %s", q.stdout)
			continue
		}
		if seen[q.worker] == nil {
			seen[q.worker] = map[string]int{}
		}
		found := false
		for _, it := range items[1:] {
			m := concSummaryRe.FindStringSubmatch(it.Subtitle)
			if it.UID == "" || m == nil || it.Title != m[1]+".txt" {
				bad("torn or foreign result item: uid %q title %q subtitle %q", it.UID, it.Title, it.Subtitle)
				continue
			}
			rev, _ := strconv.Atoi(m[2])
			if rev < 1 || rev > maxRev {
				bad("item %s at revision %d, but only 1…%d were written", it.Title, rev, maxRev)
			}
			if prev := seen[q.worker][it.UID]; rev < prev {
				bad("item %s at revision %d after this worker saw revision %d (stale read)", it.Title, rev, prev)
			}
			seen[q.worker][it.UID] = rev
			if old, ok := uids[it.UID]; ok && old != it.Title {
				bad("uid %s titled %q and %q", it.UID, old, it.Title)
			}
			uids[it.UID] = it.Title
			if q.want >= 0 && it.Title == r.corpus.name(q.want) {
				found = true
			}
		}
		if q.want >= 0 && !found {
			bad("the file it names is missing from the results: %s", q.stdout)
		}
	}
	return errs
}

// openIndex opens the run's index through the store API.
type concOpen func(ctx context.Context) (store.Store, error)

// checkIndex checks the final index with the store API: every file's row
// and chunks are of revision rev, and every uid seen names the same file.
func (r *concRun) checkIndex(open concOpen, rev int, uids map[string]string) {
	t := r.t
	ctx := context.Background()
	st, err := open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	abs, err := filepath.Abs(r.corpus.dir)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, r.corpus.n)
	for i := range ids {
		ids[i] = crawl.LocalID(abs, r.corpus.name(i))
	}
	files, err := st.GetFiles(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(ids) {
		t.Fatalf("%d of %d files in the index after the run (files lost: %d)", len(files), len(ids), len(ids)-len(files))
	}
	for i, f := range files {
		if f.Name != r.corpus.name(i) || !strings.HasPrefix(f.Summary, r.corpus.header(i, rev)) {
			t.Errorf("file %s: name %q summary %.60q, want revision %d", f.ID, f.Name, f.Summary, rev)
		}
	}
	for uid, title := range uids {
		got, err := st.GetFiles(ctx, []string{uid})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Name != title {
			t.Errorf("uid %s was %q in a result; in the index now: %+v", uid, title, got)
		}
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	vec := make([]float32, stats.Space.Dim)
	for i := range vec {
		vec[i] = 1
	}
	chunks := 0
	for i, id := range ids {
		hits, err := st.ChunkSearch(ctx, vec, store.Filter{IDs: []string{id}}, 10_000)
		if err != nil {
			t.Fatal(err)
		}
		ords := make([]bool, len(hits))
		for _, h := range hits {
			if h.FileID != id || h.Ordinal < 0 || h.Ordinal >= len(hits) || ords[h.Ordinal] {
				t.Fatalf("file %s: chunk %d of %s among %d chunks", id, h.Ordinal, h.FileID, len(hits))
			}
			ords[h.Ordinal] = true
			if h.Ordinal == 0 && !strings.HasPrefix(h.Text, r.corpus.header(i, rev)) {
				t.Errorf("file %s: first chunk %.40q is not of revision %d (row and chunks disagree)", id, h.Text, rev)
			}
		}
		if len(hits) == 0 {
			t.Errorf("file %s has no chunks", id)
		}
		chunks += len(hits)
	}
	if stats.Files != len(ids) || stats.Chunks != chunks {
		t.Errorf("index holds %d files and %d chunks; the corpus's files have %d and %d (orphaned rows)", stats.Files, stats.Chunks, len(ids), chunks)
	}
}

func runConcAlfred(t *testing.T, backend string, env []string, open concOpen) {
	if os.Getenv("GDS_RELIABILITY_FULL") != "1" {
		// The reduced form asserts correctness only (its latencies are
		// logged, not figures), so its waits overlap the other tests'; the
		// full form runs alone for the latencies docs/RELIABILITY.md quotes.
		t.Parallel()
	}
	form := concFormFor(backend)
	r := &concRun{t: t, bin: gdsBinary(t), env: env, corpus: newConcCorpus(t, form.files), form: form, cwd: t.TempDir()}
	if err := r.corpus.write(1); err != nil {
		t.Fatal(err)
	}
	if err := r.crawl(nil); err != nil {
		t.Fatal(err)
	}
	uids := map[string]string{}

	// Without writes.
	base := r.queries(form.baseline, 1)
	baseErrs := r.check(base, 1, uids)

	// While crawls rewrite every file, round after round.
	stop := make(chan struct{})
	started := make(chan struct{})
	writerDone := make(chan int)
	go func() {
		rev := 1
		first := started
		defer func() {
			if first != nil {
				close(first) // failed before the first crawl
			}
			writerDone <- rev
		}()
		for {
			if err := r.corpus.write(rev + 1); err != nil {
				r.mu.Lock()
				r.crawlErrs = append(r.crawlErrs, err.Error())
				r.mu.Unlock()
				return
			}
			rev++
			err := r.crawl(first)
			first = nil
			if err != nil {
				r.mu.Lock()
				r.crawlErrs = append(r.crawlErrs, err.Error())
				r.mu.Unlock()
				return
			}
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	select {
	case <-started:
	case <-time.After(2 * time.Minute):
		t.Fatal("the crawl indexed nothing within 2 minutes")
	}
	during := r.queries(form.queries, 2)
	close(stop)
	lastRev := <-writerDone
	for _, e := range r.crawlErrs {
		t.Error(e)
	}
	if t.Failed() {
		return
	}
	duringErrs := r.check(during, lastRev, uids)
	r.checkIndex(open, lastRev, uids)

	var baseDur, writeDur []time.Duration
	for _, q := range base {
		baseDur = append(baseDur, q.dur)
	}
	for _, q := range during {
		if q.duringCrawl {
			writeDur = append(writeDur, q.dur)
		}
	}
	if len(writeDur) == 0 {
		t.Errorf("no query ran while a crawl was running; the test proved nothing")
	}
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(max(b, 1)) }
	b50, b95, w50, w95 := percentile(baseDur, 50), percentile(baseDur, 95), percentile(writeDur, 50), percentile(writeDur, 95)
	t.Logf("RELIABILITY alfred-concurrency-%s: %d files, %d crawl processes (revisions 1…%d), %d worker processes at a time; "+
		"%d queries during writes (%d while a crawl process ran), %d without; errors %d; items checked for %d distinct files; "+
		"p50/p95 during crawls %v/%v, without writes %v/%v, ratio %.2f/%.2f",
		backend, form.files, r.crawls.Load(), lastRev, form.workers, len(during), len(writeDur), len(base), baseErrs+duringErrs, len(uids),
		w50.Round(time.Millisecond), w95.Round(time.Millisecond), b50.Round(time.Millisecond), b95.Round(time.Millisecond),
		ratio(w50, b50), ratio(w95, b95))
}

// TestConcurrentAlfredDuringCrawlSQLite: Alfred queries (whole processes,
// several at a time) while crawls write to the embedded index.
func TestConcurrentAlfredDuringCrawlSQLite(t *testing.T) {
	home := t.TempDir()
	runConcAlfred(t, "sqlite", gdsEnv(home), func(ctx context.Context) (store.Store, error) {
		return sqlite.Open(ctx, filepath.Join(home, "index.db"), sqlite.Options{ReadOnly: true})
	})
}

// TestConcurrentAlfredDuringCrawlPostgres: the same against Postgres, in a
// fresh schema of GDS_TEST_DATABASE_URL.
func TestConcurrentAlfredDuringCrawlPostgres(t *testing.T) {
	url := os.Getenv("GDS_TEST_DATABASE_URL")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("GDS_TEST_DATABASE_URL is not set under CI: the Postgres concurrency test must not be skipped")
		}
		t.Skip("GDS_TEST_DATABASE_URL is not set (scripts/test.sh starts PGlite and sets it)")
	}
	schema := storetest.FreshSchema(t, url, "gds_conc_e2e_")
	home := t.TempDir()
	runConcAlfred(t, "postgres", gdsEnv(home, "DATABASE_URL="+url, "GDS_DB_SCHEMA="+schema), func(ctx context.Context) (store.Store, error) {
		return postgres.Open(ctx, url, postgres.WithSchema(schema))
	})
}
