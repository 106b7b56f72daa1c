package ai

import (
	"slices"
	"testing"
)

func TestLoosenOrder(t *testing.T) {
	all := Filters{ModifiedAfter: "2024-01-01", ModifiedBefore: "2024-12-31", FileType: "pdf", Folder: "a/b"}
	kws := []string{"budget", "travel", "2024"}
	// Keywords go first, last one first, down to one; then the period,
	// the file type, the folder; then nothing is left.
	want := []struct {
		kws []string
		f   Filters
	}{
		{[]string{"budget", "travel"}, all},
		{[]string{"budget"}, all},
		{[]string{"budget"}, Filters{FileType: "pdf", Folder: "a/b"}},
		{[]string{"budget"}, Filters{Folder: "a/b"}},
		{[]string{"budget"}, Filters{}},
	}
	f := all
	for i, w := range want {
		before := slices.Clone(kws)
		next, nf, ok := Loosen(kws, f)
		if !ok || !slices.Equal(next, w.kws) || nf != w.f {
			t.Fatalf("step %d: Loosen = %v %+v %v, want %v %+v true", i, next, nf, ok, w.kws, w.f)
		}
		if !slices.Equal(kws, before) {
			t.Fatalf("step %d: Loosen changed its input to %v", i, kws)
		}
		kws, f = next, nf
	}
	if next, nf, ok := Loosen(kws, f); ok || !slices.Equal(next, kws) || nf != f {
		t.Errorf("nothing left: Loosen = %v %+v %v, want the same and false", next, nf, ok)
	}
	if _, ok := (Filters{ModifiedBefore: "2024-01-01"}).Loosen(); !ok {
		t.Error("a period with only an upper bound is not loosened")
	}
}
