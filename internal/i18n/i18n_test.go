package i18n

import (
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{nil, En},
		{map[string]string{"LANG": "ja_JP.UTF-8"}, Ja},
		{map[string]string{"LANG": "JA"}, Ja},
		{map[string]string{"LANG": "en_US.UTF-8"}, En},
		{map[string]string{"LANG": "C"}, En},
		{map[string]string{"LC_ALL": "en_US.UTF-8", "LANG": "ja_JP.UTF-8"}, En},
		{map[string]string{"LC_MESSAGES": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"}, Ja},
		{map[string]string{"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ja_JP"}, Ja},
		{map[string]string{"LC_ALL": "ja_JP.UTF-8", "LC_MESSAGES": "en_US"}, Ja},
	}
	for _, tc := range cases {
		got := Detect(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
		if got != tc.want {
			t.Errorf("Detect(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
	if Detect(nil) != En {
		t.Error("Detect(nil) is not English")
	}
}

// Every key has a message in both languages, and both take the same
// formatting verbs, so T never renders %!d(MISSING) in one language only.
func TestCatalogComplete(t *testing.T) {
	keys := Keys()
	if len(keys) < 10 {
		t.Fatalf("catalog has only %d keys", len(keys))
	}
	for _, k := range keys {
		m, _ := Lookup(k)
		if strings.TrimSpace(m.En) == "" || strings.TrimSpace(m.Ja) == "" {
			t.Errorf("%s: missing a language: en=%q ja=%q", k, m.En, m.Ja)
			continue
		}
		if ve, vj := verbs(m.En), verbs(m.Ja); ve != vj {
			t.Errorf("%s: verbs differ: en %q, ja %q", k, ve, vj)
		}
	}
}

func verbs(s string) string {
	var out []string
	for i := 0; i < len(s)-1; i++ {
		if s[i] == '%' {
			if s[i+1] == '%' {
				i++
				continue
			}
			out = append(out, s[i:i+2])
		}
	}
	return strings.Join(out, " ")
}

func TestSeedEndMessages(t *testing.T) {
	if got := T(Ja, NoFilesFound); got != "見つかりませんでした" {
		t.Errorf("ja no files = %q", got)
	}
	if got := T(En, NoFilesFound); got != "No files found." {
		t.Errorf("en no files = %q", got)
	}
	if got := T(Ja, LoopLimitReached, 5); !strings.Contains(got, "（5 回）") || !strings.Contains(got, "10 件以下") {
		t.Errorf("ja loop limit = %q", got)
	}
	if got := T(En, LoopLimitReached, 7); !strings.Contains(got, "loop limit (7)") {
		t.Errorf("en loop limit = %q", got)
	}
}

func TestUnknownKeyIsVisible(t *testing.T) {
	if got := T(En, "no.such.key"); got != "no.such.key" {
		t.Errorf("unknown key = %q", got)
	}
	if got := (Printer{Lang: Ja}).T(ErrorPrefix); got != "エラー: " {
		t.Errorf("printer = %q", got)
	}
}

func TestRegisterRejectsDuplicates(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering a duplicate key did not panic")
		}
	}()
	c := map[Key]Message{}
	for _, set := range messageSets {
		merge(c, set())
	}
	merge(c, map[Key]Message{NoFilesFound: {En: "x", Ja: "y"}})
}

// N picks the singular message for one thing, and a .one entry formats
// like its plural (the same verbs) when there is one, so either can be
// chosen.
func TestN(t *testing.T) {
	for _, c := range []struct {
		lang string
		n    int
		want string
	}{
		{En, 0, "0 problems"}, {En, 1, "1 problem"}, {En, 2, "2 problems"}, {Ja, 1, "問題 1 件"}, {Ja, 3, "問題 3 件"},
	} {
		if got := N(c.lang, "doctor.n_problems", c.n); got != c.want {
			t.Errorf("N(%s, %d) = %q, want %q", c.lang, c.n, got, c.want)
		}
	}
	if got := N(En, "crawl.summary.removed", 1); got != "Removed 1 file that is no longer in the crawled folders" {
		t.Errorf("removed 1: %q", got)
	}
	if got := N(En, "search.too_many", 1); got != T(En, "search.too_many", 1) {
		t.Errorf("a key without .one: %q", got)
	}
	for _, k := range Keys() {
		if !strings.HasSuffix(string(k), ".one") {
			continue
		}
		plural, ok := Lookup(Key(strings.TrimSuffix(string(k), ".one")))
		one, _ := Lookup(k)
		if ok && verbs(plural.En) != verbs(one.En) { // (a key may end in .one for another reason)
			t.Errorf("%s: its plural message has other verbs", k)
		}
	}
}
