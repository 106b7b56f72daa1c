package alfred

import (
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/i18n"
)

// FiltersText describes filters in words. The terminal renderer
// (internal/render) shows them the same way.
func FiltersText(f ai.Filters, lang string) string {
	var parts []string
	if f.FileType != "" {
		parts = append(parts, f.FileType)
	}
	if f.ModifiedAfter != "" || f.ModifiedBefore != "" {
		parts = append(parts, f.ModifiedAfter+"…"+f.ModifiedBefore)
	}
	if f.Folder != "" {
		parts = append(parts, i18n.T(lang, "search.filters.folder", f.Folder))
	}
	if len(parts) == 0 {
		return i18n.T(lang, "search.filters.none")
	}
	return strings.Join(parts, ", ")
}
