// Package redact hides the credentials that URLs and connection strings
// carry, wherever they appear in a text gds shows: a setting's value, an
// error message, a check's detail. It is pure and small (no regexp, no
// net/url) so that apperr, which every front end's error text goes
// through, can use it, and the front binary can link it.
package redact

import "strings"

// Mask replaces a hidden part.
const Mask = "****"

// URLs returns s with the credentials of every URL and connection string
// in it masked:
//
//   - a URL's userinfo: "https://user:****@host/" for a password, and
//     "https://****@host/" for a lone name (often a token), except in a
//     postgres:// or postgresql:// URL, where a lone name is the role;
//   - query parameters that carry secrets (password, sslpassword, key,
//     api_key, apikey, sig, and any name holding "token", "secret" or
//     "password"): "?sslmode=require&password=****";
//   - in a Postgres key=value string, password and sslpassword:
//     "host=db user=gds password=****".
//
// Everything else is kept byte for byte; masking a masked text changes
// nothing.
func URLs(s string) string {
	if !strings.Contains(s, "://") && !strings.Contains(s, "=") {
		return s
	}
	s = userinfo(s)
	s = params(s)
	return keyValues(s)
}

// userinfo masks the userinfo of every "scheme://userinfo@host".
func userinfo(s string) string {
	var b strings.Builder
	rest := s
	for {
		i := strings.Index(rest, "://")
		if i < 0 {
			break
		}
		start := i + 3
		end := start
		for end < len(rest) && !authorityEnd(rest[end]) {
			end++
		}
		at := strings.LastIndexByte(rest[start:end], '@')
		if at < 0 {
			b.WriteString(rest[:end])
			rest = rest[end:]
			continue
		}
		info := rest[start : start+at]
		b.WriteString(rest[:start])
		switch name, _, hasPass := strings.Cut(info, ":"); {
		case hasPass:
			b.WriteString(name + ":" + Mask)
		case isPostgres(scheme(rest[:i])):
			b.WriteString(info)
		default:
			b.WriteString(Mask)
		}
		b.WriteByte('@')
		rest = rest[start+at+1:]
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(rest)
	return b.String()
}

// authorityEnd ends a URL's authority (and a URL in running text).
func authorityEnd(c byte) bool {
	switch c {
	case '/', '?', '#', ' ', '\t', '\n', '\r', '"', '\'', '<', '>', '`':
		return true
	}
	return false
}

// scheme is the URL scheme that ends s ("" if none).
func scheme(s string) string {
	i := len(s)
	for i > 0 && isSchemeChar(s[i-1]) {
		i--
	}
	return strings.ToLower(s[i:])
}

func isSchemeChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}

func isPostgres(scheme string) bool { return scheme == "postgres" || scheme == "postgresql" }

// params masks the values of secret query parameters ("?name=value" and
// "&name=value").
func params(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '?' && s[i] != '&' {
			continue
		}
		j := i + 1
		for j < len(s) && isNameChar(s[j]) {
			j++
		}
		if j == i+1 || j >= len(s) || s[j] != '=' || !secretParam(s[i+1:j]) {
			continue
		}
		k := j + 1
		for k < len(s) && !valueEnd(s[k]) {
			k++
		}
		b.WriteString(s[last : j+1])
		b.WriteString(Mask)
		last, i = k, k-1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// valueEnd ends a query parameter's value.
func valueEnd(c byte) bool {
	switch c {
	case '&', '#', ' ', '\t', '\n', '\r', '"', '\'', '<', '>', '`':
		return true
	}
	return false
}

// secretParam tells the query parameters whose values are secrets.
func secretParam(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "key", "api_key", "apikey", "api-key", "sig", "signature", "sslpassword", "pass", "pwd":
		return true
	}
	return strings.Contains(n, "token") || strings.Contains(n, "secret") || strings.Contains(n, "password")
}

// keyValues masks password and sslpassword in Postgres key=value strings
// ("password = 'it\\'s'" and "password=x"), where the key is a word of its
// own. An unquoted value runs to the next blank: a password may hold any
// other character.
func keyValues(s string) string {
	var b strings.Builder
	last := 0
	lower := asciiLower(s) // byte for byte, so indexes match s
	for i := 0; i < len(s); {
		j := strings.Index(lower[i:], "password")
		if j < 0 {
			break
		}
		k := i + j // the key's "password"
		keyStart := k
		if keyStart >= 3 && lower[keyStart-3:keyStart] == "ssl" {
			keyStart -= 3
		}
		next := k + len("password")
		if keyStart > 0 && isNameChar(s[keyStart-1]) {
			i = next
			continue
		}
		v := next
		for v < len(s) && isBlank(s[v]) {
			v++
		}
		if v >= len(s) || s[v] != '=' {
			i = next
			continue
		}
		v++
		for v < len(s) && (s[v] == ' ' || s[v] == '\t') {
			v++
		}
		end := v
		if end < len(s) && s[end] == '\'' {
			end++ // libpq: a quoted value, \' and \\ escaped
			for end < len(s) && s[end] != '\'' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			end = min(end+1, len(s))
		} else {
			for end < len(s) && !isBlank(s[end]) {
				end++
			}
		}
		if strings.HasPrefix(s[v:], Mask) {
			i = next // masked already
			continue
		}
		b.WriteString(s[last:v])
		b.WriteString(Mask)
		last, i = end, max(end, next)
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// asciiLower lowers A-Z only: strings.ToLower would change the length of
// invalid UTF-8.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
