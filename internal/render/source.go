package render

import (
	"path/filepath"
	"strings"

	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/termsafe"
)

// SourceLabel is the short name of a source key shown next to a result:
// "Drive" for a Drive source of the default account, "Drive (work)" for
// one of account work ("drive@work…"), the folder's name for a local one
// ("local:/home/u/Docs" → "Docs"), "upload" for an uploaded document.
func SourceLabel(key string) string {
	kind, rest, _ := strings.Cut(key, ":")
	switch {
	case store.SourceKindOf(key) == "drive":
		if a := store.SourceAccountOf(key); a != "" {
			return "Drive (" + a + ")"
		}
		return "Drive"
	case kind == "local" && rest != "":
		return filepath.Base(rest)
	}
	return key
}

// sourceLabels returns the label of every result's source when the
// results come from more than one source (the label then tells them
// apart), nil otherwise.
func sourceLabels(res []search.Result) []string {
	mixed := false
	for _, r := range res {
		if r.File.Source != res[0].File.Source {
			mixed = true
			break
		}
	}
	if !mixed {
		return nil
	}
	out := make([]string, len(res))
	for i, r := range res {
		out[i] = SourceLabel(r.File.Source)
	}
	return out
}

// withSource prefixes a result's meta line with its source label, if any.
func withSource(labels []string, i int, meta string) string {
	if labels == nil || labels[i] == "" {
		return meta
	}
	return termsafe.String(labels[i]) + " · " + meta
}
