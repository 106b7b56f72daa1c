package tokens

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestKnownCounts(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 0},
		// The first three are upstream tiktoken's own o200k_base test cases.
		{"hello world", 2},
		{"supercalifragilistic", 6},
		{"We know what we are, but know not what we may be.", 14},
		{"Hello, world!", 4},
		// Japanese: o200k_base keeps common words whole (こんにちは, 世界).
		{"こんにちは、世界。", 4},
		{"東京都の2024年度予算に関する議事録を探しています。", 17},
	} {
		if got := Count(c.text); got != c.want {
			t.Errorf("Count(%q) = %d, want %d", c.text, got, c.want)
		}
	}
	if Count("こんにちは") != 1 {
		t.Errorf("こんにちは is %d tokens, want 1", Count("こんにちは"))
	}
}

// TestTruncateStaysValidAndWithinBudget cuts mixed text, including
// characters that the encoding splits into byte tokens (𠮷, emoji), at every
// budget.
func TestTruncateStaysValidAndWithinBudget(t *testing.T) {
	text := "𠮷野家の議事録 🍣 summary: the budget is ¥3,000,000 for FY2024. 鬱蒼とした森。 naïve café"
	total := Count(text)
	_, pieces, err := o200kCodec().Encode(text)
	if err != nil {
		t.Fatal(err)
	}
	insideRune := false
	end := 0
	for _, p := range pieces {
		end += len(p)
		if !utf8.ValidString(text[:end]) {
			insideRune = true
		}
	}
	if !insideRune {
		t.Fatal("no token boundary falls inside a character: the test text does not exercise the cut")
	}
	prev := ""
	for limit := 0; limit <= total+1; limit++ {
		got := Truncate(text, limit)
		if !utf8.ValidString(got) || !strings.HasPrefix(text, got) {
			t.Fatalf("Truncate(%d) = %q: not a valid prefix", limit, got)
		}
		if n := Count(got); n > limit {
			t.Fatalf("Truncate(%d) = %q has %d tokens", limit, got, n)
		}
		if len(got) < len(prev) {
			t.Fatalf("Truncate(%d) = %q is shorter than with a smaller budget (%q)", limit, got, prev)
		}
		prev = got
	}
	if Truncate(text, total) != text || Truncate(text, -1) != "" {
		t.Error("a text within its budget must come back whole; a negative budget gives nothing")
	}
	if got := Truncate("hello world, this is a test", 2); got != "hello world" {
		t.Errorf("Truncate to 2 tokens = %q", got)
	}
}
