package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gds-cli/gds/internal/server"
)

func TestConcurrentUploadsAndChatsSQLite(t *testing.T)   { testConcurrentUploadsAndChats(t, false) }
func TestConcurrentUploadsAndChatsPostgres(t *testing.T) { testConcurrentUploadsAndChats(t, true) }

// Uploads, chats (plain and streamed) and searches at the same time: every
// request succeeds, every upload becomes its own document holding its own
// text (no mix-up of files, IDs or chunks between concurrent requests),
// and each can be found afterwards. Run with -race.
func testConcurrentUploadsAndChats(t *testing.T, pg bool) {
	e := newEnv(t, pg, server.Options{})
	e.upload("seed.md", []byte("# Seed\n\nThe harbour lighthouse was painted red in spring."), http.StatusCreated)

	const n = 6
	words := []string{"aardvark", "bumblebee", "capybara", "dromedary", "echidna", "flamingo"}
	type upload struct {
		status int
		doc    docBody
	}
	uploads := make([]upload, n)
	var wg sync.WaitGroup
	errs := make(chan string, 4*n)
	post := func(path, ctype string, body io.Reader) (*http.Response, []byte, error) {
		req, err := http.NewRequest("POST", e.url+path, body)
		if err != nil {
			return nil, nil, err
		}
		req.Header.Set("Content-Type", ctype)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp, b, err
	}
	for i := range n {
		wg.Add(4)
		go func() { // an upload of its own text
			defer wg.Done()
			text := fmt.Sprintf("# Report %d\n\nThe %s survey number %d counted %d animals near the harbour.", i, words[i], i, 100+i)
			ct, body := multipartBody(t, fmt.Sprintf("report-%d.md", i), []byte(text), "title", fmt.Sprintf("Report %d", i), "tags", words[i])
			resp, b, err := post("/api/v1/documents/upload", ct, body)
			if err != nil {
				errs <- fmt.Sprintf("upload %d: %v", i, err)
				return
			}
			uploads[i].status = resp.StatusCode
			if err := json.Unmarshal(b, &uploads[i].doc); err != nil {
				errs <- fmt.Sprintf("upload %d: %v: %s", i, err, b)
			}
		}()
		go func() { // a streamed answer, read to its done frame
			defer wg.Done()
			resp, b, err := post("/api/v1/chat/stream", "application/json", strings.NewReader(`{"question":"What colour was the harbour lighthouse painted?"}`))
			if err != nil {
				errs <- fmt.Sprintf("stream %d: %v", i, err)
				return
			}
			if resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"done":true`)) {
				errs <- fmt.Sprintf("stream %d: %d %s", i, resp.StatusCode, b)
			}
		}()
		go func() {
			defer wg.Done()
			resp, b, err := post("/api/v1/chat", "application/json", strings.NewReader(`{"question":"Which lighthouse was painted red?","top_k":3}`))
			if err != nil {
				errs <- fmt.Sprintf("chat %d: %v", i, err)
				return
			}
			if resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"answer"`)) {
				errs <- fmt.Sprintf("chat %d: %d %s", i, resp.StatusCode, b)
			}
		}()
		go func() {
			defer wg.Done()
			resp, b, err := post("/api/v1/search", "application/json", strings.NewReader(`{"query":"harbour survey"}`))
			if err != nil {
				errs <- fmt.Sprintf("search %d: %v", i, err)
				return
			}
			if resp.StatusCode != 200 {
				errs <- fmt.Sprintf("search %d: %d %s", i, resp.StatusCode, b)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for m := range errs {
		t.Error(m)
	}
	if t.Failed() {
		t.FailNow()
	}

	ids := map[string]int{}
	for i, u := range uploads {
		if u.status != http.StatusCreated || u.doc.Status != "indexed" || u.doc.ChunkCount == 0 {
			t.Fatalf("upload %d: %d %+v", i, u.status, u.doc)
		}
		if prev, dup := ids[u.doc.ID]; dup {
			t.Fatalf("uploads %d and %d got the same ID %s", prev, i, u.doc.ID)
		}
		ids[u.doc.ID] = i
		if u.doc.Filename != fmt.Sprintf("report-%d.md", i) || u.doc.Title != fmt.Sprintf("Report %d", i) || strings.Join(u.doc.Tags, ",") != words[i] {
			t.Errorf("upload %d answered another upload's fields: %+v", i, u.doc)
		}
		var d docBody
		e.json("GET", "/api/v1/documents/"+u.doc.ID, nil, http.StatusOK, &d)
		var text strings.Builder
		for _, c := range d.Chunks {
			text.WriteString(c.Content)
		}
		for j, w := range words {
			if got := strings.Contains(text.String(), w); got != (i == j) {
				t.Errorf("document %d (%s) holds %q: %v", i, u.doc.ID, w, got)
			}
		}
		var sr struct {
			Results []struct {
				DocumentID string `json:"document_id"`
			} `json:"results"`
		}
		e.json("POST", "/api/v1/search", map[string]any{"query": words[i] + " survey", "filter": map[string]any{"tags": []string{words[i]}}}, http.StatusOK, &sr)
		if len(sr.Results) == 0 || sr.Results[0].DocumentID != u.doc.ID {
			t.Errorf("search for %s: %+v, want %s", words[i], sr.Results, u.doc.ID)
		}
	}
	var list struct {
		Total int `json:"total"`
	}
	e.json("GET", "/api/v1/documents", nil, http.StatusOK, &list)
	if list.Total != n+1 {
		t.Fatalf("%d documents after %d concurrent uploads and a seed, want %d", list.Total, n, n+1)
	}
}
