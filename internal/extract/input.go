package extract

import (
	"fmt"
	"io"
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
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRead, err)
	}
	if int64(len(data)) > maxBytes {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, maxBytes)
	}
	return data, nil
}
