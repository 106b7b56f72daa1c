package config

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseSources(t *testing.T) {
	work, home := filepath.FromSlash("/work"), filepath.FromSlash("/home/u")
	cases := []struct {
		in      string
		keys    []string
		badItem string // the item an error names; "" for success
		suggest string
	}{
		{"", nil, "", ""},
		{" , ,", nil, "", ""},
		{"drive", []string{"drive"}, "", ""},
		{"drive:1AbC_x-9", []string{"drive:1AbC_x-9"}, "", ""},
		{"drive:https://drive.google.com/drive/folders/1AbC_x-9?usp=sharing", []string{"drive:1AbC_x-9"}, "", ""},
		{"local:~/Docs, local:notes ,drive", []string{"local:" + filepath.Join(home, "Docs"), "local:" + filepath.Join(work, "notes"), "drive"}, "", ""},
		// Duplicates by key, however written, are removed, the first kept.
		{"local:/a,local:/a/,drive,local:/b/../a,drive", []string{"local:" + filepath.FromSlash("/a"), "drive"}, "", ""},
		{"local:/a,/data/docs", nil, "/data/docs", "local:/data/docs"},
		{"drive,dirve", nil, "dirve", ""},
		{"local:/a,local:", nil, "local:", ""},
		{"drive:bad id", nil, "drive:bad id", ""},
	}
	for _, c := range cases {
		got, err := ParseSources(c.in, work, home)
		if c.badItem != "" {
			var se *SourceError
			if !errors.As(err, &se) || se.Value != c.badItem || se.Suggest != c.suggest {
				t.Errorf("ParseSources(%q) = %v, %v; want a *SourceError for %q suggesting %q", c.in, got, err, c.badItem, c.suggest)
			} else if !strings.Contains(err.Error(), c.badItem) {
				t.Errorf("ParseSources(%q) error %q does not name %q", c.in, err, c.badItem)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseSources(%q): %v", c.in, err)
			continue
		}
		var keys []string
		for _, s := range got {
			keys = append(keys, s.Key())
		}
		if !slices.Equal(keys, c.keys) {
			t.Errorf("ParseSources(%q) keys = %q, want %q", c.in, keys, c.keys)
		}
		// FormatSources writes a value that parses back to the same list.
		again, err := ParseSources(FormatSources(got), "/elsewhere", "/nobody")
		if err != nil || !slices.Equal(again, got) {
			t.Errorf("ParseSources(FormatSources(%q)) = %v, %v; want %v", c.in, again, err, got)
		}
	}
}

func TestLoadSources(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		keys []string
	}{
		{"default", nil, []string{"drive"}},
		{"legacy GDS_SOURCE", map[string]string{EnvSource: "local:docs"}, []string{"local:<work>/docs"}},
		{"GDS_SOURCES wins", map[string]string{EnvSource: "local:docs", EnvSources: "drive:F1,local:~/A"}, []string{"drive:F1", "local:<user>/A"}},
		{"blank GDS_SOURCES falls back", map[string]string{EnvSource: "local:docs", EnvSources: " "}, []string{"local:<work>/docs"}},
	}
	for _, c := range cases {
		f := newFixture(t)
		for k, v := range c.env {
			f.env[k] = v
		}
		cfg := f.mustLoad()
		var keys []string
		for _, s := range cfg.Sources {
			keys = append(keys, strings.NewReplacer(f.work, "<work>", f.userDir, "<user>").Replace(s.Key()))
		}
		if !slices.Equal(keys, c.keys) {
			t.Errorf("%s: Sources = %q, want %q", c.name, keys, c.keys)
		}
		if cfg.Source != cfg.Sources[0] {
			t.Errorf("%s: Source = %v, want the first of Sources", c.name, cfg.Source)
		}
	}

	f := newFixture(t)
	f.env[EnvSources] = "local:/a,/data/docs"
	_, err := f.load()
	var ce *Error
	if !errors.As(err, &ce) || ce.Var != EnvSources || ce.Value != "/data/docs" {
		t.Fatalf("bad GDS_SOURCES item: %v, want a config error on %s naming /data/docs", err, EnvSources)
	}
	if msg := ce.Message("en"); !strings.Contains(msg, "local:/data/docs") {
		t.Errorf("message %q does not suggest local:/data/docs", msg)
	}
}
