package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/auth/authtest"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/store"
)

// Distinctive fake secrets: no output of gds may contain any of them.
const (
	secretOpenAIKey    = "sk-test-SECRET-openai-4f1c9d2e7b3a5c8d"
	secretClientSecret = "GOCSPX-test-SECRET-client-9a8b7c6d"
	secretDBPassword   = "pg-SECRET-password-31415"
)

// secretsIn returns the secrets found in out: the fixed fake ones, every
// token the fake OAuth server issued (they carry authtest.TokenMarker) and
// the exact tokens of the stored sign-in.
func (o *oauthCrawl) secretsIn(out string) []string {
	o.t.Helper()
	secrets := []string{secretOpenAIKey, secretClientSecret, secretDBPassword, authtest.TokenMarker}
	if rec, err := o.store.Load(context.Background()); err == nil {
		secrets = append(secrets, rec.Token.AccessToken, rec.Token.RefreshToken)
	}
	var found []string
	for _, s := range secrets {
		if s != "" && strings.Contains(out, s) {
			found = append(found, s)
		}
	}
	return found
}

// noSecrets fails when the last command's stdout or stderr holds a secret.
func (o *oauthCrawl) noSecrets(what string) {
	o.t.Helper()
	if found := o.secretsIn(o.output()); len(found) > 0 {
		o.t.Errorf("%s: secrets %q in the output:\n%s", what, found, o.output())
	}
}

// newSecretsHarness is a signed-in gds (fake OAuth server with a
// distinctive client secret) crawling the Drive emulator with the openai
// provider against the OpenAI-compatible test server, which requires the
// distinctive API key.
func newSecretsHarness(t *testing.T) *oauthCrawl {
	t.Helper()
	oai := httptest.NewServer(openaitest.NewHandler(openaitest.WithAPIKey(secretOpenAIKey)))
	t.Cleanup(oai.Close)
	o := newOAuthCrawlWith(t, 12, func(o *oauthCrawl) {
		o.srv.ClientSecret = secretClientSecret
		o.env[config.EnvOAuthClientSecret] = secretClientSecret
		o.env[config.EnvAIProvider] = "openai"
		o.env["OPENAI_BASE_URL"] = oai.URL + "/v1"
		o.env["OPENAI_API_KEY"] = secretOpenAIKey
	})
	return o
}

// TestSecretsNeverReachOutput runs every command that prints configuration,
// sign-in state, crawl progress or search results, in text and JSON, and
// greps all of stdout and stderr for the API key, the OAuth client secret,
// the access and refresh tokens.
func TestSecretsNeverReachOutput(t *testing.T) {
	o := newSecretsHarness(t)
	o.noSecrets("auth login")
	checkTokenFile(t, o.store.Path)

	steps := [][]string{
		{"crawl"},
		{"crawl", "--full"},
		{"search", "--json", "rollout region"},
		{"search", "rollout region"},
		{"alfred", "filter", "rollout"},
		{"alfred", "filter", "⌕ rollout region"},
		{"search", "--alfred", "rollout"},
		{"config", "show"},
		{"config", "show", "--json"},
		{"auth", "status"},
		{"auth", "status", "--json"},
		{"auth", "status", "--check"},
		{"doctor", "--json"},
		{"doctor"},
	}
	grepped := 0
	for _, args := range steps {
		code := o.run(args...)
		if code != exitOK && args[0] != "doctor" {
			t.Errorf("gds %s: exit %d\n%s", strings.Join(args, " "), code, o.output())
		}
		o.noSecrets("gds " + strings.Join(args, " "))
		grepped += len(o.output())
	}
	t.Logf("%d commands, %d bytes of stdout+stderr grepped for 4 secrets and the issued tokens", len(steps), grepped)
	// The commands did their job (the grep above is not over empty output).
	if o.run("config", "show"); !strings.Contains(o.stdout.String(), "OPENAI_API_KEY") {
		t.Errorf("config show lists no OPENAI_API_KEY:\n%s", o.stdout.String())
	}
	if o.run("search", "--json", "rollout region"); !json.Valid([]byte(o.stdout.String())) || !strings.Contains(o.stdout.String(), "note") {
		t.Errorf("search --json found nothing:\n%s", o.output())
	}
	checkTokenFile(t, o.store.Path)
}

// TestSecretsNotInErrors makes the OpenAI server refuse the key the way
// OpenAI does (echoing it in the message), and points the index at an
// unreachable Postgres whose URL holds a password: the errors of crawl,
// search, Alfred, db status and doctor must name neither.
func TestSecretsNotInErrors(t *testing.T) {
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, key)
	}))
	t.Cleanup(refuse.Close)

	o := newSecretsHarness(t)
	o.env["OPENAI_BASE_URL"] = refuse.URL + "/v1"
	for _, args := range [][]string{{"crawl"}, {"search", "--json", "rollout"}, {"alfred", "filter", "⌕ rollout"}, {"doctor", "--json"}} {
		code := o.run(args...)
		if args[0] == "crawl" && code == exitOK {
			t.Errorf("crawl with a refused key: exit 0\n%s", o.output())
		}
		o.noSecrets("refused key: gds " + strings.Join(args, " "))
	}
	if o.run("crawl"); !strings.Contains(o.output(), "401") {
		t.Errorf("the refused-key crawl does not say why:\n%s", o.output())
	}

	// An unreachable Postgres (a closed port) with a password in its URL.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	o.env["DATABASE_URL"] = "postgres://gds:" + secretDBPassword + "@" + addr + "/gds?sslmode=disable&connect_timeout=2"
	for _, args := range [][]string{{"crawl"}, {"db", "status"}, {"search", "--json", "rollout"}, {"alfred", "filter", "rollout"}, {"doctor", "--json"}, {"config", "show"}, {"config", "show", "--json"}} {
		code := o.run(args...)
		if (args[0] == "crawl" || args[0] == "db") && code == exitOK {
			t.Errorf("gds %s with an unreachable Postgres: exit 0\n%s", strings.Join(args, " "), o.output())
		}
		o.noSecrets("unreachable Postgres: gds " + strings.Join(args, " "))
	}
	if o.run("db", "status"); !strings.Contains(o.output(), addr) {
		t.Errorf("the Postgres error does not name the server:\n%s", o.output())
	}
}

// TestSecretsNotInCrashOutput forces the one recover that prints (the
// Alfred filter, which must always answer Alfred) with a panic whose value
// carries the database URL, the API key and a token, as a panicking driver
// might: neither the Alfred item nor stderr may show them.
func TestSecretsNotInCrashOutput(t *testing.T) {
	o := newSecretsHarness(t)
	o.env["DATABASE_URL"] = "postgres://gds:" + secretDBPassword + "@127.0.0.1:1/gds"
	// Google-shaped tokens (the fake server's are not, and gds cannot know
	// a token a panic might carry, so it redacts by shape).
	const access, refresh = "ya29.a0AfB_fake-SECRET-access-0123456789", "1//0e-fake-SECRET-refresh-0123456789"
	o.runHook = func(d *app.Deps) {
		d.OpenStore = func(ctx context.Context) (store.Store, error) {
			panic(fmt.Sprintf("driver: bad state for %s (key %s, client secret %s, Authorization: Bearer %s, refresh %s)",
				d.Config.DatabaseURL, d.Config.OpenAIAPIKey, d.Config.OAuthClientSecret, access, refresh))
		}
	}
	o.run("alfred", "filter", "rollout")
	if !json.Valid([]byte(o.stdout.String())) {
		t.Errorf("the crash did not leave valid Alfred JSON:\n%s", o.stdout.String())
	}
	if !strings.Contains(o.output(), "internal error") {
		t.Errorf("the crash path did not run:\n%s", o.output())
	}
	o.noSecrets("alfred filter after a panic")
	for _, tok := range []string{access, refresh} {
		if strings.Contains(o.output(), tok) {
			t.Errorf("token %q in the crash output:\n%s", tok, o.output())
		}
	}
	if !strings.Contains(o.stderr.String(), "driver: bad state for postgres://gds:****@") {
		t.Errorf("the redacted panic text lost its useful part:\n%s", o.stderr.String())
	}
}

func TestRedactSecrets(t *testing.T) {
	cfg := &config.Config{OpenAIAPIKey: "plainkey-without-shape", OAuthClientSecret: "client-s3cret", DatabaseURL: "postgres://u:p%40ss-word@h/db"}
	in := "a plainkey-without-shape b client-s3cret c postgres://u:p%40ss-word@h/db d p%40ss-word p@ss-word e mysql://x:y-pass@z f sk-proj-abcdefghijklmnopqrstuvwxyz g Bearer abc.def-ghi_jkl h"
	got := config.Redact(cfg, in)
	for _, s := range []string{"plainkey-without-shape", "client-s3cret", "p%40ss-word", "p@ss-word", "y-pass", "sk-proj-abcdefghij", "abc.def-ghi_jkl"} {
		if strings.Contains(got, s) {
			t.Errorf("%q survives in %q", s, got)
		}
	}
	for _, s := range []string{"postgres://u:****@h/db", "mysql://x:****@z", "Bearer ****", "a **** b", " h"} {
		if !strings.Contains(got, s) {
			t.Errorf("%q missing from %q", s, got)
		}
	}
	if config.Redact(nil, "no secrets here") != "no secrets here" {
		t.Error("plain text changed")
	}
}

// keyLike are shapes of real credentials: OpenAI keys, Google OAuth
// client secrets, access and refresh tokens and API keys, private keys,
// and URLs with a password.
var keyLike = []*regexp.Regexp{
	regexp.MustCompile(`sk-(proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`),
	regexp.MustCompile(`GOCSPX-[A-Za-z0-9_-]{20,}`),
	regexp.MustCompile(`ya29\.[A-Za-z0-9_-]{20,}`),
	regexp.MustCompile(`1//0[A-Za-z0-9_-]{20,}`),
	regexp.MustCompile(`AIza[0-9A-Za-z_-]{35}`),
	regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----`),
	regexp.MustCompile(`(?i)postgres(ql)?://[^:/@\s]+:[^@\s]{6,}@`),
}

// fakeMarker says a match is a deliberate fake: test fixtures may carry
// credential-shaped strings only when they say so.
var fakeMarker = regexp.MustCompile(`(?i)test|fake|example|dummy|secret|placeholder|xxxx|not-a-real|redacted|\*\*\*|(?-i)://[A-Z_]+:[A-Z_]+@`)

// TestNoCredentialsInFixtures scans every committed fixture (testdata
// directories, .env files, JSON/YAML/plist fixtures) for credential-shaped
// strings that do not announce themselves as fakes.
func TestNoCredentialsInFixtures(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	scanned := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if name == ".git" || name == "node_modules" || name == ".run" || name == "bin" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		fixture := strings.Contains(filepath.ToSlash(rel), "/testdata/") || strings.HasPrefix(rel, "testdata"+string(filepath.Separator)) ||
			strings.HasPrefix(name, ".env") || strings.HasSuffix(name, ".golden")
		if !fixture {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 8<<20 {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		scanned++
		sc := bufio.NewScanner(io.LimitReader(f, 8<<20))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for line := 1; sc.Scan(); line++ {
			for _, re := range keyLike {
				for _, m := range re.FindAllString(sc.Text(), -1) {
					if !fakeMarker.MatchString(m) {
						t.Errorf("%s:%d: credential-shaped string %q", rel, line, m)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 10 {
		t.Fatalf("scanned only %d fixture files: the walk missed the testdata directories", scanned)
	}
	t.Logf("scanned %d fixture files", scanned)
}

// The scanner would catch a real-shaped key (guards against a pattern that
// can never match).
func TestCredentialPatternsMatchRealShapes(t *testing.T) {
	for _, s := range []string{
		"OPENAI_API_KEY=sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
		"client_secret: GOCSPX-AbCdEfGhIjKlMnOpQrStUvWx",
		`"refresh_token": "1//0gAbCdEfGhIjKlMnOpQrStUvWxYz"`,
		"DATABASE_URL=postgres://app:hunter2hunter2@db.supabase.co:5432/postgres",
	} {
		hit := false
		for _, re := range keyLike {
			for _, m := range re.FindAllString(s, -1) {
				hit = hit || !fakeMarker.MatchString(m)
			}
		}
		if !hit {
			t.Errorf("no pattern flags %q", s)
		}
	}
	if m := keyLike[0].FindString(secretOpenAIKey); m == "" || !fakeMarker.MatchString(m) {
		t.Errorf("the test's own fake key %q must match a pattern and be marked fake", secretOpenAIKey)
	}
}
