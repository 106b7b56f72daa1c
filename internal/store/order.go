package store

// InOrder returns the files in the order of ids, as GetFiles returns them:
// an ID without a file among files is skipped, and an ID given twice gets
// its file twice. Back ends read the files in any order and end with it.
func InOrder(ids []string, files []File) []File {
	byID := make(map[string]File, len(files))
	for _, f := range files {
		byID[f.ID] = f
	}
	out := make([]File, 0, len(files))
	for _, id := range ids {
		if f, ok := byID[id]; ok {
			out = append(out, f)
		}
	}
	return out
}
