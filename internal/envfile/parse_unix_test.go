//go:build unix

package envfile

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO would block the open until a writer came: refused at once.
func TestReadRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), ".env")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := Read(fifo); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a FIFO: %v", err)
	}
}
