package app

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
)

func TestCleanTags(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
		err  bool
	}{
		{nil, []string{}, false},
		{[]string{"a"}, []string{"a"}, false},
		{[]string{"a, b", "b", " "}, []string{"a", "b"}, false},
		{[]string{`["a","b"]`}, []string{"a", "b"}, false},
		{[]string{` ["x, y", "見積"] `, "z"}, []string{"x, y", "見積", "z"}, false},
		{[]string{`[]`}, []string{}, false},
		{[]string{`["a",`}, nil, true},
		{[]string{`[1,2]`}, nil, true},
		{[]string{strings.Repeat("x", MaxTagLen+1)}, nil, true},
	}
	for _, tc := range tests {
		got, err := cleanTags(tc.in)
		if tc.err {
			if !errors.Is(err, apperr.Usage) {
				t.Errorf("cleanTags(%q) = %q, %v; want a usage error", tc.in, got, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("cleanTags(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
