package reliability

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/driveemu"
)

// driveStormSeed fixes which requests meet a fault.
const driveStormSeed = 20250601

// clientTimeout is the per-request timeout of the storm's HTTP client; the
// timeout fault holds a request for stallFor, well past it.
const (
	clientTimeout = 150 * time.Millisecond
	stallFor      = 400 * time.Millisecond
)

// installDriveStorm adds the mixed fault rules. Content calls (files.get,
// alt=media, export: paths under /drive/v3/files/) meet about one fault in
// three; listings about one in eight, so that a listing rarely runs out of
// tries (that would stop a whole crawl, which is tested separately in
// internal/drive).
func installDriveStorm(f *driveemu.Faults, seed uint64) {
	f.Clear()
	f.Seed(seed)
	content := func(r driveemu.Rule, p float64) driveemu.Rule {
		r = r.WithProbability(p)
		r.PathPrefix = "/drive/v3/files/"
		return r
	}
	for _, r := range []driveemu.Rule{
		content(driveemu.Latency(stallFor), 0.02), // beyond the client timeout
		content(driveemu.TooManyRequests(time.Second), 0.06),
		content(driveemu.UserRateLimitExceeded(), 0.05),
		content(driveemu.RateLimitExceeded(), 0.05),
		content(driveemu.ServerError(500), 0.03),
		content(driveemu.ServerError(502), 0.02),
		content(driveemu.ServerError(503), 0.03),
		content(driveemu.DropConnection(), 0.03),
		content(driveemu.TruncateBody(), 0.05),
		driveemu.TooManyRequests(time.Second).On(driveemu.EndpointList).WithProbability(0.05),
		driveemu.UserRateLimitExceeded().On(driveemu.EndpointList).WithProbability(0.03),
		driveemu.ServerError(503).On(driveemu.EndpointList).WithProbability(0.03),
		driveemu.DropConnection().On(driveemu.EndpointList).WithProbability(0.01),
		driveemu.TruncateBody().On(driveemu.EndpointList).WithProbability(0.02),
	} {
		f.Add(r)
	}
}

// TestDriveFaultStorm crawls Drive files (Docs, Sheets, text blobs; 150 in
// the CI form, 2,000 in the full form) through the real drive/v3 client while the emulator answers about a
// third of the content requests with 429, 403 userRateLimitExceeded, 403
// rateLimitExceeded, 500/502/503, a stall past the client timeout, a dropped
// connection or a truncated body.
//
//   - A file whose every try meets a fault is reported as failed ("gave up
//     after N tries"), the checkpoint stays before it, and the next crawl
//     (same storm) indexes it; a listing that runs out of tries stops the
//     crawl, and the next one resumes. Either way nothing is lost: after
//     every crawl no file at or before the checkpoint is missing.
//   - With the production retry policy (8 tries) at most 1% of the files
//     need that second crawl (in the CI form usually none; the full form's
//     2,000 files typically have one).
//   - A tight policy (2 tries; 3 in the full form) must produce such failures, so the
//     retry-next-crawl path is exercised in every run.
//
// The backoff waits are counted, not slept (RetryPolicy.Sleep). The wall
// time is compared with the same crawl without faults, measured in the same
// run. The AI provider is openaitest's cheap deterministic backend: this
// storm is about Drive, and the OpenAI storm below covers the provider.
func TestDriveFaultStorm(t *testing.T) {
	n := stormScale(150, 2000)
	prov := openaitest.NewSimpleBackend(openaitest.DefaultSimpleDim)
	hc := &http.Client{Timeout: clientTimeout}
	ctx := context.Background()

	// baseline times the same crawl without faults, right before each storm
	// (the machine is shared, so the two are measured side by side).
	baseline := func(t *testing.T) (time.Duration, int) {
		base := newStormCorpus(t, n, nil)
		baseIdx := stormIndex(t)
		start := time.Now()
		sum, err := stormCrawl(ctx, t, base, baseIdx, prov, hc, drive.RetryPolicy{Sleep: (&stormRetries{}).sleep})
		elapsed := time.Since(start)
		if err != nil || len(sum.Failed) > 0 || stormIndexed(t, base, baseIdx) != n {
			t.Fatalf("baseline crawl: err %v, %d failed%s", err, len(sum.Failed), stormProblems(sum.Failed))
		}
		return elapsed, base.emu.Stats().Total()
	}

	for _, sc := range []struct {
		name        string
		maxAttempts int // 0: production default
		seed        uint64
		production  bool // at most 1% of the files may need a second crawl
	}{
		{"production policy", 0, driveStormSeed, true},
		// 2 tries for 150 files, 3 for 2,000: enough files run out of tries
		// either way, and listings rarely do.
		{"tight policy", stormScale(2, 3), driveStormSeed + 1, false},
	} {
		t.Run(sc.name, func(t *testing.T) {
			baseline, baseCalls := baseline(t)
			c := newStormCorpus(t, n, nil)
			idx := stormIndex(t)
			installDriveStorm(c.emu.Faults(), sc.seed)
			rc := &stormRetries{}
			rp := drive.RetryPolicy{MaxAttempts: sc.maxAttempts, Sleep: rc.sleep}

			var (
				crawls, crawlErrors, failedFiles int
				firstFailed                      []string
			)
			start := time.Now()
			for crawls < 10 {
				crawls++
				sum, err := stormCrawl(ctx, t, c, idx, prov, hc, rp)
				stormCheckpoint(t, c, idx)
				if err != nil {
					// A listing that ran out of tries stops the crawl: a clear
					// error, nothing lost (checked above), the next crawl resumes.
					if !strings.Contains(err.Error(), "list files") {
						t.Fatalf("crawl %d stopped with an unexpected error: %v", crawls, err)
					}
					crawlErrors++
					continue
				}
				for _, p := range sum.Failed {
					if !strings.Contains(p.Reason, "gave up after") {
						t.Errorf("crawl %d: %s failed without saying it ran out of tries: %s", crawls, p.Name, p.Reason)
					}
					if crawls == 1 {
						firstFailed = append(firstFailed, p.Name)
					}
				}
				failedFiles += len(sum.Failed)
				// Done when every file is in the index. (A later crawl may still
				// re-fail a re-listed file: a failure holds the checkpoint, so
				// everything after it is listed and downloaded again, at no AI
				// cost; that is not a lost file.)
				if stormIndexed(t, c, idx) == n {
					break
				}
			}
			elapsed := time.Since(start)
			got := stormIndexed(t, c, idx)
			if got != n {
				t.Fatalf("%d of %d files indexed after %d crawls", got, n, crawls)
			}
			if sc.production && (len(firstFailed)*100 > n || crawls > 2) {
				t.Errorf("the production policy failed %d files in the first crawl and needed %d crawls: %v", len(firstFailed), crawls, firstFailed)
			}
			if !sc.production && failedFiles == 0 {
				t.Errorf("the tight policy never ran out of tries: the storm does not exercise the retry-next-crawl path")
			}
			st := c.emu.Stats()
			injected := 0
			for _, v := range st.Faults {
				injected += v
			}
			retries, waited := rc.get()
			if injected == 0 || retries < injected/2 {
				t.Errorf("faults injected %d, retries %d: the storm did not reach the client", injected, retries)
			}
			t.Logf("drive storm (%s, seed %d): files %d, indexed %d, failed-then-reindexed %d, crawls %d (stopped %d); "+
				"requests %d (baseline %d), faults injected %d %v, retries %d (backoff asked %s, not slept); wall %s vs baseline %s = %.2fx",
				sc.name, sc.seed, n, got, failedFiles, crawls, crawlErrors, st.Total(), baseCalls, injected, st.Faults,
				retries, waited.Round(time.Millisecond), elapsed.Round(time.Millisecond), baseline.Round(time.Millisecond), stormRatio(elapsed, baseline))
		})
	}
}

// openAIStorm wraps the OpenAI-compatible test server: on chat and
// embeddings requests it injects, with a seeded probability, a 429 with
// retry-after-ms, a 500/502/503, a 200 whose JSON body is cut off, or a
// dropped connection, by queueing the scripted reply just before the
// request is served. It counts what it injected.
type openAIStorm struct {
	h    *openaitest.Handler
	p    float64
	mu   sync.Mutex
	rng  *rand.Rand
	hits map[string]int
	// fastServerErrors sends retry-after-ms with 5xx answers, so the SDK
	// retries at once instead of after its own 0.5–8 s backoff (CI form).
	fastServerErrors bool
}

func (s *openAIStorm) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == openaitest.PathChat || r.URL.Path == openaitest.PathEmbeddings {
		s.mu.Lock()
		fire := s.rng.Float64() < s.p
		pick := s.rng.IntN(10)
		s.mu.Unlock()
		if fire {
			var (
				reply openaitest.Reply
				kind  string
			)
			switch {
			case pick < 4:
				reply, kind = openaitest.RateLimited(20*time.Millisecond), "429"
			case pick < 7:
				status := []int{500, 502, 503}[pick-4]
				reply, kind = openaitest.ServerError(status), "5xx"
				if s.fastServerErrors {
					reply.Header = http.Header{"Retry-After-Ms": {"10"}}
				}
			case pick < 9:
				reply, kind = openaitest.Reply{Fault: openaitest.FaultMalformedJSON}, "malformed"
			default:
				reply, kind = openaitest.Reply{Fault: openaitest.FaultDropConnection}, "drop"
			}
			reply.Path = r.URL.Path
			s.h.Enqueue(reply)
			s.mu.Lock()
			s.hits[kind]++
			s.mu.Unlock()
		}
	}
	s.h.ServeHTTP(w, r)
}

func (s *openAIStorm) injected() (map[string]int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out, n := map[string]int{}, 0
	for k, v := range s.hits {
		out[k] = v
		n += v
	}
	return out, n
}

// openAIStormKey is a fake API key; no output may contain it.
const openAIStormKey = "sk-test-SECRET-storm-0123456789"

// TestOpenAIFaultStorm crawls the same kind of Drive tree (no Drive faults)
// with the openai provider against the OpenAI-compatible test server while
// about one chat or embeddings request in five meets a 429 (retry-after-ms),
// a 5xx, a cut-off JSON body or a dropped connection. The SDK retries 429,
// 5xx and drops (app.OpenAIMaxRetries); a malformed answer fails the file
// with a clear "openai: … malformed response" reason, and the next crawl
// (same storm) indexes it. The checkpoint never passes an unindexed file.
func TestOpenAIFaultStorm(t *testing.T) {
	n := stormScale(90, 1000)
	ctx := context.Background()
	newProvider := func(t *testing.T, url string) *openai.Provider {
		p, err := openai.New(openai.Config{APIKey: openAIStormKey, BaseURL: url, Timeout: 10 * time.Second, MaxRetries: app.OpenAIMaxRetries})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := func(t *testing.T, p float64, seed uint64) (crawls, failedFiles int, failures []string, elapsed time.Duration, c *stormCorpus, st *openAIStorm) {
		c = newStormCorpus(t, n, nil)
		st = &openAIStorm{h: openaitest.NewHandler(openaitest.WithAPIKey(openAIStormKey)), p: p,
			rng: rand.New(rand.NewPCG(seed, seed)), hits: map[string]int{}, fastServerErrors: !full()}
		srv := httptest.NewServer(st)
		t.Cleanup(srv.Close)
		prov := newProvider(t, srv.URL+"/v1")
		idx := stormIndex(t)
		start := time.Now()
		for crawls < 6 {
			crawls++
			sum, err := stormCrawl(ctx, t, c, idx, prov, nil, drive.RetryPolicy{Sleep: (&stormRetries{}).sleep})
			stormCheckpoint(t, c, idx)
			if err != nil {
				t.Fatalf("crawl %d stopped: %v", crawls, err)
			}
			for _, f := range sum.Failed {
				failures = append(failures, f.Reason)
			}
			failedFiles += len(sum.Failed)
			if len(sum.Failed) == 0 {
				break
			}
		}
		elapsed = time.Since(start)
		if got := stormIndexed(t, c, idx); got != n {
			t.Fatalf("%d of %d files indexed after %d crawls; failures:%v", got, n, crawls, failures)
		}
		return crawls, failedFiles, failures, elapsed, c, st
	}

	_, _, _, baseline, _, _ := run(t, 0, 1)
	crawls, failedFiles, failures, elapsed, _, st := run(t, 0.2, driveStormSeed)
	hits, injected := st.injected()
	reqs := len(st.h.Requests())
	for _, f := range failures {
		cleared := strings.Contains(f, "openai: ") && (strings.Contains(f, "malformed response") || strings.Contains(f, "attempts"))
		if !cleared || strings.Contains(f, openAIStormKey) {
			t.Errorf("unclear or leaking per-file failure: %q", f)
		}
	}
	if hits["malformed"] > 0 && failedFiles == 0 {
		t.Errorf("%d malformed answers and no failed file: the malformed answers did not reach the provider", hits["malformed"])
	}
	if injected == 0 {
		t.Fatal("no fault injected")
	}
	t.Logf("openai storm (seed %d): files %d, indexed %d, failed-then-reindexed %d, crawls %d; requests %d, faults injected %d %v; wall %s vs baseline %s = %.2fx",
		uint64(driveStormSeed), n, n, failedFiles, crawls, reqs, injected, hits,
		elapsed.Round(time.Millisecond), baseline.Round(time.Millisecond), stormRatio(elapsed, baseline))
}
