package driveemu_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/api/drive/v3"

	"github.com/gds-cli/gds/internal/driveemu"
)

// walk lists every non-folder file under the targets the way a crawler does.
func walk(t *testing.T, svc *drive.Service, targets []string) map[string]*drive.File {
	t.Helper()
	out := map[string]*drive.File{}
	queue := slices.Clone(targets)
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		err := svc.Files.List().Q("'"+id+"' in parents and trashed = false").SupportsAllDrives(true).
			IncludeItemsFromAllDrives(true).Fields("nextPageToken, files(id,name,mimeType)").
			Pages(context.Background(), func(l *drive.FileList) error {
				for _, f := range l.Files {
					if f.MimeType == driveemu.MimeFolder {
						queue = append(queue, f.Id)
					} else {
						out[f.Id] = f
					}
				}
				return nil
			})
		if err != nil {
			t.Fatalf("walk %s: %v", id, err)
		}
	}
	return out
}

func TestDefaultFixtureMatchesItsDeclaredExpectations(t *testing.T) {
	fx := driveemu.DefaultFixture()
	svc := newService(t, fx.Emu)
	got := walk(t, svc, fx.Targets)
	want := map[string]bool{}
	for _, id := range fx.Indexable {
		want[id] = true
	}
	for id, reason := range fx.NotIndexed {
		if reason != "trashed" {
			want[id] = true
		}
	}
	for id := range want {
		if got[id] == nil {
			t.Errorf("%s expected under the targets but not walked", id)
		}
	}
	for id, f := range got {
		if !want[id] {
			t.Errorf("walked unexpected %s (%s)", f.Name, id)
		}
	}
	if len(fx.Indexable) < 12 {
		t.Errorf("only %d indexable files", len(fx.Indexable))
	}
	reasons := map[string]int{}
	for _, r := range fx.NotIndexed {
		reasons[r]++
	}
	for _, r := range []string{"trashed", "image", "archive", "export too large", "shortcut"} {
		if reasons[r] == 0 {
			t.Errorf("no %q file in the fixture", r)
		}
	}

	// Every indexable file yields content of its kind.
	magic := map[string]string{"application/pdf": "%PDF", "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "PK",
		"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":         "PK",
		"application/vnd.openxmlformats-officedocument.presentationml.presentation": "PK"}
	exportAs := map[string]string{driveemu.MimeDoc: "text/plain", driveemu.MimeSheet: "text/csv", driveemu.MimeSlides: "text/plain"}
	for _, id := range fx.Indexable {
		f := got[id]
		var res *httpResponse
		if mt, ok := exportAs[f.MimeType]; ok {
			r, err := svc.Files.Export(id, mt).Download()
			res = wrap(r, err)
		} else {
			r, err := svc.Files.Get(id).SupportsAllDrives(true).Download()
			res = wrap(r, err)
		}
		if res.err != nil || len(res.body) == 0 {
			t.Errorf("%s: %v, %d bytes", f.Name, res.err, len(res.body))
			continue
		}
		if m := magic[f.MimeType]; m != "" && !bytes.HasPrefix(res.body, []byte(m)) {
			t.Errorf("%s does not start with %q", f.Name, m)
		}
	}
	// Deterministic: the same IDs every time.
	if again := driveemu.DefaultFixture(); fmt.Sprint(again.IDs) != fmt.Sprint(fx.IDs) || fmt.Sprint(again.Targets) != fmt.Sprint(fx.Targets) {
		t.Error("DefaultFixture IDs differ between calls")
	}
}

type httpResponse struct {
	body []byte
	err  error
}

func wrap(r *http.Response, err error) *httpResponse {
	if err != nil {
		return &httpResponse{err: err}
	}
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	return &httpResponse{body: b, err: err}
}

func TestFromDirServesAFolderTree(t *testing.T) {
	dir := t.TempDir()
	mod := time.Date(2025, 12, 24, 10, 0, 0, 0, time.UTC)
	files := map[string]string{
		"a.txt":              "alpha",
		"sub/b.md":           "# beta",
		"sub/deeper/c.pdf":   "%PDF-1.4",
		"sub/deeper/d.bin":   "\x00\x01\x02",
		".hidden/secret.txt": "no",
		".DS_Store":          "no",
	}
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	fx, err := driveemu.FromDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	svc := newService(t, fx.Emu)
	got := walk(t, svc, fx.Targets)
	var names []string
	for _, f := range got {
		names = append(names, f.Name+"|"+f.MimeType)
	}
	slices.Sort(names)
	if want := "[a.txt|text/plain b.md|text/markdown c.pdf|application/pdf d.bin|application/octet-stream]"; fmt.Sprint(names) != want {
		t.Fatalf("walked %v, want %s", names, want)
	}
	f, err := svc.Files.Get(fx.IDs["sub/b.md"]).Fields("name,modifiedTime,parents,size").Do()
	if err != nil || f.ModifiedTime != "2025-12-24T10:00:00.000Z" || f.Parents[0] != fx.IDs["sub"] || f.Size != 6 {
		t.Fatalf("sub/b.md: %v %+v", err, f)
	}
	res := wrap(svc.Files.Get(fx.IDs["sub/deeper/d.bin"]).Download())
	if res.err != nil || string(res.body) != "\x00\x01\x02" {
		t.Fatalf("download: %v %q", res.err, res.body)
	}
	again, _ := driveemu.FromDir(dir)
	if fmt.Sprint(again.IDs) != fmt.Sprint(fx.IDs) {
		t.Error("FromDir IDs are not stable")
	}
	if _, err := driveemu.FromDir(filepath.Join(dir, "a.txt")); err == nil {
		t.Error("FromDir of a file succeeded")
	}
	if _, err := driveemu.FromDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("FromDir of a missing folder succeeded")
	}
}

func TestManifest(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "memo.pdf"), []byte("%PDF-memo"), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := `{
  "user": {"displayName": "Aiko", "emailAddress": "aiko@example.com"},
  "sharedDrives": [{"id": "0ATEAM", "name": "Team"}],
  "files": [
    {"id": "F1", "name": "Top", "mimeType": "application/vnd.google-apps.folder", "parents": ["root"]},
    {"id": "D1", "name": "議事録", "mimeType": "application/vnd.google-apps.document", "parents": ["F1"],
     "text": "会議の記録", "modifiedTime": "2026-02-03T04:05:06.789Z"},
    {"id": "P1", "name": "memo.pdf", "parents": ["F1"], "contentFile": "memo.pdf", "text": "quarterly memo"},
    {"id": "B1", "name": "blob.bin", "parents": ["F1"], "contentBase64": "AAEC", "trashed": true},
    {"id": "T1", "name": "team.txt", "parents": ["0ATEAM"], "content": "team text"}
  ],
  "targets": ["F1", "0ATEAM"]
}`
	path := filepath.Join(dir, "m.json")
	if err := os.WriteFile(path, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	fx, err := driveemu.LoadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	svc := newService(t, fx.Emu)
	got := walk(t, svc, fx.Targets)
	var names []string
	for _, f := range got {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	if fmt.Sprint(names) != "[memo.pdf team.txt 議事録]" {
		t.Fatalf("walked %v", names)
	}
	if r := wrap(svc.Files.Get("P1").Download()); r.err != nil || string(r.body) != "%PDF-memo" {
		t.Fatalf("contentFile: %v %q", r.err, r.body)
	}
	if r := wrap(svc.Files.Export("D1", "text/plain").Download()); r.err != nil || string(r.body) != "会議の記録" {
		t.Fatalf("native text: %v %q", r.err, r.body)
	}
	if got := queryNames(t, svc, "fullText contains 'quarterly memo'"); fmt.Sprint(got) != "[memo.pdf]" {
		t.Fatalf("blob text is searchable: %v", got)
	}
	if f, _ := svc.Files.Get("D1").Fields("modifiedTime").Do(); f == nil || f.ModifiedTime != "2026-02-03T04:05:06.789Z" {
		t.Fatalf("modifiedTime: %+v", f)
	}
	if a, _ := svc.About.Get().Fields("user").Do(); a == nil || a.User.EmailAddress != "aiko@example.com" {
		t.Fatalf("user: %+v", a)
	}
	if r := wrap(svc.Files.Get("B1").Download()); r.err != nil || !bytes.Equal(r.body, []byte{0, 1, 2}) {
		t.Fatalf("contentBase64: %v %q", r.err, r.body)
	}

	bad := map[string]string{
		"unknown parent":  `{"files":[{"id":"A","name":"a","parents":["nope"]}]}`,
		"duplicate ID":    `{"files":[{"id":"A","name":"a"},{"id":"A","name":"b"}]}`,
		"bad time":        `{"files":[{"name":"a","modifiedTime":"yesterday"}]}`,
		"unknown field":   `{"files":[{"name":"a","colour":"red"}]}`,
		"missing name":    `{"files":[{"id":"A"}]}`,
		"unknown target":  `{"files":[{"id":"A","name":"a"}],"targets":["B"]}`,
		"missing content": `{"files":[{"name":"a","contentFile":"nope.pdf"}]}`,
		"bad drive":       `{"sharedDrives":[{"id":"","name":"x"}],"files":[]}`,
		"bad shortcut":    `{"files":[{"name":"s","mimeType":"application/vnd.google-apps.shortcut","shortcutTargetId":"zz"}]}`,
	}
	for what, m := range bad {
		if _, err := driveemu.ParseManifest(strings.NewReader(m), dir); err == nil {
			t.Errorf("%s: accepted", what)
		}
	}
}
