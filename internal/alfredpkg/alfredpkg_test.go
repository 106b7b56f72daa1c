package alfredpkg

import (
	"archive/zip"
	"bytes"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"howett.net/plist"

	"github.com/gds-cli/gds/alfred"
	"github.com/gds-cli/gds/internal/launcher"
)

type infoPlist struct {
	BundleID    string                    `plist:"bundleid"`
	Name        string                    `plist:"name"`
	Version     string                    `plist:"version"`
	Objects     []object                  `plist:"objects"`
	Connections map[string][]connection   `plist:"connections"`
	UIData      map[string]map[string]any `plist:"uidata"`
	UserConfig  []map[string]any          `plist:"userconfigurationconfig"`
}

type object struct {
	Type    string         `plist:"type"`
	UID     string         `plist:"uid"`
	Version int            `plist:"version"`
	Config  map[string]any `plist:"config"`
}

type connection struct {
	DestinationUID string `plist:"destinationuid"`
	Modifiers      int    `plist:"modifiers"`
}

func unzip(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = b
	}
	return files
}

func TestPackageStructure(t *testing.T) {
	var b bytes.Buffer
	if err := Build(&b, alfred.Source, "1.2.3"); err != nil {
		t.Fatal(err)
	}
	files := unzip(t, b.Bytes())
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "icon.png,info.plist" {
		t.Errorf("entries %v: want info.plist and icon.png at the root, nothing else", names)
	}
	if _, err := png.Decode(bytes.NewReader(files["icon.png"])); err != nil {
		t.Errorf("icon.png: %v", err)
	}

	var info infoPlist
	if _, err := plist.Unmarshal(files["info.plist"], &info); err != nil {
		t.Fatalf("info.plist does not parse: %v", err)
	}
	if info.BundleID != alfred.BundleID || info.Version != "1.2.3" || info.Name == "" {
		t.Errorf("bundle %q version %q name %q", info.BundleID, info.Version, info.Name)
	}
	objs := map[string]object{}
	for _, o := range info.Objects {
		if _, dup := objs[o.UID]; dup || o.UID == "" || o.Version == 0 {
			t.Errorf("object uid %q duplicated, empty or unversioned", o.UID)
		}
		objs[o.UID] = o
	}
	// Every connection starts and ends at an existing object.
	for from, conns := range info.Connections {
		if _, ok := objs[from]; !ok {
			t.Errorf("connection from unknown uid %s", from)
		}
		for _, c := range conns {
			if _, ok := objs[c.DestinationUID]; !ok {
				t.Errorf("connection to unknown uid %s", c.DestinationUID)
			}
		}
	}
	for uid := range info.UIData {
		if _, ok := objs[uid]; !ok {
			t.Errorf("uidata for unknown uid %s", uid)
		}
	}

	// The Script Filter and what each modifier leads to.
	var sf object
	for _, o := range objs {
		if o.Type == "alfred.workflow.input.scriptfilter" {
			sf = o
		}
	}
	if sf.UID == "" {
		t.Fatal("no script filter")
	}
	cfg := sf.Config
	for k, want := range map[string]any{
		"keyword": alfred.Keyword, "argumenttype": uint64(1), "alfredfiltersresults": false,
		"scriptargtype": uint64(1), "type": uint64(0), "escaping": uint64(0),
	} {
		if cfg[k] != want {
			t.Errorf("script filter %s = %#v, want %#v", k, cfg[k], want)
		}
	}
	if s, _ := cfg["script"].(string); !strings.Contains(s, `alfred filter "$1"`) || !strings.Contains(s, "/opt/homebrew/bin:/usr/local/bin") || !strings.Contains(s, "gds_path") {
		t.Errorf("script %q", s)
	}
	wantMods := map[int]string{
		0:       "alfred.workflow.action.openurl",
		1048576: "alfred.workflow.output.clipboard",  // ⌘ copy link
		524288:  "alfred.workflow.action.revealfile", // ⌥ reveal
		131072:  "alfred.workflow.output.largetype",  // ⇧ large type
	}
	got := map[int]string{}
	for _, c := range info.Connections[sf.UID] {
		got[c.Modifiers] = objs[c.DestinationUID].Type
	}
	for mod, typ := range wantMods {
		if got[mod] != typ {
			t.Errorf("modifier %d leads to %q, want %q", mod, got[mod], typ)
		}
	}
	// The binary's path, the index-only switch (GDS_SEARCH_LOCAL) and the
	// folder (GDS_FOLDER), read by gds from the environment Alfred passes.
	if len(info.UserConfig) < 3 || info.UserConfig[0]["variable"] != "gds_path" ||
		info.UserConfig[1]["variable"] != "GDS_SEARCH_LOCAL" || info.UserConfig[1]["type"] != "checkbox" ||
		info.UserConfig[2]["variable"] != launcher.FolderEnv || info.UserConfig[2]["type"] != "textfield" {
		t.Errorf("user configuration %v", info.UserConfig)
	}
}

func TestBuildIsDeterministicAndEscapesVersion(t *testing.T) {
	var a, b bytes.Buffer
	if err := Build(&a, alfred.Source, "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if err := Build(&b, alfred.Source, "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two builds differ")
	}
	var c bytes.Buffer
	if err := Build(&c, alfred.Source, "1.0.0-<rc>&1"); err != nil {
		t.Fatal(err)
	}
	var info infoPlist
	if _, err := plist.Unmarshal(unzip(t, c.Bytes())["info.plist"], &info); err != nil || info.Version != "1.0.0-<rc>&1" {
		t.Errorf("version %q, %v", info.Version, err)
	}
	src := fstest.MapFS{"icon.png": {Data: []byte("x")}, "x.go": {Data: []byte("package x")}}
	if err := Build(io.Discard, src, ""); err == nil {
		t.Error("a source without info.plist was accepted")
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p, err := WriteFile(dir, "2.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if p != filepath.Join(dir, FileName) {
		t.Errorf("wrote %s", p)
	}
	data, err := os.ReadFile(p)
	if err != nil || len(unzip(t, data)) != 2 {
		t.Errorf("package at %s: %v", p, err)
	}
	p2, err := WriteFile(filepath.Join(dir, "custom.alfredworkflow"), "2.0.0")
	if err != nil || filepath.Base(p2) != "custom.alfredworkflow" {
		t.Errorf("custom name: %s %v", p2, err)
	}
	if _, err := WriteFile(filepath.Join(dir, "missing", "x.alfredworkflow"), ""); err == nil {
		t.Error("a missing directory was accepted")
	}
}
