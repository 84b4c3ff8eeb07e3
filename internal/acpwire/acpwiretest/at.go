package acpwiretest

// At returns the value at path in v, a JSON value decoded by encoding/json
// into an any (objects as map[string]any): At(m, "params", "update",
// "sessionUpdate") is m["params"]["update"]["sessionUpdate"]. It returns
// nil where the path leads nowhere, through a value that is not an object
// or a member that is not there, so a test compares it with what it wants
// without checking each step.
func At(v any, path ...string) any {
	for _, k := range path {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}
