// Package alfredpkg builds the .alfredworkflow package (a zip with
// info.plist, icon.png and any other workflow files at its root, no
// wrapping folder) from the workflow source embedded in package alfred.
package alfredpkg

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/gds-cli/gds/alfred"
)

// FileName is the default name of the package.
const FileName = "gds.alfredworkflow"

// stamp is the modification time written for every entry, so the same
// source and version always give the same bytes.
var stamp = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Build writes the workflow package built from src to w. Go files are
// left out; version replaces alfred.VersionPlaceholder in info.plist
// ("" keeps "dev"). src must contain info.plist.
func Build(w io.Writer, src fs.FS, version string) error {
	if version == "" {
		version = "dev"
	}
	if _, err := fs.Stat(src, "info.plist"); err != nil {
		return fmt.Errorf("the workflow source has no info.plist: %w", err)
	}
	zw := zip.NewWriter(w)
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || strings.HasSuffix(p, ".go") || strings.HasPrefix(path.Base(p), ".") {
			return nil
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		if p == "info.plist" {
			data = bytes.ReplaceAll(data, []byte(alfred.VersionPlaceholder), []byte(xmlText(version)))
		}
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: p, Method: zip.Deflate, Modified: stamp})
		if err != nil {
			return err
		}
		_, err = fw.Write(data)
		return err
	})
	if err != nil {
		return fmt.Errorf("build the Alfred workflow: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("build the Alfred workflow: %w", err)
	}
	return nil
}

// WriteFile builds the package from the embedded workflow source into
// path; when path is an existing directory, FileName inside it. It returns
// the absolute path written.
func WriteFile(dest, version string) (string, error) {
	if fi, err := os.Stat(dest); err == nil && fi.IsDir() {
		dest = filepath.Join(dest, FileName)
	}
	abs, err := filepath.Abs(dest)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", dest, err)
	}
	var b bytes.Buffer
	if err := Build(&b, alfred.Source, version); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), ".gds-alfredworkflow-*")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", abs, err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(b.Bytes())
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), abs)
	}
	if werr != nil {
		return "", fmt.Errorf("write %s: %w", abs, werr)
	}
	return abs, nil
}

// xmlText escapes the characters that cannot appear in plist text.
func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
