package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gds-cli/gds/internal/driveemu"
)

// SearchFault is one failure injected under `gds search --json`.
type SearchFault struct {
	Name string
	// Env is added to the search's environment (after the crawl's).
	Env func(f *searchFaultEnv) []string
	// Mode is the Drive emulator's behaviour during the searches.
	Mode int32
}

// Drive modes of the search-fault harness.
const (
	DriveHealthy int32 = iota
	DriveRateLimited
	DriveHanging
)

// searchFaultEnv holds the addresses a fault points gds at.
type searchFaultEnv struct {
	Refused   string // host:port where nothing listens
	BlackHole string // host:port that accepts and never answers
}

// SearchFaults are the failures of docs/RELIABILITY.md, "Search under
// failure", in table order.
var SearchFaults = []SearchFault{
	{Name: "none (healthy Drive emulator)", Mode: DriveHealthy},
	{Name: "Drive refuses connections", Env: func(f *searchFaultEnv) []string {
		return []string{"GDS_DRIVE_ENDPOINT=http://" + f.Refused}
	}},
	{Name: "Drive 100 % 429 (Retry-After: 30)", Mode: DriveRateLimited},
	{Name: "Drive never answers", Mode: DriveHanging},
	{Name: "OpenAI base URL refuses connections", Env: func(f *searchFaultEnv) []string {
		return []string{"GDS_AI_PROVIDER=openai", "OPENAI_API_KEY=sk-test-not-a-key", "OPENAI_BASE_URL=http://" + f.Refused + "/v1"}
	}},
	{Name: "database black hole (accepts, never answers)", Env: func(f *searchFaultEnv) []string {
		return []string{"DATABASE_URL=postgres://gds:pw@" + f.BlackHole + "/gds?sslmode=disable"}
	}},
	{Name: "database refuses connections", Env: func(f *searchFaultEnv) []string {
		return []string{"DATABASE_URL=postgres://gds:pw@" + f.Refused + "/gds?sslmode=disable"}
	}},
}

// SearchFaultRow is the evidence of one fault: N searches.
type SearchFaultRow struct {
	Fault    string  `json:"fault"`
	Runs     int     `json:"runs"`
	P50      float64 `json:"p50_seconds"`
	P95      float64 `json:"p95_seconds"`
	Max      float64 `json:"max_seconds"`
	Answered int     `json:"answered"` // runs that found the expected file
	Degraded int     `json:"degraded"` // runs marked degraded
	Errors   int     `json:"errors"`   // runs that failed
	Outcome  string  `json:"outcome"`  // the degraded reasons or the error, as seen
}

// FaultyDrive serves a Drive emulator, or one of the faults by Mode: a 100 %
// 429 storm with a 30 s Retry-After (DriveRateLimited) or requests that
// never get an answer (DriveHanging) until Release. The search-under-failure
// figures and the degrade end-to-end tests share it.
type FaultyDrive struct {
	emu  http.Handler
	mode atomic.Int32
	done chan struct{}
}

// NewFaultyDrive wraps emu; it starts healthy.
func NewFaultyDrive(emu http.Handler) *FaultyDrive {
	return &FaultyDrive{emu: emu, done: make(chan struct{})}
}

// SetMode switches the fault (DriveHealthy, DriveRateLimited, DriveHanging, …).
func (h *FaultyDrive) SetMode(m int32) { h.mode.Store(m) }

// Release answers every held request and holds none after (call once, at the end).
func (h *FaultyDrive) Release() { close(h.done) }

// ServeHTTP implements http.Handler.
func (h *FaultyDrive) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch h.mode.Load() {
	case DriveRateLimited:
		w.Header().Set("Retry-After", "30")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":{"code":429,"message":"Rate Limit Exceeded","errors":[{"domain":"usageLimits","reason":"rateLimitExceeded","message":"Rate Limit Exceeded"}]}}`)
	case DriveHanging:
		select {
		case <-r.Context().Done():
		case <-h.done:
		}
	default:
		h.emu.ServeHTTP(w, r)
	}
}

// RunSearchFaults crawls a small Drive (the emulator, offline provider,
// SQLite in home) with the gds binary bin, then runs `gds search --json`
// runs times under each fault and measures the time to an answer or an
// error. query must find the file named want.
func RunSearchFaults(ctx context.Context, bin, home string, runs int, logf func(string, ...any)) ([]SearchFaultRow, error) {
	emu := driveemu.New()
	top := emu.AddFolder(driveemu.RootAlias, "Team")
	emu.AddDoc(top, "Project Alpha plan", "The alpha launch plan and its budget for the quarter.")
	for i := range 40 {
		emu.AddDoc(top, fmt.Sprintf("Meeting notes %02d", i), fmt.Sprintf("Weekly meeting %d: hiring, travel and office topics.", i))
	}
	h := NewFaultyDrive(emu)
	defer h.Release()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	refused, err := freeAddr()
	if err != nil {
		return nil, err
	}
	hole, stopHole, err := blackHole()
	if err != nil {
		return nil, err
	}
	defer stopHole()
	env := append(cleanEnv(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "GDS_SOURCE=drive",
		"GDS_DRIVE_ENDPOINT=http://"+ln.Addr().String(), "GOOGLE_DRIVE_TARGET_FOLDER_IDS="+top)
	if _, _, _, err := runGDS(ctx, bin, home, env, "crawl"); err != nil {
		return nil, fmt.Errorf("crawl: %w", err)
	}
	fenv := &searchFaultEnv{Refused: refused, BlackHole: hole}
	var rows []SearchFaultRow
	for _, f := range SearchFaults {
		h.mode.Store(f.Mode)
		e := env
		if f.Env != nil {
			e = append(append([]string{}, env...), f.Env(fenv)...)
		}
		row := SearchFaultRow{Fault: f.Name, Runs: runs}
		var times []float64
		seen := map[string]bool{}
		for range runs {
			stdout, stderr, wall, err := runGDS(ctx, bin, home, e, "search", "--json", "alpha launch")
			if ctx.Err() != nil {
				return rows, ctx.Err()
			}
			times = append(times, wall.Seconds())
			var doc struct {
				Results []struct {
					Name string `json:"name"`
				} `json:"results"`
				Degraded []struct {
					Service, Reason string
				} `json:"degraded"`
				Error *struct {
					Code, Message string
				} `json:"error"`
			}
			_ = json.Unmarshal([]byte(stdout), &doc)
			switch {
			case err != nil || doc.Error != nil:
				row.Errors++
				msg := strings.TrimSpace(stderr)
				if doc.Error != nil {
					msg = "error (" + doc.Error.Code + "): " + doc.Error.Message
				}
				seen[msg] = true
			default:
				if len(doc.Results) > 0 && doc.Results[0].Name == "Project Alpha plan" {
					row.Answered++
				}
				if len(doc.Degraded) > 0 {
					row.Degraded++
					for _, d := range doc.Degraded {
						seen["degraded: "+d.Service+"/"+d.Reason] = true
					}
				} else {
					seen["answered"] = true
				}
			}
		}
		row.P50, row.P95, row.Max = percentile(times, 0.5), percentile(times, 0.95), percentile(times, 1)
		var outs []string
		for k := range seen {
			outs = append(outs, k)
		}
		sort.Strings(outs)
		row.Outcome = strings.Join(outs, "; ")
		if logf != nil {
			logf("%s: p50 %.2fs p95 %.2fs, %d/%d answered, %d degraded, %d errors", f.Name, row.P50, row.P95, row.Answered, runs, row.Degraded, row.Errors)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// runGDS runs one gds command and measures it.
func runGDS(ctx context.Context, bin, dir string, env []string, args ...string) (string, string, time.Duration, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env, cmd.Dir = env, dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	start := time.Now()
	err := cmd.Run()
	return o.String(), e.String(), time.Since(start), err
}

// percentile is the nearest-rank percentile p (0–1) of xs.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(p*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// freeAddr is a loopback address where nothing listens.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	return addr, l.Close()
}

// blackHole accepts connections and never answers.
func blackHole() (string, func(), error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	return l.Addr().String(), func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}, nil
}
