package server_test

import (
	"context"
	"net/http"
	"os"
	"testing"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/server"
)

const memoPDF = "../../testdata/realdocs/unstructured-fake-memo.pdf"

type chatBody struct {
	Answer  string `json:"answer"`
	Sources []struct {
		DocumentID string `json:"document_id"`
		Filename   string `json:"filename"`
	} `json:"sources"`
}

// An upload is a document of the index, not of the server: after a
// restart (new Deps, new store connection, same home) `gds ask` and
// `gds search` — the application layer they call — find it, and the
// server still serves it.
func TestUploadSurvivesRestartAndReachesAsk(t *testing.T) {
	memo, err := os.ReadFile(memoPDF)
	if err != nil {
		t.Fatal(err)
	}
	cfg := envConfig(t, false)
	first := startEnv(t, cfg, server.Options{})
	doc := first.upload("memo.pdf", memo, http.StatusCreated, "title", "Memo", "tags", "supplies")

	d := app.New(app.Options{Config: cfg}) // as a new `gds ask` process would
	ctx := context.Background()
	res, err := d.Ask(ctx, app.AskRequest{RetrieveRequest: app.RetrieveRequest{Query: "How many bottles of water were delivered?", TopK: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sources) == 0 || res.Sources[0].FileID != doc.ID || res.Sources[0].Name != "memo.pdf" || res.NoContext {
		t.Fatalf("ask after upload: %+v", res)
	}
	found, err := d.Search(ctx, app.SearchRequest{Query: "bottles of water"})
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Outcome.Results) == 0 || found.Outcome.Results[0].File.ID != doc.ID {
		t.Errorf("search after upload: %+v", found.Outcome.Results)
	}

	second := startEnv(t, cfg, server.Options{}) // the restarted server
	var got docBody
	second.json("GET", "/api/v1/documents/"+doc.ID, nil, http.StatusOK, &got)
	if got.ID != doc.ID || got.Title != "Memo" || len(got.Chunks) == 0 {
		t.Errorf("after restart: %+v", got)
	}
}

// Two servers on one Postgres database serve the same documents: an upload
// through one is listed, answered from and deleted through the other (only
// the database and the upload directory hold state).
func TestTwoServersOneDatabase(t *testing.T) {
	memo, err := os.ReadFile(memoPDF)
	if err != nil {
		t.Fatal(err)
	}
	cfg := envConfig(t, true)
	a := startEnv(t, cfg, server.Options{})
	b := startEnv(t, cfg, server.Options{})
	doc := a.upload("memo.pdf", memo, http.StatusCreated, "title", "Memo")

	var list struct {
		Items []docBody `json:"items"`
		Total int       `json:"total"`
	}
	b.json("GET", "/api/v1/documents", nil, http.StatusOK, &list)
	if list.Total != 1 || len(list.Items) != 1 || list.Items[0].ID != doc.ID {
		t.Fatalf("list through the other server: %+v", list)
	}
	var chat chatBody
	b.json("POST", "/api/v1/chat", map[string]any{"question": "How many bottles of water were delivered?", "top_k": 2}, http.StatusOK, &chat)
	if len(chat.Sources) == 0 || chat.Sources[0].DocumentID != doc.ID {
		t.Fatalf("chat through the other server: %+v", chat)
	}
	b.json("DELETE", "/api/v1/documents/"+doc.ID, nil, http.StatusNoContent, nil)
	a.json("GET", "/api/v1/documents/"+doc.ID, nil, http.StatusNotFound, nil)
}
