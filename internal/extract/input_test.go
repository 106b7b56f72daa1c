package extract

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
)

// ReadInput reads a file (which can tell its size) and any other reader the
// same way: the whole input up to maxBytes, ErrTooLarge past it, ErrRead
// when the reader fails.
func TestReadInput(t *testing.T) {
	content := bytes.Repeat([]byte("0123456789"), 10_000) // 100,000 bytes
	path := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	fileReader := func(t *testing.T) io.Reader {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	plainReader := func(*testing.T) io.Reader { return iotest.HalfReader(bytes.NewReader(content)) }
	for _, tc := range []struct {
		name     string
		reader   func(*testing.T) io.Reader
		maxBytes int64
		wantErr  error
	}{
		{"file, room to spare", fileReader, 1 << 20, nil},
		{"file, exactly the limit", fileReader, int64(len(content)), nil},
		{"file, one byte over", fileReader, int64(len(content)) - 1, ErrTooLarge},
		{"reader, room to spare", plainReader, 1 << 20, nil},
		{"reader, exactly the limit", plainReader, int64(len(content)), nil},
		{"reader, one byte over", plainReader, int64(len(content)) - 1, ErrTooLarge},
		{"failing reader", func(*testing.T) io.Reader { return iotest.ErrReader(errors.New("disk gone")) }, 1 << 20, ErrRead},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadInput("text/plain", tc.reader(t), tc.maxBytes)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr == nil && !bytes.Equal(got, content) {
				t.Fatalf("read %d bytes, want the %d of the input", len(got), len(content))
			}
		})
	}
}

// A file whose size is known is read into one buffer of its size, not
// io.ReadAll's doubling ones (a crawl reads several files at once).
func TestReadInputFileAllocatesItsSize(t *testing.T) {
	content := bytes.Repeat([]byte("x"), 1<<20)
	path := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := readAll(f, 1<<30)
	if err != nil || len(got) != len(content) {
		t.Fatalf("read %d bytes, %v", len(got), err)
	}
	if cap(got) != len(content)+1 {
		t.Fatalf("buffer capacity %d, want %d (the file's size and one byte)", cap(got), len(content)+1)
	}
}
