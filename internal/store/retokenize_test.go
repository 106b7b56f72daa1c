package store

import "testing"

func TestJoinChunkTexts(t *testing.T) {
	for _, c := range []struct {
		texts []string
		pages []int
		want  string
	}{
		{nil, nil, ""},
		{[]string{"abcdef"}, []int{0}, "abcdef"},
		{[]string{"Temür was born at Kesh", "born at Kesh in 1336"}, []int{0, 0}, "Temür was born at Kesh in 1336"},
		{[]string{"ends with x.", "x. starts"}, []int{0, 0}, "ends with x.x. starts"}, // too short to be an overlap
		{[]string{"page one", "page two"}, []int{1, 2}, "page one\n\npage two"},
		{[]string{"no overlap", "here"}, []int{0, 0}, "no overlaphere"},
	} {
		if got := JoinChunkTexts(c.texts, c.pages); got != c.want {
			t.Errorf("JoinChunkTexts(%q) = %q, want %q", c.texts, got, c.want)
		}
	}
}
