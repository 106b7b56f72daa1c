//go:build !windows

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/render/alfred"
)

// TestBinaryOverDriveAndOpenAI runs the built gds against the Drive API
// emulator and the OpenAI-compatible test server: crawl, then a --json
// search that asks a clarifying question, answered with --state/--answer,
// and Alfred items for the same answer. No step talks to the real services.
func TestBinaryOverDriveAndOpenAI(t *testing.T) {
	bin := gdsBinary(t)
	e := driveemu.New()
	top := e.AddFolder("root", "Team")
	fin := e.AddFolder(top, "Finance")
	for i := range 110 {
		e.AddDoc(fin, fmt.Sprintf("Budget memo %03d", i), fmt.Sprintf("Budget memo number %d about travel costs.", i))
	}
	alpha := e.AddDoc(top, "Project Alpha plan", "The alpha launch plan and its budget for the quarter.")
	drv := httptest.NewServer(e)
	defer drv.Close()
	const key = "test-key-not-secret"
	oai := openaitest.NewServer(t, openaitest.WithAPIKey(key), openaitest.WithBackend(offline.New()))

	home := t.TempDir()
	env := append(os.Environ(), "GDS_HOME="+home, "LANG=C", "DATABASE_URL=", "SUPABASE_DB_URL=",
		"GDS_DRIVE_ENDPOINT="+drv.URL, "GOOGLE_DRIVE_TARGET_FOLDER_IDS="+top,
		"GDS_AI_PROVIDER=openai", "OPENAI_BASE_URL="+oai.URL, "OPENAI_API_KEY="+key)
	var stderr bytes.Buffer
	gds := func(args ...string) ([]byte, error) {
		stderr.Reset()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			err = fmt.Errorf("%w\n%s", err, stderr.String())
		}
		return out, err
	}
	if out, err := gds("crawl"); err != nil {
		t.Fatalf("crawl: %v\n%s", err, out)
	}
	e.ResetStats()
	out, err := gds("search", "--json", "budget")
	if err != nil {
		t.Fatalf("search: %v\n%s", err, out)
	}
	var doc struct {
		Provider string `json:"provider"`
		End      string `json:"end"`
		State    string `json:"state"`
		Question *struct {
			Text string `json:"text"`
		} `json:"question"`
		Rounds []struct {
			Hits   int    `json:"hits"`
			Branch string `json:"branch"`
		} `json:"rounds"`
		Results []struct {
			ID string `json:"id"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if doc.Provider != "openai" || doc.Question == nil || doc.State == "" || doc.Rounds[0].Branch != "clarify" {
		t.Fatalf("broad search did not ask: %s", out)
	}
	if e.Stats().Calls[driveemu.EndpointList] == 0 {
		t.Errorf("the keyword search did not query Drive: %+v", e.Stats())
	}
	if strings.Contains(string(out), key) {
		t.Error("the API key reached the JSON output")
	}
	out, err = gds("search", "--json", "--state", doc.State, "--answer", "launch")
	if err != nil {
		t.Fatalf("answer: %v\n%s", err, out)
	}
	doc.Results = nil
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.End != "results" || len(doc.Results) != 1 || doc.Results[0].ID != alpha {
		t.Fatalf("after the answer: %s", out)
	}
	// The OpenAI-compatible server did the AI work.
	if n := len(oai.Handler.RequestsTo(openaitest.PathChat)); n == 0 {
		t.Error("no chat request reached the OpenAI-compatible server")
	}

	// Alfred: the full loop asks with items; a free-text answer continues it.
	out, err = gds("alfred", "filter", alfred.Marker+" budget")
	if err != nil {
		t.Fatalf("alfred: %v", err)
	}
	var sf alfred.Output
	if err := json.Unmarshal(out, &sf); err != nil || len(sf.Items) < 2 || sf.Items[0].Valid {
		t.Fatalf("alfred question: %v\n%s", err, out)
	}
	req := alfred.ParseQuery(sf.Items[1].Autocomplete)
	if req.Token == "" {
		t.Fatalf("question item without a state: %+v", sf.Items[1])
	}
	out, err = gds("alfred", "filter", alfred.AnswerText(req.Token, "launch"))
	if err != nil {
		t.Fatalf("alfred answer: %v", err)
	}
	sf = alfred.Output{}
	if err := json.Unmarshal(out, &sf); err != nil || len(sf.Items) != 1 || sf.Items[0].UID != alpha || !sf.Items[0].Valid {
		t.Fatalf("alfred after the answer: %v\n%s", err, out)
	}

	// The interactive terminal: the question is asked at the prompt.
	chats := len(oai.Handler.RequestsTo(openaitest.PathChat))
	s := startPTYEnv(t, bin, home, "C", env[len(os.Environ()):], "search", "budget")
	s.expect(`(?i)too many|files match`)
	s.send("launch\r")
	s.expect(`Project Alpha plan`)
	if code := s.exit(); code != 0 {
		t.Fatalf("interactive search exit %d; screen:\n%s", code, s.screen())
	}
	if len(oai.Handler.RequestsTo(openaitest.PathChat)) == chats {
		t.Error("the interactive search did not use the OpenAI-compatible server")
	}
}
