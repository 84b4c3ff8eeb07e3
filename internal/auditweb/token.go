package auditweb

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
)

// newToken returns 32 random bytes, hex-encoded.
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("audit serve: making the access token: %v", err)
	}
	return hex.EncodeToString(b), nil
}

// tokenMatch compares a presented token with the run's in constant time.
func tokenMatch(got, want string) bool {
	return len(got) == len(want) && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// requireToken lets a request through only when its path begins with the
// run's token (/TOKEN/timeline), and hands next the path after it. The
// token is in no cookie: cookies are not kept apart by port (RFC 6265,
// section 8.5), so a browser would send one to every server on the same
// loopback address, an agent's dev server among them. Pages link
// relatively, so every link carries the token and no other server is
// sent it (Referrer-Policy no-referrer).
func (s *Server) requireToken(next http.Handler) http.Handler {
	prefix := "/" + s.token
	inner := http.StripPrefix(prefix, next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seg, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		if !tokenMatch(seg, s.token) {
			s.logger.Warn("audit serve: request without the access token", "path", r.URL.Path, "remote", r.RemoteAddr)
			http.Error(w, "403 forbidden: open the URL acp-bridge audit serve printed (its path carries this run's access token)", http.StatusForbidden)
			return
		}
		if r.URL.Path == prefix {
			// Relative links need the trailing slash.
			u := prefix + "/"
			if r.URL.RawQuery != "" {
				u += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, u, http.StatusSeeOther)
			return
		}
		inner.ServeHTTP(w, r)
	})
}
