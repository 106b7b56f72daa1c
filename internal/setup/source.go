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
	// Account is the Google account of a Drive source ("drive@ACCOUNT…");
	// "" for the default account. The wizard picks the default account's
	// folders and keeps the other accounts' sources as they are.
	Account string
}

// Spec is the source as written in GDS_SOURCES.
func (s Source) Spec() string {
	if s.Kind == KindLocal {
		return KindLocal + ":" + s.Path
	}
	spec := KindDrive
	if s.Account != "" {
		spec += "@" + s.Account
	}
	if s.FolderID != "" {
		spec += ":" + s.FolderID
	}
	return spec
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

// ofKind returns the sources of kind k, in order; for KindDrive, those of
// the default account only.
func ofKind(ss []Source, k string) []Source {
	var out []Source
	for _, s := range ss {
		if s.Kind == k && s.Account == "" {
			out = append(out, s)
		}
	}
	return out
}

// otherAccounts returns the Drive sources of named accounts, in order.
func otherAccounts(ss []Source) []Source {
	var out []Source
	for _, s := range ss {
		if s.Kind == KindDrive && s.Account != "" {
			out = append(out, s)
		}
	}
	return out
}
