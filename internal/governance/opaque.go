package governance

// decideOpaquePath decides path p of an opaque tool call (reqInfo.opaque)
// as a read and as a write too, and returns the strictest of those and v,
// its decision as the call claims to be: "kind": "other" on .env must not
// pass a rule that denies reading or editing .env. A read or write
// decision counts only where it restricts; it never allows more than v.
func (e *Engine) decideOpaquePath(in *reqInfo, p string, v verdict, advisories *[]string) verdict {
	if !Deny.Stricter(v.value) {
		return v // nothing is stricter than a deny
	}
	for _, write := range []bool{false, true} {
		sub := *in
		sub.read, sub.write, sub.opaque = !write, write, false
		var discard []string
		if w := e.decidePathLazy(&sub, p, &discard); w.rule != nil && w.value.Stricter(v.value) {
			v = w
		}
	}
	return v
}
