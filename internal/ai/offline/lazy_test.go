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
		"jaAfterRe": jaAfterRe, "rangeSepRe": rangeSepRe, "rangeEndRe": rangeEndRe, "enBeforeRe": enBeforeRe,
	}
	for name, re := range res {
		if re() == nil || re() != re() {
			t.Errorf("%s: not compiled once", name)
		}
	}
	if n := len(periodRules()); n < 30 {
		t.Errorf("periodRules: %d rules", n)
	}
	sets := map[string]func() map[string]bool{"jaGeneric": jaGeneric, "enStop": enStop, "jaCommon": jaCommon, "enCommon": enCommon}
	for name, set := range sets {
		if len(set()) < 20 {
			t.Errorf("%s: %d words", name, len(set()))
		}
	}
	if !enStop()["the"] || !jaGeneric()["資料"] {
		t.Error("word sets lost their words")
	}
	if len(jaTypeWords()) == 0 || len(enTypeWords()) == 0 || len(typeLabels()) != 5 || len(monthIndex()) != 12 {
		t.Error("type and month tables are incomplete")
	}
}
