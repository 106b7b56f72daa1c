package drive_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/gds-cli/gds/internal/drive"
	"github.com/gds-cli/gds/internal/driveemu"
)

// TestFullTextOverRealDocuments: the emulator, served from the folder of
// real documents, indexes what Drive indexes — the text of PDF and Office
// files, not only their names — so phrase searches through the real
// drive/v3 client find them (the emulator once matched only names and
// text/* bodies, and every PDF/Office phrase here found nothing).
func TestFullTextOverRealDocuments(t *testing.T) {
	fx, err := driveemu.FromDir("../../testdata/realdocs")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fx.Emu)
	defer srv.Close()
	c, err := drive.New(context.Background(), drive.Options{Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ phrase, file string }{
		{"To Whom it May Concern", "unstructured-fake-memo.pdf"},
		{"ZAVA AUTO REPAIR", "markitdown-repair-estimate-3p.pdf"},
		{"Federal Aviation Administration", "pdfminer-federal-register-page.pdf"},
		{"This is the first content slide", "unstructured-sample-presentation.pptx"},
		{"Maple Leafs", "unstructured-stanley-cups.xlsx"},
		{"2cdda5c8-e50e-4db4-b5f0-9722a649f455", "markitdown-autogen.pptx"},
	} {
		var names []string
		q := drive.And(drive.NotTrashed(), drive.FullTextContains(tc.phrase))
		if err := c.Search(context.Background(), q, func(f drive.File) error {
			names = append(names, f.Name)
			return nil
		}); err != nil {
			t.Fatalf("%q: %v", tc.phrase, err)
		}
		if !slices.Contains(names, tc.file) {
			t.Errorf("fullText contains %q found %v, want %s", tc.phrase, names, tc.file)
		}
	}
}
