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
	real, err := openai.New(openai.Config{APIKey: "sk-test", BaseURL: srv.URL, EmbeddingDim: 8, BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	count := counting.New(counting.Config{Name: "openai", ChatModel: real.ChatModel(), Embedding: real.KnownEmbeddingModel(),
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
	run(real)
	want := real.Meter().Totals()
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
