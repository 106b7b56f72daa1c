package server

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// web holds the pages the server serves besides the API, all embedded so
// the binary needs no CDN and no network:
//
//	web/ui/      the web UI at /ui/ (plain HTML, CSS and JavaScript)
//	web/static/  /docs (Swagger UI) and /redoc (ReDoc) pages and their
//	             scripts, and vendor/ with the third-party bundles that
//	             scripts/web-assets.sh copies from npm (with their licenses)
//
//go:embed web
var web embed.FS

// Paths of the pages.
const (
	uiPath     = "/ui/"
	docsPath   = "/docs"
	redocPath  = "/redoc"
	staticPath = "/static/"
	specPath   = "/openapi.json"
)

// pagePolicy is the Content-Security-Policy of every page: scripts, styles,
// fonts and connections from this server only (ReDoc's search worker runs
// from a blob:, and Swagger UI and ReDoc set inline styles), so no page can
// load anything from a CDN or report anywhere.
const pagePolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// registerWeb adds the UI, the API reference pages and their files.
func (s *Server) registerWeb() {
	ui := mustSub(web, "web/ui")
	static := mustSub(web, "web/static")
	s.mux.Handle("GET "+uiPath, http.StripPrefix(uiPath, fileHandler(ui, "no-cache")))
	s.mux.Handle("GET "+staticPath, http.StripPrefix(staticPath, fileHandler(static, "no-cache")))
	s.mux.Handle("GET "+docsPath, pageHandler(static, "docs.html"))
	s.mux.Handle("GET "+redocPath, pageHandler(static, "redoc.html"))
}

func mustSub(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

// embeddedFile is one embedded file with its ETag (embedded files have no
// modification time, so a content hash lets browsers revalidate cheaply).
type embeddedFile struct {
	body []byte
	etag string
}

var fileCache sync.Map // fs.FS+name -> *embeddedFile

type cacheKey struct {
	fsys fs.FS
	name string
}

func loadFile(fsys fs.FS, name string) (*embeddedFile, bool) {
	k := cacheKey{fsys, name}
	if f, ok := fileCache.Load(k); ok {
		return f.(*embeddedFile), true
	}
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, false
	}
	sum := sha256.Sum256(b)
	f := &embeddedFile{body: b, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
	fileCache.Store(k, f)
	return f, true
}

// serveFile writes an embedded file with its type, ETag and the page
// policy; a matching If-None-Match gets 304.
func serveFile(w http.ResponseWriter, r *http.Request, fsys fs.FS, name, cache string) {
	f, ok := loadFile(fsys, name)
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("ETag", f.etag)
	h.Set("Cache-Control", cache)
	h.Set("Content-Security-Policy", pagePolicy)
	h.Set("Referrer-Policy", "no-referrer")
	if ct := contentType(name); ct != "" {
		h.Set("Content-Type", ct)
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.body))
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".png":
		return "image/png"
	case ".svg":
		return "image/svg+xml"
	case ".txt", "":
		return "text/plain; charset=utf-8"
	}
	return ""
}

// fileHandler serves the files of fsys; a directory is served only as its
// index.html (no listings).
func fileHandler(fsys fs.FS, cache string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" || strings.HasSuffix(r.URL.Path, "/") {
			name = path.Join(name, "index.html")
		}
		if st, err := fs.Stat(fsys, name); err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		serveFile(w, r, fsys, name, cache)
	})
}

// pageHandler serves one page of fsys.
func pageHandler(fsys fs.FS, name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveFile(w, r, fsys, name, "no-cache")
	})
}

// wantsHTML reports whether a request for / comes from a browser (which
// gets the landing page) rather than an API client (which gets JSON).
func wantsHTML(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.Path == "/" && strings.Contains(r.Header.Get("Accept"), "text/html")
}

var landingTemplate = template.Must(template.New("landing").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="stylesheet" href="/ui/style.css">
</head>
<body class="landing">
<main>
<h1>{{.Title}}</h1>
<p>{{.Message}} <span class="muted">{{.Version}}</span></p>
<ul>
<li><a href="/ui/">{{.UI}}</a></li>
<li><a href="/docs">{{.Docs}}</a></li>
<li><a href="/redoc">{{.Redoc}}</a></li>
<li><a href="/openapi.json">{{.Spec}}</a></li>
<li><a href="/health">/health</a></li>
</ul>
</main>
</body>
</html>
`))

// withLanding answers a browser's GET / with a page linking the UI and the
// API reference; API clients keep getting the JSON of the root operation.
func (s *Server) withLanding(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !wantsHTML(r) {
			next.ServeHTTP(w, r)
			return
		}
		lang := langOf(r.Context())
		t := func(k i18n.Key) string { return i18n.T(lang, k) }
		var b bytes.Buffer
		err := landingTemplate.Execute(&b, map[string]string{
			"Lang": lang, "Title": t("serve.landing_title"), "Message": t("serve.root_message"), "Version": s.opts.Version,
			"UI": t("serve.landing_ui"), "Docs": t("serve.landing_docs"), "Redoc": t("serve.landing_redoc"), "Spec": t("serve.landing_spec"),
		})
		if err != nil {
			panic(err) // a fixed template over strings
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", pagePolicy)
		h.Set("Cache-Control", "no-cache")
		h.Set("Vary", "Accept, Accept-Language")
		_, _ = io.Copy(w, &b)
	})
}

// withSameOrigin refuses state-changing requests (POST, DELETE) that a
// browser sends from another site — a page elsewhere must not upload,
// delete or ask through a server on the user's loopback — except from the
// --cors-origin origin. Clients that send neither Sec-Fetch-Site nor Origin
// (curl, scripts) are not browsers and pass.
func withSameOrigin(corsOrigin string, next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	if corsOrigin != "" {
		_ = cop.AddTrustedOrigin(corsOrigin) // an origin that does not parse matches no request either
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := httpProblem(apperr.L(apperr.Usage, "serve.cross_origin"), langOf(r.Context()))
		p.Status, p.Title = http.StatusForbidden, http.StatusText(http.StatusForbidden)
		writeProblem(w, &Problem{Problem: p})
	}))
	return cop.Handler(next)
}
