package store

import (
	"slices"
	"testing"
)

func TestFuse(t *testing.T) {
	// r(n) is the score of rank n in a ranking of weight 1, w(x, n) in one
	// of weight x.
	w := func(x float64, n int) float64 { return x / float64(FusionK+n) }
	r := func(n int) float64 { return w(1, n) }
	type o = Order[string]
	type f = Fused[string]
	tests := []struct {
		name   string
		orders []o
		want   []f
	}{
		{"no rankings", nil, nil},
		{"an empty ranking", []o{{nil, 1}}, nil},
		{"one ranking keeps its order", []o{{[]string{"a", "b", "c"}, 1}},
			[]f{{"a", r(1), 1}, {"b", r(2), 2}, {"c", r(3), 3}}},
		{"the weight multiplies", []o{{[]string{"a", "b"}, 5}},
			[]f{{"a", w(5, 1), 1}, {"b", w(5, 2), 2}}},
		{"agreement beats one first place", []o{{[]string{"x", "a", "b"}, 1}, {[]string{"y", "b", "a"}, 1}},
			[]f{{"a", r(2) + r(3), 2}, {"b", r(3) + r(2), 2}, {"x", r(1), 1}, {"y", r(1), 1}}},
		{"a heavier ranking decides", []o{{[]string{"a", "b"}, 1}, {[]string{"b", "a"}, 2}},
			[]f{{"b", r(2) + w(2, 1), 1}, {"a", r(1) + w(2, 2), 1}}},
		{"ties keep the first ranking's order, then the next one's new keys", []o{{[]string{"b", "a"}, 0}, {[]string{"c", "a"}, 0}},
			[]f{{"b", 0, 1}, {"a", 0, 2}, {"c", 0, 1}}},
		{"a key of a weight-0 ranking is kept, last", []o{{[]string{"a"}, 1}, {[]string{"x", "a"}, 0}},
			[]f{{"a", r(1), 1}, {"x", 0, 1}}},
		{"a repeat neither scores nor takes a rank", []o{{[]string{"a", "a", "b"}, 1}},
			[]f{{"a", r(1), 1}, {"b", r(2), 2}}},
		{"best is the best rank in any ranking", []o{{[]string{"x", "y", "a"}, 1}, {[]string{"a"}, 0.1}},
			[]f{{"x", r(1), 1}, {"a", r(3) + w(0.1, 1), 1}, {"y", r(2), 2}}}, // 1/13 + 0.1/11 > 1/12
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Fuse(FusionK, tc.orders...); !slices.Equal(got, tc.want) {
				t.Errorf("Fuse = %v, want %v", got, tc.want)
			}
		})
	}
}

// The rank constant decides how much first places count against
// agreement: with k = 0 two first places beat a key both rankings hold
// second and third; with FusionK the agreement wins.
func TestFuseRankConstant(t *testing.T) {
	orders := []Order[string]{{[]string{"x", "a", "b"}, 1}, {[]string{"y", "b", "a"}, 1}}
	for _, tc := range []struct {
		k    float64
		want []string
	}{
		{0, []string{"x", "y", "a", "b"}},
		{FusionK, []string{"a", "b", "x", "y"}},
	} {
		var got []string
		for _, h := range Fuse(tc.k, orders...) {
			got = append(got, h.Key)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Fuse(k = %v) = %v, want %v", tc.k, got, tc.want)
		}
	}
}
