package setup

import "strings"

// EnvSources is the setting `gds init` writes the chosen sources to: a
// comma-separated list of specs ("drive", "drive:FOLDER_ID", "local:PATH").
const EnvSources = "GDS_SOURCES"

// Source kinds, as they start a spec.
const (
	KindDrive = "drive"
	KindLocal = "local"
)

// Source is one configured place to crawl.
type Source struct {
	Kind     string // KindDrive or KindLocal
	FolderID string // the Drive folder (KindDrive); "" means the whole Drive
	Name     string // the folder's name, for display only (never written)
	Path     string // the absolute folder path (KindLocal)
}

// Spec is the source as written in GDS_SOURCES.
func (s Source) Spec() string {
	switch {
	case s.Kind == KindLocal:
		return KindLocal + ":" + s.Path
	case s.FolderID != "":
		return KindDrive + ":" + s.FolderID
	}
	return KindDrive
}

// Label is the source for people: the spec, with the Drive folder's name
// when it is known.
func (s Source) Label() string {
	if s.Kind == KindDrive && s.Name != "" {
		return s.Spec() + " (" + s.Name + ")"
	}
	return s.Spec()
}

// FormatSpecs joins the sources' specs as GDS_SOURCES holds them; it
// writes what config.ParseSources reads (the package is pure, so it does
// not call config.FormatSources; app's tests check the two agree).
func FormatSpecs(ss []Source) string {
	specs := make([]string, len(ss))
	for i, s := range ss {
		specs[i] = s.Spec()
	}
	return strings.Join(specs, ",")
}

// sameSource reports whether a and b name the same place.
func sameSource(a, b Source) bool { return a.Spec() == b.Spec() }

// ofKind returns the sources of kind k, in order.
func ofKind(ss []Source, k string) []Source {
	var out []Source
	for _, s := range ss {
		if s.Kind == k {
			out = append(out, s)
		}
	}
	return out
}
