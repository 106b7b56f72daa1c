package config

import (
	"net/url"
	"strings"

	"github.com/gds-cli/gds/internal/redact"
)

// MaskSecret hides a secret for display: long values keep a short prefix
// and the last four characters ("sk-…abcd"), short ones become "****", and
// an empty value stays empty.
func MaskSecret(s string) string {
	switch {
	case s == "":
		return ""
	case len(s) < 16:
		return "****"
	default:
		return s[:3] + "…" + s[len(s)-4:]
	}
}

// MaskURL hides the credentials of a URL or connection string for
// display (redact.URLs: a URL's userinfo — "https://user:****@host",
// "https://****@host" —, secret query parameters, a Postgres key=value
// password), and, in a value without "://", a "user:password@" prefix.
// Every URL gds shows — settings, checks, errors — goes through it or
// through redact.URLs, which apperr applies to every error message.
func MaskURL(s string) string {
	s = redact.URLs(s)
	if at := strings.LastIndexByte(s, '@'); at > 0 && !strings.Contains(s, "://") && !strings.ContainsAny(s[:at], " \t=/") && strings.Contains(s[:at], ":") {
		name, _, _ := strings.Cut(s[:at], ":")
		s = name + ":" + redact.Mask + s[at:]
	}
	return s
}

// validateDatabaseURL checks a Postgres connection URL.
func validateDatabaseURL(name, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return &Error{Var: name, Value: MaskURL(raw), Problem: "config.problem.bad_db_url", Fix: "config.fix.db_url"}
	}
	if u.Scheme != "postgres" && u.Scheme != "postgresql" {
		return &Error{Var: name, Value: MaskURL(raw), Problem: "config.problem.db_scheme", Fix: "config.fix.db_url"}
	}
	if u.Host == "" && u.Query().Get("host") == "" {
		return &Error{Var: name, Value: MaskURL(raw), Problem: "config.problem.db_host", Fix: "config.fix.db_url"}
	}
	return nil
}

// httpURLSetting validates an optional http(s) URL setting.
func httpURLSetting(name, raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", &Error{Var: name, Value: MaskURL(raw), Problem: "config.problem.bad_http_url", Fix: "config.fix.http_url"}
	}
	return raw, nil
}
