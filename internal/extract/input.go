package extract

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// ReadInput does what Extract does before it parses: it refuses a MIME
// type that is never indexed (ErrUnsupported) without reading r, and reads
// r up to maxBytes (<= 0: DefaultMaxBytes; ErrTooLarge beyond it, ErrRead
// when r fails). A reader that runs the parser elsewhere (package isolate)
// reads its input here, so both paths refuse the same files the same way.
func ReadInput(mimeType string, r io.Reader, maxBytes int64) ([]byte, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if formatOf(mimeType) == formatNone && mimeType != "application/octet-stream" && mimeType != "" {
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, mimeType)
	}
	data, err := readAll(r, maxBytes+1)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRead, err)
	}
	if int64(len(data)) > maxBytes {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, maxBytes)
	}
	return data, nil
}

// readAll is io.ReadAll of at most limit bytes of r, into a buffer the size
// of the file when r can tell it (an *os.File): io.ReadAll's doubling
// would otherwise allocate about twice the file, four files at once in a
// crawl.
func readAll(r io.Reader, limit int64) ([]byte, error) {
	var b []byte
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() < limit {
			// One more byte, so the read that finds the end does not grow it.
			b = make([]byte, 0, fi.Size()+1)
		}
	}
	if b == nil {
		return io.ReadAll(io.LimitReader(r, limit))
	}
	lr := io.LimitReader(r, limit)
	for {
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			// The file grew since Stat: go on as io.ReadAll does.
			b = append(b, 0)[:len(b)]
		}
	}
}
