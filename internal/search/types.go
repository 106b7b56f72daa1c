package search

import (
	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
)

// Result is one file found.
type Result struct {
	File  store.File
	Score float64
	// Missing are the query's keywords the file does not contain
	// (MissingTerms of the first round's keywords), in query order.
	Missing []string
}

// Filter converts AI filters into a store filter.
func Filter(f ai.Filters) (store.Filter, error) {
	after, before, err := f.Range()
	if err != nil {
		return store.Filter{}, err
	}
	return store.Filter{ModifiedAfter: after, ModifiedBefore: before, MimeTypes: ai.MimeTypesFor(f.FileType),
		Folder: store.CleanFolder(f.Folder)}, nil
}

// HitInfo describes a file to the AI provider.
func HitInfo(f store.File) ai.HitInfo {
	return ai.HitInfo{ID: f.ID, Name: f.Name, Summary: f.Summary, Keywords: f.Keywords,
		MimeType: f.MimeType, Modified: f.ModifiedAt.UTC().Format(ai.DateLayout), Path: f.Path}
}

// within returns c kept inside the state's scope: its folder (Scoped) and
// its sources.
func (s State) within(c Conditions) Conditions {
	c = Scoped(c, s.Scope)
	c.Sources = s.Sources
	return c
}

// StoreFilter converts c's filters into a store filter with c's sources.
func StoreFilter(c Conditions) (store.Filter, error) {
	f, err := Filter(c.Filters)
	f.Sources = c.Sources
	return f, err
}

// Scoped returns c with its folder filter kept inside scope: c's folder
// when it lies in scope, scope otherwise ("" scope leaves c as it is).
func Scoped(c Conditions, scope string) Conditions {
	scope = store.CleanFolder(scope)
	if scope == "" {
		return c
	}
	if f := store.CleanFolder(c.Filters.Folder); f == "" || !store.InFolder(f, scope) {
		c.Filters.Folder = scope
	}
	return c
}
