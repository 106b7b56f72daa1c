package store

import (
	"slices"
	"testing"
)

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

func TestRetokenizeFrom(t *testing.T) {
	for _, c := range []struct {
		v    string
		ok   bool
		want int
	}{
		{"", false, 1}, {"3", true, 3}, {"2", true, 2}, {"1", true, 1}, {"0", true, 1}, {"x", true, 1}, {"3", false, 1},
	} {
		if got := retokenizeFrom(c.v, c.ok); got != c.want {
			t.Errorf("retokenizeFrom(%q, %v) = %d, want %d", c.v, c.ok, got, c.want)
		}
	}
}

func TestRetokenizedChunks(t *testing.T) {
	plain := []Chunk{{Ordinal: 0, Text: "cat sat"}, {Ordinal: 1, Text: "on the mat"}}
	mixed := []Chunk{{Ordinal: 0, Text: "cat sat"}, {Ordinal: 1, Text: "Temür runs"}, {Ordinal: 2, Text: "の第45回衆議院"}}
	for _, c := range []struct {
		name   string
		f      File
		chunks []Chunk
		from   int
		want   []int // ordinals; nil: the file is left alone
	}{
		{"nothing changes", File{Name: "cat.txt"}, plain, 1, nil},
		{"the name changes", File{Name: "Temür.txt"}, plain, 1, []int{}},
		{"a keyword changes", File{Name: "a", Keywords: []string{"x", "café"}}, plain, 1, []int{}},
		{"the summary changes", File{Name: "a", Summary: "she runs"}, plain, 1, []int{}},
		{"since 1 every kind", File{Name: "a"}, mixed, 1, []int{1, 2}},
		{"since 2 no accent", File{Name: "Temür.txt"}, plain, 2, nil},
		{"since 3 edges only", File{Name: "a"}, mixed, 3, []int{2}},
		{"since 4 nothing", File{Name: "a"}, mixed, 4, nil},
		{"no chunks", File{Name: "café.txt"}, nil, 1, []int{}},
	} {
		got := retokenizedChunks(c.f, c.chunks, c.from)
		if (got == nil) != (c.want == nil) {
			t.Errorf("%s: retokenizedChunks = %v, want %v", c.name, got, c.want)
			continue
		}
		ords := []int{}
		for _, ch := range got {
			ords = append(ords, ch.Ordinal)
		}
		if c.want != nil && !slices.Equal(ords, c.want) {
			t.Errorf("%s: retokenizedChunks ordinals = %v, want %v", c.name, ords, c.want)
		}
	}
}
