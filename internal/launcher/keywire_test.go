package launcher

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestKeyWireRoundTrip(t *testing.T) {
	req := keyRequest{Build: "1.2.3 abc d", Index: "/h/index.db", Typing: Typing{Query: "先月の予算 \x00 \"q\"", Lang: "ja",
		Folder: "a/b", SourceVar: "local:~/x,drive", Home: "/Users/u", Now: time.Unix(1_780_000_000, 123456789)}}
	var buf bytes.Buffer
	if err := writeRequest(&buf, req); err != nil {
		t.Fatal(err)
	}
	got, err := readRequest(bufio.NewReader(bytes.NewReader(buf.Bytes())))
	if err != nil || got.Build != req.Build || got.Index != req.Index || !got.Typing.Now.Equal(req.Typing.Now) {
		t.Fatalf("request = %+v, %v", got, err)
	}
	got.Typing.Now, req.Typing.Now = time.Time{}, time.Time{}
	if got != req {
		t.Errorf("request = %+v, want %+v", got, req)
	}
	// Every truncation is an error, never a shorter request.
	for n := range buf.Len() {
		if _, err := readRequest(bufio.NewReader(bytes.NewReader(buf.Bytes()[:n]))); err == nil {
			t.Fatalf("a request cut at %d of %d bytes was read", n, buf.Len())
		}
	}

	resp := keyResponse{Status: statusOK, Stdout: []byte(`{"items":[]}`), Stderr: []byte("warning\n")}
	buf.Reset()
	if err := writeResponse(&buf, resp); err != nil {
		t.Fatal(err)
	}
	r, err := readResponse(bufio.NewReader(&buf))
	if err != nil || r.Status != resp.Status || string(r.Stdout) != string(resp.Stdout) || string(r.Stderr) != string(resp.Stderr) {
		t.Errorf("response = %+v, %v", r, err)
	}
}

func TestKeyWireRefusesOtherInput(t *testing.T) {
	var buf bytes.Buffer
	writeFields(&buf, []byte("gds-keys/0"), nil, nil, nil, nil, nil, nil, nil, []byte("0"))
	if _, err := readRequest(bufio.NewReader(&buf)); !errors.Is(err, errWireMagic) {
		t.Errorf("another format: %v", err)
	}
	buf.Reset()
	writeFields(&buf, []byte(wireMagic), nil, nil, nil, nil, nil, nil, nil, []byte("soon"))
	if _, err := readRequest(bufio.NewReader(&buf)); err == nil {
		t.Error("a time that is not a number was read")
	}
	huge := append([]byte{byte(len(wireMagic))}, wireMagic...)
	huge = binary.AppendUvarint(huge, maxField+1)
	if _, err := readRequest(bufio.NewReader(bytes.NewReader(huge))); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("an oversized field: %v", err)
	}
	if _, err := readRequest(bufio.NewReader(strings.NewReader("GET / HTTP/1.1\r\n\r\n"))); err == nil {
		t.Error("an HTTP request was read as a keystroke")
	}
}
