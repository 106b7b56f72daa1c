package ai

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDoesNotLinkTheTokenizer keeps the tokenizer (several MB of compiled-in
// vocabulary) out of every binary that imports package ai, the Alfred
// keystroke path among them: token counting lives in internal/ai/tokens.
func TestDoesNotLinkTheTokenizer(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/gds-cli/gds/internal/ai") {
		t.Fatalf("go list did not list the package itself: %q", deps)
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/tiktoken-go/") || d == "github.com/gds-cli/gds/internal/ai/tokens" {
			t.Errorf("package ai depends on %s", d)
		}
	}
}
