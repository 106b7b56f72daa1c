package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gds-cli/gds/internal/serveload"
)

// serveLoadFlags are the flags of `gdsbench serve-load`.
type serveLoadFlags struct {
	gds         string
	data        string
	url         string
	databaseURL string
	token       string
	chat        int
	search      int
	duration    time.Duration
	grace       time.Duration
	nQueries    int
	queries     []string
	topK        int
	baseline    int
	asJSON      bool
}

// runServeLoad loads a gds serve with concurrent chat streams and searches
// (internal/serveload): either one it starts itself — a temporary GDS_HOME
// (SQLite, or a fresh schema of --database-url) indexed from --data with
// `gds crawl` and the offline provider, served on a free loopback port —
// or a running server at a loopback --url. It fails (exit 2) when any
// request got an error response or was dropped.
func runServeLoad(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f serveLoadFlags
	fs := flag.NewFlagSet("gdsbench serve-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.gds, "gds", "", "the gds binary to start (go build -o bin/gds ./cmd/gds)")
	fs.StringVar(&f.data, "data", "", "folder indexed for the server (gds crawl --source local:FOLDER, offline provider)")
	fs.StringVar(&f.url, "url", "", "load a running gds serve at this loopback URL instead of starting one")
	fs.StringVar(&f.databaseURL, "database-url", "", "serve from Postgres: a fresh schema of this database, dropped at the end (default: SQLite)")
	fs.StringVar(&f.token, "token", os.Getenv("GDS_SERVE_TOKEN"), "bearer token of the server at --url")
	fs.IntVar(&f.chat, "chat", 8, "concurrent clients asking through POST /api/v1/chat/stream")
	fs.IntVar(&f.search, "search", 8, "concurrent clients searching through POST /api/v1/search")
	fs.DurationVar(&f.duration, "duration", 30*time.Second, "how long the clients send requests")
	fs.DurationVar(&f.grace, "grace", 30*time.Second, "how long requests in flight at the end may still take (then they count as dropped)")
	fs.IntVar(&f.nQueries, "queries", 50, "queries made from the server's documents (five words of a chunk each)")
	fs.Func("query", "a query to send instead (repeatable)", func(s string) error { f.queries = append(f.queries, s); return nil })
	fs.IntVar(&f.topK, "top-k", 0, "top_k of every request (0: the server's default, 5)")
	fs.IntVar(&f.baseline, "baseline", 20, "chat streams and searches sent one at a time before the load: the same-run baseline of the ratios (0: none)")
	fs.BoolVar(&f.asJSON, "json", false, "print the result as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if (f.url == "") == (f.data == "") {
		return errors.New("give either --gds BINARY --data FOLDER (start a server) or --url URL (a running loopback server)")
	}
	if f.url != "" && (f.gds != "" || f.databaseURL != "") {
		return errors.New("--gds and --database-url start a server; they do not go with --url")
	}
	if f.data != "" && f.gds == "" {
		return errors.New("--data needs --gds BINARY")
	}
	res := serveLoadResult{GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU(), CPU: cpuModel(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		Store: "running server", Data: f.data}
	target, token := f.url, f.token
	var srv *serveProc
	if f.url == "" {
		token = ""
		var err error
		srv, err = startServe(ctx, f, &res, stderr)
		if srv != nil {
			defer srv.stop(stderr)
		}
		if err != nil {
			return err
		}
		target = srv.url
	}
	if err := serveload.CheckTarget(target); err != nil {
		return err
	}
	queries := f.queries
	if len(queries) == 0 {
		var err error
		if queries, err = serveload.FetchQueries(ctx, nil, target, token, f.nQueries); err != nil {
			return err
		}
	}
	res.LoadBefore = loadAverage()
	fmt.Fprintf(stderr, "loading %s for %s: %d chat/stream clients, %d search clients, %d queries...\n", target, f.duration, f.chat, f.search, len(queries))
	rep, err := serveload.Run(ctx, serveload.Options{
		URL: target, Token: token, ChatClients: f.chat, SearchClients: f.search, Duration: f.duration, Grace: f.grace, Queries: queries, TopK: f.topK,
		Baseline: f.baseline,
	})
	if err != nil {
		return err
	}
	res.LoadAfter = loadAverage()
	res.Report = rep
	if srv != nil {
		res.ServerPeakRSSMB = srv.peakRSSMB()
	}
	res.Failures = rep.Failures()
	if f.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else {
		res.print(stdout)
	}
	if len(res.Failures) > 0 {
		return fmt.Errorf("load run FAILED: %s", strings.Join(res.Failures, "; "))
	}
	return nil
}

// serveLoadResult is the output of gdsbench serve-load.
type serveLoadResult struct {
	GOMAXPROCS      int      `json:"gomaxprocs"`
	NumCPU          int      `json:"num_cpu"`
	CPU             string   `json:"cpu,omitempty"`
	GOOS            string   `json:"goos"`
	GOARCH          string   `json:"goarch"`
	LoadBefore      string   `json:"load_average_before,omitempty"`
	LoadAfter       string   `json:"load_average_after,omitempty"`
	Store           string   `json:"store"`
	Data            string   `json:"data,omitempty"`
	Documents       int      `json:"documents,omitempty"`
	Chunks          int      `json:"chunks,omitempty"`
	IndexSeconds    float64  `json:"index_seconds,omitempty"`
	ServerPeakRSSMB float64  `json:"server_peak_rss_mb,omitempty"`
	Failures        []string `json:"failures"`
	serveload.Report
}

func (r serveLoadResult) print(w io.Writer) {
	fmt.Fprintf(w, "gdsbench serve-load: %s, %.1f s; %s/%s, %d CPUs (GOMAXPROCS %d) %s", r.Target, r.Seconds, r.GOOS, r.GOARCH, r.NumCPU, r.GOMAXPROCS, r.CPU)
	if r.LoadBefore != "" {
		fmt.Fprintf(w, "; load average %s before, %s after", r.LoadBefore, r.LoadAfter)
	}
	fmt.Fprintln(w)
	if r.Data != "" {
		fmt.Fprintf(w, "server: gds serve on %s, %s indexed (%d documents, %d chunks, %.1f s); %d queries; peak RSS %.0f MB\n",
			r.Store, r.Data, r.Documents, r.Chunks, r.IndexSeconds, r.Queries, r.ServerPeakRSSMB)
	}
	fmt.Fprintf(w, "%-12s %7s %8s %7s %7s %8s %8s %8s %8s %8s\n", "kind", "clients", "requests", "errors", "dropped", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms")
	row := func(name string, k serveload.KindReport) {
		fmt.Fprintf(w, "%-12s %7d %8d %7d %7d %8.1f %8.1f %8.1f %8.1f %8.1f\n", name, k.Clients, k.Requests, k.Errors, k.Dropped, k.RequestsPerS,
			k.Latency.P50, k.Latency.P95, k.Latency.P99, k.Latency.Max)
	}
	row("chat/stream", r.Chat)
	if ff := r.Chat.FirstFrame; ff != nil && r.Chat.OK > 0 {
		fmt.Fprintf(w, "%-12s %7s %8s %7s %7s %8s %8.1f %8.1f %8.1f %8.1f  (%.1f frames per answer)\n", "  1st frame", "", "", "", "", "", ff.P50, ff.P95, ff.P99, ff.Max, r.Chat.FramesPerChat)
	}
	row("search", r.Search)
	if b := r.Baseline; b != nil {
		fmt.Fprintf(w, "same-run baseline, %d requests of each kind one at a time before the load:\n", b.Requests)
		row("chat/stream", b.Chat)
		row("search", b.Search)
		fmt.Fprintf(w, "loaded p50 / one-at-a-time p50: chat/stream %.2fx, search %.2fx\n", serveload.Ratio(r.Chat, b.Chat), serveload.Ratio(r.Search, b.Search))
	}
	for _, k := range []serveload.KindReport{r.Chat, r.Search} {
		for _, s := range k.Samples {
			fmt.Fprintf(w, "  error: %s\n", s)
		}
	}
	if len(r.Failures) == 0 {
		fmt.Fprintln(w, "PASS: no error responses, nothing dropped")
	} else {
		fmt.Fprintf(w, "FAIL: %s\n", strings.Join(r.Failures, "; "))
	}
}

// serveProc is a gds serve started by the benchmark.
type serveProc struct {
	cmd    *exec.Cmd
	url    string
	done   chan struct{}
	mu     sync.Mutex
	log    []string // the server's last stderr lines
	dropPG func()
	home   string
}

var listeningRE = regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`)

// startServe indexes f.data into a temporary home and starts gds serve on
// a free loopback port. The returned serveProc (non-nil once anything was
// created) must be stopped.
func startServe(ctx context.Context, f serveLoadFlags, res *serveLoadResult, stderr io.Writer) (*serveProc, error) {
	home, err := os.MkdirTemp("", "gdsbench-serve-*")
	if err != nil {
		return nil, fmt.Errorf("create a temporary GDS_HOME: %w", err)
	}
	p := &serveProc{home: home, done: make(chan struct{})}
	env := append(os.Environ(), "GDS_HOME="+home, "GDS_AI_PROVIDER=offline", "LANG=C", "LC_ALL=", "LC_MESSAGES=",
		"GDS_DATABASE_URL=", "DATABASE_URL=", "SUPABASE_DB_URL=", "GDS_DB_SCHEMA=", "GDS_SOURCE=", "GDS_UPLOAD_DIR=", "GDS_SERVE_TOKEN=")
	res.Store = "SQLite"
	if f.databaseURL != "" {
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		schema := "gdsbench_load_" + hex.EncodeToString(b)
		env = append(env, "DATABASE_URL="+f.databaseURL, "GDS_DB_SCHEMA="+schema)
		p.dropPG = func() { dropSchema(f.databaseURL, schema, stderr) }
		res.Store = "Postgres"
	}
	fmt.Fprintf(stderr, "indexing %s into a temporary GDS_HOME on %s (gds crawl, offline provider)...\n", f.data, res.Store)
	t0 := time.Now()
	if out, err := runGDS(ctx, f.gds, env, []string{"crawl", "--source", "local:" + f.data}); err != nil {
		return p, fmt.Errorf("gds crawl --source local:%s: %w\n%s", f.data, err, out)
	}
	res.IndexSeconds = time.Since(t0).Seconds()

	cmd := exec.Command(f.gds, "serve", "--addr", "127.0.0.1:0")
	cmd.Env = env
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return p, err
	}
	if err := cmd.Start(); err != nil {
		return p, fmt.Errorf("start gds serve: %w", err)
	}
	p.cmd = cmd
	found := make(chan string, 1)
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.log = append(p.log, line)
			if len(p.log) > 50 {
				p.log = p.log[1:]
			}
			p.mu.Unlock()
			if m := listeningRE.FindStringSubmatch(line); m != nil {
				select {
				case found <- "http://" + m[1]:
				default:
				}
			}
		}
		_ = cmd.Wait()
	}()
	select {
	case p.url = <-found:
	case <-p.done:
		return p, fmt.Errorf("gds serve exited before it listened:\n%s", p.lastLog())
	case <-time.After(time.Minute):
		return p, fmt.Errorf("gds serve did not say where it listens within a minute:\n%s", p.lastLog())
	case <-ctx.Done():
		return p, ctx.Err()
	}
	if err := waitHealthy(ctx, p.url); err != nil {
		return p, fmt.Errorf("%w\n%s", err, p.lastLog())
	}
	var list struct {
		Items []struct {
			ChunkCount int `json:"chunk_count"`
		} `json:"items"`
		Total int `json:"total"`
	}
	for page := 1; ; page++ {
		if err := getJSON(ctx, fmt.Sprintf("%s/api/v1/documents?per_page=100&page=%d", p.url, page), &list); err != nil {
			return p, err
		}
		for _, it := range list.Items {
			res.Chunks += it.ChunkCount
		}
		res.Documents = list.Total
		if len(list.Items) < 100 {
			break
		}
	}
	return p, nil
}

func getJSON(ctx context.Context, url string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: status %d", url, resp.StatusCode)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// waitHealthy polls /health until it answers 200 (a minute at most).
func waitHealthy(ctx context.Context, base string) error {
	deadline := time.Now().Add(time.Minute)
	var last string
	for time.Now().Before(deadline) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/health", nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Sprintf("status %d: %s", resp.StatusCode, b)
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return fmt.Errorf("gds serve at %s is not healthy: %s", base, last)
}

func (p *serveProc) lastLog() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.log, "\n")
}

// peakRSSMB is the server's peak resident set (Linux VmHWM), 0 elsewhere.
func (p *serveProc) peakRSSMB() float64 {
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb float64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%f kB", &kb); err == nil {
				return kb / 1024
			}
		}
	}
	return 0
}

// stop interrupts the server (it finishes requests in flight), kills it
// if it has not exited after 15 s, drops the Postgres schema and removes
// the temporary home.
func (p *serveProc) stop(stderr io.Writer) {
	if p.cmd != nil && p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.done:
		case <-time.After(15 * time.Second):
			fmt.Fprintln(stderr, "gds serve did not stop within 15 s of an interrupt; killing it")
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}
	if p.dropPG != nil {
		p.dropPG()
	}
	if p.home != "" {
		_ = os.RemoveAll(p.home)
	}
}

// dropSchema removes the benchmark's Postgres schema.
func dropSchema(url, schema string, stderr io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	conn, err := pgx.Connect(ctx, url+sep+"default_query_exec_mode=simple_protocol")
	if err != nil {
		fmt.Fprintf(stderr, "warning: could not connect to drop schema %s: %v\n", schema, err)
		return
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
		fmt.Fprintf(stderr, "warning: could not drop schema %s: %v\n", schema, err)
	}
}

// cpuModel is the CPU's model name (Linux), or "".
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
