package rules

import (
	"context"
	"errors"
	"regexp"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
)

// The patterns and tables are built on first use, so an invalid pattern no
// longer fails at start-up; this test builds every one of them.
func TestLazyTablesBuild(t *testing.T) {
	res := map[string]func() *regexp.Regexp{
		"jaAfterRe": jaAfterRe, "rangeSepRe": rangeSepRe, "rangeEndRe": rangeEndRe, "enBeforeRe": enBeforeRe,
	}
	for name, re := range res {
		if first, again := re(), re(); first == nil || first != again {
			t.Errorf("%s: not compiled once", name)
		}
	}
	if n := len(periodRules()); n < 30 {
		t.Errorf("periodRules: %d rules", n)
	}
	sets := map[string]func() map[string]bool{"JaGeneric": JaGeneric, "EnStop": EnStop}
	for name, set := range sets {
		if len(set()) < 20 {
			t.Errorf("%s: %d words", name, len(set()))
		}
	}
	if !EnStop()["the"] || !JaGeneric()["資料"] {
		t.Error("word sets lost their words")
	}
	if len(jaTypeWords()) == 0 || len(enTypeWords()) == 0 || len(monthIndex()) != 12 {
		t.Error("type and month tables are incomplete")
	}
}

func TestAnalyzerDoesOnlyQueryAnalysis(t *testing.T) {
	ctx := context.Background()
	if _, err := (Analyzer{}).Structured(ctx, ai.Request{Task: ai.TaskSummarize, Input: ai.DocInput{}}); !errors.Is(err, ai.ErrUnsupportedTask) {
		t.Errorf("summarize: err = %v, want ErrUnsupportedTask", err)
	}
	if _, err := (Analyzer{}).Structured(ctx, ai.Request{Task: ai.TaskAnalyzeQuery, Input: "x"}); !errors.Is(err, ai.ErrInputType) {
		t.Errorf("wrong input: err = %v, want ErrInputType", err)
	}
	if _, err := (Analyzer{}).Embed(ctx, []string{"x"}); !errors.Is(err, ai.ErrUnsupportedTask) {
		t.Errorf("embed: err = %v, want ErrUnsupportedTask", err)
	}
	in := ai.QueryInput{Query: "先月の議事録PDF", Now: testNow}
	got, err := ai.AnalyzeQuery(ctx, &Analyzer{}, in)
	if err != nil || len(got.Keywords) != 1 || got.Keywords[0] != "議事録" || got.Filters.FileType != ai.FileTypePDF {
		t.Errorf("AnalyzeQuery(pointer analyser) = %+v, %v", got, err)
	}
}
