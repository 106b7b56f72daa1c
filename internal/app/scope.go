package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// folderCounter is what resolving a typed folder reads of the index.
type folderCounter interface {
	FolderCounts(ctx context.Context) ([]store.FolderCount, error)
}

// ResolveScope turns a folder as a user typed it (--folder of search, ask
// and agentic, Alfred's folder, the MCP folder fields) into the search
// scope it names in the index (search.ResolveFolder: a path as results
// show it in any case, a local source's name, its local path — "~/"
// expanded — or a source spec). A folder the index does not hold is a
// *search.FolderError naming the closest: a usage error (exit 2), as the
// flag is (the HTTP API answers 404: Deps.ResolveFolder).
func ResolveScope(ctx context.Context, ix folderCounter, typed string) (search.FolderScope, error) {
	typed = strings.TrimSpace(typed)
	if typed == "" {
		return search.FolderScope{}, nil
	}
	if rest, ok := strings.CutPrefix(typed, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			typed = filepath.Join(home, rest)
		}
	}
	folders, err := ix.FolderCounts(ctx)
	if err != nil {
		return search.FolderScope{}, fmt.Errorf("list the indexed folders: %w", err)
	}
	if len(folders) == 0 {
		// Nothing indexed: the search says so (apperr.NoIndex).
		return search.FolderScope{Path: store.CleanFolder(typed)}, nil
	}
	m := search.ResolveFolder(typed, folders)
	if m.Found {
		return m.Scope, nil
	}
	return search.FolderScope{}, search.UnknownFolder(typed, m, folders)
}
