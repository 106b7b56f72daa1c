package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/pricing"
	"github.com/gds-cli/gds/internal/estimate"
	"github.com/gds-cli/gds/internal/i18n"
)

var testTime = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

func TestEstimateText(t *testing.T) {
	book, err := pricing.New("1", "", "")
	if err != nil {
		t.Fatal(err)
	}
	m := estimate.Models{Chat: "gpt-4o-mini", Embedding: "text-embedding-3-small"}
	priced := estimate.Make(estimate.OpCrawl, true, "openai", m, "local:/a", testTime, map[ai.CallKind]ai.Tally{
		ai.CallChat:      {Calls: 1200, InputTokens: 3_400_000, OutputTokens: 90_000},
		ai.CallEmbedding: {Calls: 12, InputTokens: 2_000_000},
	}, book, 0)
	local := estimate.Make(estimate.OpGraphBuild, true, "openai", estimate.Models{Chat: "llama3.1", Embedding: "nomic"}, "", testTime,
		map[ai.CallKind]ai.Tally{ai.CallChat: {Calls: 3, InputTokens: 30}}, book, 0)
	nothing := estimate.Make(estimate.OpCrawl, true, "openai", m, "", testTime, nil, book, 0)
	for _, c := range []struct {
		name string
		f    estimate.Figures
		lang string
		want []string
	}{
		{"priced and timed", priced, i18n.En, []string{
			"Estimate of gds crawl", "chat: calls 1,200 · input 3,400,000 · output 90,000 tokens · $0.5640",
			"total: calls 1,212 · input 5,400,000", "$0.60", // 0.51 + 0.054 + 0.04
			"at least 17m", "bound by tokens per minute", "gpt-4o-mini $0.15/$0.6 (2026-11-27, https://openai.com/api/pricing/)",
			"output tokens are modelled"}},
		{"Japanese", priced, i18n.Ja, []string{"gds crawl の見積もり", "呼び出し 1,200 回", "少なくとも 17m"}},
		{"a local model", local, i18n.En, []string{"$?", "price: unknown", "time: unknown"}},
		{"nothing to do", nothing, i18n.En, []string{"no model call"}},
		{"offline", estimate.Figures{Operation: estimate.OpCrawl, Offline: true}, i18n.En, []string{"offline provider: no model call, nothing to pay"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			Estimate(&b, c.f, c.lang)
			for _, w := range c.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, b.String())
				}
			}
		})
	}

	var b bytes.Buffer
	actual := priced
	actual.Estimate = false
	ModelUsage(&b, &actual, &priced, i18n.En)
	if out := b.String(); !strings.Contains(out, "Model calls (the usage the responses reported):") || strings.Count(out, "(estimated: ") != 3 {
		t.Errorf("usage beside the estimate:\n%s", out)
	}
	b.Reset()
	ModelUsage(&b, nil, nil, i18n.En)
	idle := estimate.Make(estimate.OpCrawl, false, "openai", m, "", testTime, nil, book, 0)
	ModelUsage(&b, &idle, nil, i18n.En)
	if b.Len() != 0 {
		t.Errorf("no usage (offline) or no call and no estimate printed %q", b.String())
	}
	b.Reset()
	InitResult(&b, &b, InitSummary{EnvFile: "x/.env", Changed: true, Model: true}, i18n.En)
	if !strings.Contains(b.String(), "gds crawl --estimate") {
		t.Errorf("init with a model does not name the estimate:\n%s", b.String())
	}
}
