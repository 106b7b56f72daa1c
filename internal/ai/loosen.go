package ai

import "slices"

// Loosen drops one filter in gds's relaxation order: the period first,
// then the file type, then the folder. It reports false when f has none
// of them. The search loop, its no-progress fallback and the offline
// provider's TaskRelax all loosen in this order.
func (f Filters) Loosen() (Filters, bool) {
	switch {
	case f.ModifiedAfter != "" || f.ModifiedBefore != "":
		f.ModifiedAfter, f.ModifiedBefore = "", ""
	case f.FileType != "":
		f.FileType = ""
	case f.Folder != "":
		f.Folder = ""
	default:
		return f, false
	}
	return f, true
}

// Loosen drops one condition in gds's relaxation order: the least
// important (last) keyword while there are several, otherwise a filter
// (Filters.Loosen). The result is a new slice; ok is false when nothing
// was left to drop.
func Loosen(keywords []string, f Filters) (_ []string, _ Filters, ok bool) {
	if len(keywords) > 1 {
		return slices.Clone(keywords[:len(keywords)-1]), f, true
	}
	f, ok = f.Loosen()
	return slices.Clone(keywords), f, ok
}
