package store

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestFilterOnly(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Filter
		want bool
	}{
		{"no restriction", Filter{}, false},
		{"IDs only narrow", Filter{IDs: []string{"a"}}, false},
		{"sources only narrow", Filter{Sources: []string{"drive"}}, false},
		{"a folder that cleans to every folder", Filter{Folder: "/"}, false},
		{"modified after", Filter{ModifiedAfter: time.Unix(1, 0)}, true},
		{"modified before", Filter{ModifiedBefore: time.Unix(1, 0)}, true},
		{"a MIME type", Filter{MimeTypes: []string{"application/pdf"}}, true},
		{"a folder", Filter{Folder: "Reports"}, true},
	} {
		if got := tc.f.FilterOnly(); got != tc.want {
			t.Errorf("%s: FilterOnly() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestChunkID(t *testing.T) {
	for _, tc := range []struct {
		file    string
		ordinal int
		want    string
	}{
		{"a", 0, "a#0"},
		{"1AbC-_x", 12, "1AbC-_x#12"},
		{"local:/docs/x#y.txt", 3, "local:/docs/x#y.txt#3"},
	} {
		if got := ChunkID(tc.file, tc.ordinal); got != tc.want {
			t.Errorf("ChunkID(%q, %d) = %q, want %q", tc.file, tc.ordinal, got, tc.want)
		}
	}
}

func TestEmbeddingMismatch(t *testing.T) {
	err := EmbeddingMismatch(EmbeddingSpace{Model: "old", Dim: 3}, EmbeddingSpace{Model: "new", Dim: 5})
	if !errors.Is(err, ErrEmbeddingMismatch) {
		t.Errorf("EmbeddingMismatch = %v, which does not wrap ErrEmbeddingMismatch", err)
	}
	for _, want := range []string{`"old" (3 dimensions)`, `"new" (5 dimensions)`, "gds crawl --full"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("EmbeddingMismatch = %q, want it to name %s", err, want)
		}
	}
}
