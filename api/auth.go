package api

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
)

// Scope is what a key may do in its spaces: read (recall, list, inspect), write
// (remember, forget a memory, feedback, revert) or admin (everything, and erasing a
// whole space).
type Scope string

const (
	ScopeRead  Scope = "read"
	ScopeWrite Scope = "write"
	ScopeAdmin Scope = "admin"
)

// MinKeyLen is the shortest secret accepted in a key file: keys are bearer secrets.
const MinKeyLen = 16

// MinKeyDistinct is the fewest different bytes a secret in a key file may hold: a
// secret like "aaaaaaaaaaaaaaaa" or "abababababababab" is guessed at once, whatever its
// length; a random one of 16 bytes or more holds far more.
const MinKeyDistinct = 8

// distinctBytes counts the different bytes of s.
func distinctBytes(s string) int {
	var seen [256]bool
	n := 0
	for i := 0; i < len(s); i++ {
		if !seen[s[i]] {
			seen[s[i]] = true
			n++
		}
	}
	return n
}

// Key is one API key as the server keeps it: the SHA-256 of the secret, never the secret.
type Key struct {
	Name   string
	Hash   [sha256.Size]byte
	Scopes []Scope
	Spaces []string // glob patterns (path.Match): "alice", "team-a-*", "*"
}

// allows reports whether space matches one of the key's patterns.
func (k *Key) allows(space string) bool {
	for _, p := range k.Spaces {
		if ok, _ := path.Match(p, space); ok {
			return true
		}
	}
	return false
}

// prefixes are the literal beginnings of the key's patterns (up to the first of
// `*?[\`): every space the key allows starts with one of them; [""] when one
// pattern begins with a wildcard.
func (k *Key) prefixes() []string {
	out := []string{}
	for _, p := range k.Spaces {
		lit := p
		if i := strings.IndexAny(p, `*?[\`); i >= 0 {
			lit = p[:i]
		}
		if lit == "" {
			return []string{""}
		}
		out = append(out, lit)
	}
	return out
}

// everySpace reports whether the key reaches every space, those of every tenant: its
// patterns hold "*".
func (k *Key) everySpace() bool {
	return slices.Contains(k.Spaces, "*")
}

// has reports whether the key has scope s; admin has every scope.
func (k *Key) has(s Scope) bool {
	return slices.Contains(k.Scopes, s) || slices.Contains(k.Scopes, ScopeAdmin)
}

// localKey is who calls when no key is configured; the server then listens on loopback only.
var localKey = &Key{Name: "local", Scopes: []Scope{ScopeAdmin}, Spaces: []string{"*"}}

// ParseKeys reads API keys, one per line (or separated by ';'), blank lines and
// '#' comments ignored:
//
//	name  secret-or-sha256:HEX  scopes  spaces
//	alice sk-alice-0123456789abcdef read,write alice,alice-*
//	ops   sha256:5e8848…42d8 admin *
//
// A secret is at least MinKeyLen bytes, MinKeyDistinct of them different; "sha256:" and 64 hex digits give its hash
// instead, so a key file need not hold secrets. Scopes are read, write and admin; spaces
// are glob patterns over space ids. source names the input in errors, which never
// repeat a secret.
func ParseKeys(source, text string) ([]Key, error) {
	var keys []Key
	names := map[string]bool{}
	hashes := map[[sha256.Size]byte]bool{}
	sc := bufio.NewScanner(strings.NewReader(strings.ReplaceAll(text, ";", "\n")))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return realm.Errorf(realm.EInvalid, "%s entry %d: %s", source, n, fmt.Sprintf(format, args...))
		}
		if len(fields) != 4 {
			return nil, bad("want 4 fields (name key scopes spaces), got %d", len(fields))
		}
		k := Key{Name: fields[0]}
		if names[k.Name] {
			return nil, bad("the name %q is used twice", k.Name)
		}
		if hexHash, ok := strings.CutPrefix(fields[1], "sha256:"); ok {
			b, err := hex.DecodeString(hexHash)
			if err != nil || len(b) != sha256.Size {
				return nil, bad("key %q: sha256: wants 64 hex digits", k.Name)
			}
			copy(k.Hash[:], b)
		} else {
			if len(fields[1]) < MinKeyLen {
				return nil, bad("key %q is shorter than %d bytes", k.Name, MinKeyLen)
			}
			if n := distinctBytes(fields[1]); n < MinKeyDistinct {
				return nil, bad("key %q repeats too few characters (%d different, at least %d wanted): choose a random secret, e.g. `openssl rand -hex 24`", k.Name, n, MinKeyDistinct)
			}
			k.Hash = sha256.Sum256([]byte(fields[1]))
		}
		if hashes[k.Hash] {
			return nil, bad("key %q repeats another key's secret", k.Name)
		}
		for _, s := range strings.Split(fields[2], ",") {
			switch scope := Scope(s); scope {
			case ScopeRead, ScopeWrite, ScopeAdmin:
				k.Scopes = append(k.Scopes, scope)
			default:
				return nil, bad("key %q: scope %q is not read, write or admin", k.Name, s)
			}
		}
		for _, p := range strings.Split(fields[3], ",") {
			if _, err := path.Match(p, ""); err != nil || p == "" {
				return nil, bad("key %q: %q is not a glob pattern of space ids", k.Name, p)
			}
			if !matchesSomeSpace(p) {
				return nil, bad("key %q: the pattern %q matches no space id (letters, digits, - and _, 1 to 64 of them)", k.Name, p)
			}
			k.Spaces = append(k.Spaces, p)
		}
		names[k.Name], hashes[k.Hash] = true, true
		keys = append(keys, k)
	}
	return keys, nil
}

// spaceIDChars are the characters of a space id (realm.ValidSpace).
const spaceIDChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"

// matchesSomeSpace reports whether the glob pattern p (a valid one) matches some space id.
// It builds the shortest name p matches, each wildcard or class taken by a character of
// a space id where one fits: that name is a space id unless p asks for a character no
// space id holds ("ana@example.com") or more of them than one holds.
func matchesSomeSpace(p string) bool {
	var name strings.Builder
	star := false
	for p != "" {
		switch p[0] {
		case '*':
			star = true
			p = p[1:]
		case '?':
			name.WriteByte('a')
			p = p[1:]
		case '\\':
			name.WriteByte(p[1])
			p = p[2:]
		case '[':
			// The class ends at its shortest prefix that is a valid pattern.
			end := 2
			for _, err := path.Match(p[:end], ""); err != nil; _, err = path.Match(p[:end], "") {
				end++
			}
			class := p[:end]
			i := strings.IndexFunc(spaceIDChars, func(c rune) bool {
				ok, _ := path.Match(class, string(c))
				return ok
			})
			if i < 0 {
				return false
			}
			name.WriteByte(spaceIDChars[i])
			p = p[end:]
		default:
			name.WriteByte(p[0])
			p = p[1:]
		}
	}
	if name.Len() == 0 && star { // "*": a space id is not empty
		name.WriteByte('a')
	}
	return realm.ValidSpace(name.String())
}

// LoosePrefixes are the warnings of the keys' patterns that end a literal prefix without a
// separator, one a pattern: "alice*" also reaches another tenant's "alicebob".
func LoosePrefixes(keys []Key) []string {
	var out []string
	for _, k := range keys {
		for _, p := range k.Spaces {
			prefix, wild := strings.CutSuffix(p, "*")
			if wild && prefix != "" && !strings.ContainsAny(prefix, `*?[\`) && !strings.ContainsAny(prefix[len(prefix)-1:], "-_") {
				out = append(out, fmt.Sprintf("API key %q: the pattern %q also matches spaces whose ids merely begin with %q (%sbob): end the prefix with - or _ (%s-*)",
					k.Name, p, prefix, prefix, prefix))
			}
		}
	}
	return out
}

type keyCtx struct{}

// keyOf is the key that authenticated the request.
func keyOf(ctx context.Context) *Key {
	k, _ := ctx.Value(keyCtx{}).(*Key)
	if k == nil {
		return &Key{} // no scope, no space: a route outside authenticate refuses everything
	}
	return k
}

// authenticate finds the key of the request's bearer token and names it in the
// request's logs; a missing or unknown token is 401. Without configured keys every
// request is the local admin. A client address that sent too many missing or unknown
// tokens gets 429 for the next ones until its bucket (ratelimit.go) has a token again; a
// valid key always passes (behind a shared proxy or NAT, one client's wrong key must not
// lock the others out), and loopback is not limited (clientAddr).
func (s *server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := localKey
		if len(s.cfg.Keys) > 0 {
			key = s.findKey(r.Header.Get("Authorization"))
			if key == nil {
				if addr, limited := clientAddr(r); limited {
					now := time.Now()
					if s.authThrottled(w, r, s.failures.get(addr, now).take(now)) {
						return
					}
				}
				w.Header().Set("WWW-Authenticate", `Bearer realm="realm"`)
				writeError(w, r, realm.Errorf(realm.EUnauthorized, "a valid API key is required: Authorization: Bearer <key>"))
				return
			}
		}
		zerolog.Ctx(r.Context()).UpdateContext(func(c zerolog.Context) zerolog.Context {
			return c.Str("key", key.Name)
		})
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyCtx{}, key)))
	})
}

// findKey returns the key whose hash is the token's, comparing with every key in
// constant time, or nil.
func (s *server) findKey(header string) *Key {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return nil
	}
	h := sha256.Sum256([]byte(strings.TrimSpace(token)))
	var found *Key
	for i := range s.cfg.Keys {
		if subtle.ConstantTimeCompare(h[:], s.cfg.Keys[i].Hash[:]) == 1 {
			found = &s.cfg.Keys[i]
		}
	}
	return found
}

// spaceAccess answers 404 for a space outside the key's patterns, exactly as for a
// space that does not exist, so that a key cannot probe for other tenants' spaces.
func spaceAccess(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := keyOf(r.Context()).spaceErr(chi.URLParam(r, "space")); err != nil {
			writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// spaceErr is spaceAccess's check: ENotFound for a space outside the key's patterns.
func (k *Key) spaceErr(space string) error {
	if !k.allows(space) {
		return spaceNotFound(space)
	}
	return nil
}

// scopeErr is need's check: EForbidden for a key without scope s.
func (k *Key) scopeErr(s Scope) error {
	if !k.has(s) {
		return realm.Errorf(realm.EForbidden, "this API key lacks the %s scope", s)
	}
	return nil
}

// authorize runs the checks of a /v1/spaces/{space} route in the order of its
// middlewares (validSpace, spaceAccess, need) for callers that are not routes: the
// MCP tools (mcp.go).
func (k *Key) authorize(space string, s Scope) error {
	if err := spaceIDErr(space); err != nil {
		return err
	}
	if err := k.spaceErr(space); err != nil {
		return err
	}
	return k.scopeErr(s)
}

func spaceNotFound(space string) error {
	return realm.Errorf(realm.ENotFound, "space %q not found", space)
}

// serverAdmin refuses (403) a key that is not an admin of every space: what it guards is
// the whole server's, every tenant's (/metrics), not a tenant admin's to read.
func serverAdmin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if k := keyOf(r.Context()); !k.has(ScopeAdmin) || !k.everySpace() {
			writeError(w, r, realm.Errorf(realm.EForbidden, "this is the whole server's: it needs an API key with the admin scope on every space (*)"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// need refuses (403) a key without scope s. It runs after spaceAccess: a key learns
// what it may not do only in its own spaces.
func need(s Scope) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := keyOf(r.Context()).scopeErr(s); err != nil {
				writeError(w, r, err)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
