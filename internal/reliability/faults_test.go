package reliability

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai/offline"
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

// TestDriveFaultStorm crawls a few hundred Drive files (Docs, Sheets, text
// blobs) through the real drive/v3 client while the emulator answers about a
// third of the content requests with 429, 403 userRateLimitExceeded, 403
// rateLimitExceeded, 500/502/503, a stall past the client timeout, a dropped
// connection or a truncated body.
//
//   - With the production retry policy (8 tries) every file is indexed by the
//     first crawl.
//   - With a tight policy (3 tries) some files run out of tries: each is
//     reported as a failed file, the checkpoint stays before it, and the
//     next crawl (same storm) indexes it.
//
// The backoff waits are counted, not slept (RetryPolicy.Sleep). The wall
// time is compared with the same crawl without faults, measured in the same
// run.
func TestDriveFaultStorm(t *testing.T) {
	n := scale(300, 2000)
	prov := offline.New()
	hc := &http.Client{Timeout: clientTimeout}
	ctx := context.Background()

	// Baseline: the same crawl without faults.
	base := newCorpus(t, n, nil)
	baseIdx := openIndex(t)
	start := time.Now()
	sum, err := crawlOnce(ctx, t, base, baseIdx, prov, hc, drive.RetryPolicy{Sleep: (&retryCounter{}).sleep})
	baseline := time.Since(start)
	if err != nil || len(sum.Failed) > 0 || indexed(t, base, baseIdx) != n {
		t.Fatalf("baseline crawl: err %v, %d failed%s", err, len(sum.Failed), problems(sum.Failed))
	}
	baseCalls := base.emu.Stats().Total()

	for _, sc := range []struct {
		name        string
		maxAttempts int // 0: production default
		seed        uint64
		sameCrawl   bool // every file must be indexed by the first crawl
	}{
		{"production policy", 0, driveStormSeed, true},
		{"tight policy", 3, driveStormSeed + 1, false},
	} {
		t.Run(sc.name, func(t *testing.T) {
			c := newCorpus(t, n, nil)
			idx := openIndex(t)
			installDriveStorm(c.emu.Faults(), sc.seed)
			rc := &retryCounter{}
			rp := drive.RetryPolicy{MaxAttempts: sc.maxAttempts, Sleep: rc.sleep}

			var (
				crawls, crawlErrors, failedFiles int
				firstFailed                      []string
			)
			start := time.Now()
			for crawls < 5 {
				crawls++
				sum, err := crawlOnce(ctx, t, c, idx, prov, hc, rp)
				checkCheckpoint(t, c, idx)
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
				if len(sum.Failed) == 0 && indexed(t, c, idx) == n {
					break
				}
			}
			elapsed := time.Since(start)
			got := indexed(t, c, idx)
			if got != n {
				t.Fatalf("%d of %d files indexed after %d crawls", got, n, crawls)
			}
			if sc.sameCrawl && (crawls != 1 || failedFiles != 0) {
				t.Errorf("the production policy needed %d crawls (%d failed files: %v)", crawls, failedFiles, firstFailed)
			}
			if !sc.sameCrawl && failedFiles == 0 {
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
				retries, waited.Round(time.Millisecond), elapsed.Round(time.Millisecond), baseline.Round(time.Millisecond), ratio(elapsed, baseline))
		})
	}
}
