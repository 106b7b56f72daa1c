//go:build unix

package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// dmsByte is the byte of the WAL index (the -shm file) on which every
// connection of every process holds a shared lock while it has the
// database open in WAL mode: the "dead man switch" of SQLite's unix VFS
// (UNIX_SHM_DMS, after the 120 bytes of the header and the 8 lock bytes).
const dmsByte = 128

// Holder returns the process ID of another process that has the index at
// path open (a search, `gds serve`, the Alfred keystroke server), 0 when
// none has. It asks the operating system which process holds SQLite's
// lock on the WAL index, taking no lock itself. A file must not be renamed
// or removed while another process has it open: that process's SQLite
// would go on writing the old file and, when it closes, delete the WAL of
// whatever then has the name ("How To Corrupt An SQLite Database File",
// 2.4).
//
// It must not be called while this process has the index open: closing
// its descriptor of the -shm file would drop this process's own SQLite
// locks on it (see walStamp).
func Holder(path string) (int, error) {
	f, err := os.Open(path + "-shm")
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil // no WAL index: no connection has the file open in WAL mode
	}
	if err != nil {
		return 0, fmt.Errorf("check who has the index open: %w", err)
	}
	defer f.Close()
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: dmsByte, Len: 1}
	if err := unix.FcntlFlock(f.Fd(), unix.F_GETLK, &lk); err != nil {
		return 0, fmt.Errorf("check who has the index open: %w", err)
	}
	if lk.Type == unix.F_UNLCK {
		return 0, nil
	}
	return int(lk.Pid), nil
}
