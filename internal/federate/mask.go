package federate

import (
	"regexp"
	"sync"
)

// maskers are the patterns --debug traces mask (seed R4): tokens of the
// services and the LLM, bearer headers, e-mail addresses and Slack/GitHub
// user IDs. Built on first use.
var maskers = sync.OnceValue(func() []struct {
	re   *regexp.Regexp
	repl string
} {
	return []struct {
		re   *regexp.Regexp
		repl string
	}{
		{regexp.MustCompile(`xox[abcdeprs]-[A-Za-z0-9-]+`), "xox*-***"},
		{regexp.MustCompile(`(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{10,}|github_pat_[A-Za-z0-9_]{10,}`), "gh*_***"},
		{regexp.MustCompile(`sk-[A-Za-z0-9_-]{8,}`), "sk-***"},
		{regexp.MustCompile(`(?i)(bearer|token|authorization)(["':= ]+)[A-Za-z0-9._~+/-]{8,}=*`), "$1$2***"},
		{regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`), "***@***"},
		{regexp.MustCompile(`\b[UW][A-Z0-9]{8,11}\b`), "U***"},
		{regexp.MustCompile(`(?i)("(?:user|user_id|userid|login|author)"\s*:\s*)"[^"]*"`), `$1"***"`},
	}
})

// MaskSecrets masks tokens, e-mail addresses and user IDs in s.
func MaskSecrets(s string) string {
	for _, m := range maskers() {
		s = m.re.ReplaceAllString(s, m.repl)
	}
	return s
}
