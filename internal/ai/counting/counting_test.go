package counting_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/counting"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
)

// TestCountsWhatTheServerBills: the same calls made through the real
// provider to the emulator (answered by the offline provider) and through
// the counting provider give the same calls and tokens, and the counting
// provider sends nothing.
func TestCountsWhatTheServerBills(t *testing.T) {
	stand := offline.New()
	page := pngPage(t, 850, 1100)
	srv := openaitest.NewServer(t, openaitest.WithAPIKey("sk-test"), openaitest.WithBackend(stand),
		openaitest.WithImageTexts(map[string]string{openaitest.ImageHash(page): counting.ModelledPage}))
	live, err := openai.New(openai.Config{APIKey: "sk-test", BaseURL: srv.URL, EmbeddingDim: 8, BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	count := counting.New(counting.Config{Name: "openai", ChatModel: live.ChatModel(), Embedding: live.KnownEmbeddingModel(),
		BatchSize: 2, Stand: stand}, true)

	ctx := context.Background()
	run := func(p ai.Provider) {
		t.Helper()
		doc := ai.DocInput{Name: "議事録.txt", Text: "東京都の2024年度予算に関する議事録。The committee approved the budget of three million yen.", MaxLength: 120}
		if _, err := ai.Summarize(ctx, p, doc); err != nil {
			t.Fatal(err)
		}
		in := ai.GraphExtractInput{Text: doc.Text, EntityTypes: []string{"organization", "person"}, Lang: "en"}
		if _, err := ai.ExtractGraph(ctx, p, in); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Embed(ctx, []string{"one", "", "three words here"}); err != nil {
			t.Fatal(err)
		}
		if _, err := p.(interface {
			ReadImage(context.Context, []byte, string) (string, error)
		}).ReadImage(ctx, page, "image/png"); err != nil {
			t.Fatal(err)
		}
	}
	run(count)
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("the counting provider sent %d requests", n)
	}
	run(live)
	want := live.Meter().Totals()
	got := count.(ai.Metered).Meter().Totals()
	for _, k := range ai.CallKinds {
		if got[k] != want[k] {
			t.Errorf("%s: counted %+v, the server billed %+v", k, got[k], want[k])
		}
	}
	if want[ai.CallChat].Calls != 2 || want[ai.CallEmbedding].Calls != 2 || want[ai.CallVision].Calls != 1 {
		t.Errorf("billed %+v, want 2 chat, 2 embeddings (a batch of 2 and 1), 1 vision", want)
	}
}

func pngPage(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestMergeCountsTheFullestBatches: with Merge, Embed calls (a file's
// inputs each) join the open batch while it fits; a batch of more inputs
// than the real provider's batch size is several requests.
func TestMergeCountsTheFullestBatches(t *testing.T) {
	texts := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "a few words of text"
		}
		return out
	}
	for _, c := range []struct {
		name  string
		merge counting.Merge
		calls []int
		want  int
	}{
		{"one file", counting.Merge{Inputs: 128, Tokens: 1 << 20}, []int{5}, 1},
		{"files joined while they fit", counting.Merge{Inputs: 128, Tokens: 1 << 20}, []int{100, 20, 20}, 2},
		{"a file too large for one request", counting.Merge{Inputs: 128, Tokens: 1 << 20}, []int{300}, 3},
		{"the token limit closes a batch", counting.Merge{Inputs: 128, Tokens: 30}, []int{4, 4, 4}, 3},
		{"nothing embedded", counting.Merge{Inputs: 128, Tokens: 1 << 20}, nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := c.merge
			p := counting.New(counting.Config{Name: "openai", ChatModel: "gpt-4o-mini", Embedding: ai.EmbeddingModel{Name: "e", Dim: 2},
				Stand: offline.New(), Merge: &m}, false).(*counting.Provider)
			inputs := 0
			for _, n := range c.calls {
				if _, err := p.Embed(context.Background(), texts(n)); err != nil {
					t.Fatal(err)
				}
				inputs += n
			}
			got := p.Totals()[ai.CallEmbedding]
			if got.Calls != c.want || got.InputTokens != inputs*5 {
				t.Errorf("counted %+v, want %d requests of %d tokens", got, c.want, inputs*5)
			}
		})
	}
}
