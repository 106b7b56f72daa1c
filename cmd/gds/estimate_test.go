package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/tokens"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/estimate"
)

// billed adds up what the emulator's answers reported, by kind of call.
func billed(reqs []openaitest.Recorded) map[ai.CallKind]ai.Tally {
	out := map[ai.CallKind]ai.Tally{}
	for _, r := range reqs {
		k := ai.CallChat
		switch {
		case r.Path == openaitest.PathEmbeddings:
			k = ai.CallEmbedding
		case len(r.Images) > 0:
			k = ai.CallVision
		}
		out[k] = out[k].Add(ai.Tally{Calls: 1, InputTokens: r.Usage.PromptTokens, OutputTokens: r.Usage.CompletionTokens})
	}
	return out
}

// within checks the estimate of each figure against what the emulator
// billed: tokens of every kind and the chat model's calls within ±20 %;
// the embeddings requests at least the estimate, which counts the fullest
// batches (a crawl joins the inputs of the files ready together, which
// depends on the machine's speed), and at most one per Embed call of the
// run (maxEmbed; 0: equal to the estimate, as a graph build's are).
func within(t *testing.T, what string, est estimate.Figures, got map[ai.CallKind]ai.Tally, maxEmbed int) {
	t.Helper()
	const tol = 0.20
	estBy := map[ai.CallKind]ai.Tally{}
	for _, l := range est.Lines {
		estBy[l.Kind] = l.Tally
	}
	for _, k := range ai.CallKinds {
		e, g := estBy[k], got[k]
		t.Logf("%s %s: estimated %+v, billed %+v", what, k, e, g)
		for _, f := range []struct {
			name     string
			est, act int
		}{{"input tokens", e.InputTokens, g.InputTokens}, {"output tokens", e.OutputTokens, g.OutputTokens}} {
			if d := estimate.Deviation(f.est, f.act); d > tol {
				t.Errorf("%s %s %s: estimated %d, billed %d (%.0f %% off)", what, k, f.name, f.est, f.act, 100*d)
			}
		}
	}
	chat := estBy[ai.CallChat].Calls + estBy[ai.CallVision].Calls
	if d := estimate.Deviation(chat, got[ai.CallChat].Calls+got[ai.CallVision].Calls); d > tol || chat == 0 {
		t.Errorf("%s chat calls: estimated %d, made %d", what, chat, got[ai.CallChat].Calls+got[ai.CallVision].Calls)
	}
	e, g := estBy[ai.CallEmbedding].Calls, got[ai.CallEmbedding].Calls
	if maxEmbed == 0 {
		maxEmbed = e
	}
	if g < e || g > maxEmbed {
		t.Errorf("%s embeddings requests: estimated %d (the fewest), made %d, want %d to %d", what, e, g, e, maxEmbed)
	}
}

// TestEstimateAgainstTheRun: gds crawl --estimate and gds graph build
// --estimate make no request, and their calls and tokens are within ±20 %
// (embeddings requests: see within) of what the same crawl and build then
// cost on the OpenAI emulator
// (answered by the offline provider, the estimate's stand-in); the run's
// summary shows its figures beside the estimate.
func TestEstimateAgainstTheRun(t *testing.T) {
	t.Parallel() // own GDS_HOME and emulator, no t.Setenv
	oai := openaitest.NewServer(t, openaitest.WithAPIKey("sk-test"), openaitest.WithBackend(offline.New()))
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOpenAI
	h.env[config.EnvOpenAIBaseURL] = oai.URL
	h.env[config.EnvOpenAIAPIKey] = "sk-test"
	h.env[config.EnvOCR] = config.OCROff
	docs := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "graphcorpus")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".txt") {
			b, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(docs, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	source := "local:" + docs

	if code := h.run("crawl", "--estimate", "--json", "--source", source); code != exitOK {
		t.Fatalf("crawl --estimate: exit %d\n%s", code, h.stderr.String())
	}
	var est estimate.Figures
	if err := json.Unmarshal(h.stdout.Bytes(), &est); err != nil {
		t.Fatalf("%v\n%s", err, h.stdout.String())
	}
	if n := len(oai.Requests()); n != 0 {
		t.Fatalf("the estimate sent %d requests", n)
	}
	if !est.Estimate || est.CostUSD == nil || *est.CostUSD <= 0 || est.Seconds == nil || est.Models.Chat != config.DefaultOpenAIModel || len(est.Prices) != 2 {
		t.Errorf("estimate %+v: want priced and timed figures of the default models", est)
	}
	if code := h.run("crawl", "--source", source); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s", code, h.stderr.String())
	}
	files := 0 // summarised, so embedded: at most one embeddings request each
	for _, l := range est.Lines {
		if l.Kind == ai.CallChat {
			files = l.Calls
		}
	}
	within(t, "crawl", est, billed(oai.Requests()), files)
	if out := h.stdout.String(); !strings.Contains(out, "Model calls (the usage the responses reported):") || !strings.Contains(out, "(estimated: ") {
		t.Errorf("the crawl summary lacks its figures beside the estimate:\n%s", out)
	}

	n := len(oai.Requests())
	if code := h.run("graph", "build", "--estimate", "--json"); code != exitOK {
		t.Fatalf("graph build --estimate: exit %d\n%s", code, h.stderr.String())
	}
	var gest estimate.Figures
	if err := json.Unmarshal(h.stdout.Bytes(), &gest); err != nil {
		t.Fatalf("%v\n%s", err, h.stdout.String())
	}
	if len(oai.Requests()) != n {
		t.Fatalf("the graph estimate sent %d requests", len(oai.Requests())-n)
	}
	if code := h.run("graph", "build", "--json"); code != exitOK {
		t.Fatalf("graph build: exit %d\n%s", code, h.stderr.String())
	}
	var built struct {
		Usage, Estimated *estimate.Figures
	}
	if err := json.Unmarshal(h.stdout.Bytes(), &built); err != nil || built.Usage == nil || built.Estimated == nil {
		t.Fatalf("graph build --json: %v, want usage and the estimate\n%s", err, h.stdout.String())
	}
	got := billed(oai.Requests()[n:])
	within(t, "graph build", gest, got, 0)
	for _, l := range built.Usage.Lines {
		if l.Tally != got[l.Kind] {
			t.Errorf("graph build reports %s %+v, the emulator billed %+v", l.Kind, l.Tally, got[l.Kind])
		}
	}

	// The estimate of a --full build counts it all again, and resets
	// nothing: the build after it has nothing to do.
	if code := h.run("graph", "build", "--estimate", "--full", "--json"); code != exitOK {
		t.Fatalf("graph build --estimate --full: exit %d\n%s", code, h.stderr.String())
	}
	var full estimate.Figures
	if err := json.Unmarshal(h.stdout.Bytes(), &full); err != nil || full.Total != gest.Total {
		t.Errorf("--full estimate %+v (%v), want the first build's %+v", full.Total, err, gest.Total)
	}
	n = len(oai.Requests())
	if code := h.run("graph", "build"); code != exitOK || len(oai.Requests()) != n {
		t.Errorf("the build after the --full estimate: exit %d, %d requests; want 0", code, len(oai.Requests())-n)
	}

	// Estimated again, nothing is left to do: no call, nothing to pay.
	if code := h.run("crawl", "--estimate", "--json", "--source", source); code != exitOK {
		t.Fatalf("second estimate: exit %d\n%s", code, h.stderr.String())
	}
	var again estimate.Figures
	if err := json.Unmarshal(h.stdout.Bytes(), &again); err != nil || again.Total.Calls != 0 {
		t.Errorf("an estimate of an indexed folder: %+v (%v), want no call", again, err)
	}
}

// TestEstimateOfJapaneseEmbeddings: OpenAI's embedding models count (and
// bill) their input in cl100k_base, which splits Japanese into about a
// third more tokens than o200k_base. A crawl of Japanese text is
// estimated within ±20 % of what the emulator bills for it — where the
// o200k_base count of the very inputs it billed is more than 20 % off, so
// an estimate in the chat models' encoding would fail.
func TestEstimateOfJapaneseEmbeddings(t *testing.T) {
	t.Parallel() // own GDS_HOME and emulator, no t.Setenv
	oai := openaitest.NewServer(t, openaitest.WithAPIKey("sk-test"), openaitest.WithBackend(offline.New()))
	h := newHarness(t)
	h.env[config.EnvAIProvider] = config.ProviderOpenAI
	h.env[config.EnvOpenAIBaseURL] = oai.URL
	h.env[config.EnvOpenAIAPIKey] = "sk-test"
	h.env[config.EnvOCR] = config.OCROff
	docs := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "graphcorpus")
	names, err := filepath.Glob(filepath.Join(src, "jsquad-*.txt"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no Japanese text in %s (%v)", src, err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(docs, filepath.Base(name)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	source := "local:" + docs
	if code := h.run("crawl", "--estimate", "--json", "--source", source); code != exitOK {
		t.Fatalf("crawl --estimate: exit %d\n%s", code, h.stderr.String())
	}
	var est estimate.Figures
	if err := json.Unmarshal(h.stdout.Bytes(), &est); err != nil {
		t.Fatalf("%v\n%s", err, h.stdout.String())
	}
	if code := h.run("crawl", "--source", source); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s", code, h.stderr.String())
	}
	estimated, billedTokens, o200k := 0, 0, 0
	for _, l := range est.Lines {
		if l.Kind == ai.CallEmbedding {
			estimated = l.InputTokens
		}
	}
	for _, r := range oai.Requests() {
		if r.Path != openaitest.PathEmbeddings {
			continue
		}
		if r.Model != config.DefaultOpenAIEmbedModel {
			t.Fatalf("embeddings of %q, want the default %q", r.Model, config.DefaultOpenAIEmbedModel)
		}
		billedTokens += r.Usage.PromptTokens
		for _, in := range r.Inputs {
			o200k += tokens.O200k.Count(in)
		}
	}
	t.Logf("embedding input tokens: estimated %d, billed %d; the same inputs in o200k_base: %d", estimated, billedTokens, o200k)
	if d := estimate.Deviation(o200k, billedTokens); d <= 0.20 {
		t.Fatalf("o200k_base counts the inputs only %.0f %% off cl100k_base: the text does not tell the encodings apart", 100*d)
	}
	if d := estimate.Deviation(estimated, billedTokens); d > 0.20 {
		t.Errorf("embedding input tokens: estimated %d, billed %d (%.0f %% off)", estimated, billedTokens, 100*d)
	}
}
