package offline

import (
	"regexp"
	"testing"
)

// The patterns and tables are built on first use, so an invalid pattern no
// longer fails at start-up; this test builds every one of them.
func TestLazyTablesBuild(t *testing.T) {
	res := map[string]func() *regexp.Regexp{
		"reHTMLTag": reHTMLTag, "reEntity": reEntity, "reMDImage": reMDImage, "reMDLink": reMDLink, "reURL": reURL,
		"reMDPrefix": reMDPrefix, "reMDEmph": reMDEmph, "reRuleLine": reRuleLine, "reSpaces": reSpaces,
		"reSentEndJa": reSentEndJa, "reSentEndEn": reSentEndEn, "reEnWord": reEnWord,
	}
	for name, re := range res {
		if first, again := re(), re(); first == nil || first != again {
			t.Errorf("%s: not compiled once", name)
		}
	}
	sets := map[string]func() map[string]bool{"jaCommon": jaCommon, "enCommon": enCommon}
	for name, set := range sets {
		if len(set()) < 20 {
			t.Errorf("%s: %d words", name, len(set()))
		}
	}
	if len(typeLabels()) != 5 {
		t.Error("the type label table is incomplete")
	}
}
