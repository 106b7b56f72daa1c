package extract

import (
	"context"
	"strings"
	"testing"
)

// TestHTMLScriptNumbers: a number in <sup> or <sub> is raised or lowered
// (graphviz-doc's info/arrows.html "41 · 42<sup>3</sup>" is not 423),
// other text in them stands as it is.
func TestHTMLScriptNumbers(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Thus, there are 41 &middot; 42<sup>3</sup> + 41 &middot; 42<sup>2</sup> + 41 &middot; 42 + 42 = 3,111,696 different combinations.",
			"Thus, there are 41 · 42³ + 41 · 42² + 41 · 42 + 42 = 3,111,696 different combinations."},
		{"H<sub>2</sub>O and 10<sup>-3</sup> m, x<sup> 2 </sup>", "H₂O and 10⁻³ m, x ²"},
		{"the 1<sup>st</sup> and <sup>(a)</sup> <sup>+</sup> <sup>123456789</sup>", "the 1st and (a) + 123456789"},
		// hyperref-doc's footnote mark (TeX4ht): the link's end separates it.
		{`<span class="footnote-mark"><a id="fn1x0"> <sup class="textsuperscript">1</sup></a></span><span class="ec-lmr-8">Now: </span>`, "¹ Now:"},
		{"<sup>2<sub>3</sub>4</sup>", "²₃⁴"},
	}
	for _, tt := range tests {
		doc, err := Extract(context.Background(), "text/html", strings.NewReader("<html><body><p>"+tt.in+"</p></body></html>"), 0)
		if err != nil || strings.TrimSpace(doc.Text()) != strings.TrimSpace(tt.want) {
			t.Errorf("%q: %q, %v; want %q", tt.in, doc.Text(), err, tt.want)
		}
	}
}
