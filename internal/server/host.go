package server

import (
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/gds-cli/gds/internal/apperr"
)

// HostPolicy decides which Host headers the server answers, so a web page
// that rebinds its own name to 127.0.0.1 (DNS rebinding) cannot use a
// server on the user's machine: the browser sends that page's name as the
// Host, and only names the server is known by are answered.
//
// Allowed, whatever the port:
//   - "localhost" (always: every system resolves it from its hosts file);
//   - the host of the bound address (an IP literal or a name);
//   - 127.0.0.1 and ::1 when bound to loopback ("localhost" or a loopback
//     IP) or to every interface;
//   - any IP literal when bound to every interface (0.0.0.0, ::, or no
//     host): LAN clients reach the server by one of the machine's
//     addresses, which change with the network, and an IP literal cannot be
//     rebound (the attack needs a name the attacker's DNS answers);
//   - the names given with --allow-host / GDS_SERVE_ALLOW_HOSTS ("*.NAME"
//     allows every name under NAME, not NAME itself).
//
// "*.localhost" is not allowed by default: RFC 6761 lets resolvers answer
// it locally, but not every resolver does, and one that asks the network
// can be lied to; add it with --allow-host '*.localhost' when needed.
type HostPolicy struct {
	names    map[string]bool // canonical names and IP literals
	suffixes []string        // ".example.com" for "*.example.com"
	anyIP    bool
}

// NewHostPolicy is the policy of a server bound to addr (HOST:PORT) that
// also answers the names in allow. Entries of allow that are not host
// names (CheckAllowHosts refuses them) are left out: they could match no
// Host anyway.
func NewHostPolicy(addr string, allow []string) HostPolicy {
	p := HostPolicy{names: map[string]bool{"localhost": true}}
	loopback := func() { p.names["127.0.0.1"], p.names["::1"] = true, true }
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	switch h, ok := canonicalHost(host); {
	case host == "":
		loopback()
		p.anyIP = true
	case !ok:
	case h == "localhost":
		loopback()
	default:
		p.names[h] = true
		if ip := net.ParseIP(h); ip != nil && ip.IsUnspecified() {
			loopback()
			p.anyIP = true
		} else if ip != nil && ip.IsLoopback() {
			loopback()
		}
	}
	for _, a := range allow {
		if name, wild, ok := allowEntry(a); ok && wild {
			p.suffixes = append(p.suffixes, "."+name)
		} else if ok {
			p.names[name] = true
		}
	}
	return p
}

// Allows reports whether the server answers a request whose Host header
// is hostport ("name", "name:port", "[v6]" or "[v6]:port"). An empty or
// malformed Host is refused.
func (p HostPolicy) Allows(hostport string) bool {
	host, ok := splitHostHeader(hostport)
	if !ok {
		return false
	}
	h, ok := canonicalHost(host)
	if !ok {
		return false
	}
	if p.names[h] {
		return true
	}
	if p.anyIP && net.ParseIP(h) != nil {
		return true
	}
	for _, s := range p.suffixes {
		if strings.HasSuffix(h, s) {
			return true
		}
	}
	return false
}

// splitHostHeader is the host of a Host header value without its port
// (an IPv6 literal without its brackets); false when the value is empty
// or not HOST, HOST:PORT, [IPv6] or [IPv6]:PORT.
func splitHostHeader(v string) (string, bool) {
	host, rest := v, ""
	if strings.HasPrefix(v, "[") {
		end := strings.IndexByte(v, ']')
		if end < 0 || !strings.Contains(v[:end], ":") {
			return "", false
		}
		host, rest = v[1:end], v[end+1:]
	} else if i := strings.IndexByte(v, ':'); i >= 0 {
		host, rest = v[:i], v[i:]
	}
	if rest != "" {
		port, ok := strings.CutPrefix(rest, ":")
		if !ok || port == "" || len(port) > 5 || strings.Trim(port, "0123456789") != "" {
			return "", false
		}
		if n, _ := strconv.Atoi(port); n > 65535 {
			return "", false
		}
	}
	return host, host != ""
}

// canonicalHost is host lower-cased without one trailing dot, an IP
// literal in its canonical form (brackets dropped); false when host is
// neither an IP literal nor a DNS name (letters, digits, '-', '_', '.').
func canonicalHost(host string) (string, bool) {
	if ip := net.ParseIP(host); ip != nil {
		return ip.String(), true
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" || len(host) > 253 {
		return "", false
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 {
			return "", false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return "", false
			}
		}
	}
	return host, true
}

// allowEntry is one --allow-host value: a name or IP literal (a port, if
// given, is ignored), or "*.NAME" (wild). false when it is neither.
func allowEntry(v string) (name string, wild, ok bool) {
	v = strings.TrimSpace(v)
	if rest, found := strings.CutPrefix(v, "*."); found {
		wild, v = true, rest
	}
	host, ok := splitHostHeader(v)
	if !ok {
		return "", false, false
	}
	name, ok = canonicalHost(host)
	if ok && wild && net.ParseIP(name) != nil {
		return "", false, false // "*.127.0.0.1" names nothing
	}
	return name, wild, ok
}

// CheckAllowHosts refuses an --allow-host value that is not a host name,
// an IP literal or "*.NAME" (a URL, a path, a bare "*").
func CheckAllowHosts(names []string) error {
	for _, n := range names {
		if _, _, ok := allowEntry(n); !ok {
			return apperr.L(apperr.Usage, "serve.bad_allow_host", shorten(n, maxShownValue))
		}
	}
	return nil
}

// withHost answers a request whose Host the policy does not allow with 421
// Misdirected Request: this server is not the one that name belongs to.
// It runs before everything else that answers (the landing page, CORS
// preflights, the API, the UI and its files, /health).
func withHost(p HostPolicy, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.Allows(r.Host) {
			next.ServeHTTP(w, r)
			return
		}
		pr := httpProblem(apperr.L(apperr.Usage, "serve.foreign_host", shorten(r.Host, maxShownValue)), langOf(r.Context()))
		pr.Status, pr.Title = http.StatusMisdirectedRequest, http.StatusText(http.StatusMisdirectedRequest)
		writeProblem(w, &Problem{Problem: pr})
	})
}
