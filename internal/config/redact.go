package config

import (
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/gds-cli/gds/internal/redact"
)

// credentialShapes are credentials recognisable by their form: OpenAI keys,
// Google access and refresh tokens, Google OAuth client secrets and API
// keys, bearer headers, and passwords in connection URLs. Compiled on first
// use (a panic report), not before main.
var credentialShapes = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`sk-[A-Za-z0-9_-]{16,}`),
		regexp.MustCompile(`ya29\.[A-Za-z0-9._-]{10,}`),
		regexp.MustCompile(`1//0[A-Za-z0-9_-]{10,}`),
		regexp.MustCompile(`GOCSPX-[A-Za-z0-9_-]{10,}`),
		regexp.MustCompile(`AIza[0-9A-Za-z_-]{30,}`),
		regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}`),
	}
})

// urlPassword is the password part of a URL's userinfo.
var urlPassword = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\s]+:)[^@\s]+@`)
})

// Redact removes from s every secret of cfg (the OpenAI key, the
// OAuth client secret, the database URL's password) and anything shaped
// like a credential. It is for text gds did not write itself, such as a
// panic value, before that text is shown.
func Redact(cfg *Config, s string) string {
	if cfg != nil {
		if cfg.DatabaseURL != "" {
			s = strings.ReplaceAll(s, cfg.DatabaseURL, MaskURL(cfg.DatabaseURL))
			// The password as written (percent-encoded) and as decoded.
			var pw []string
			if m := urlPassword().FindStringSubmatch(cfg.DatabaseURL); m != nil {
				pw = append(pw, strings.TrimSuffix(strings.TrimPrefix(m[0], m[1]), "@"))
			}
			if u, err := url.Parse(cfg.DatabaseURL); err == nil && u.User != nil {
				if p, ok := u.User.Password(); ok {
					pw = append(pw, p)
				}
			}
			for _, p := range pw {
				if len(p) >= 4 {
					s = strings.ReplaceAll(s, p, "****")
				}
			}
		}
		for _, v := range []string{cfg.OpenAIAPIKey, cfg.OAuthClientSecret} {
			if len(v) >= 4 {
				s = strings.ReplaceAll(s, v, "****")
			}
		}
	}
	s = redact.URLs(s)
	for _, re := range credentialShapes() {
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			if sub := re.FindStringSubmatch(m); len(sub) > 1 {
				return sub[1] + "****"
			}
			return "****"
		})
	}
	return s
}
