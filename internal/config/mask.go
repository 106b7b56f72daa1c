package config

import (
	"net/url"
	"strings"
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

// MaskURL hides the password of a URL (userinfo and password=... query
// parameters). A string that does not parse as a URL keeps only its scheme.
func MaskURL(s string) string {
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil {
		if i := strings.Index(s, "://"); i >= 0 {
			return s[:i+3] + "****"
		}
		return "****"
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	q := u.Query()
	masked := false
	for k := range q {
		lk := strings.ToLower(k)
		if lk == "password" || lk == "sslpassword" || strings.Contains(lk, "secret") || strings.Contains(lk, "token") || lk == "key" || lk == "api_key" {
			q.Set(k, "xxxxx")
			masked = true
		}
	}
	if masked {
		u.RawQuery = q.Encode()
	}
	return strings.ReplaceAll(u.String(), "xxxxx", "****")
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
