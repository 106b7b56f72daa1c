package store

import (
	"slices"
	"testing"
)

func TestInOrder(t *testing.T) {
	files := []File{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	for _, c := range []struct {
		ids  []string
		want []string
	}{
		{nil, nil},
		{[]string{"c", "a", "b"}, []string{"c", "a", "b"}},
		{[]string{"x", "b", "y"}, []string{"b"}},
		{[]string{"b", "b"}, []string{"b", "b"}},
		{[]string{"x"}, nil},
	} {
		var got []string
		for _, f := range InOrder(c.ids, files) {
			got = append(got, f.ID)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("InOrder(%q) = %q, want %q", c.ids, got, c.want)
		}
	}
}
