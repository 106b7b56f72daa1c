package tokens

import "testing"

func TestImageTokens(t *testing.T) {
	for _, c := range []struct {
		w, h, want int
	}{
		{0, 0, 85 + 6*170},       // unknown: a page
		{512, 512, 85 + 170},     // one tile
		{1024, 1024, 85 + 4*170}, // scaled to 768 × 768: 2 × 2 tiles
		{2048, 4096, 85 + 6*170}, // OpenAI's example: 1024 × 2048 → 768 × 1536, 2 × 3 tiles
		{1700, 2200, 85 + 4*170}, // a letter page at 200 dpi → 768 × 994: 2 × 2 tiles
		{100, 50, 85 + 170},      // small images are not scaled up
		{3000, 600, 85 + 4*170},  // 2048 × 409.6: 4 × 1 tiles
	} {
		if got := ImageTokens(c.w, c.h); got != c.want {
			t.Errorf("ImageTokens(%d, %d) = %d, want %d", c.w, c.h, got, c.want)
		}
	}
}

func TestPromptCountsEveryPart(t *testing.T) {
	sys := Message{Role: "system", Content: "You summarise documents."}
	user := Message{Role: "user", Content: `{"name":"a.txt","text":"hello world"}`}
	one := Prompt([]Message{user}, "", "")
	if want := ReplyPriming + PerMessage + Count("user") + Count(user.Content); one != want {
		t.Fatalf("one message: %d, want %d", one, want)
	}
	two := Prompt([]Message{sys, user}, "", "")
	if two-one != PerMessage+Count("system")+Count(sys.Content) {
		t.Errorf("the system message adds %d", two-one)
	}
	schema := `{"type":"object","properties":{"summary":{"type":"string"}}}`
	if got := Prompt([]Message{sys, user}, schema, ""); got != two+Count(schema) {
		t.Errorf("with a schema: %d, want %d", got, two+Count(schema))
	}
	tools := `[{"type":"function","function":{"name":"search"}}]`
	if got := Prompt([]Message{sys, user}, "", tools); got != two+Count(tools) {
		t.Errorf("with tools: %d, want %d", got, two+Count(tools))
	}
	asst := Message{Role: "assistant", ToolCalls: [][2]string{{"search", `{"q":"x"}`}}}
	if got := Prompt([]Message{sys, user, asst}, "", ""); got != two+PerMessage+Count("assistant")+PerToolCall+Count("search")+Count(`{"q":"x"}`) {
		t.Errorf("with a tool call: %d", got)
	}
	img := Message{Role: "user", Content: "Transcribe.", Images: ImageTokens(512, 512)}
	if got := Prompt([]Message{img}, "", ""); got != ReplyPriming+PerMessage+Count("user")+Count("Transcribe.")+255 {
		t.Errorf("with an image: %d", got)
	}
	if got := Completion("hello world", [][2]string{{"search", `{"q":"x"}`}}); got != 2+Count("search")+Count(`{"q":"x"}`) {
		t.Errorf("Completion = %d", got)
	}
}
