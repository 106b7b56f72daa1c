package auth

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// TokenStore keeps the one sign-in record of gds.
type TokenStore interface {
	// Load returns the stored record, or an error matching ErrNotLoggedIn
	// when there is none.
	Load(ctx context.Context) (*Record, error)
	// Save replaces the stored record.
	Save(ctx context.Context, r *Record) error
	// Delete removes the record; deleting nothing is not an error.
	Delete(ctx context.Context) error
	// Location describes where the record is kept, for `gds auth status`
	// (never the secret).
	Location() string
}

// Token file layout inside the gds home (systems without a Keychain).
const (
	CredentialsDirName = "credentials"
	TokenFileName      = "google-oauth-token.json"
)

// TokenFilePath returns where FileStore keeps the token under the gds
// data directory.
func TokenFilePath(dataDir string) string {
	return filepath.Join(dataDir, CredentialsDirName, TokenFileName)
}

// FileStore keeps the record in a JSON file with mode 0600 inside a
// directory with mode 0700, written atomically (temporary file + rename).
type FileStore struct {
	Path string
}

var _ TokenStore = FileStore{}

// NewFileStore returns the file store of the gds data directory.
func NewFileStore(dataDir string) FileStore { return FileStore{Path: TokenFilePath(dataDir)} }

// Location returns the file path.
func (s FileStore) Location() string { return s.Path }

// Load reads the record. A file readable by group or others is refused
// (like ssh does with keys) until its mode is fixed.
func (s FileStore) Load(_ context.Context) (*Record, error) {
	fi, err := os.Stat(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, newError(ErrNotLoggedIn, "auth.err.not_logged_in", err)
	}
	if err != nil {
		return nil, fmt.Errorf("read the token file %s: %w", s.Path, err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("the token file %s has mode %04o, readable by others: run `chmod 600 %s` (or `gds auth login` again)", s.Path, fi.Mode().Perm(), s.Path)
	}
	data, err := os.ReadFile(s.Path)
	if err != nil {
		return nil, fmt.Errorf("read the token file %s: %w", s.Path, err)
	}
	r, err := decodeRecord(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Path, err)
	}
	return r, nil
}

// Save writes the record atomically with mode 0600; the directory is
// created (or tightened) to mode 0700.
func (s FileStore) Save(_ context.Context, r *Record) error {
	data, err := encodeRecord(r)
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create the credentials directory %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("restrict the credentials directory %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".token-*.tmp") // created with mode 0600
	if err != nil {
		return fmt.Errorf("write the token file in %s: %w", dir, err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName) // no-op after a successful rename
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return fmt.Errorf("restrict the token file %s: %w", tmpName, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write the token file %s: %w", tmpName, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write the token file %s: %w", tmpName, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write the token file %s: %w", tmpName, err)
	}
	if err := os.Rename(tmpName, s.Path); err != nil {
		return fmt.Errorf("replace the token file %s: %w", s.Path, err)
	}
	return nil
}

// Delete removes the file.
func (s FileStore) Delete(_ context.Context) error {
	if err := os.Remove(s.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete the token file %s: %w", s.Path, err)
	}
	return nil
}
