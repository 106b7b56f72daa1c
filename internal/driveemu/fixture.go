package driveemu

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

//go:embed testdata/fixture
var fixtureFS embed.FS

// Fixture is an emulator populated with a known tree.
type Fixture struct {
	Emu *Emulator
	// Targets are the folder IDs to crawl (GOOGLE_DRIVE_TARGET_FOLDER_IDS).
	Targets []string
	// IDs maps a fixture's stable keys to file IDs (see DefaultFixture).
	IDs map[string]string
	// Indexable lists the IDs a crawl of Targets is expected to index: the
	// non-trashed documents (native Docs/Sheets/Slides, PDF, Office, text)
	// under the targets. Empty for FromDir and manifests.
	Indexable []string
	// NotIndexed maps IDs under the targets that a crawl must not index to
	// the reason: "trashed", "image", "archive", "export too large",
	// "shortcut" (its target lies outside the targets).
	NotIndexed map[string]string
}

// StableID derives a Drive-looking file ID from a key, so fixtures keep the
// same IDs across runs and machines.
func StableID(key string) string {
	sum := sha256.Sum256([]byte("driveemu/" + key))
	return "1" + base64.RawURLEncoding.EncodeToString(sum[:])[:32]
}

func mustRead(name string) []byte {
	b, err := fixtureFS.ReadFile("testdata/fixture/" + name)
	if err != nil {
		panic("driveemu: embedded fixture: " + err.Error())
	}
	return b
}

// tinyPNG returns a deterministic 4x4 PNG.
func tinyPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for x := 0; x < 4; x++ {
		for y := 0; y < 4; y++ {
			img.Set(x, y, color.RGBA{uint8(60 * x), uint8(60 * y), 200, 255})
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// tinyZip returns a deterministic zip holding one text file.
func tinyZip() []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "photos/readme.txt", Method: zip.Deflate,
		Modified: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)})
	_, _ = io.WriteString(w, "holiday photos")
	_ = zw.Close()
	return b.Bytes()
}

// DefaultFixture returns a realistic Drive: one target folder in My Drive
// with nested folders, one target folder in a Shared drive, native Docs,
// Sheets and Slides (some Japanese), real PDF/DOCX/XLSX/PPTX files (see
// testdata/licenses), an image, a zip, trashed files, a shortcut to a file
// outside the targets, a Doc whose export exceeds 10 MB, a folder without
// permission and files outside the targets. Keys of IDs:
//
//	target, plans, archive, reports, team-drive, team-target, locked, personal,
//	doc-plan-ja, doc-roadmap, sheet-budget, slides-kickoff, doc-old-plan,
//	doc-trashed, doc-huge, pdf-memo, pdf-kana, docx-ja, xlsx-cups, pptx-sample,
//	txt-notes, png-diagram, zip-photos, pdf-trashed, shortcut, doc-minutes-ja,
//	md-readme, doc-customers, txt-outside, doc-secret, quote-name
func DefaultFixture() *Fixture {
	e := New()
	fx := &Fixture{Emu: e, IDs: map[string]string{}, NotIndexed: map[string]string{}}
	day := func(m, d, h int) time.Time { return time.Date(2026, time.Month(m), d, h, 0, 0, 0, time.UTC) }
	add := func(key string, f File, indexable bool, reason string) string {
		f.ID = StableID(key)
		if f.CreatedTime.IsZero() {
			f.CreatedTime = f.ModifiedTime
		}
		id := e.AddFile(f)
		fx.IDs[key] = id
		if indexable {
			fx.Indexable = append(fx.Indexable, id)
		} else if reason != "" {
			fx.NotIndexed[id] = reason
		}
		return id
	}
	folder := func(key, parent, name string, t time.Time) string {
		return add(key, File{Name: name, MimeType: MimeFolder, Parents: []string{parent}, ModifiedTime: t}, false, "")
	}

	target := folder("target", RootAlias, "gds-demo", day(1, 10, 9))
	plans := folder("plans", target, "Plans", day(1, 10, 9))
	archive := folder("archive", plans, "Archive", day(1, 11, 9))
	reports := folder("reports", target, "Reports", day(1, 12, 9))

	add("doc-plan-ja", File{Name: "2026年度 事業計画", MimeType: MimeDoc, Parents: []string{plans}, ModifiedTime: day(3, 2, 10),
		ExportText: "2026年度 事業計画\n\n新規顧客の獲得を最優先とし、東京と大阪で販売チャネルを拡大する。\n予算は前年比12%増。担当: 営業企画部"}, true, "")
	add("doc-roadmap", File{Name: "Q3 roadmap", MimeType: MimeDoc, Parents: []string{plans}, ModifiedTime: day(3, 5, 14),
		ExportText: "Q3 roadmap\n\nShip the hybrid search loop, the Alfred workflow and the Drive crawler.\nMilestone review on September 30."}, true, "")
	add("sheet-budget", File{Name: "Budget 2026", MimeType: MimeSheet, Parents: []string{plans}, ModifiedTime: day(3, 6, 11),
		ExportText: "item,amount,owner\nmarketing,1200000,佐藤\nrecruiting,800000,Tanaka\ncloud hosting,450000,鈴木\n"}, true, "")
	add("slides-kickoff", File{Name: "Kickoff deck", MimeType: MimeSlides, Parents: []string{plans}, ModifiedTime: day(2, 20, 16),
		ExportText: "Project kickoff\n\nGoals: find any file in Drive in seconds.\nキックオフ資料: 目標と体制"}, true, "")
	add("doc-old-plan", File{Name: "Old plan 2025", MimeType: MimeDoc, Parents: []string{archive}, ModifiedTime: day(1, 15, 9),
		ExportText: "The 2025 plan, kept for reference. Revenue target met in November."}, true, "")
	add("doc-trashed", File{Name: "Discarded draft", MimeType: MimeDoc, Parents: []string{archive}, ModifiedTime: day(2, 1, 9),
		ExportText: "This draft was thrown away.", Trashed: true}, false, "trashed")
	add("doc-huge", File{Name: "Huge export log", MimeType: MimeDoc, Parents: []string{archive}, ModifiedTime: day(2, 2, 9),
		ExportText: "A document whose export is larger than Drive's 10 MB export limit.", ExportSize: 12 << 20}, false, "export too large")

	add("pdf-memo", File{Name: "fake-memo.pdf", MimeType: "application/pdf", Parents: []string{reports}, ModifiedTime: day(3, 1, 9),
		Content: mustRead("unstructured-fake-memo.pdf")}, true, "")
	add("pdf-kana", File{Name: "かな見本.pdf", MimeType: "application/pdf", Parents: []string{reports}, ModifiedTime: day(3, 1, 10),
		Content: mustRead("pdfminer-simple3-kana.pdf")}, true, "")
	add("docx-ja", File{Name: "目次サンプル.docx", MimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
		Parents: []string{reports}, ModifiedTime: day(3, 2, 9), Content: mustRead("docxrs-toc1-ja.docx")}, true, "")
	add("xlsx-cups", File{Name: "stanley-cups.xlsx", MimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
		Parents: []string{reports}, ModifiedTime: day(3, 3, 9), Content: mustRead("unstructured-stanley-cups.xlsx")}, true, "")
	add("pptx-sample", File{Name: "sample-presentation.pptx", MimeType: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
		Parents: []string{reports}, ModifiedTime: day(3, 4, 9), Content: mustRead("unstructured-sample-presentation.pptx")}, true, "")
	add("txt-notes", File{Name: "notes.txt", MimeType: "text/plain", Parents: []string{reports}, ModifiedTime: day(3, 4, 12),
		Content: mustRead("unstructured-fake-text.txt")}, true, "")
	add("quote-name", File{Name: `Quinn's paper\essay.txt`, MimeType: "text/plain", Parents: []string{reports}, ModifiedTime: day(3, 4, 13),
		Content: []byte("An essay whose name has a quote and a backslash.")}, true, "")
	add("png-diagram", File{Name: "diagram.png", MimeType: "image/png", Parents: []string{reports}, ModifiedTime: day(3, 5, 9),
		Content: tinyPNG()}, false, "image")
	add("zip-photos", File{Name: "photos.zip", MimeType: "application/zip", Parents: []string{reports}, ModifiedTime: day(3, 5, 10),
		Content: tinyZip()}, false, "archive")
	add("pdf-trashed", File{Name: "old-report.pdf", MimeType: "application/pdf", Parents: []string{reports}, ModifiedTime: day(2, 5, 10),
		Content: mustRead("unstructured-fake-memo.pdf"), Trashed: true}, false, "trashed")

	personal := folder("personal", RootAlias, "Personal", day(1, 5, 9))
	customers := add("doc-customers", File{Name: "Customer list", MimeType: MimeDoc, Parents: []string{personal}, ModifiedTime: day(2, 8, 9),
		ExportText: "Customer list: Acme, Globex, Initech."}, false, "")
	add("txt-outside", File{Name: "outside.txt", MimeType: "text/plain", Parents: []string{RootAlias}, ModifiedTime: day(2, 9, 9),
		Content: []byte("A file outside the target folders.")}, false, "")
	add("shortcut", File{Name: "Shortcut to Customer list", MimeType: MimeShortcut, Parents: []string{reports}, ModifiedTime: day(3, 6, 9),
		ShortcutTargetID: customers}, false, "shortcut")

	locked := folder("locked", RootAlias, "Board only", day(1, 6, 9))
	add("doc-secret", File{Name: "Board minutes", MimeType: MimeDoc, Parents: []string{locked}, ModifiedTime: day(2, 6, 9),
		ExportText: "confidential"}, false, "")
	e.SetInaccessible(locked, true)

	team := e.AddSharedDriveWithID(SharedDrive{ID: "0A" + StableID("team-drive")[1:20], Name: "Team Drive", CreatedTime: day(1, 3, 9)})
	fx.IDs["team-drive"] = team
	teamTarget := folder("team-target", team, "Team Projects", day(1, 20, 9))
	add("doc-minutes-ja", File{Name: "チーム議事録 2026-04", MimeType: MimeDoc, Parents: []string{teamTarget}, ModifiedTime: day(4, 3, 15),
		ExportText: "チーム議事録\n\n出席者: 佐藤、鈴木、Tanaka\n決定事項: 検索の評価データセットを作成する。"}, true, "")
	add("md-readme", File{Name: "README.md", MimeType: "text/markdown", Parents: []string{teamTarget}, ModifiedTime: day(4, 4, 9),
		Content: []byte("# Team Projects\n\nShared runbooks and the on-call rota live here.\n")}, true, "")

	fx.Targets = []string{target, teamTarget}
	return fx
}

// extMime maps file extensions to MIME types, independent of the host's
// mime.types so fixtures are the same on every machine.
var extMime = map[string]string{
	".txt": "text/plain", ".md": "text/markdown", ".markdown": "text/markdown", ".csv": "text/csv",
	".tsv": "text/tab-separated-values", ".html": "text/html", ".htm": "text/html", ".json": "application/json",
	".xml": "application/xml", ".pdf": "application/pdf",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".doc":  "application/msword", ".xls": "application/vnd.ms-excel", ".ppt": "application/vnd.ms-powerpoint",
	".rtf": "application/rtf", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".svg": "image/svg+xml", ".zip": "application/zip", ".gz": "application/gzip", ".mp4": "video/mp4",
}

// MimeByName guesses a MIME type from a file name, falling back to sniffing
// the content.
func MimeByName(name string, content []byte) string {
	if m, ok := extMime[strings.ToLower(path.Ext(name))]; ok {
		return m
	}
	return strings.SplitN(http.DetectContentType(content), ";", 2)[0]
}

// FromDir builds an emulator from a local folder tree: the folder becomes a
// folder under My Drive (the only target), each subfolder a folder and each
// regular file an uploaded file with its content, modification time and a
// MIME type from its extension. Hidden entries (".name") are skipped. IDs
// derive from relative paths, so they are stable.
func FromDir(dir string) (*Fixture, error) { return FromDirKeyed(dir, "") }

// FromDirKeyed is FromDir with IDs derived from key and the relative
// paths, so the Drives of several users (Users.Put) built from folders
// laid out alike have IDs of their own.
func FromDirKeyed(dir, key string) (*Fixture, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("fixture folder: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("fixture folder %s: not a directory", dir)
	}
	e := New()
	fx := &Fixture{Emu: e, IDs: map[string]string{}, NotIndexed: map[string]string{}}
	top := e.AddFile(File{ID: StableID(key + "dir:."), Name: filepath.Base(filepath.Clean(dir)), MimeType: MimeFolder,
		Parents: []string{RootAlias}, ModifiedTime: info.ModTime()})
	fx.IDs["."] = top
	fx.Targets = []string{top}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel = filepath.ToSlash(rel)
		parent := fx.IDs[path.Dir(rel)]
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			fx.IDs[rel] = e.AddFile(File{ID: StableID(key + "dir:" + rel), Name: d.Name(), MimeType: MimeFolder,
				Parents: []string{parent}, ModifiedTime: fi.ModTime()})
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fx.IDs[rel] = e.AddFile(File{ID: StableID(key + "dir:" + rel), Name: d.Name(), MimeType: MimeByName(d.Name(), b),
				Parents: []string{parent}, ModifiedTime: fi.ModTime(), CreatedTime: fi.ModTime(), Content: b})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read fixture folder %s: %w", dir, err)
	}
	return fx, nil
}

// Manifest is the JSON form of a fixture, for LoadManifest.
type Manifest struct {
	User         *User           `json:"user,omitempty"`
	SharedDrives []ManifestDrive `json:"sharedDrives,omitempty"`
	Files        []ManifestFile  `json:"files"`
	Targets      []string        `json:"targets,omitempty"`
}

// ManifestDrive is a Shared drive in a Manifest.
type ManifestDrive struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Inaccessible bool   `json:"inaccessible,omitempty"`
}

// ManifestFile is a file in a Manifest. Parents must appear before their
// children. Text is the export text of a Google-native file and the
// searchable text of a blob; the blob's bytes come from Content (UTF-8),
// ContentBase64 or ContentFile (relative to the manifest).
type ManifestFile struct {
	ID               string            `json:"id,omitempty"`
	Name             string            `json:"name"`
	MimeType         string            `json:"mimeType,omitempty"`
	Parents          []string          `json:"parents,omitempty"`
	ModifiedTime     string            `json:"modifiedTime,omitempty"`
	CreatedTime      string            `json:"createdTime,omitempty"`
	Trashed          bool              `json:"trashed,omitempty"`
	Starred          bool              `json:"starred,omitempty"`
	Description      string            `json:"description,omitempty"`
	Text             string            `json:"text,omitempty"`
	Content          string            `json:"content,omitempty"`
	ContentBase64    string            `json:"contentBase64,omitempty"`
	ContentFile      string            `json:"contentFile,omitempty"`
	ExportSize       int64             `json:"exportSize,omitempty"`
	ShortcutTargetID string            `json:"shortcutTargetId,omitempty"`
	Inaccessible     bool              `json:"inaccessible,omitempty"`
	Properties       map[string]string `json:"properties,omitempty"`
}

// LoadManifest reads a JSON manifest file (see Manifest).
func LoadManifest(file string) (*Fixture, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("open manifest: %w", err)
	}
	defer f.Close()
	return ParseManifest(f, filepath.Dir(file))
}

// ParseManifest builds a fixture from a JSON manifest; ContentFile paths are
// relative to baseDir. Errors name the offending entry.
func ParseManifest(r io.Reader, baseDir string) (*Fixture, error) {
	var m Manifest
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("decode manifest: %w", err)
	}
	e := New()
	if m.User != nil {
		e.SetUser(*m.User)
	}
	fx := &Fixture{Emu: e, IDs: map[string]string{}, NotIndexed: map[string]string{}}
	for i, d := range m.SharedDrives {
		if d.ID == "" || d.Name == "" {
			return nil, fmt.Errorf("manifest sharedDrives[%d]: id and name are required", i)
		}
		e.mu.Lock()
		_, dup := e.files[d.ID]
		if !dup {
			e.addDriveLocked(&SharedDrive{ID: d.ID, Name: d.Name, Inaccessible: d.Inaccessible})
		}
		e.mu.Unlock()
		if dup {
			return nil, fmt.Errorf("manifest sharedDrives[%d]: duplicate ID %q", i, d.ID)
		}
		fx.IDs[d.ID] = d.ID
	}
	for i, mf := range m.Files {
		f, err := mf.file(baseDir)
		if err != nil {
			return nil, fmt.Errorf("manifest files[%d] (%s): %w", i, mf.Name, err)
		}
		e.mu.Lock()
		id, err := e.addLocked(f)
		e.mu.Unlock()
		if err != nil {
			return nil, fmt.Errorf("manifest files[%d] (%s): %w", i, mf.Name, err)
		}
		fx.IDs[id] = id
	}
	for _, t := range m.Targets {
		if _, ok := e.File(t); !ok {
			return nil, fmt.Errorf("manifest target %q is not a file of the manifest", t)
		}
	}
	fx.Targets = m.Targets
	return fx, nil
}

func (mf ManifestFile) file(baseDir string) (File, error) {
	if mf.Name == "" {
		return File{}, fmt.Errorf("name is required")
	}
	f := File{ID: mf.ID, Name: mf.Name, MimeType: mf.MimeType, Parents: mf.Parents, Trashed: mf.Trashed,
		Starred: mf.Starred, Description: mf.Description, ExportSize: mf.ExportSize,
		ShortcutTargetID: mf.ShortcutTargetID, Inaccessible: mf.Inaccessible, Properties: mf.Properties}
	for _, tf := range []struct {
		s   string
		dst *time.Time
	}{{mf.ModifiedTime, &f.ModifiedTime}, {mf.CreatedTime, &f.CreatedTime}} {
		if tf.s == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, tf.s)
		if err != nil {
			return File{}, fmt.Errorf("time %q: %w", tf.s, err)
		}
		*tf.dst = t
	}
	switch {
	case mf.ContentFile != "":
		b, err := os.ReadFile(filepath.Join(baseDir, filepath.FromSlash(mf.ContentFile)))
		if err != nil {
			return File{}, fmt.Errorf("content file: %w", err)
		}
		f.Content = b
	case mf.ContentBase64 != "":
		b, err := base64.StdEncoding.DecodeString(mf.ContentBase64)
		if err != nil {
			return File{}, fmt.Errorf("contentBase64: %w", err)
		}
		f.Content = b
	default:
		f.Content = []byte(mf.Content)
	}
	if f.MimeType == "" {
		f.MimeType = MimeByName(f.Name, f.Content)
	}
	if f.IsNative() {
		f.ExportText = mf.Text
	} else {
		f.IndexText = mf.Text
	}
	return f, nil
}
