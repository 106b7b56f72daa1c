package ocr

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Reader reads the text of one page image (PNG, JPEG, TIFF, WebP, GIF,
// BMP bytes).
type Reader interface {
	// ID names the engine and what decides its output (version,
	// languages): it is part of the cache key, so text read by another
	// engine is not taken for this one's.
	ID() string
	Read(ctx context.Context, image []byte) (string, error)
}

// Tesseract reads images with the tesseract command, one limited child
// process per image.
type Tesseract struct {
	Path    string // the tesseract executable
	Langs   string // "jpn+jpn_vert+eng", or the subset installed
	Version string // "tesseract 5.3.0"
	Limits  Limits
}

// ErrNoTesseract means no usable tesseract was found (none installed, or
// one with neither Japanese nor English data).
var ErrNoTesseract = errors.New("no tesseract with jpn or eng data")

// ID implements Reader.
func (t *Tesseract) ID() string { return t.Version + " " + t.Langs }

// Read implements Reader: tesseract reads the image from stdin and writes
// its text to stdout, under t.Limits.
func (t *Tesseract) Read(ctx context.Context, image []byte) (string, error) {
	out, err := run(ctx, t.Limits, t.Path, []string{"stdin", "stdout", "-l", t.Langs, "--psm", "3"}, image, "")
	if err != nil {
		return "", err
	}
	return Tidy(string(out)), nil
}

// toolDirs are where Homebrew and MacPorts install tools: a launchd job's
// PATH holds none of them.
var toolDirs = []string{"/opt/homebrew/bin", "/usr/local/bin", "/opt/local/bin"}

// findTool finds name on PATH, else in toolDirs.
func findTool(name string) (string, bool) {
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	for _, d := range toolDirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// FindTesseract returns the installed tesseract with the languages gds
// reads (Japanese and English, whichever are installed), or an error
// matching ErrNoTesseract.
func FindTesseract(ctx context.Context, l Limits) (*Tesseract, error) {
	path, ok := findTool("tesseract")
	if !ok {
		return nil, fmt.Errorf("%w: tesseract is not installed", ErrNoTesseract)
	}
	short := Limits{Wall: l.withDefaults().Wall, CPU: l.withDefaults().CPU, Memory: l.Memory, Output: 1 << 20}
	ver, err := run(ctx, short, path, []string{"--version"}, nil, "")
	if err != nil {
		return nil, fmt.Errorf("%w: %s --version: %w", ErrNoTesseract, path, err)
	}
	list, err := run(ctx, short, path, []string{"--list-langs"}, nil, "")
	if err != nil {
		return nil, fmt.Errorf("%w: %s --list-langs: %w", ErrNoTesseract, path, err)
	}
	langs := pickLangs(string(list))
	if langs == "" {
		return nil, fmt.Errorf("%w: %s has neither jpn nor eng data (install tesseract-ocr-jpn and tesseract-ocr-eng, or brew install tesseract-lang)", ErrNoTesseract, path)
	}
	return &Tesseract{Path: path, Langs: langs, Version: firstLine(string(ver)), Limits: l}, nil
}

// pickLangs chooses the languages from `tesseract --list-langs` output:
// jpn, jpn_vert (Japanese set in vertical columns) and eng, in that order,
// those of them that are installed; "" without jpn and eng.
func pickLangs(list string) string {
	have := map[string]bool{}
	for _, l := range strings.Split(list, "\n") {
		have[strings.TrimSpace(l)] = true
	}
	var out []string
	if !have["jpn"] && !have["eng"] {
		return ""
	}
	for _, want := range []string{"jpn", "jpn_vert", "eng"} {
		if have[want] {
			out = append(out, want)
		}
	}
	return strings.Join(out, "+")
}
