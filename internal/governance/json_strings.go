package governance

import "iter"

// stringsIn yields every string of a decoded JSON value (what
// encoding/json gives an any), at any depth: the members' values of an
// object and the elements of an array, not the members' names.
func stringsIn(v any) iter.Seq[string] {
	return func(yield func(string) bool) { yieldStrings(v, yield) }
}

// yieldStrings gives yield the strings of v; false says yield asked to
// stop.
func yieldStrings(v any, yield func(string) bool) bool {
	switch v := v.(type) {
	case string:
		return yield(v)
	case []any:
		for _, e := range v {
			if !yieldStrings(e, yield) {
				return false
			}
		}
	case map[string]any:
		for _, e := range v {
			if !yieldStrings(e, yield) {
				return false
			}
		}
	}
	return true
}
