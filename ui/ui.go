package ui

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed static
var static embed.FS

// Prefix is the path the explorer is served under.
const Prefix = "/ui"

// securityHeaders keep the pages to their own files and their own origin: no script,
// style or connection elsewhere, no framing.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy":        "no-referrer",
	"Cache-Control":          "no-cache",
}

// Handler serves the explorer's files for GET and HEAD requests whose path is Prefix
// (redirected to Prefix + "/") or under Prefix + "/".
func Handler() http.Handler {
	files, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded directory is part of the build
	}
	fileServer := http.StripPrefix(Prefix, http.FileServerFS(files))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == Prefix:
			http.Redirect(w, r, Prefix+"/", http.StatusMovedPermanently)
		case strings.HasPrefix(r.URL.Path, Prefix+"/"):
			for k, v := range securityHeaders {
				w.Header().Set(k, v)
			}
			fileServer.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})
}
