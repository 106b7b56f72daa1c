package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/auth"
	"github.com/gds-cli/gds/internal/auth/authtest"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// tokenLedger learns the lifetime of every access token the fake OAuth
// server issues (it sits in front of the token endpoint), so the Drive
// gate can reject expired ones as Google does.
type tokenLedger struct {
	mu      sync.Mutex
	expiry  map[string]time.Time
	grants  []string
	refresh int // refresh_token grants answered 200
}

func (l *tokenLedger) expiresAt(tok string) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t, ok := l.expiry[tok]
	return t, ok
}

func (l *tokenLedger) refreshes() (int, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.refresh, append([]string(nil), l.grants...)
}

func (l *tokenLedger) set(tok string, t time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.expiry[tok] = t
}

// tokenProxy forwards token requests to the fake server and records the
// access token and expires_in of each answer.
func (l *tokenLedger) tokenProxy(upstream string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, upstream, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		form, _ := url.ParseQuery(string(body))
		var tok struct {
			AccessToken string `json:"access_token"`
			ExpiresIn   int    `json:"expires_in"`
		}
		l.mu.Lock()
		l.grants = append(l.grants, fmt.Sprintf("%s:%d", form.Get("grant_type"), resp.StatusCode))
		if resp.StatusCode == http.StatusOK && json.Unmarshal(out, &tok) == nil && tok.AccessToken != "" {
			l.expiry[tok.AccessToken] = time.Now().Add(time.Duration(tok.ExpiresIn) * time.Second)
			if form.Get("grant_type") == "refresh_token" {
				l.refresh++
			}
		}
		l.mu.Unlock()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		w.Write(out)
	})
}

// driveGate checks the bearer token of every Drive request the way Google
// does (401 authError for a missing, unknown or expired token) and counts
// the requests per token. From the hold-th request made with the first
// token on, requests with that token wait until release (onHold runs once,
// at the hold-th): the test uses it to let the first token expire (and
// optionally revoke the grant) in the middle of the crawl.
type driveGate struct {
	next    http.Handler
	ledger  *tokenLedger
	hold    int
	onHold  func()
	release time.Time

	mu       sync.Mutex
	first    string
	perToken map[string]int
	rejected int
}

func (g *driveGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	exp, known := g.ledger.expiresAt(tok)
	if tok == "" || !known || !time.Now().Before(exp) {
		g.mu.Lock()
		g.rejected++
		g.mu.Unlock()
		w.Header().Set("WWW-Authenticate", `Bearer realm="https://accounts.google.com/", error="invalid_token"`)
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"code":401,"message":"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.","errors":[{"message":"Invalid Credentials","domain":"global","reason":"authError","location":"Authorization","locationType":"header"}],"status":"UNAUTHENTICATED"}}`)
		return
	}
	g.mu.Lock()
	if g.first == "" {
		g.first = tok
	}
	g.perToken[tok]++
	held := g.hold > 0 && tok == g.first && g.perToken[tok] >= g.hold
	trigger := held && g.perToken[tok] == g.hold
	g.mu.Unlock()
	if trigger && g.onHold != nil {
		g.onHold()
	}
	if held {
		time.Sleep(time.Until(g.release))
	}
	g.next.ServeHTTP(w, r)
}

func (g *driveGate) counts() (first, later, rejected int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for tok, n := range g.perToken {
		if tok == g.first {
			first += n
		} else {
			later += n
		}
	}
	return first, later, g.rejected
}

// googleAPIs sends requests for *.googleapis.com to the emulator and
// everything else (the OAuth server) where it was going.
type googleAPIs struct{ emulator *url.URL }

func (t googleAPIs) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Hostname(), "googleapis.com") {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host, r.Host = t.emulator.Scheme, t.emulator.Host, t.emulator.Host
	}
	return http.DefaultTransport.RoundTrip(r)
}

// oauthCrawl is gds signed in to the fake OAuth server, crawling the Drive
// emulator through Google's endpoint (no GDS_DRIVE_ENDPOINT), so that the
// real OAuth transport, refresh and token persistence run.
type oauthCrawl struct {
	t      *testing.T
	srv    *authtest.Server
	ledger *tokenLedger
	gate   *driveGate
	emu    *driveemu.Emulator
	ids    []string
	env    map[string]string
	store  auth.FileStore
	// endpoints are the OAuth URLs (token requests through the ledger);
	// emulator is where googleapis.com requests go.
	endpoints auth.Endpoints
	emulator  *url.URL
	// runHook, if set, adjusts the Deps of every run.
	runHook func(*app.Deps)
	stdout  lockedBuffer
	stderr  lockedBuffer
}

func newOAuthCrawl(t *testing.T, files int) *oauthCrawl {
	t.Helper()
	return newOAuthCrawlWith(t, files, nil)
}

// newOAuthCrawlWith is newOAuthCrawl with configure run before the login
// (to change the environment or the fake server).
func newOAuthCrawlWith(t *testing.T, files int, configure func(*oauthCrawl)) *oauthCrawl {
	t.Helper()
	srv := authtest.New(t)
	o := &oauthCrawl{t: t, srv: srv, ledger: &tokenLedger{expiry: map[string]time.Time{}}, emu: driveemu.New()}
	top := o.emu.AddFolder("root", "Shared notes")
	for i := range files {
		o.ids = append(o.ids, o.emu.AddDoc(top, fmt.Sprintf("note %03d", i), fmt.Sprintf("Meeting note %d about the rollout of region %d.", i, i%7)))
	}
	o.gate = &driveGate{next: o.emu, ledger: o.ledger, perToken: map[string]int{}}
	drv := httptest.NewServer(o.gate)
	t.Cleanup(drv.Close)
	tok := httptest.NewServer(o.ledger.tokenProxy(srv.URL + "/token"))
	t.Cleanup(tok.Close)
	home := t.TempDir()
	o.env = map[string]string{
		config.EnvHome:              home,
		config.EnvOAuthClientID:     srv.ClientID,
		config.EnvOAuthClientSecret: srv.ClientSecret,
		config.EnvDriveFolderIDs:    top,
		config.EnvAIProvider:        "offline",
	}
	o.store = auth.NewFileStore(home)
	o.emulator, _ = url.Parse(drv.URL)
	o.endpoints = srv.Endpoints()
	o.endpoints.TokenURL = tok.URL
	if configure != nil {
		configure(o)
	}
	if code := o.run("auth", "login"); code != exitOK {
		t.Fatalf("gds auth login: exit %d\n%s", code, o.output())
	}
	return o
}

// run runs gds in-process. GoogleHTTPClient is the production one; its
// base transport (GoogleBaseClient) reaches the emulator for googleapis.com.
func (o *oauthCrawl) run(args ...string) int {
	o.t.Helper()
	o.stdout.Reset()
	o.stderr.Reset()
	cfg, err := config.Load(config.LoadOptions{
		LookupEnv: func(k string) (string, bool) { v, ok := o.env[k]; return v, ok },
		WorkDir:   o.t.TempDir(),
		GOOS:      "linux",
	})
	d := app.New(app.Options{Config: cfg, ConfigErr: err, IO: iostreams.IOStreams{Stdout: &o.stdout, Stderr: &o.stderr}})
	d.OAuthEndpoints = o.endpoints
	d.TokenStore = func(string) (auth.TokenStore, error) { return o.store, nil }
	d.OpenBrowser = func(_ context.Context, u string) error { _, err := authtest.Visit(u); return err }
	// The production GoogleHTTPClient, its requests to googleapis.com
	// sent to the emulator.
	d.GoogleBaseClient = &http.Client{Transport: googleAPIs{emulator: o.emulator}}
	if o.runHook != nil {
		o.runHook(d)
	}
	return run(context.Background(), d, append([]string{"gds"}, args...), buildInfo{Version: "1.2.3"})
}

func (o *oauthCrawl) indexPath() string {
	return filepath.Join(o.env[config.EnvHome], config.IndexFileName)
}
func (o *oauthCrawl) output() string { return o.stdout.String() + o.stderr.String() }
func (o *oauthCrawl) record() *auth.Record {
	o.t.Helper()
	rec, err := o.store.Load(context.Background())
	if err != nil {
		o.t.Fatal(err)
	}
	return rec
}

// expireMidCrawl makes the stored access token expire (for the client,
// which refreshes 10 s before the expiry it was told) shortly after the
// crawl starts, and holds the hold-th Drive request made with it until
// then, so the crawl is guaranteed to straddle the expiry. Google's side
// (the gate) rejects the token only after its real expiry.
func (o *oauthCrawl) expireMidCrawl(hold int, onHold func()) {
	o.t.Helper()
	rec := o.record()
	const clientMargin = 10 * time.Second // oauth2's expiryDelta
	// oauth2 reads the wall clock (no clock can be injected), so the
	// window before the refresh must hold the crawl's first `hold` Drive
	// requests even on a loaded machine running -race: 5 s, not 1 s (with
	// 1 s the crawl sometimes reached fewer than 20 requests in time). The
	// gate keeps later requests until the refresh, so the margin only
	// costs these two tests the wait.
	refreshAt := time.Now().Add(5 * time.Second)
	rec.Token.Expiry = refreshAt.Add(clientMargin)
	if err := o.store.Save(context.Background(), rec); err != nil {
		o.t.Fatal(err)
	}
	o.ledger.set(rec.Token.AccessToken, rec.Token.Expiry)
	o.gate.hold, o.gate.onHold, o.gate.release = hold, onHold, refreshAt.Add(50*time.Millisecond)
}

// committed opens the index read-only and returns the IDs it holds and the
// files at or before the checkpoint that it lacks.
func (o *oauthCrawl) committed() (indexed int, lost []string) {
	o.t.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, o.indexPath(), sqlite.Options{ReadOnly: true})
	if err != nil {
		o.t.Fatal(err)
	}
	defer s.Close()
	states, err := s.SyncStates(ctx)
	if err != nil {
		o.t.Fatal(err)
	}
	st := store.LatestSync(states)
	files, err := s.GetFiles(ctx, o.ids)
	if err != nil {
		o.t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range files {
		if f.Summary == "" || len(f.Embedding) == 0 || f.ContentHash == "" {
			o.t.Errorf("%s is half-written: %+v", f.Name, f)
		}
		have[f.ID] = true
	}
	for _, id := range o.ids {
		f, _ := o.emu.File(id)
		if !f.ModifiedTime.After(st.ModifiedAt) && !have[id] {
			lost = append(lost, f.Name)
		}
	}
	return len(have), lost
}

// checkTokenFile fails unless the token file is 0600 in a 0700 directory.
func checkTokenFile(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	di, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("token file %v in directory %v, want 0600 in 0700", fi.Mode().Perm(), di.Mode().Perm())
	}
}

// TestOAuthTokenExpiresMidCrawl: the access token expires while a crawl
// runs; the client refreshes it, the crawl completes, and the refreshed
// token (same refresh token) is saved, still 0600 in a 0700 directory.
func TestOAuthTokenExpiresMidCrawl(t *testing.T) {
	const files = 60
	o := newOAuthCrawl(t, files)
	before := o.record()
	o.expireMidCrawl(20, nil)
	start := time.Now()
	code := o.run("crawl")
	elapsed := time.Since(start)
	if code != exitOK {
		t.Fatalf("crawl: exit %d\n%s", code, o.output())
	}
	first, later, rejected := o.gate.counts()
	if first < 20 || later == 0 || rejected != 0 {
		t.Errorf("Drive requests: %d with the first token, %d with refreshed ones, %d rejected; want the crawl to straddle the refresh", first, later, rejected)
	}
	refreshes, grants := o.ledger.refreshes()
	if refreshes == 0 {
		t.Errorf("no refresh: token grants %v", grants)
	}
	if n, lost := o.committed(); n != files || len(lost) > 0 {
		t.Errorf("%d of %d files indexed; lost behind the checkpoint: %v", n, files, lost)
	}
	after := o.record()
	if after.Token.AccessToken == before.Token.AccessToken || after.Token.RefreshToken != before.Token.RefreshToken || !after.Token.Expiry.After(time.Now()) {
		t.Error("the refreshed token was not persisted (or lost its refresh token)")
	}
	checkTokenFile(t, o.store.Path)
	// The gate really checks: an unknown token is refused, the saved one works.
	for tok, want := range map[string]int{"ya29.unknown": http.StatusUnauthorized, after.Token.AccessToken: http.StatusOK} {
		req, _ := http.NewRequest(http.MethodGet, o.emulator.String()+"/drive/v3/about?fields=user", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Drive gate: HTTP %d for a token, want %d", resp.StatusCode, want)
		}
	}
	if strings.Contains(o.output(), authtest.TokenMarker) {
		t.Errorf("a token appears in the output:\n%s", o.output())
	}
	t.Logf("oauth expiry: files %d indexed %d; Drive requests %d with the expiring token + %d after refresh, 401s %d; token grants %v; wall %s",
		files, files, first, later, rejected, grants, elapsed.Round(time.Millisecond))
}

// TestOAuthRevokedMidCrawl: the grant is revoked while a crawl runs, so the
// refresh meets invalid_grant. The crawl stops at once with the one-line
// "run `gds auth login`" error and exit code 6, prints no chain of errors or
// token, keeps every committed file, and its checkpoint passes no file it
// lacks; after `gds auth login` the next crawl completes.
func TestOAuthRevokedMidCrawl(t *testing.T) {
	const files = 60
	o := newOAuthCrawl(t, files)
	o.expireMidCrawl(20, o.srv.RevokeAllRefreshTokens)
	start := time.Now()
	code := o.run("crawl")
	elapsed := time.Since(start)
	if code != exitAuth {
		t.Fatalf("crawl: exit %d, want %d\n%s", code, exitAuth, o.output())
	}
	errOut := o.stderr.String()
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	var errLines []string
	for _, l := range lines {
		if strings.HasPrefix(l, "Error: ") || strings.HasPrefix(l, "Hint: ") {
			errLines = append(errLines, l)
		}
	}
	if len(errLines) != 2 || !strings.Contains(errLines[0], "gds auth login") {
		t.Errorf("want one error line naming `gds auth login` and one hint; stderr:\n%s", errOut)
	}
	if strings.Contains(o.output(), authtest.TokenMarker) || strings.Contains(o.output(), o.srv.ClientSecret) {
		t.Errorf("a secret appears in the output:\n%s", o.output())
	}
	n, lost := o.committed()
	if len(lost) > 0 {
		t.Errorf("the checkpoint passed files that are not indexed: %v", lost)
	}
	if n == 0 || n == files {
		t.Errorf("%d of %d files indexed: the revocation did not land mid-crawl", n, files)
	}
	first, later, rejected := o.gate.counts()
	_, grants := o.ledger.refreshes()

	// Sign in again: the next crawl finishes the job.
	if code := o.run("auth", "login"); code != exitOK {
		t.Fatalf("login: exit %d\n%s", code, o.output())
	}
	if code := o.run("crawl"); code != exitOK {
		t.Fatalf("crawl after login: exit %d\n%s", code, o.output())
	}
	if m, lost := o.committed(); m != files || len(lost) > 0 {
		t.Errorf("after login: %d of %d files indexed, lost %v", m, files, lost)
	}
	t.Logf("oauth revoked: files %d, indexed before the stop %d, lost 0; Drive requests %d + %d, 401s %d; token grants %v; stop after %s",
		files, n, first, later, rejected, grants, elapsed.Round(time.Millisecond))
}
