package launcher

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// The keystroke server's wire format: one request and one response per
// connection, each a fixed number of fields, a field being its length as
// a uvarint and then its bytes. A keystroke is a new front process every
// time, so the front avoids encoding/json's reflection here (building its
// type caches is a cold process's cost on every key).

// wireMagic opens every request: a server of another format refuses it.
const wireMagic = "gds-keys/1"

// maxField bounds a field read from the socket.
const maxField = 64 << 20

const requestFields = 9 // magic, build, index, query, lang, folder, source var, home, now

const (
	statusOK           = "ok"
	statusRefusedBuild = "refused: build"
	statusRefusedIndex = "refused: index"
)

func writeFields(w io.Writer, fields ...[]byte) error {
	var buf []byte
	for _, f := range fields {
		buf = binary.AppendUvarint(buf, uint64(len(f)))
		buf = append(buf, f...)
	}
	_, err := w.Write(buf)
	return err
}

func readFields(r *bufio.Reader, n int) ([][]byte, error) {
	out := make([][]byte, n)
	for i := range out {
		l, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, fmt.Errorf("field %d: %w", i, err)
		}
		if l > maxField {
			return nil, fmt.Errorf("field %d: %d bytes is too long", i, l)
		}
		out[i] = make([]byte, l)
		if _, err := io.ReadFull(r, out[i]); err != nil {
			return nil, fmt.Errorf("field %d: %w", i, err)
		}
	}
	return out, nil
}

func writeRequest(w io.Writer, req keyRequest) error {
	t := req.Typing
	return writeFields(w, []byte(wireMagic), []byte(req.Build), []byte(req.Index), []byte(t.Query), []byte(t.Lang),
		[]byte(t.Folder), []byte(t.SourceVar), []byte(t.Home), strconv.AppendInt(nil, t.Now.UnixNano(), 10))
}

var errWireMagic = errors.New("not a gds keystroke request")

// readRequest reads one request; its time is in the server's local zone
// (the front's: the server inherits the environment of the front that
// started it).
func readRequest(r *bufio.Reader) (keyRequest, error) {
	f, err := readFields(r, requestFields)
	if err != nil {
		return keyRequest{}, err
	}
	if string(f[0]) != wireMagic {
		return keyRequest{}, errWireMagic
	}
	ns, err := strconv.ParseInt(string(f[8]), 10, 64)
	if err != nil {
		return keyRequest{}, fmt.Errorf("time: %w", err)
	}
	return keyRequest{Build: string(f[1]), Index: string(f[2]), Typing: Typing{Query: string(f[3]), Lang: string(f[4]),
		Folder: string(f[5]), SourceVar: string(f[6]), Home: string(f[7]), Now: time.Unix(0, ns)}}, nil
}

func writeResponse(w io.Writer, resp keyResponse) error {
	return writeFields(w, []byte(resp.Status), resp.Stdout, resp.Stderr)
}

func readResponse(r *bufio.Reader) (keyResponse, error) {
	f, err := readFields(r, 3)
	if err != nil {
		return keyResponse{}, err
	}
	return keyResponse{Status: string(f[0]), Stdout: f[1], Stderr: f[2]}, nil
}
