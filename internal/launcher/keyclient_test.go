package launcher

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestKeyServerOffAndSocket(t *testing.T) {
	for v, off := range map[string]bool{"": false, "on": false, "off": true, "0": true, "FALSE": true, "no": true} {
		if got := KeyServerOff(func(string) (string, bool) { return v, v != "" }); got != off {
			t.Errorf("%s=%q: off = %v, want %v", KeyServerEnv, v, got, off)
		}
	}
	env := func(kv map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := kv[k]; return v, ok }
	}
	cases := []struct {
		env      map[string]string
		wd, home string
		want     string
	}{
		{map[string]string{"GDS_HOME": "/home/u/.gds"}, "/wd", "/home/u", "/home/u/.gds/keystroke.sock"},
		{map[string]string{"GDS_HOME": " ~/gds "}, "/wd", "/home/u", "/home/u/gds/keystroke.sock"},
		{map[string]string{"GDS_HOME": "rel"}, "/wd", "/home/u", "/wd/rel/keystroke.sock"},
		{map[string]string{"GDS_HOME": "/" + strings.Repeat("d", 120)}, "/wd", "/home/u", ""},
		{map[string]string{}, "/wd", "", ""}, // no home at all (Linux: no XDG_CONFIG_HOME either)
	}
	if runtime.GOOS == "linux" {
		cases = append(cases,
			struct {
				env      map[string]string
				wd, home string
				want     string
			}{map[string]string{"XDG_CONFIG_HOME": "/cfg"}, "/wd", "/home/u", "/cfg/gds/keystroke.sock"},
			struct {
				env      map[string]string
				wd, home string
				want     string
			}{map[string]string{}, "/wd", "/home/u", "/home/u/.config/gds/keystroke.sock"})
	}
	for _, c := range cases {
		if got := KeySocket(env(c.env), c.wd, c.home); got != c.want {
			t.Errorf("KeySocket(%v, %q, %q) = %q, want %q", c.env, c.wd, c.home, got, c.want)
		}
	}
}

// A request and a response survive the frame unchanged: text in any
// script, empty fields, arguments with newlines and quotes, the instant
// of a zoned time, output bytes that are not text.
func TestKeyFrameRoundTrip(t *testing.T) {
	zone := time.FixedZone("JST", 9*3600)
	reqs := []KeyRequest{
		{Build: "1.2.3 abc 2026-01-01", Environ: []string{"HOME=/home/u", "GDS_HOME=/home/u/.gds", "EMPTY="}, Dir: "/work dir",
			Typing: Typing{Query: "去年の \"予算\" PDF\n", Lang: "ja", Folder: "Work/報告", SourceVar: "local:~/Docs,drive", Home: "/home/u", Now: time.Date(2026, 3, 29, 1, 30, 0, 123456789, zone)}},
		{Build: "dev dev dev", Typing: Typing{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}, Run: []string{"search", "a\nb", "", "--json"}},
	}
	for _, req := range reqs {
		got, err := ReadKeyRequest(bytes.NewReader(req.encode()))
		if err != nil {
			t.Fatalf("%+v: %v", req, err)
		}
		if !got.Typing.Now.Equal(req.Typing.Now) { // the instant; the server reads it in its zone
			t.Errorf("time %v, want %v", got.Typing.Now, req.Typing.Now)
		}
		got.Typing.Now = req.Typing.Now
		if !reflect.DeepEqual(got, req) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, req)
		}
	}
	for _, resp := range []KeyResponse{
		{Stdout: []byte("{\"items\":[]}\n"), Stderr: []byte{0, 0xff, '\n'}, Exit: 0},
		{Refused: "build"},
		{Stdout: bytes.Repeat([]byte("x"), 100000), Exit: 3},
	} {
		var buf bytes.Buffer
		if err := WriteKeyResponse(&buf, resp); err != nil {
			t.Fatal(err)
		}
		got, err := readKeyResponse(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Stdout, resp.Stdout) || !bytes.Equal(got.Stderr, resp.Stderr) || got.Refused != resp.Refused || got.Exit != resp.Exit {
			t.Errorf("response round trip: got %+v", got)
		}
	}
}

// A frame that is not one — a JSON line of an older front, a truncated or
// oversized one — is an error, never a request.
func TestKeyFrameRefusesGarbage(t *testing.T) {
	good := KeyRequest{Build: "b", Typing: Typing{Query: "q", Now: time.Unix(0, 0).UTC()}}.encode()
	huge := append([]byte(keyMagic), binary.AppendUvarint(nil, maxKeyField+1)...)
	for name, in := range map[string][]byte{
		"json":      []byte(`{"build":"b","typing":{"query":"q"}}` + "\n"),
		"empty":     nil,
		"truncated": good[:len(good)-3],
		"huge":      huge,
		"bad time":  KeyRequest{Typing: Typing{Now: time.Time{}}}.encode()[:len(keyMagic)],
	} {
		if req, err := ReadKeyRequest(bytes.NewReader(in)); err == nil {
			t.Errorf("%s: read %+v", name, req)
		}
	}
}

func FuzzReadKeyRequest(f *testing.F) {
	f.Add(KeyRequest{Build: "b", Typing: Typing{Query: "東京", Now: time.Unix(1, 0).UTC()}, Run: []string{"x"}}.encode())
	f.Add([]byte(keyMagic))
	f.Fuzz(func(t *testing.T, in []byte) {
		req, err := ReadKeyRequest(bytes.NewReader(in))
		if err != nil {
			return
		}
		again, err := ReadKeyRequest(bytes.NewReader(req.encode()))
		if err != nil || !reflect.DeepEqual(again.Run, req.Run) || again.Typing.Query != req.Typing.Query || again.Build != req.Build {
			t.Errorf("re-encoded %+v: %+v, %v", req, again, err)
		}
	})
}
