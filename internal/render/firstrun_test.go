package render

import (
	"context"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

func TestAcceptsOffer(t *testing.T) {
	for answer, want := range map[string]bool{
		"": true, "\n": true, "y": true, "Yes": true, " Y ": true, "はい": true, //nolint:gocritic // " Y " tests the trimming
		"n": false, "no": false, "N\n": false, "いいえ": false,
	} {
		if got := AcceptsOffer(answer); got != want {
			t.Errorf("AcceptsOffer(%q) = %v, want %v", answer, got, want)
		}
	}
}

func TestOfferInit(t *testing.T) {
	for _, tc := range []struct {
		input    string
		yes      bool
		declined bool
	}{
		{"\n", true, false},
		{"y\n", true, false},
		{"n\n", false, true},
		{"", false, false}, // Ctrl-D: no answer
	} {
		var out strings.Builder
		yes, err := OfferInit(context.Background(), NewLines(strings.NewReader(tc.input)), &out, i18n.En)
		if err != nil || yes != tc.yes {
			t.Errorf("%q: yes %v err %v", tc.input, yes, err)
		}
		if !strings.Contains(out.String(), "Set it up now with `gds init`? [Y/n]") {
			t.Errorf("%q: no question: %q", tc.input, out.String())
		}
		if got := strings.Contains(out.String(), "Run `gds init` when you are ready."); got != tc.declined {
			t.Errorf("%q: declined line %v: %q", tc.input, got, out.String())
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := OfferInit(ctx, NewLines(strings.NewReader("")), &strings.Builder{}, i18n.En); err == nil {
		t.Error("a cancelled offer returned no error")
	}
}
