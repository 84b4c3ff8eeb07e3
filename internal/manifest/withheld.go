package manifest

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/acpwire"
)

// WithheldMethod returns the capability m withholds that a request or
// notification of method, travelling in dir, needs: the call Mask refuses.
// ok is false when m grants what the call needs. Middleware nearer the
// agent than Mask (governance) asks it so that it never judges, records as
// allowed or asks the person about an agent's call that Mask then refuses.
func (m *Manifest) WithheldMethod(dir acpwire.Direction, method string) (c Capability, ok bool) {
	for _, w := range withheldMethods(m.Capabilities()) {
		if w.matches(dir, method) {
			return w.c, true
		}
	}
	return 0, false
}

// WithheldError returns the error a request of method is answered with
// when it needs capability c, which m withholds: method not found, naming
// the capability and the manifest.
func (m *Manifest) WithheldError(c Capability, method string) *acpwire.Error {
	return acpwire.Errorf(acpwire.CodeMethodNotFound, "method %s is not available: the bridge's manifest (%s) does not grant %s", method, m.ID, c.ACPField()).
		WithData(map[string]string{"capability": c.ACPField(), "manifest": m.ID})
}

// matches reports whether a call of method travelling in dir is one of w.
func (w withheldMethod) matches(dir acpwire.Direction, method string) bool {
	return w.dir == dir && (method == w.name || strings.HasSuffix(w.name, "/") && strings.HasPrefix(method, w.name))
}
