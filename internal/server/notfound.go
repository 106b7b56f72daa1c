package server

import (
	"net/http"
	"strings"
)

// routeMethods are the methods the API's routes use.
var routeMethods = []string{http.MethodGet, http.MethodPost, http.MethodDelete}

// exactRoot answers a request no route takes with a problem: 404 when no
// route has its path, 405 with an Allow header when routes have it for
// other methods. The root operation's pattern "GET /" is, for
// http.ServeMux, a catch-all: without this, GET /api/v1/anything answered
// 200 with the root document and POST /api/v1/anything a plain-text 405.
func exactRoot(mux *http.ServeMux) http.Handler {
	routed := func(r *http.Request) bool {
		_, pattern := mux.Handler(r)
		return pattern != "" && (pattern != "GET /" || r.URL.Path == "/")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if routed(r) {
			mux.ServeHTTP(w, r)
			return
		}
		var allow []string
		for _, m := range routeMethods {
			if m == r.Method {
				continue
			}
			probe := r.Clone(r.Context())
			probe.Method = m
			if routed(probe) {
				allow = append(allow, m)
			}
		}
		if len(allow) == 0 {
			writeProblem(w, newHumaError(r.Context(), http.StatusNotFound, "").(*Problem))
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeProblem(w, newHumaError(r.Context(), http.StatusMethodNotAllowed, "").(*Problem))
	})
}
