package server

import (
	"context"
	"reflect"

	"github.com/gds-cli/gds/internal/app"
)

func reflectType[T any]() reflect.Type { return reflect.TypeFor[T]() }

// docInfo is what a document adds to its file: a title and tags.
type docInfo struct {
	Title string
	Tags  []string
}

func (m docInfo) title(name string) string {
	if m.Title != "" {
		return m.Title
	}
	return name
}

func (m docInfo) tags() []string {
	if m.Tags == nil {
		return []string{}
	}
	return m.Tags
}

// docMeta returns the title and tags of the sources' documents.
func (s *Server) docMeta(ctx context.Context, srcs []app.Source) (map[string]docInfo, error) {
	ids := make([]string, 0, len(srcs))
	for _, src := range srcs {
		ids = append(ids, src.FileID)
	}
	docs, err := s.d.DocumentInfo(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]docInfo, len(docs))
	for id, m := range docs {
		out[id] = docInfo{Title: m.Title, Tags: m.Tags}
	}
	return out, nil
}

// filterIDs turns a search filter into the file IDs it allows (nil: all).
func (s *Server) filterIDs(ctx context.Context, f *SearchFilter) ([]string, error) {
	var ids []string
	if len(f.DocumentIDs) > 0 {
		ids = f.DocumentIDs
	}
	if len(f.Tags) == 0 {
		return ids, nil
	}
	tagged, err := s.d.TaggedDocuments(ctx, f.Tags)
	if err != nil {
		return nil, err
	}
	if ids == nil {
		return append([]string{}, tagged...), nil
	}
	keep := map[string]bool{}
	for _, id := range tagged {
		keep[id] = true
	}
	out := []string{}
	for _, id := range ids {
		if keep[id] {
			out = append(out, id)
		}
	}
	return out, nil
}
