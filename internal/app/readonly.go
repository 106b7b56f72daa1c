package app

import (
	"os"

	"github.com/gds-cli/gds/internal/apperr"
)

// homeWriteError classifies an error of writing in dir, a folder gds keeps
// its state in (the gds home: the crawl lock, the index, the token file,
// the .env): a permission or read-only-file-system error is a
// configuration error (exit 3) naming the folder and the fix (make it
// writable, or point GDS_HOME elsewhere); any other error is returned as
// it is.
func homeWriteError(dir string, err error) error {
	if isReadOnly(err) {
		return apperr.L(apperr.Config, "store.read_only", dir).Wrap(err)
	}
	return err
}

// uploadWriteError is homeWriteError for the upload folder, whose setting
// is GDS_UPLOAD_DIR.
func uploadWriteError(dir string, err error) error {
	if isReadOnly(err) {
		return apperr.L(apperr.Config, "upload.read_only", dir).Wrap(err)
	}
	return err
}

// checkWritable fails, as homeWriteError does, when dir (created if
// missing) refuses a new file: for a command that would otherwise find out
// only after its work (a sign-in saving its token).
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return homeWriteError(dir, err)
	}
	return homeWriteError(dir, writeProbe(dir))
}
