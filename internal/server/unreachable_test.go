package server_test

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/server"
)

// With an OpenAI key set and the server unreachable, the API's error
// (problem+json) names the offline provider in its hint, as the CLI does.
func TestUnreachableAIProblemNamesTheOfflineProvider(t *testing.T) {
	e := newEnv(t, false, server.Options{Version: "1"})
	e.upload("seed.md", []byte("# Seed\n\nThe harbour lighthouse was painted red in spring."), http.StatusCreated)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	vars := map[string]string{"GDS_HOME": e.cfg.Home, "GDS_AI_PROVIDER": "openai", "OPENAI_API_KEY": "sk-test-unreachable", "OPENAI_BASE_URL": dead}
	cfg, err := config.Load(config.LoadOptions{LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, HomeDir: e.cfg.Home})
	if err != nil {
		t.Fatal(err)
	}
	down := startEnv(t, cfg, server.Options{Version: "1"})
	var p apperr.Problem
	down.json("POST", "/api/v1/search", map[string]any{"query": "lighthouse"}, http.StatusServiceUnavailable, &p)
	if p.Code != "unavailable" || !strings.Contains(p.Hint, "GDS_AI_PROVIDER=offline") {
		t.Errorf("problem %+v", p)
	}
}
