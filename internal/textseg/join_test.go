package textseg

import (
	"fmt"
	"strings"
	"testing"
)

func TestOverlap(t *testing.T) {
	const ov, maxOv = 40, 70
	// A piece of fixed windows (older rules): the next one began 40 runes
	// back, mid-word.
	const oldRules = "partner events to Postgres. Alpha ingestion writes partner"
	for _, c := range []struct {
		name       string
		prev, next string
		want       int
	}{
		{"a sentence start in the last overlap runes", "Alpha writes events to the store every hour. It keeps them.", "It keeps them. Then it stops.", len("It keeps them.")},
		{"no overlap: no boundary in the last overlap runes", strings.Repeat("x", 100), strings.Repeat("x", 30) + " and more", 0},
		{"no repeat at all", "The first piece ends here with a full stop.", "Another piece begins elsewhere.", 0},
		{"a repeat that starts inside a word is no overlap", "The ship was born at Kesh and sailed.", "esh and sailed away", 0},
		{"an empty next piece", "Some words here.", "", 0},
		{"Japanese: a sentence start", "東京湾アクアラインは有料道路である。全長は約15キロメートルである。", "全長は約15キロメートルである。海ほたるがある。", len([]rune("全長は約15キロメートルである。"))},
		// "ha ha … ha" repeats at every word: the longest repeat (the
		// whole allowed length) is not the overlap; Windows began at the
		// first word start of the last overlap runes.
		{"repeated words: the first word start, not the longest repeat", strings.Repeat("ha ", 33) + "ha", strings.Repeat("ha ", 30) + "end", len([]rune(strings.Repeat("ha ", 12) + "ha"))},
		// The same sentence said again and again: the first sentence start
		// of the last overlap runes.
		{"a repeated sentence", strings.Repeat("The cat sat. ", 7) + "The cat sat.", strings.Repeat("The cat sat. ", 5) + "The dog ran.", len("The cat sat. The cat sat. The cat sat.")},
		// A sentence start farther back than overlap, within maxOverlap.
		{"a sentence start within the reach", "Short one. " + "A long sentence that keeps going on and on past the window", "A long sentence that keeps going on and on past the window and then stops.", len("A long sentence that keeps going on and on past the window")},
		// Fixed windows of older rules: a repeat beginning mid-word.
		{"fixed windows of older rules", oldRules, oldRules[len(oldRules)-40:] + " events to Postgres.", 40},
	} {
		if got := Overlap(c.prev, c.next, 1000, ov, maxOv); got != c.want {
			t.Errorf("%s: Overlap(%q, %q) = %d, want %d", c.name, c.prev, c.next, got, c.want)
		}
	}
}

// Pieces cut by Windows join back into the text, each character once:
// English and Japanese prose, sentences of every length (so overlaps vary
// up to maxOverlap), repetitive text, a word longer than a piece.
func TestJoinWindowsRoundTrip(t *testing.T) {
	var en strings.Builder
	for i := range 60 {
		fmt.Fprintf(&en, "Sentence %d tells of the keeper of lighthouse %d%s. ", i, i*7, strings.Repeat(", who kept a log of the ships and the weather", i%9))
	}
	var ja strings.Builder
	for i := range 50 {
		fmt.Fprintf(&ja, "灯台%dの記録によれば%s船が通った。", i, strings.Repeat("、嵐の夜にも", i%7))
	}
	texts := map[string]string{
		"English":           strings.TrimSpace(en.String()),
		"Japanese":          ja.String(),
		"mixed":             strings.TrimSpace(en.String()[:3000]) + " " + ja.String(),
		"repeated sentence": strings.TrimSpace(strings.Repeat("The cat sat on the mat. ", 200)),
		"repeated word":     strings.TrimSpace(strings.Repeat("ha ", 900)),
		"repeated kana":     strings.Repeat("あ", 2500),
		"long run-on":       strings.TrimSpace(strings.Repeat("and the tide came in over the sand ", 120)),
		"short":             "One sentence only.",
	}
	for _, g := range []struct{ size, overlap, maxOverlap int }{{1000, 200, 350}, {300, 60, 100}, {120, 40, 70}} {
		for name, text := range texts {
			pieces := Windows(text, g.size, g.overlap, g.maxOverlap)
			if got := JoinWindows(pieces, g.size, g.overlap, g.maxOverlap); got != text {
				t.Errorf("%s (%v, %d pieces): joined text differs at rune %d:\n%q\nwant\n%q", name, g, len(pieces), firstDiff(got, text), got, text)
			}
		}
	}
	// A word longer than a piece is cut inside itself with no overlap; the
	// join puts a space there (Windows trimmed nothing, but a cut with no
	// overlap usually lies at white space).
	word := strings.Repeat("x", 150)
	if got := JoinWindows(Windows(word, 120, 40, 70), 120, 40, 70); got != strings.Repeat("x", 120)+" "+strings.Repeat("x", 30) {
		t.Errorf("a word longer than a piece: %q", got)
	}
	if got := JoinWindows(nil, 120, 40, 70); got != "" {
		t.Errorf("no pieces: %q", got)
	}
}

func firstDiff(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	for i := range min(len(ra), len(rb)) {
		if ra[i] != rb[i] {
			return i
		}
	}
	return min(len(ra), len(rb))
}

// Every character of a text is said once in the join of its pieces
// (white space aside: Windows trims it where pieces meet).
func FuzzJoinWindows(f *testing.F) {
	f.Add("Sentence one. Sentence two.\n\nA third, with a clause; and more.", 40, 10)
	f.Add("東京は日本の首都である。人口は多い。東京は日本の首都である。", 12, 3)
	f.Add(strings.Repeat("ha ", 50), 20, 5)
	f.Add(strings.Repeat("The cat sat. ", 40), 32, 8)
	f.Fuzz(func(t *testing.T, text string, size, overlap int) {
		// The crawl's proportions: overlap at most a quarter of size,
		// maxOverlap 7/4 of overlap (1,000, 200, 350).
		if size < 4 || size > 300 || overlap < 1 || overlap > size/4 || len(text) > 4000 {
			return
		}
		text = strings.ToValidUTF8(text, "")
		maxOverlap := overlap * 7 / 4
		pieces := Windows(text, size, overlap, maxOverlap)
		if got, want := dropSpace(JoinWindows(pieces, size, overlap, maxOverlap)), dropSpace(text); got != want {
			t.Errorf("Windows(%q, %d, %d, %d) = %q joined to\n%q\nwant\n%q", text, size, overlap, maxOverlap, pieces, got, want)
		}
	})
}

func dropSpace(s string) string {
	return strings.Join(strings.Fields(s), "")
}
