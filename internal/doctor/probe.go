package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"howett.net/plist"

	"github.com/gds-cli/gds/internal/redact"
)

// DefaultOpenAIBaseURL is used when OPENAI_BASE_URL is empty.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1"

// ErrKeyRejected is the error of ProbeModels when the server refused the
// API key (HTTP 401 or 403).
var ErrKeyRejected = errors.New("the API key was rejected")

// HTTPModelsProbe checks an OpenAI-compatible server with GET <base>/models,
// the cheapest authenticated call. The API key is sent as a bearer token
// and never appears in errors.
type HTTPModelsProbe struct {
	BaseURL string // "" means DefaultOpenAIBaseURL
	APIKey  string
	Client  *http.Client  // nil: http.DefaultClient
	Timeout time.Duration // 0: 5 s
}

// ProbeModels implements ModelsProber.
func (p HTTPModelsProbe) ProbeModels(ctx context.Context) error {
	base := strings.TrimRight(p.BaseURL, "/")
	if base == "" {
		base = DefaultOpenAIBaseURL
	}
	shown := redact.URLs(base) // the errors name the server, not its credentials
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/models", nil)
	if err != nil {
		return fmt.Errorf("build the request to %s/models: %w", shown, err)
	}
	if p.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.APIKey)
	}
	hc := p.Client
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("GET %s/models: no answer within %s", shown, timeout)
		}
		return fmt.Errorf("GET %s/models: %w", shown, redactKey(err, p.APIKey))
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return fmt.Errorf("GET %s/models: HTTP %d: %w", shown, resp.StatusCode, ErrKeyRejected)
	case resp.StatusCode/100 != 2:
		return fmt.Errorf("GET %s/models: HTTP %d", shown, resp.StatusCode)
	}
	return nil
}

// redactKey removes the key from an error text, should a transport echo it.
func redactKey(err error, key string) error {
	if key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), key, "****"))
}

// AlfredPrefsDirs returns the Alfred preference bundles to search under
// userHome: the synced folder named by Alfred's prefs.json ("current"),
// then the default location.
func AlfredPrefsDirs(userHome string) []string {
	base := filepath.Join(userHome, "Library", "Application Support", "Alfred")
	var dirs []string
	if data, err := os.ReadFile(filepath.Join(base, "prefs.json")); err == nil {
		var p struct {
			Current string `json:"current"`
		}
		if json.Unmarshal(data, &p) == nil && p.Current != "" {
			dirs = append(dirs, p.Current)
		}
	}
	return append(dirs, filepath.Join(base, "Alfred.alfredpreferences"))
}

// FindAlfredWorkflow returns the directory of the installed workflow whose
// info.plist has this bundle ID, searching each preference bundle's
// workflows folder; "" when none has it.
func FindAlfredWorkflow(prefsDirs []string, bundleID string) (string, error) {
	for _, prefs := range prefsDirs {
		matches, err := filepath.Glob(filepath.Join(prefs, "workflows", "*", "info.plist"))
		if err != nil {
			return "", fmt.Errorf("list Alfred workflows in %s: %w", prefs, err)
		}
		for _, m := range matches {
			data, err := os.ReadFile(m)
			if err != nil {
				continue
			}
			var info struct {
				BundleID string `plist:"bundleid"`
			}
			if _, err := plist.Unmarshal(data, &info); err == nil && info.BundleID == bundleID {
				return filepath.Dir(m), nil
			}
		}
	}
	return "", nil
}
