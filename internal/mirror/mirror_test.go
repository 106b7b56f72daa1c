package mirror

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gds-cli/gds/internal/store"
)

func TestLocalCopies(t *testing.T) {
	home := t.TempDir()
	mine := filepath.Join(home, "Library", "CloudStorage", "GoogleDrive-me@example.com", "My Drive")
	shared := filepath.Join(home, "Library", "CloudStorage", "GoogleDrive-me@example.com", "Shared drives", "Team")
	for _, p := range []string{
		filepath.Join(mine, "Projects", "Specs", "plan.pdf"),
		filepath.Join(shared, "Docs", "notes.gdoc"),
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	local := filepath.Join(home, "folder", "a.txt")
	files := []store.File{
		{ID: "1", Name: "plan.pdf", Path: "Projects/Specs", MimeType: "application/pdf", WebLink: "https://drive.google.com/file/d/1"},
		{ID: "2", Name: "notes", Path: "Docs", MimeType: "application/vnd.google-apps.document", WebLink: "https://docs.google.com/document/d/2"},
		{ID: "3", Name: "missing.pdf", Path: "Projects", WebLink: "https://drive.google.com/file/d/3"},
		{ID: "4", Name: "a.txt", WebLink: "file://" + filepath.ToSlash(local)},
		{ID: "5", Name: "plan.pdf", Path: "../Projects/Specs", WebLink: "https://drive.google.com/file/d/5"},
	}
	got := LocalCopies(files, home)
	want := map[string]string{
		"1": filepath.Join(mine, "Projects", "Specs", "plan.pdf"),
		"2": filepath.Join(shared, "Docs", "notes.gdoc"),
		"4": local,
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for id, p := range want {
		if got[id] != p {
			t.Errorf("%s: %q, want %q", id, got[id], p)
		}
	}
	if LocalCopies(files[:1], "")["1"] != "" {
		t.Error("no home must look in no mirror")
	}
}
