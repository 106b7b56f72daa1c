package server

import "net/http"

// exactRoot answers 404 (a problem) for a path no route has. The root
// operation's pattern "GET /" is, for http.ServeMux, a catch-all: without
// this, GET /api/v1/anything answered 200 with the root document.
func exactRoot(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern == "GET /" && r.URL.Path != "/" {
			writeProblem(w, newHumaError(r.Context(), http.StatusNotFound, "").(*Problem))
			return
		}
		mux.ServeHTTP(w, r)
	})
}
