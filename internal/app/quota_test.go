package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/ratelimit"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
)

// TestCrawlStopsOnInsufficientQuota: a crawl against an account without
// quota stops with a message saying so and what to do, as a rate_limited
// failure, and sends one request, not one per file.
func TestCrawlStopsOnInsufficientQuota(t *testing.T) {
	root := t.TempDir()
	for i := range 12 {
		n := fmt.Sprintf("f%02d.txt", i)
		if err := os.WriteFile(filepath.Join(root, n), []byte("notes about "+n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	oai := openaitest.NewServer(t, openaitest.WithAPIKey("sk-test"), openaitest.WithQuotaExhausted())
	env := map[string]string{config.EnvAIProvider: config.ProviderOpenAI, config.EnvOpenAIAPIKey: "sk-test", config.EnvOpenAIBaseURL: oai.URL}
	d := New(Options{Config: loadConfig(t, env), IO: iostreams.IOStreams{Lang: i18n.En}})
	rep, err := d.Crawl(context.Background(), CrawlRequest{Source: "local:" + root, Concurrency: 1})
	if !errors.Is(err, ai.ErrQuotaExhausted) {
		t.Fatalf("crawl = %v, want the quota error", err)
	}
	r := apperr.Describe(err, i18n.En)
	if r.Code != "rate_limited" || !strings.Contains(r.Message, "quota ran out") || !strings.Contains(r.Message, "after indexing 0 files") ||
		!strings.Contains(r.Hint, "insufficient_quota") {
		t.Errorf("report = %+v", r)
	}
	if ja := apperr.Describe(err, i18n.Ja); !strings.Contains(ja.Message, "利用枠") || !strings.Contains(ja.Hint, "利用枠") {
		t.Errorf("Japanese report = %+v", ja)
	}
	if rep == nil || len(rep.Sources) != 1 || rep.Sources[0].Summary.CheckpointSaved {
		t.Errorf("report = %+v: no checkpoint may be committed", rep)
	}
	// At most the calls in flight when the first refusal came (the chat
	// lane's starting window); none after it.
	if n := len(oai.Requests()); n > ratelimit.DefaultInitial {
		t.Errorf("%d requests sent to an account without quota", n)
	}
}

// TestMaxRPMReachesTheLanes: --max-rpm (SetMaxRPM) over GDS_AI_MAX_RPM caps
// the provider's lanes, and progress reads them; the offline provider has
// none.
func TestMaxRPMReachesTheLanes(t *testing.T) {
	oai := openaitest.NewServer(t, openaitest.WithAPIKey("sk-test"))
	env := map[string]string{config.EnvAIProvider: config.ProviderOpenAI, config.EnvOpenAIAPIKey: "sk-test", config.EnvOpenAIBaseURL: oai.URL,
		config.EnvAIMaxRPM: "300"}
	d := New(Options{Config: loadConfig(t, env), IO: iostreams.IOStreams{Lang: i18n.En}})
	d.SetMaxRPM(120)
	calls := d.ModelCalls()
	if calls == nil || calls().RPM != 120 {
		t.Fatal("no lane stats, or not capped at 120")
	}
	d2 := New(Options{Config: loadConfig(t, env), IO: iostreams.IOStreams{Lang: i18n.En}})
	if got := d2.ModelCalls()().RPM; got != 300 {
		t.Errorf("GDS_AI_MAX_RPM: lane RPM %d, want 300", got)
	}
	off := New(Options{Config: loadConfig(t, map[string]string{config.EnvAIProvider: config.ProviderOffline}), IO: iostreams.IOStreams{Lang: i18n.En}})
	if off.ModelCalls() != nil {
		t.Error("the offline provider reports model calls")
	}
}
