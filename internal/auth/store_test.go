package auth

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

func testRecord() *Record {
	return &Record{
		Version:    recordVersion,
		ClientID:   "123-abc.apps.googleusercontent.com",
		Scopes:     []string{DriveReadonlyScope},
		ObtainedAt: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC),
		Token: &oauth2.Token{
			AccessToken:  "ya29.access-SECRET",
			TokenType:    "Bearer",
			RefreshToken: "1//refresh-SECRET",
			Expiry:       time.Date(2026, 5, 1, 11, 0, 0, 0, time.UTC),
		},
	}
}

func TestFileStoreRoundTripAndModes(t *testing.T) {
	ctx := context.Background()
	s := NewFileStore(filepath.Join(t.TempDir(), "home"))
	if _, err := s.Load(ctx); !errors.Is(err, ErrNotLoggedIn) {
		t.Fatalf("empty store: %v", err)
	}
	if err := s.Delete(ctx); err != nil {
		t.Fatalf("delete nothing: %v", err)
	}
	rec := testRecord()
	if err := s.Save(ctx, rec); err != nil {
		t.Fatal(err)
	}
	rec.Token.AccessToken = "ya29.second-SECRET"
	if err := s.Save(ctx, rec); err != nil { // replace
		t.Fatal(err)
	}
	got, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Token.AccessToken != "ya29.second-SECRET" || got.Token.RefreshToken != rec.Token.RefreshToken || !got.Token.Expiry.Equal(rec.Token.Expiry) || got.ClientID != rec.ClientID || !got.HasScope(DriveReadonlyScope) {
		t.Errorf("round trip: %+v %+v", got, got.Token)
	}
	fi, _ := os.Stat(s.Path)
	di, _ := os.Stat(filepath.Dir(s.Path))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes file %04o dir %04o", fi.Mode().Perm(), di.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(s.Path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if err := s.Delete(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(ctx); !errors.Is(err, ErrNotLoggedIn) {
		t.Errorf("after delete: %v", err)
	}
}

func TestFileStoreTightensDirAndRefusesOpenFile(t *testing.T) {
	ctx := context.Background()
	s := NewFileStore(t.TempDir())
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(ctx, testRecord()); err != nil {
		t.Fatal(err)
	}
	if di, _ := os.Stat(dir); di.Mode().Perm() != 0o700 {
		t.Errorf("existing 0755 dir not tightened: %04o", di.Mode().Perm())
	}
	if err := os.Chmod(s.Path, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := s.Load(ctx)
	if err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a 0644 token file was accepted: %v", err)
	}
}

func TestFileStoreCorruptFileDoesNotEchoContent(t *testing.T) {
	s := NewFileStore(t.TempDir())
	os.MkdirAll(filepath.Dir(s.Path), 0o700)
	os.WriteFile(s.Path, []byte(`{"token": ya29.SECRET-broken`), 0o600)
	_, err := s.Load(context.Background())
	if err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("err = %v", err)
	}
}

func TestEncodeRecordIsPrintableASCIIWithoutQuote(t *testing.T) {
	rec := testRecord()
	rec.ClientID = "o'neil-日本-😀\n"
	data, err := encodeRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range data {
		if c < 0x20 || c > 0x7e || c == '\'' {
			t.Fatalf("byte %q in %s", c, data)
		}
	}
	got, err := decodeRecord(data)
	if err != nil || got.ClientID != rec.ClientID {
		t.Fatalf("decode: %v %q", err, got.ClientID)
	}
	// security -w prints non-printable data as hex; that is read too.
	got, err = decodeRecord([]byte(strings.ToUpper(hexOf(data)) + "\n"))
	if err != nil || got.Token.RefreshToken != rec.Token.RefreshToken {
		t.Fatalf("decode hex: %v", err)
	}
	if _, err := decodeRecord([]byte(`{"version":99,"token":{"access_token":"x"}}`)); err == nil {
		t.Error("a newer format version was accepted")
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
