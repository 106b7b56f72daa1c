package extract

import (
	"regexp"
	"testing"
)

// The patterns are compiled on first use, so an invalid one no longer fails
// at start-up; this test compiles every one of them.
func TestLazyPatternsCompile(t *testing.T) {
	res := map[string]func() *regexp.Regexp{
		"mdImage": mdImage, "mdImageRef": mdImageRef, "mdLink": mdLink, "mdLinkRef": mdLinkRef, "mdRefDef": mdRefDef,
		"mdAutolink": mdAutolink, "mdHTMLTag": mdHTMLTag, "mdHTMLComm": mdHTMLComm, "mdEmptyLine": mdEmptyLine,
		"objRe": objRe, "prevRe": prevRe, "trailerRe": trailerRe, "sizeRe": sizeRe, "lengthRe": lengthRe,
		"catalogRe": catalogRe,
	}
	for name, re := range res {
		if first, again := re(), re(); first == nil || first != again {
			t.Errorf("%s: not compiled once", name)
		}
	}
	if aglNames()["bullet"] != "•" || len(aglNames()) < 4000 {
		t.Error("the Adobe Glyph List lost its entries")
	}
}
