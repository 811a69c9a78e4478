package api

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/realm-memory/realm"
)

// probedMethods are the methods a 405's Allow header may list.
var probedMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// methodNotAllowed answers a known path asked with a method it does not serve: 405
// method_not_allowed, with the methods it does serve in Allow (RFC 9110 §15.5.6). chi
// does not hand a custom handler its list, so the routes are asked again, one method at
// a time (only on this error path).
func methodNotAllowed(routes chi.Routes) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range probedMethods {
			if routes.Match(chi.NewRouteContext(), m, r.URL.Path) {
				allow = append(allow, m)
			}
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, r, realm.Errorf(realm.EMethodNotAllowed, "method %s is not allowed here; allowed: %s",
			r.Method, strings.Join(allow, ", ")))
	}
}
