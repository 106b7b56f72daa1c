package driveemu_test

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"testing"

	"google.golang.org/api/drive/v3"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"

	"github.com/gds-cli/gds/internal/driveemu"
)

// newService serves emu and returns a real drive/v3 client pointed at it.
func newService(t *testing.T, emu *driveemu.Emulator) *drive.Service {
	t.Helper()
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	svc, err := drive.NewService(context.Background(),
		option.WithEndpoint(srv.URL+"/drive/v3/"), option.WithoutAuthentication())
	if err != nil {
		t.Fatalf("drive.NewService: %v", err)
	}
	return svc
}

// listAll pages through files.list and returns the names in order.
func listAll(t *testing.T, call *drive.FilesListCall) []string {
	t.Helper()
	var names []string
	err := call.Pages(context.Background(), func(l *drive.FileList) error {
		for _, f := range l.Files {
			names = append(names, f.Name)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("files.list: %v", err)
	}
	return names
}

// apiErr asserts err is a *googleapi.Error with the code and reason.
func apiErr(t *testing.T, err error, code int, reason string) *googleapi.Error {
	t.Helper()
	var ge *googleapi.Error
	if !errors.As(err, &ge) {
		t.Fatalf("error %v (%T) is not a *googleapi.Error", err, err)
	}
	if ge.Code != code {
		t.Fatalf("code = %d, want %d (%v)", ge.Code, code, ge)
	}
	if reason != "" && (len(ge.Errors) == 0 || ge.Errors[0].Reason != reason) {
		t.Fatalf("reason = %+v, want %q", ge.Errors, reason)
	}
	return ge
}

func TestListGetDownloadWithRealClient(t *testing.T) {
	emu := driveemu.New()
	folder := emu.AddFolder("root", "Projects")
	pdf := emu.AddBlob(folder, "report.pdf", "application/pdf", []byte("%PDF-1.4 body"))
	doc := emu.AddDoc(folder, "Plan", "the plan")
	emu.AddBlob("root", "outside.txt", "text/plain", []byte("outside"))
	trashed := emu.AddBlob(folder, "old.txt", "text/plain", []byte("old"))
	emu.Trash(trashed, true)
	svc := newService(t, emu)
	ctx := context.Background()

	got := listAll(t, svc.Files.List().Q("'"+folder+"' in parents and trashed = false").
		Fields("nextPageToken, files(id, name, mimeType, md5Checksum)"))
	if want := []string{"report.pdf", "Plan"}; !equal(got, want) {
		t.Fatalf("list = %v, want %v", got, want)
	}
	// Trashed files are listed unless excluded, as in Drive.
	if got := listAll(t, svc.Files.List().Q("'"+folder+"' in parents")); len(got) != 3 {
		t.Fatalf("without trashed = false: %v, want 3 files", got)
	}

	f, err := svc.Files.Get(pdf).Fields("id,name,size,md5Checksum,parents,webViewLink").Do()
	if err != nil {
		t.Fatal(err)
	}
	if f.Size != int64(len("%PDF-1.4 body")) || len(f.Parents) != 1 || f.Parents[0] != folder || f.Md5Checksum == "" || f.MimeType != "" {
		t.Fatalf("get = %+v", f)
	}
	res, err := svc.Files.Get(pdf).Download()
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "%PDF-1.4 body" {
		t.Fatalf("download = %q", body)
	}
	_, err = svc.Files.Get(doc).Download()
	apiErr(t, err, 403, "fileNotDownloadable")
	_, err = svc.Files.Get("nope").Do()
	ge := apiErr(t, err, 404, "notFound")
	if ge.Message != "File not found: nope." {
		t.Fatalf("message = %q", ge.Message)
	}
	_ = ctx
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
