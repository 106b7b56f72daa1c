package config

import (
	"errors"
	"strings"
)

// ParseSources parses a comma-separated list of source specs (GDS_SOURCES,
// `gds crawl --source A,B`, `gds init --source`): "drive",
// "drive:FOLDER_ID", "drive@ACCOUNT", "drive@ACCOUNT:FOLDER_ID", "local:PATH". Paths are resolved as ParseSource does;
// empty items are skipped and duplicates (by Key) removed, keeping the
// first. A bad item is an error naming it (a *SourceError for an unknown
// spec, suggesting "local:" for a bare path). An empty value gives no
// sources and no error.
func ParseSources(value, workDir, homeDir string) ([]CrawlSource, error) {
	var out []CrawlSource
	seen := map[string]bool{}
	for _, item := range strings.Split(value, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		s, err := ParseSource(item, workDir, homeDir)
		if err != nil {
			return nil, err
		}
		if seen[s.Key()] {
			continue
		}
		seen[s.Key()] = true
		out = append(out, s)
	}
	return out, nil
}

// FormatSources renders sources as a GDS_SOURCES value (their keys joined by
// commas); ParseSources reads it back to the same list.
func FormatSources(sources []CrawlSource) string {
	keys := make([]string, len(sources))
	for i, s := range sources {
		keys[i] = s.Key()
	}
	return strings.Join(keys, ",")
}

// HasKind reports whether any of sources is of this kind (SourceDrive,
// SourceLocal).
func HasKind(sources []CrawlSource, kind string) bool {
	for _, s := range sources {
		if s.Kind == kind {
			return true
		}
	}
	return false
}

// NeedsDriveFolders reports whether a source crawls
// GOOGLE_DRIVE_TARGET_FOLDER_IDS (the plain "drive" spec).
func NeedsDriveFolders(sources []CrawlSource) bool {
	for _, s := range sources {
		if s.Kind == SourceDrive && s.FolderID == "" {
			return true
		}
	}
	return false
}

// fillSources sets Sources and Source from GDS_SOURCES, or from GDS_SOURCE
// when GDS_SOURCES is unset or blank.
func (c *Config) fillSources(val func(name, def string) string, workDir, homeDir string) error {
	name, raw := EnvSources, val(EnvSources, "")
	if strings.TrimSpace(raw) == "" {
		name, raw = EnvSource, val(EnvSource, SourceDrive)
	}
	srcs, err := ParseSources(raw, workDir, homeDir)
	if err != nil {
		e := &Error{Var: name, Value: raw, Problem: "config.problem.bad_source", Fix: "config.fix.source"}
		var se *SourceError
		var ae *AccountError
		if errors.As(err, &se) {
			e.Value = se.Value
			if errors.As(err, &ae) {
				e.Problem, e.Fix = "config.problem.bad_account", "config.fix.account"
			}
			if se.Suggest != "" {
				e.Fix, e.FixArgs = "config.fix.source_path", []any{se.Suggest}
			}
		}
		// Keep the default so the rest of the configuration is usable.
		c.Sources, c.Source = []CrawlSource{{Kind: SourceDrive}}, CrawlSource{Kind: SourceDrive}
		return e
	}
	if len(srcs) == 0 {
		srcs = []CrawlSource{{Kind: SourceDrive}}
	}
	c.Sources, c.Source = srcs, srcs[0]
	return nil
}
