package driveemu

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"
	"time"
)

// MIME types of Google-native files and other special items.
const (
	MimeFolder   = "application/vnd.google-apps.folder"
	MimeDoc      = "application/vnd.google-apps.document"
	MimeSheet    = "application/vnd.google-apps.spreadsheet"
	MimeSlides   = "application/vnd.google-apps.presentation"
	MimeShortcut = "application/vnd.google-apps.shortcut"
	MimeForm     = "application/vnd.google-apps.form"
	MimeDrawing  = "application/vnd.google-apps.drawing"
)

// RootAlias is the alias Drive accepts for the user's My Drive root folder.
const RootAlias = "root"

// DefaultExportLimit is files.export's documented size limit (10 MB).
const DefaultExportLimit = 10 << 20

// DefaultMaxPageSize is the files.list page size cap: the current pageSize
// description in the Drive reference says values above 100 are changed to 100.
const DefaultMaxPageSize = 100

// File is one item of the emulated Drive: a folder, a Google-native file, an
// uploaded blob or a shortcut. Zero fields get defaults when added.
type File struct {
	// ID is the file ID; empty means a deterministic one is generated.
	ID       string
	Name     string
	MimeType string
	// Parents holds parent folder IDs ("root" is resolved to the root's ID).
	Parents      []string
	ModifiedTime time.Time
	CreatedTime  time.Time
	Trashed      bool
	Starred      bool
	Description  string
	// Properties and AppProperties are matched by the q term `properties has`.
	Properties    map[string]string
	AppProperties map[string]string
	// Content is the body of an uploaded (blob) file, served by alt=media.
	Content []byte
	// ExportText is the text of a Google-native file: Docs and Slides as
	// text/plain, Sheets as CSV (text/csv).
	ExportText string
	// ExportSize, when positive, is the size files.export reports for this
	// file instead of the real export length (to test the 10 MB limit without
	// building a 10 MB document).
	ExportSize int64
	// IndexText is extra text that fullText searches match. Text blobs
	// (text/*, JSON, CSV) and PDF and Office blobs (their extracted text)
	// are indexed from Content automatically.
	IndexText string
	// ShortcutTargetID is the target of a shortcut (MimeShortcut).
	ShortcutTargetID string
	// Inaccessible hides the file and everything under it, as Drive hides
	// files the user has no permission to see: files.get returns 404.
	Inaccessible bool
	// DriveID is the Shared drive the file lives in; it is inherited from the
	// parent when added, so callers need not set it.
	DriveID string
	// WebViewLink overrides the generated link.
	WebViewLink string

	md5 string // of Content, kept up to date by the emulator
}

// IsFolder reports whether f is a folder.
func (f *File) IsFolder() bool { return f.MimeType == MimeFolder }

// IsNative reports whether f is a Google-native file (Docs, Sheets, Slides,
// folders, shortcuts...), which has no binary content to download.
func (f *File) IsNative() bool {
	return len(f.MimeType) > len("application/vnd.google-apps.") &&
		f.MimeType[:len("application/vnd.google-apps.")] == "application/vnd.google-apps."
}

// SharedDrive is a Shared drive. Its ID is also the ID of its root folder.
type SharedDrive struct {
	ID          string
	Name        string
	CreatedTime time.Time
	// Inaccessible hides the drive (the user is not a member).
	Inaccessible bool
}

// User is the authenticated user reported by about.get.
type User struct {
	DisplayName  string `json:"displayName"`
	EmailAddress string `json:"emailAddress"`
	PermissionID string `json:"permissionId,omitempty"`
}

// Emulator is the emulated Drive. It is an http.Handler; all methods are
// safe for concurrent use, including mutations while requests are served.
type Emulator struct {
	mu       sync.RWMutex
	files    map[string]*File
	order    []string // insertion order, the default listing order
	drives   map[string]*SharedDrive
	dorder   []string
	rootID   string
	user     User
	seq      int
	base     time.Time
	maxPage  int
	expLimit int64
	// incomplete is reported as incompleteSearch for corpora=allDrives.
	incomplete bool

	faults *Faults
	stats  *stats

	// tokMu guards tokens, the fullText tokens per file ID, filled lazily
	// under e.mu's read lock and dropped when a file changes.
	tokMu  sync.Mutex
	tokens map[string]*docTokens

	// log is the changes feed (changes.go), appended by every mutation.
	log changeLog
	// salt makes the IDs of one user's Drive differ from another's
	// (Users): Drive IDs are unique across users.
	salt string
}

// New returns an empty emulator: a My Drive root and nothing else.
func New() *Emulator {
	e := &Emulator{
		files:    map[string]*File{},
		drives:   map[string]*SharedDrive{},
		rootID:   "0AEmuRootFolderUk9PVA",
		user:     User{DisplayName: "Emu User", EmailAddress: "emu.user@example.com", PermissionID: "01234567890123456789"},
		base:     time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC),
		maxPage:  DefaultMaxPageSize,
		expLimit: DefaultExportLimit,
		faults:   newFaults(1),
		stats:    newStats(),
		tokens:   map[string]*docTokens{},
	}
	e.files[e.rootID] = &File{ID: e.rootID, Name: "My Drive", MimeType: MimeFolder, CreatedTime: e.base, ModifiedTime: e.base}
	return e
}

// RootID returns the ID of the user's My Drive root folder (alias "root").
func (e *Emulator) RootID() string { return e.rootID }

// SetUser sets the user reported by about.get.
func (e *Emulator) SetUser(u User) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.user = u
}

// SetMaxPageSize sets the files.list page size cap (default 100). Drive's
// discovery schema still says 1000; the reference text says 100.
func (e *Emulator) SetMaxPageSize(n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if n > 0 {
		e.maxPage = n
	}
}

// SetExportLimit sets the files.export size limit in bytes (default 10 MB).
func (e *Emulator) SetExportLimit(n int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.expLimit = n
}

// SetIncompleteSearch makes files.list with corpora=allDrives report
// incompleteSearch (Drive may do so when it could not search every drive);
// the files are still all returned.
func (e *Emulator) SetIncompleteSearch(v bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.incomplete = v
}

// nextTime returns a deterministic, increasing timestamp for items added
// without one. Callers hold e.mu.
func (e *Emulator) nextTime() time.Time {
	e.seq++
	return e.base.Add(time.Duration(e.seq) * time.Minute)
}

// newID returns a deterministic Drive-looking ID. Callers hold e.mu.
func (e *Emulator) newID(prefix, name string) string {
	for {
		e.seq++
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s%s/%s/%d", e.salt, prefix, name, e.seq)))
		id := "1" + base64.RawURLEncoding.EncodeToString(sum[:])[:32]
		if _, ok := e.files[id]; !ok {
			return id
		}
	}
}

// AddSharedDrive adds a Shared drive and returns its ID, which is also the ID
// of its root folder (use it as a parent).
func (e *Emulator) AddSharedDrive(name string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	id := "0A" + e.newID("drive", name)[1:20]
	return e.addDriveLocked(&SharedDrive{ID: id, Name: name})
}

// AddSharedDriveWithID adds a Shared drive with a fixed ID. It panics if the
// ID is taken.
func (e *Emulator) AddSharedDriveWithID(d SharedDrive) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.addDriveLocked(&d)
}

func (e *Emulator) addDriveLocked(d *SharedDrive) string {
	if _, ok := e.files[d.ID]; ok {
		panic("driveemu: duplicate ID " + d.ID)
	}
	if d.CreatedTime.IsZero() {
		d.CreatedTime = e.nextTime()
	}
	e.drives[d.ID] = d
	e.dorder = append(e.dorder, d.ID)
	e.files[d.ID] = &File{ID: d.ID, Name: d.Name, MimeType: MimeFolder, DriveID: d.ID,
		CreatedTime: d.CreatedTime, ModifiedTime: d.CreatedTime, Inaccessible: d.Inaccessible}
	return d.ID
}

// AddFile adds f and returns its ID. Parents must exist already ("root" is
// accepted); a file with no parents goes to the root. Zero times get
// deterministic increasing values. AddFile panics on a duplicate ID or an
// unknown parent, which are mistakes in a test's fixture; [LoadManifest]
// validates user input before adding.
func (e *Emulator) AddFile(f File) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	id, err := e.addLocked(f)
	if err != nil {
		panic("driveemu: " + err.Error())
	}
	return id
}

func (e *Emulator) addLocked(f File) (string, error) {
	if f.ID == "" {
		f.ID = e.newID("file", f.Name)
	}
	if _, ok := e.files[f.ID]; ok {
		return "", fmt.Errorf("duplicate ID %q", f.ID)
	}
	if f.MimeType == "" {
		f.MimeType = "application/octet-stream"
	}
	if len(f.Parents) == 0 {
		f.Parents = []string{e.rootID}
	}
	f.Parents = slices.Clone(f.Parents)
	for i, p := range f.Parents {
		if p == RootAlias {
			p = e.rootID
			f.Parents[i] = p
		}
		parent, ok := e.files[p]
		if !ok || !parent.IsFolder() {
			return "", fmt.Errorf("parent %q of %q is not a known folder", p, f.Name)
		}
		if parent.DriveID != "" {
			f.DriveID = parent.DriveID
		}
	}
	if f.MimeType == MimeShortcut {
		if _, ok := e.files[f.ShortcutTargetID]; !ok {
			return "", fmt.Errorf("shortcut target %q of %q is unknown", f.ShortcutTargetID, f.Name)
		}
	}
	if f.CreatedTime.IsZero() {
		f.CreatedTime = e.nextTime()
	}
	if f.ModifiedTime.IsZero() {
		f.ModifiedTime = f.CreatedTime
	}
	// Drive keeps milliseconds; so does the emulator, so that a time read
	// back from it compares equal in a later q.
	f.CreatedTime = f.CreatedTime.UTC().Truncate(time.Millisecond)
	f.ModifiedTime = f.ModifiedTime.UTC().Truncate(time.Millisecond)
	f.Content = slices.Clone(f.Content)
	f.md5 = md5Hex(f.Content)
	e.files[f.ID] = &f
	e.order = append(e.order, f.ID)
	e.recordLocked(&f)
	return f.ID, nil
}

// AddFolder adds a folder under parent and returns its ID.
func (e *Emulator) AddFolder(parent, name string) string {
	return e.AddFile(File{Name: name, MimeType: MimeFolder, Parents: []string{parent}})
}

// AddDoc adds a Google Doc whose text export is text.
func (e *Emulator) AddDoc(parent, name, text string) string {
	return e.AddFile(File{Name: name, MimeType: MimeDoc, Parents: []string{parent}, ExportText: text})
}

// AddSheet adds a Google Sheet whose CSV export is csv.
func (e *Emulator) AddSheet(parent, name, csv string) string {
	return e.AddFile(File{Name: name, MimeType: MimeSheet, Parents: []string{parent}, ExportText: csv})
}

// AddSlides adds a Google Slides presentation whose text export is text.
func (e *Emulator) AddSlides(parent, name, text string) string {
	return e.AddFile(File{Name: name, MimeType: MimeSlides, Parents: []string{parent}, ExportText: text})
}

// AddBlob adds an uploaded file with the given MIME type and content.
func (e *Emulator) AddBlob(parent, name, mimeType string, content []byte) string {
	return e.AddFile(File{Name: name, MimeType: mimeType, Parents: []string{parent}, Content: content})
}

// AddShortcut adds a shortcut to target.
func (e *Emulator) AddShortcut(parent, name, target string) string {
	return e.AddFile(File{Name: name, MimeType: MimeShortcut, Parents: []string{parent}, ShortcutTargetID: target})
}

// File returns a copy of the file with the given ID.
func (e *Emulator) File(id string) (File, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	f, ok := e.files[e.resolveLocked(id)]
	if !ok {
		return File{}, false
	}
	return *f, true
}

// IDs returns the IDs of all files in insertion order (the roots excluded).
func (e *Emulator) IDs() []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return slices.Clone(e.order)
}

func (e *Emulator) resolveLocked(id string) string {
	if id == RootAlias {
		return e.rootID
	}
	return id
}

// mutate applies fn to the file with the given ID and reports whether it
// exists. The change is appended to the changes feed: for f alone, or with
// tree also for everything under f (trashing a folder trashes its
// contents; hiding it hides them).
func (e *Emulator) mutate(id string, tree bool, fn func(f *File)) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	f, ok := e.files[e.resolveLocked(id)]
	if !ok {
		return false
	}
	var under []string
	if tree && f.IsFolder() {
		under = e.descendantsLocked(f.ID)
	}
	fn(f)
	e.dropTokens(f.ID)
	e.recordLocked(f)
	for _, d := range under {
		e.recordLocked(e.files[d])
	}
	return true
}

func (e *Emulator) dropTokens(id string) {
	e.tokMu.Lock()
	delete(e.tokens, id)
	e.tokMu.Unlock()
}

// Touch replaces a file's content (the export text of a Google-native file,
// the blob otherwise) and sets its modifiedTime; a zero time means the next
// deterministic timestamp. It reports whether the file exists.
func (e *Emulator) Touch(id string, content []byte, modified time.Time) bool {
	e.mu.Lock()
	if modified.IsZero() {
		modified = e.nextTime()
	}
	e.mu.Unlock()
	return e.mutate(id, false, func(f *File) {
		if f.IsNative() {
			f.ExportText = string(content)
		} else {
			f.Content = slices.Clone(content)
			f.md5 = md5Hex(f.Content)
		}
		f.ModifiedTime = modified.UTC().Truncate(time.Millisecond)
	})
}

// Rename renames a file and sets its modifiedTime.
func (e *Emulator) Rename(id, name string, modified time.Time) bool {
	return e.mutate(id, false, func(f *File) { f.Name = name; f.ModifiedTime = modified.UTC().Truncate(time.Millisecond) })
}

// Move replaces a file's parents (and its Shared drive, from the new
// parent). It reports whether the file exists. As in Drive, the move is one
// change of the moved item; what is under a moved folder does not change.
func (e *Emulator) Move(id string, parents ...string) bool {
	e.mu.Lock()
	ps := make([]string, len(parents))
	driveID := ""
	for i, p := range parents {
		ps[i] = e.resolveLocked(p)
		if pf, ok := e.files[ps[i]]; ok && pf.DriveID != "" {
			driveID = pf.DriveID
		}
	}
	e.mu.Unlock()
	return e.mutate(id, false, func(f *File) { f.Parents = ps; f.DriveID = driveID })
}

// Trash sets or clears a file's trashed flag.
func (e *Emulator) Trash(id string, trashed bool) bool {
	return e.mutate(id, true, func(f *File) { f.Trashed = trashed })
}

// SetInaccessible hides (or shows again) a file and everything under it.
func (e *Emulator) SetInaccessible(id string, hidden bool) bool {
	return e.mutate(id, true, func(f *File) { f.Inaccessible = hidden })
}

// Delete removes a file for good (its children stay, orphaned, as in Drive
// they would be deleted too; they become invisible because their parent is).
func (e *Emulator) Delete(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	id = e.resolveLocked(id)
	if _, ok := e.files[id]; !ok || id == e.rootID {
		return false
	}
	under := e.descendantsLocked(id)
	driveID := e.files[id].DriveID
	delete(e.files, id)
	e.dropTokens(id)
	e.order = slices.DeleteFunc(e.order, func(s string) bool { return s == id })
	e.recordRemovedLocked(id, driveID)
	for _, d := range under {
		e.recordLocked(e.files[d]) // now invisible: a removed change
	}
	return true
}

// visibleLocked reports whether the user can see f: neither f nor any
// ancestor is inaccessible or deleted, and a Shared drive root is one the
// user is a member of. Callers hold e.mu.
func (e *Emulator) visibleLocked(f *File) bool {
	return e.visibleDepth(f, 0)
}

func (e *Emulator) visibleDepth(f *File, depth int) bool {
	if f.Inaccessible || depth > 64 { // depth bounds a (mis-built) parent cycle
		return false
	}
	if d, ok := e.drives[f.ID]; ok {
		return !d.Inaccessible
	}
	if f.ID == e.rootID || len(f.Parents) == 0 {
		return true
	}
	for _, p := range f.Parents {
		if pf, ok := e.files[p]; ok && e.visibleDepth(pf, depth+1) {
			return true
		}
	}
	return false
}

// trashedLocked reports whether f is in the trash: trashed itself or under a
// trashed folder (Drive trashes a folder's contents with it). Callers hold e.mu.
func (e *Emulator) trashedLocked(f *File) bool {
	for range 64 { // bounded: parents form a tree, but guard against cycles
		if f.Trashed {
			return true
		}
		if len(f.Parents) == 0 {
			return false
		}
		p, ok := e.files[f.Parents[0]]
		if !ok {
			return false
		}
		f = p
	}
	return false
}

// md5Hex and webViewLink derive fields of the File resource.
func md5Hex(b []byte) string {
	s := md5.Sum(b)
	return hex.EncodeToString(s[:])
}

func webViewLink(f *File) string {
	if f.WebViewLink != "" {
		return f.WebViewLink
	}
	switch f.MimeType {
	case MimeFolder:
		return "https://drive.google.com/drive/folders/" + f.ID
	case MimeDoc:
		return "https://docs.google.com/document/d/" + f.ID + "/edit?usp=drivesdk"
	case MimeSheet:
		return "https://docs.google.com/spreadsheets/d/" + f.ID + "/edit?usp=drivesdk"
	case MimeSlides:
		return "https://docs.google.com/presentation/d/" + f.ID + "/edit?usp=drivesdk"
	}
	return "https://drive.google.com/file/d/" + f.ID + "/view?usp=drivesdk"
}
