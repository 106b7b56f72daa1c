package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/server"
)

// rawStream posts a question to chat/stream and returns the response and
// its body as bytes.
func (e *env) rawStream(body string, hdr ...string) (*http.Response, []byte) {
	e.t.Helper()
	return e.do("POST", "/api/v1/chat/stream", "application/json", strings.NewReader(body), hdr...)
}

// frames checks the byte-level framing of a stream body — nothing but
// events of one "data: {json}" line each, every one ended by a blank line,
// LF only — and returns the decoded frames.
func frames(t *testing.T, body []byte) []map[string]json.RawMessage {
	t.Helper()
	if !bytes.HasSuffix(body, []byte("\n\n")) || bytes.Contains(body, []byte("\r")) {
		t.Fatalf("stream does not end with a blank line, or has CR: %q", body)
	}
	var out []map[string]json.RawMessage
	for _, ev := range strings.Split(strings.TrimSuffix(string(body), "\n\n"), "\n\n") {
		data, ok := strings.CutPrefix(ev, "data: ")
		if !ok || strings.Contains(data, "\n") {
			t.Fatalf("event %q is not one data: line", ev)
		}
		var f map[string]json.RawMessage
		if err := json.Unmarshal([]byte(data), &f); err != nil {
			t.Fatalf("event %q: %v", ev, err)
		}
		keys := make([]string, 0, len(f))
		for k := range f {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		// The seed's three fields; the last frame may add "extractive"
		// (true when the offline provider wrote an extract).
		if ex, has := f["extractive"]; has {
			if string(f["done"]) != "true" || (string(ex) != "true" && string(ex) != "false") {
				t.Fatalf("frame %s: extractive on a frame that is not the last, or not a boolean", data)
			}
			keys = slices.DeleteFunc(keys, func(k string) bool { return k == "extractive" })
		}
		if !slices.Equal(keys, []string{"content", "done", "sources"}) {
			t.Fatalf("frame %s has fields %v, want content, done, sources (and extractive on the last)", data, keys)
		}
		out = append(out, f)
	}
	return out
}

// streamedAnswer checks the frames' order — text frames (done false,
// sources null, content not empty), then exactly one done frame (content
// "", sources an array) — and returns the text and the last frame's sources.
func streamedAnswer(t *testing.T, fs []map[string]json.RawMessage) (string, []map[string]any) {
	t.Helper()
	if len(fs) == 0 {
		t.Fatal("no frames")
	}
	var text strings.Builder
	for i, f := range fs[:len(fs)-1] {
		var c string
		json.Unmarshal(f["content"], &c)
		if string(f["done"]) != "false" || string(f["sources"]) != "null" || c == "" {
			t.Fatalf("text frame %d: done %s, sources %s, content %q", i, f["done"], f["sources"], c)
		}
		if !utf8.ValidString(c) || strings.ContainsRune(c, utf8.RuneError) {
			t.Fatalf("text frame %d splits a character: %q", i, c)
		}
		text.WriteString(c)
	}
	last := fs[len(fs)-1]
	var srcs []map[string]any
	if string(last["done"]) != "true" || string(last["content"]) != `""` || json.Unmarshal(last["sources"], &srcs) != nil || srcs == nil {
		t.Fatalf("last frame: %v", last)
	}
	return text.String(), srcs
}

// The stream's framing, headers and content: its text is exactly the
// answer of POST /api/v1/chat (the offline provider is deterministic), in
// English and Japanese, and its done frame carries the same sources.
func TestSSEFraming(t *testing.T) {
	e := newEnv(t, false, server.Options{})
	en := e.upload("notes.md", []byte("# Notes\n\nThe quarterly budget review is on Friday. The office closes at six."), http.StatusCreated)
	ja := e.upload("規程.md", []byte("# 就業規則\n\n有給休暇の申請は、取得日の三日前までに上長へ届け出ること。慶弔休暇は別に定める。"), http.StatusCreated)

	for _, c := range []struct {
		question, doc string
	}{
		{"When is the quarterly budget review?", en.ID},
		{"有給休暇の申請はいつまでに届け出ますか？", ja.ID},
	} {
		body, _ := json.Marshal(map[string]any{"question": c.question, "top_k": 2})
		resp, b := e.rawStream(string(body))
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", c.question, resp.StatusCode, b)
		}
		for k, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no", "X-Content-Type-Options": "nosniff"} {
			if got := resp.Header.Get(k); got != want {
				t.Errorf("%s: %s %q, want %q", c.question, k, got, want)
			}
		}
		fs := frames(t, b)
		if len(fs) < 2 {
			t.Fatalf("%s: %d frames, want text frames and the done frame", c.question, len(fs))
		}
		text, srcs := streamedAnswer(t, fs)

		var chat struct {
			Answer  string           `json:"answer"`
			Sources []map[string]any `json:"sources"`
		}
		e.json("POST", "/api/v1/chat", map[string]any{"question": c.question, "top_k": 2}, http.StatusOK, &chat)
		if text != chat.Answer {
			t.Errorf("%s: streamed text\n%q\nis not /chat's answer\n%q", c.question, text, chat.Answer)
		}
		if len(srcs) != len(chat.Sources) || len(srcs) == 0 || srcs[0]["document_id"] != c.doc {
			t.Errorf("%s: stream sources %v, /chat sources %v, want %s first", c.question, srcs, chat.Sources, c.doc)
		}
		for _, k := range []string{"document_id", "chunk_id", "filename", "title", "chunk_content", "page_number", "score", "ref"} {
			if _, ok := srcs[0][k]; !ok {
				t.Errorf("%s: a source lacks %s: %v", c.question, k, srcs[0])
			}
		}
	}

	// An empty index: the stream is refused as /chat is, with a 409
	// problem (no_index) before any frame.
	empty := newEnv(t, false, server.Options{})
	resp, b := empty.rawStream(`{"question":"When is the quarterly budget review?"}`)
	var p problem
	json.Unmarshal(b, &p)
	if resp.StatusCode != http.StatusConflict || p.Code != "no_index" || !strings.HasPrefix(resp.Header.Get("Content-Type"), apperr.ProblemContentType) {
		t.Errorf("stream on an empty index: %d %s", resp.StatusCode, b)
	}
	empty.json("POST", "/api/v1/chat", map[string]any{"question": "When is the quarterly budget review?"}, http.StatusConflict, &p)
	if p.Code != "no_index" {
		t.Errorf("chat on an empty index: %+v", p)
	}
}

// A request refused before the first frame is an ordinary problem+json
// response, never an event stream.
func TestSSEErrorsBeforeTheStream(t *testing.T) {
	e := newEnv(t, false, server.Options{Token: "tok"})
	auth := []string{"Authorization", "Bearer tok"}
	for _, c := range []struct {
		name, body string
		hdr        []string
		status     int
	}{
		{"no token", `{"question":"x"}`, nil, http.StatusUnauthorized},
		{"empty question", `{"question":""}`, auth, http.StatusUnprocessableEntity},
		{"top_k over 20", `{"question":"x","top_k":21}`, auth, http.StatusUnprocessableEntity},
		{"unknown role", `{"question":"x","chat_history":[{"role":"system","content":"y"}]}`, auth, http.StatusUnprocessableEntity},
		{"not JSON", `{"question":`, auth, http.StatusBadRequest},
		{"too large", `{"question":"` + strings.Repeat("a", server.MaxJSONBody) + `"}`, auth, http.StatusRequestEntityTooLarge},
	} {
		resp, b := e.rawStream(c.body, c.hdr...)
		if resp.StatusCode != c.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), apperr.ProblemContentType) || bytes.HasPrefix(b, []byte("data:")) {
			t.Errorf("%s: %d %s %.200s, want %d problem+json", c.name, resp.StatusCode, resp.Header.Get("Content-Type"), b, c.status)
		}
	}
}

// cutStream is the offline provider whose answers break off after their
// first piece, as a model connection that drops would.
type cutStream struct{ ai.Provider }

func (p cutStream) Stream(ctx context.Context, req ai.Request) iter.Seq2[ai.Event, error] {
	return func(yield func(ai.Event, error) bool) {
		if !yield(ai.Event{Kind: ai.EventText, Text: "The budget review"}, nil) {
			return
		}
		yield(ai.Event{}, apperr.Mark(errors.New("model connection reset"), apperr.Unavailable))
	}
}

// An answer that fails after its first frame ends the stream with a last
// frame that is done, has no sources and carries the problem — and the
// framing stays intact.
func TestSSEErrorAfterTheFirstFrame(t *testing.T) {
	e := newEnv(t, false, server.Options{})
	e.upload("notes.md", []byte("# Notes\n\nThe quarterly budget review is on Friday."), http.StatusCreated)
	e.d.Provider = func() (ai.Provider, error) { return cutStream{offline.New()}, nil }
	resp, b := e.rawStream(`{"question":"When is the quarterly budget review?"}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	events := strings.Split(strings.TrimSuffix(string(b), "\n\n"), "\n\n")
	if len(events) != 2 || !bytes.HasSuffix(b, []byte("\n\n")) {
		t.Fatalf("want a text frame and a last frame: %q", b)
	}
	var first, last struct {
		Content string            `json:"content"`
		Done    bool              `json:"done"`
		Sources []json.RawMessage `json:"sources"`
		Error   *problem          `json:"error"`
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(events[0], "data: ")), &first); err != nil || first.Content != "The budget review" || first.Done || first.Error != nil {
		t.Fatalf("first frame %q (%v)", events[0], err)
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(events[1], "data: ")), &last); err != nil || !last.Done || last.Sources == nil || len(last.Sources) != 0 || last.Error == nil {
		t.Fatalf("last frame %q (%v)", events[1], err)
	}
	if last.Error.Status != http.StatusServiceUnavailable || last.Error.Code == "" || last.Error.Detail == "" {
		t.Fatalf("the last frame's problem: %+v", last.Error)
	}
}
