package driveemu_test

import (
	"context"
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/api/drive/v3"
	"google.golang.org/api/googleapi"

	"github.com/gds-cli/gds/internal/driveemu"
)

// names lists q over the default fixture (all drives) and returns sorted names.
func queryNames(t *testing.T, svc *drive.Service, q string) []string {
	t.Helper()
	got := listAll(t, svc.Files.List().Q(q).SupportsAllDrives(true).IncludeItemsFromAllDrives(true).Corpora("allDrives").
		Fields("nextPageToken, files(name)"))
	slices.Sort(got)
	return got
}

func TestQueryOperatorsOverTheDefaultFixture(t *testing.T) {
	fx := driveemu.DefaultFixture()
	svc := newService(t, fx.Emu)
	plans, reports := fx.IDs["plans"], fx.IDs["reports"]
	cases := []struct {
		q    string
		want []string
	}{
		{"'" + plans + "' in parents", []string{"2026年度 事業計画", "Archive", "Budget 2026", "Kickoff deck", "Q3 roadmap"}},
		{"'" + plans + "' in parents and mimeType != 'application/vnd.google-apps.folder'",
			[]string{"2026年度 事業計画", "Budget 2026", "Kickoff deck", "Q3 roadmap"}},
		{"'" + plans + "' in parents and (mimeType = 'application/vnd.google-apps.spreadsheet' or mimeType = 'application/vnd.google-apps.presentation')",
			[]string{"Budget 2026", "Kickoff deck"}},
		{"mimeType contains 'image/'", []string{"diagram.png"}},
		{"name = 'Q3 roadmap'", []string{"Q3 roadmap"}},
		{"name = 'q3 roadmap'", nil}, // = is exact
		{"name contains 'road'", []string{"Q3 roadmap"}},
		{"name contains 'oadmap'", nil},
		{"name contains 'stanley'", []string{"stanley-cups.xlsx"}},
		{"name contains '事業'", []string{"2026年度 事業計画"}},
		{"'" + reports + "' in parents and name != 'notes.txt' and name contains 'n'", []string{"notes.txt"}[:0]},
		{"fullText contains 'Maple Leafs'", []string{"stanley-cups.xlsx"}},
		{"fullText contains 'leafs maple'", []string{"stanley-cups.xlsx"}},
		{"fullText contains '\"leafs maple\"'", nil},
		{"fullText contains '\"milestone review\"'", []string{"Q3 roadmap"}},
		{"fullText contains 'hamburgers'", []string{"notes.txt"}},
		{"fullText contains 'hamburger'", nil}, // whole tokens, no stemming
		{"fullText contains '佐藤'", []string{"Budget 2026", "チーム議事録 2026-04"}},
		{"fullText contains '事業計画'", []string{"2026年度 事業計画"}},
		{"fullText contains '事業'", nil}, // inside a kanji run: not a token
		{"fullText contains 'draft' and trashed = true", []string{"Discarded draft"}},
		{"fullText contains 'roadmap' and not name contains 'Q3'", []string{"チーム議事録 2026-04"}[:0]},
		{"trashed = true", []string{"Discarded draft", "old-report.pdf"}},
		{"trashed != false and mimeType = 'application/pdf'", []string{"old-report.pdf"}},
		{"modifiedTime >= '2026-04-01T00:00:00Z'", []string{"README.md", "チーム議事録 2026-04"}},
		{"modifiedTime > '2026-04-03T15:00:00Z'", []string{"README.md"}},
		{"modifiedTime = '2026-04-03T15:00:00.000Z'", []string{"チーム議事録 2026-04"}},
		{"modifiedTime < '2026-01-10T09:00:00Z'", []string{"Personal", "Board only"}[:1]},
		{"modifiedTime <= '2026-01-10T09:00:00Z' and modifiedTime != '2026-01-05T09:00:00Z'", []string{"Plans", "gds-demo"}},
		{"createdTime > '2026-04-04T00:00:00+09:00' and createdTime < '2026-04-05T00:00:00'", []string{"README.md"}},
		{"name contains 'Shortcut' and mimeType = 'application/vnd.google-apps.shortcut'", []string{"Shortcut to Customer list"}},
	}
	for _, c := range cases {
		got := queryNames(t, svc, c.q)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("q=%s\n got %q\nwant %q", c.q, got, want)
		}
	}
}

func TestEscapedValuesFindNamesWithQuotesAndBackslashes(t *testing.T) {
	fx := driveemu.DefaultFixture()
	svc := newService(t, fx.Emu)
	name := `Quinn's paper\essay.txt`
	for _, q := range []string{
		"name = '" + driveemu.Escape(name) + "'",
		"name contains '" + driveemu.Escape(`quinn's paper\`) + "'",
		`name = 'Quinn\'s paper\\essay.txt'`,
	} {
		if got := queryNames(t, svc, q); fmt.Sprint(got) != fmt.Sprint([]string{name}) {
			t.Errorf("q=%s: %q", q, got)
		}
	}
	// Unescaped user text is a malformed query, not a different one.
	_, err := svc.Files.List().Q("name = '" + name + "'").Do()
	apiErr(t, err, 400, "invalidQuery")
}

func TestMalformedQueryIsInvalidQuery(t *testing.T) {
	svc := newService(t, driveemu.New())
	for _, q := range []string{"name contains", "trashed = 'false'", "(name = 'x'", "bogus = 'x'", "fullText = 'x'"} {
		_, err := svc.Files.List().Q(q).Do()
		ge := apiErr(t, err, 400, "invalidQuery")
		if !strings.Contains(ge.Body, `"location":"q"`) {
			t.Errorf("%q: body %s", q, ge.Body)
		}
	}
}

func TestPagingCapsPageSizeAt100AndBindsTokens(t *testing.T) {
	emu := driveemu.New()
	folder := emu.AddFolder("root", "many")
	for i := range 250 {
		emu.AddBlob(folder, fmt.Sprintf("f%03d.txt", i), "text/plain", []byte("x"))
	}
	svc := newService(t, emu)
	q := "'" + folder + "' in parents and trashed = false"
	var sizes []int
	var names []string
	err := svc.Files.List().Q(q).PageSize(1000).Fields("nextPageToken, files(name)").
		Pages(context.Background(), func(l *drive.FileList) error {
			sizes = append(sizes, len(l.Files))
			for _, f := range l.Files {
				names = append(names, f.Name)
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sizes) != "[100 100 50]" {
		t.Fatalf("page sizes %v, want [100 100 50]", sizes)
	}
	if len(names) != 250 || names[0] != "f000.txt" || names[249] != "f249.txt" || len(slicesCompact(names)) != 250 {
		t.Fatalf("names: %d, first %s, last %s", len(names), names[0], names[len(names)-1])
	}
	if got := emu.Stats().Calls[driveemu.EndpointList]; got != 3 {
		t.Fatalf("%d list calls, want 3", got)
	}

	first, err := svc.Files.List().Q(q).PageSize(7).Do()
	if err != nil || len(first.Files) != 7 || first.NextPageToken == "" {
		t.Fatalf("pageSize 7: %v, %d files, token %q", err, len(first.Files), first.NextPageToken)
	}
	// The same token twice gives the same page (stable).
	a, err1 := svc.Files.List().Q(q).PageSize(7).PageToken(first.NextPageToken).Do()
	b, err2 := svc.Files.List().Q(q).PageSize(7).PageToken(first.NextPageToken).Do()
	if err1 != nil || err2 != nil || a.Files[0].Id != b.Files[0].Id || a.Files[0].Name != "f007.txt" {
		t.Fatalf("token reuse: %v %v", err1, err2)
	}
	// A token is bound to its query, and garbage is rejected.
	_, err = svc.Files.List().Q("trashed = false").PageToken(first.NextPageToken).Do()
	apiErr(t, err, 400, "invalid")
	_, err = svc.Files.List().Q(q).PageToken("garbage!").Do()
	apiErr(t, err, 400, "invalid")
	_, err = svc.Files.List().PageSize(0).Q(q).Do() // below the schema's minimum of 1
	apiErr(t, err, 400, "invalid")
	// Without nextPageToken in fields, the client stops after one page, as with Drive.
	got := listAll(t, svc.Files.List().Q(q).Fields("files(name)"))
	if len(got) != 100 {
		t.Fatalf("fields without nextPageToken: %d files, want 100", len(got))
	}
	// A smaller cap can be configured (e.g. to exercise many pages).
	emu.SetMaxPageSize(30)
	if l, _ := svc.Files.List().Q(q).PageSize(1000).Do(); len(l.Files) != 30 {
		t.Fatalf("cap 30: %d", len(l.Files))
	}
}

func slicesCompact(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return slices.Compact(c)
}

func TestFieldsSelectPartialResponses(t *testing.T) {
	fx := driveemu.DefaultFixture()
	svc := newService(t, fx.Emu)
	l, err := svc.Files.List().Q("'" + fx.IDs["reports"] + "' in parents and name = 'Shortcut to Customer list'").
		Fields("files(id,shortcutDetails/targetId)").Do()
	if err != nil {
		t.Fatal(err)
	}
	f := l.Files[0]
	if f.Id != fx.IDs["shortcut"] || f.Name != "" || f.ShortcutDetails == nil ||
		f.ShortcutDetails.TargetId != fx.IDs["doc-customers"] || f.ShortcutDetails.TargetMimeType != "" {
		t.Fatalf("files(id,shortcutDetails/targetId): %+v %+v", f, f.ShortcutDetails)
	}
	// Default fields: kind, id, name, mimeType only.
	l, err = svc.Files.List().Q("name = 'notes.txt'").Do()
	if err != nil || len(l.Files) != 1 {
		t.Fatal(err)
	}
	if f := l.Files[0]; f.Name != "notes.txt" || f.MimeType != "text/plain" || f.Size != 0 || f.ModifiedTime != "" || len(f.Parents) != 0 {
		t.Fatalf("default fields: %+v", f)
	}
	g, err := svc.Files.Get(fx.IDs["pdf-memo"]).Fields("*").Do()
	if err != nil || g.Size == 0 || g.Md5Checksum == "" || g.ModifiedTime == "" || g.WebViewLink == "" || len(g.Parents) != 1 {
		t.Fatalf("fields=*: %v %+v", err, g)
	}
	if g.Md5Checksum != md5hex(fx.Emu, fx.IDs["pdf-memo"]) {
		t.Fatalf("md5 %s", g.Md5Checksum)
	}
	for _, bad := range []string{"files(nope)", "nope", "files(id", "files(id),,"} {
		_, err = svc.Files.List().Fields(googleapi.Field(bad)).Do()
		apiErr(t, err, 400, "invalidParameter")
	}
	_, err = svc.Files.Get(fx.IDs["pdf-memo"]).Fields("bogus").Do()
	apiErr(t, err, 400, "invalidParameter")
}

func md5hex(e *driveemu.Emulator, id string) string {
	f, _ := e.File(id)
	return fmt.Sprintf("%x", md5sum(f.Content))
}

func TestSharedDriveFlagsAndCorpora(t *testing.T) {
	fx := driveemu.DefaultFixture()
	svc := newService(t, fx.Emu)
	team := fx.IDs["team-target"]
	q := "'" + team + "' in parents and trashed = false"
	want := "[README.md チーム議事録 2026-04]"
	sorted := func(c *drive.FilesListCall) string {
		n := listAll(t, c)
		slices.Sort(n)
		return fmt.Sprint(n)
	}
	if got := sorted(svc.Files.List().Q(q)); got != "[]" {
		t.Errorf("no flags: %s, want none", got)
	}
	if got := sorted(svc.Files.List().Q(q).IncludeItemsFromAllDrives(true)); got != "[]" {
		t.Errorf("includeItemsFromAllDrives alone: %s, want none", got)
	}
	if got := sorted(svc.Files.List().Q(q).SupportsAllDrives(true)); got != "[]" {
		t.Errorf("supportsAllDrives alone: %s, want none", got)
	}
	if got := sorted(svc.Files.List().Q(q).SupportsAllDrives(true).IncludeItemsFromAllDrives(true)); got != want {
		t.Errorf("both flags: %s, want %s", got, want)
	}
	drv := fx.IDs["team-drive"]
	if got := sorted(svc.Files.List().Q("trashed = false and mimeType != 'application/vnd.google-apps.folder'").
		Corpora("drive").DriveId(drv).SupportsAllDrives(true).IncludeItemsFromAllDrives(true)); got != want {
		t.Errorf("corpora=drive: %s, want %s", got, want)
	}
	// corpora=user with both flags still sees My Drive items; allDrives both.
	if got := sorted(svc.Files.List().Q("name contains 'README' or name = 'notes.txt'").Corpora("allDrives").
		SupportsAllDrives(true).IncludeItemsFromAllDrives(true)); got != "[README.md notes.txt]" {
		t.Errorf("allDrives: %s", got)
	}
	_, err := svc.Files.List().Corpora("drive").DriveId(drv).Do()
	apiErr(t, err, 400, "invalid")
	_, err = svc.Files.List().Corpora("drive").SupportsAllDrives(true).IncludeItemsFromAllDrives(true).Do()
	apiErr(t, err, 400, "invalid")
	_, err = svc.Files.List().Corpora("drive").DriveId("0Anope").SupportsAllDrives(true).IncludeItemsFromAllDrives(true).Do()
	apiErr(t, err, 404, "notFound")
	_, err = svc.Files.List().Corpora("galaxy").Do()
	apiErr(t, err, 400, "invalid")

	// files.get of a Shared drive item needs supportsAllDrives.
	id := fx.IDs["md-readme"]
	_, err = svc.Files.Get(id).Do()
	apiErr(t, err, 404, "notFound")
	f, err := svc.Files.Get(id).SupportsAllDrives(true).Fields("id,driveId,parents").Do()
	if err != nil || f.DriveId != drv || f.Parents[0] != team {
		t.Fatalf("get with supportsAllDrives: %v %+v", err, f)
	}
	root, err := svc.Files.Get(drv).SupportsAllDrives(true).Fields("id,name,mimeType,driveId").Do()
	if err != nil || root.MimeType != driveemu.MimeFolder || root.Name != "Team Drive" {
		t.Fatalf("Shared drive root: %v %+v", err, root)
	}
	dl, err := svc.Drives.List().Do()
	if err != nil || len(dl.Drives) != 1 || dl.Drives[0].Id != drv || dl.Drives[0].Name != "Team Drive" {
		t.Fatalf("drives.list: %v %+v", err, dl)
	}
	d, err := svc.Drives.Get(drv).Do()
	if err != nil || d.Name != "Team Drive" {
		t.Fatalf("drives.get: %v %+v", err, d)
	}
	_, err = svc.Drives.Get("0Anope").Do()
	apiErr(t, err, 404, "notFound")
}

func TestNoPermissionLooksLikeNotFound(t *testing.T) {
	fx := driveemu.DefaultFixture()
	svc := newService(t, fx.Emu)
	for _, key := range []string{"locked", "doc-secret"} {
		_, err := svc.Files.Get(fx.IDs[key]).SupportsAllDrives(true).Do()
		apiErr(t, err, 404, "notFound")
	}
	if got := queryNames(t, svc, "'"+fx.IDs["locked"]+"' in parents"); len(got) != 0 {
		t.Fatalf("children of a folder without permission: %v", got)
	}
	if got := queryNames(t, svc, "fullText contains 'confidential'"); len(got) != 0 {
		t.Fatalf("fullText found a hidden file: %v", got)
	}
	// A non-folder ID is found (the caller must check mimeType).
	f, err := svc.Files.Get(fx.IDs["doc-roadmap"]).Do()
	if err != nil || f.MimeType != driveemu.MimeDoc {
		t.Fatalf("%v %+v", err, f)
	}
	// "root" is an alias.
	r, err := svc.Files.Get("root").Fields("id,mimeType").Do()
	if err != nil || r.Id != fx.Emu.RootID() || r.MimeType != driveemu.MimeFolder {
		t.Fatalf("root: %v %+v", err, r)
	}
	if got := queryNames(t, svc, "'root' in parents and mimeType = 'application/vnd.google-apps.folder'"); fmt.Sprint(got) != "[Personal gds-demo]" {
		t.Fatalf("'root' in parents: %v", got)
	}
}

func TestExport(t *testing.T) {
	fx := driveemu.DefaultFixture()
	svc := newService(t, fx.Emu)
	read := func(id, mt string) (string, error) {
		res, err := svc.Files.Export(id, mt).Download()
		if err != nil {
			return "", err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return string(b), err
	}
	cases := []struct{ key, mt, contains string }{
		{"doc-plan-ja", "text/plain", "新規顧客の獲得"},
		{"doc-roadmap", "text/markdown", "Milestone review"},
		{"doc-roadmap", "text/html", "<p>Milestone review on September 30.</p>"},
		{"sheet-budget", "text/csv", "marketing,1200000,佐藤"},
		{"sheet-budget", "text/tab-separated-values", "marketing\t1200000\t佐藤"},
		{"slides-kickoff", "text/plain", "キックオフ資料"},
		{"doc-minutes-ja", "text/plain", "決定事項"}, // Shared drive: export has no supportsAllDrives
	}
	for _, c := range cases {
		got, err := read(fx.IDs[c.key], c.mt)
		if err != nil || !strings.Contains(got, c.contains) {
			t.Errorf("export %s as %s: %v %q", c.key, c.mt, err, got)
		}
	}
	_, err := read(fx.IDs["doc-roadmap"], "text/csv")
	apiErr(t, err, 400, "badRequest")
	_, err = read(fx.IDs["slides-kickoff"], "text/markdown")
	apiErr(t, err, 400, "badRequest")
	_, err = read(fx.IDs["pdf-memo"], "text/plain")
	apiErr(t, err, 403, "fileNotExportable")
	_, err = read(fx.IDs["doc-huge"], "text/plain")
	apiErr(t, err, 403, "exportSizeLimitExceeded")
	_, err = read(fx.IDs["doc-roadmap"], "application/pdf")
	apiErr(t, err, 501, "notImplemented")
	_, err = read("nope", "text/plain")
	apiErr(t, err, 404, "notFound")

	// The limit is the export's real size when no size is declared.
	emu := driveemu.New()
	emu.SetExportLimit(10)
	small := emu.AddDoc("root", "small", "0123456789")
	big := emu.AddDoc("root", "big", "0123456789A")
	svc = newService(t, emu)
	if _, err := read(small, "text/plain"); err != nil {
		t.Errorf("export at the limit: %v", err)
	}
	_, err = read(big, "text/plain")
	apiErr(t, err, 403, "exportSizeLimitExceeded")
	_, err = svc.Files.Get(small).Download()
	apiErr(t, err, 403, "fileNotDownloadable")
}

func TestAbout(t *testing.T) {
	emu := driveemu.New()
	emu.SetUser(driveemu.User{DisplayName: "Aiko", EmailAddress: "aiko@example.com", PermissionID: "42"})
	svc := newService(t, emu)
	a, err := svc.About.Get().Fields("user").Do()
	if err != nil || a.User == nil || a.User.EmailAddress != "aiko@example.com" || !a.User.Me || a.StorageQuota != nil {
		t.Fatalf("about: %v %+v", err, a)
	}
	a, err = svc.About.Get().Fields("exportFormats").Do()
	if err != nil || !slices.Contains(a.ExportFormats[driveemu.MimeSheet], "text/csv") || a.User != nil {
		t.Fatalf("about exportFormats: %v %+v", err, a)
	}
	_, err = svc.About.Get().Do()
	apiErr(t, err, 400, "required")
}

func TestOrderBy(t *testing.T) {
	fx := driveemu.DefaultFixture()
	svc := newService(t, fx.Emu)
	q := "'" + fx.IDs["plans"] + "' in parents"
	order := func(ob string) string {
		return fmt.Sprint(listAll(t, svc.Files.List().Q(q).OrderBy(ob)))
	}
	if got := order("name"); got != "[2026年度 事業計画 Archive Budget 2026 Kickoff deck Q3 roadmap]" {
		t.Errorf("name: %s", got)
	}
	if got := order("folder,name desc"); got != "[Archive Q3 roadmap Kickoff deck Budget 2026 2026年度 事業計画]" {
		t.Errorf("folder,name desc: %s", got)
	}
	if got := order("modifiedTime desc"); got != "[Budget 2026 Q3 roadmap 2026年度 事業計画 Kickoff deck Archive]" {
		t.Errorf("modifiedTime desc: %s", got)
	}
	_, err := svc.Files.List().Q("fullText contains 'plan'").OrderBy("modifiedTime").Do()
	ge := apiErr(t, err, 403, "")
	if !strings.Contains(ge.Message, "Sorting is not supported for queries with fullText terms") {
		t.Errorf("message %q", ge.Message)
	}
	_, err = svc.Files.List().OrderBy("size").Do()
	apiErr(t, err, 400, "invalid")
}

func TestMutationsAreSeenByIncrementalQueries(t *testing.T) {
	fx := driveemu.DefaultFixture()
	emu := fx.Emu
	svc := newService(t, emu)
	since := "2026-05-01T00:00:00Z"
	q := "modifiedTime > '" + since + "' and trashed = false"
	if got := queryNames(t, svc, q); len(got) != 0 {
		t.Fatalf("before: %v", got)
	}
	when := time.Date(2026, 5, 2, 8, 30, 0, 123_456_789, time.UTC)
	if !emu.Touch(fx.IDs["txt-notes"], []byte("new notes about sushi"), when) || !emu.Touch(fx.IDs["doc-roadmap"], []byte("Q4 now"), when) {
		t.Fatal("Touch: unknown ID")
	}
	if got := queryNames(t, svc, q); fmt.Sprint(got) != "[Q3 roadmap notes.txt]" {
		t.Fatalf("after Touch: %v", got)
	}
	f, _ := svc.Files.Get(fx.IDs["txt-notes"]).Fields("modifiedTime,size").Do()
	if f.ModifiedTime != "2026-05-02T08:30:00.123Z" || f.Size != int64(len("new notes about sushi")) {
		t.Fatalf("touched file: %+v", f)
	}
	// A checkpoint equal to the returned time lists nothing again.
	if got := queryNames(t, svc, "modifiedTime > '"+f.ModifiedTime+"'"); len(got) != 0 {
		t.Fatalf("checkpoint at the returned time: %v", got)
	}
	if got := queryNames(t, svc, "fullText contains 'sushi'"); fmt.Sprint(got) != "[notes.txt]" {
		t.Fatalf("fullText after Touch: %v", got)
	}
	emu.Trash(fx.IDs["plans"], true) // trashes its contents too
	if got := queryNames(t, svc, "'"+fx.IDs["archive"]+"' in parents and trashed = false"); len(got) != 0 {
		t.Fatalf("children of a trashed folder: %v", got)
	}
	emu.Move(fx.IDs["txt-notes"], fx.IDs["personal"])
	if got := queryNames(t, svc, "'"+fx.IDs["personal"]+"' in parents"); !slices.Contains(got, "notes.txt") {
		t.Fatalf("after Move: %v", got)
	}
	emu.Delete(fx.IDs["txt-notes"])
	_, err := svc.Files.Get(fx.IDs["txt-notes"]).Do()
	apiErr(t, err, 404, "notFound")
}

func TestFaultsSurfaceAsDriveErrors(t *testing.T) {
	emu := driveemu.New()
	id := emu.AddBlob("root", "a.txt", "text/plain", []byte(strings.Repeat("abcdefgh", 1000)))
	svc := newService(t, emu)
	fl := emu.Faults()
	cases := []struct {
		rule   driveemu.Rule
		code   int
		reason string
	}{
		{driveemu.TooManyRequests(3 * time.Second), 429, "rateLimitExceeded"},
		{driveemu.UserRateLimitExceeded(), 403, "userRateLimitExceeded"},
		{driveemu.RateLimitExceeded(), 403, "rateLimitExceeded"},
		{driveemu.ServerError(500), 500, "backendError"},
		{driveemu.ServerError(502), 502, "badGateway"},
		{driveemu.ServerError(503), 503, "backendError"},
	}
	for _, c := range cases {
		rid := fl.Add(c.rule.Times(1))
		_, err := svc.Files.Get(id).Do()
		ge := apiErr(t, err, c.code, c.reason)
		if c.code == 429 && ge.Header.Get("Retry-After") != "3" {
			t.Errorf("Retry-After = %q", ge.Header.Get("Retry-After"))
		}
		if c.code == 403 && !strings.Contains(ge.Body, `"domain":"usageLimits"`) {
			t.Errorf("body %s", ge.Body)
		}
		if _, err := svc.Files.Get(id).Do(); err != nil {
			t.Errorf("after one %d: %v", c.code, err)
		}
		fl.Remove(rid)
	}

	// Dropped connection: not a googleapi.Error. Every attempt is dropped so
	// http.Transport's one silent retry cannot hide it.
	rid := fl.Add(driveemu.DropConnection().On(driveemu.EndpointGet))
	_, err := svc.Files.Get(id).Do()
	var ge *googleapi.Error
	var ue *url.Error
	if err == nil || errors.As(err, &ge) || !errors.As(err, &ue) {
		t.Errorf("drop: %v (%T)", err, err)
	}
	fl.Remove(rid)

	// Truncated body: JSON decoding and downloads fail with an unexpected EOF.
	rid = fl.Add(driveemu.TruncateBody())
	if _, err := svc.Files.List().Do(); err == nil || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Errorf("truncated list: %v", err)
	}
	res, err := svc.Files.Get(id).Download()
	if err != nil {
		t.Fatalf("truncated download headers: %v", err)
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) || len(b) != 4000 {
		t.Errorf("truncated download: %d bytes, %v", len(b), err)
	}
	fl.Remove(rid)

	// Latency respects the request context.
	rid = fl.Add(driveemu.Latency(time.Hour))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	_, err = svc.Files.Get(id).Context(ctx).Do()
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("latency: %v", err)
	}
	fl.Remove(rid)

	st := emu.Stats()
	if st.Faults[driveemu.FaultStatus] != 6 || st.Faults[driveemu.FaultDrop] < 1 || st.Faults[driveemu.FaultTruncate] != 2 || st.Faults[driveemu.FaultLatency] != 1 {
		t.Errorf("fault counters: %v", st.Faults)
	}
	if st.Calls[driveemu.EndpointDownload] != 1 || st.Calls[driveemu.EndpointList] != 1 {
		t.Errorf("call counters: %v", st.Calls)
	}
	emu.ResetStats()
	if emu.Stats().Total() != 0 {
		t.Error("ResetStats")
	}
}

// outcomes returns which of n requests to srv failed.
func outcomes(t *testing.T, emu *driveemu.Emulator, n int) string {
	t.Helper()
	srv := httptest.NewServer(emu)
	defer srv.Close()
	var b strings.Builder
	for range n {
		res, err := http.Get(srv.URL + "/drive/v3/files/root?alt=json")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == 200 {
			b.WriteByte('.')
		} else {
			b.WriteByte('x')
		}
	}
	return b.String()
}

func TestFaultRulesAreDeterministicAndCounted(t *testing.T) {
	mk := func(seed uint64) *driveemu.Emulator {
		e := driveemu.New()
		e.Faults().Seed(seed)
		e.Faults().Add(driveemu.ServerError(503).WithProbability(0.5))
		return e
	}
	a, b := outcomes(t, mk(9), 200), outcomes(t, mk(9), 200)
	if a != b {
		t.Fatalf("same seed, different faults:\n%s\n%s", a, b)
	}
	if c := outcomes(t, mk(10), 200); c == a {
		t.Fatalf("different seeds gave the same 200 outcomes")
	}
	if n := strings.Count(a, "x"); n < 60 || n > 140 {
		t.Fatalf("probability 0.5 failed %d of 200", n)
	}

	e := driveemu.New()
	e.Faults().Add(driveemu.ServerError(500).Skip(2).Times(3))
	if got := outcomes(t, e, 8); got != "..xxx..." {
		t.Fatalf("Skip(2).Times(3): %s", got)
	}
	e.Faults().Clear()
	e.Faults().Add(driveemu.ServerError(500).On(driveemu.EndpointList))
	if got := outcomes(t, e, 2); got != ".." {
		t.Fatalf("rule on files.list hit files.get: %s", got)
	}
	e.Faults().Add(driveemu.Rule{Kind: driveemu.FaultStatus, Status: 500, PathPrefix: "/drive/v3/files/root"})
	if got := outcomes(t, e, 2); got != "xx" {
		t.Fatalf("path prefix rule: %s", got)
	}
}

func md5sum(b []byte) [16]byte { return md5.Sum(b) }

func TestIncompleteSearchOnlyForAllDrives(t *testing.T) {
	emu := driveemu.New()
	emu.SetIncompleteSearch(true)
	svc := newService(t, emu)
	l, err := svc.Files.List().Corpora("allDrives").SupportsAllDrives(true).IncludeItemsFromAllDrives(true).
		Fields("incompleteSearch,files(id)").Do()
	if err != nil || !l.IncompleteSearch {
		t.Fatalf("allDrives: %v %+v", err, l)
	}
	if l, err = svc.Files.List().Fields("incompleteSearch").Do(); err != nil || l.IncompleteSearch {
		t.Fatalf("user: %v %+v", err, l)
	}
}

// TestConcurrentRequestsAndMutations runs under -race: listing, fullText,
// downloads and fault decisions while the tree changes.
func TestConcurrentRequestsAndMutations(t *testing.T) {
	fx := driveemu.DefaultFixture()
	emu := fx.Emu
	emu.Faults().Add(driveemu.ServerError(503).WithProbability(0.2))
	srv := httptest.NewServer(emu)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 300 && ctx.Err() == nil; i++ {
			emu.Touch(fx.IDs["txt-notes"], []byte(fmt.Sprintf("v%d sushi", i)), time.Time{})
			emu.Trash(fx.IDs["doc-roadmap"], i%2 == 0)
			emu.AddBlob(fx.IDs["reports"], fmt.Sprintf("new%d.txt", i), "text/plain", []byte("x"))
		}
	}()
	paths := []string{
		"/drive/v3/files?q=" + url.QueryEscape("fullText contains 'sushi'"),
		"/drive/v3/files?pageSize=3&q=" + url.QueryEscape("'"+fx.IDs["reports"]+"' in parents"),
		"/drive/v3/files/" + fx.IDs["txt-notes"] + "?alt=media",
		"/drive/v3/files/" + fx.IDs["doc-roadmap"] + "/export?mimeType=text/plain",
	}
	errc := make(chan error, 8)
	for w := range 8 {
		go func() {
			for i := range 30 {
				res, err := http.Get(srv.URL + paths[(w+i)%len(paths)])
				if err != nil {
					errc <- err
					return
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 && res.StatusCode != 503 {
					errc <- fmt.Errorf("%s: %d", paths[(w+i)%len(paths)], res.StatusCode)
					return
				}
			}
			errc <- nil
		}()
	}
	for range 8 {
		if err := <-errc; err != nil {
			t.Error(err)
		}
	}
	cancel()
	<-done
	if st := emu.Stats(); st.Total() != 240 || st.Faults[driveemu.FaultStatus] == 0 {
		t.Errorf("stats %+v", st)
	}
}
