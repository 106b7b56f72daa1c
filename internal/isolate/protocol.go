package isolate

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gds-cli/gds/internal/extract"
)

// The wire protocol between the parent and a worker. Every message is a
// frame: an 8-byte big-endian length and that many bytes. A request is two
// frames (the gob-encoded header, then the file's bytes); a response is one
// (the gob-encoded response).

// request is what the parent asks of a worker.
type request struct {
	MimeType string
	MaxBytes int64
	CPU      time.Duration // processor time this request may use
	// Op is what to do with the file: "" extracts its text (opExtract),
	// opPNG converts an image to PNG (extract.ToPNG).
	Op string
}

// The requests' operations.
const (
	opExtract = ""
	opPNG     = "png"
)

// MaxPNGBytes bounds the PNG an opPNG request answers with; a larger one
// is refused as too complex.
const MaxPNGBytes = 64 << 20

// response is a worker's answer. Err is empty on success; otherwise
// ErrKind says which extract sentinel the error matched.
type response struct {
	Image     []byte // opPNG's PNG
	Pages     []extract.Page
	Truncated bool
	ErrKind   string
	Err       string
	HeapBytes uint64 // the worker's heap in use after the request
}

// Error kinds carried by a response.
const (
	kindUnsupported = "unsupported"
	kindTooLarge    = "too_large"
	kindTooComplex  = "too_complex"
	kindMalformed   = "malformed"
	kindOther       = "other"
)

// maxHeaderBytes bounds a request header frame.
const maxHeaderBytes = 64 << 10

// maxResponseBytes bounds a response frame: the text cap, with room for
// page structure and the error text.
const maxResponseBytes = 2*extract.MaxTextBytes + 1<<20

// maxPNGResponseBytes bounds an opPNG response frame.
const maxPNGResponseBytes = MaxPNGBytes + 1<<20

// errFrameTooLarge is a frame whose declared length is over its bound.
var errFrameTooLarge = errors.New("frame larger than its limit")

func writeFrame(w io.Writer, payload []byte) error {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(payload)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}

// readFrame reads one frame of at most limit bytes. A clean end of input
// before the frame starts is io.EOF; an end inside it is
// io.ErrUnexpectedEOF.
func readFrame(r io.Reader, limit int64) ([]byte, error) {
	var n [8]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, err
	}
	size := binary.BigEndian.Uint64(n[:])
	if size > uint64(limit) {
		return nil, fmt.Errorf("%w (%d > %d bytes)", errFrameTooLarge, size, limit)
	}
	buf := make([]byte, size)
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf, nil
}

func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func decode(data []byte, v any) error {
	return gob.NewDecoder(bytes.NewReader(data)).Decode(v)
}

func writeRequest(w *bufio.Writer, req request, data []byte) error {
	h, err := encode(req)
	if err != nil {
		return err
	}
	if err := writeFrame(w, h); err != nil {
		return err
	}
	if err := writeFrame(w, data); err != nil {
		return err
	}
	return w.Flush()
}

// readRequest reads one request; the file may be up to maxData bytes.
func readRequest(r io.Reader, maxData int64) (request, []byte, error) {
	var req request
	h, err := readFrame(r, maxHeaderBytes)
	if err != nil {
		return req, nil, err
	}
	if err := decode(h, &req); err != nil {
		return req, nil, fmt.Errorf("request header: %w", err)
	}
	data, err := readFrame(r, maxData)
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return req, nil, err
	}
	return req, data, nil
}

// kindOf names the extract sentinel err matches, most specific first.
func kindOf(err error) string {
	switch {
	case errors.Is(err, extract.ErrTooComplex):
		return kindTooComplex
	case errors.Is(err, extract.ErrUnsupported):
		return kindUnsupported
	case errors.Is(err, extract.ErrTooLarge):
		return kindTooLarge
	case errors.Is(err, extract.ErrMalformed):
		return kindMalformed
	}
	return kindOther
}

// workerError is an error reported by a worker: its text is the worker's,
// and it matches the extract sentinel the worker's error matched.
type workerError struct {
	msg  string
	kind error
}

func (e *workerError) Error() string { return e.msg }
func (e *workerError) Unwrap() error { return e.kind }

// errorOf rebuilds a worker's error in the parent.
func errorOf(kind, msg string) error {
	var sentinel error
	switch kind {
	case kindTooComplex:
		sentinel = extract.ErrTooComplex
	case kindUnsupported:
		sentinel = extract.ErrUnsupported
	case kindTooLarge:
		sentinel = extract.ErrTooLarge
	case kindMalformed:
		sentinel = extract.ErrMalformed
	default:
		// An error no sentinel names is still the file's fault as far as
		// the caller can tell (the worker read nothing else).
		sentinel = extract.ErrMalformed
	}
	return &workerError{msg: msg, kind: sentinel}
}
