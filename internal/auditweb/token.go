package auditweb

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
)

// tokenParam is the query parameter of the URL printed at start.
const tokenParam = "token"

// newToken returns 32 random bytes, hex-encoded.
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("audit serve: making the access token: %v", err)
	}
	return hex.EncodeToString(b), nil
}

// cookieName names the token cookie after the port: cookies are not kept
// apart by port, so two servers on one host must not overwrite each
// other's.
func cookieName(port string) string { return "acp-bridge-audit-" + port }

// tokenMatch compares a presented token with the run's in constant time.
func tokenMatch(got, want string) bool {
	return len(got) == len(want) && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// requireToken lets a request through only with the run's token: in the
// cookie, or in the URL, in which case the token is put in the cookie and
// the browser is sent to the same URL without it (so it stays out of the
// history and of what the page links to).
func (s *Server) requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie(cookieName(s.port)); err == nil && tokenMatch(c.Value, s.token) {
			next.ServeHTTP(w, r)
			return
		}
		q := r.URL.Query()
		if t := q.Get(tokenParam); t != "" && tokenMatch(t, s.token) {
			http.SetCookie(w, &http.Cookie{Name: cookieName(s.port), Value: s.token, Path: "/",
				HttpOnly: true, SameSite: http.SameSiteStrictMode})
			q.Del(tokenParam)
			u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
			http.Redirect(w, r, u.String(), http.StatusSeeOther)
			return
		}
		s.logger.Warn("audit serve: request without the access token", "path", r.URL.Path, "remote", r.RemoteAddr)
		http.Error(w, "403 forbidden: open the URL acp-bridge audit serve printed (it carries this run's access token)", http.StatusForbidden)
	})
}
