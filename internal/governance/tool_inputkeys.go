package governance

import (
	"maps"
	"slices"
	"strings"
)

// A tool's input is read by the agent that runs the tool, with its own
// decoder: claude-agent-acp, Gemini CLI and codex-acp match member names
// exactly, but an agent on Go's encoding/json matches them without regard
// to case ("FiLe_PaTh" fills file_path), and one whose decoder takes both
// spellings of a name (pydantic's aliases, serde's rename_all) reads
// "movePath" as move_path. The bridge judges the member under every name
// such a decoder may read it as: canonicalInput adds, beside a member
// whose name folds to one the bridge reads, the same value under that
// name. The wire already refuses an object holding two names equal under
// case folding, so no member hides behind another.

// readInputKeys are the member names the bridge reads in a tool's input,
// at any depth (a patch's change objects hold move_path).
var readInputKeys = slices.Concat(judgedInputKeys, commandKeys, shellCommandKeys, runDirKeys, grantKeys,
	[]string{"move_path", "old_string", "new_string"})

// foldedInputKeys maps each of readInputKeys, folded (foldKey), to its
// spelling.
var foldedInputKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range readInputKeys {
		if _, ok := m[foldKey(k)]; !ok {
			m[foldKey(k)] = k
		}
	}
	return m
}()

// foldKey folds a member name as the loosest decoder matches it: case
// folded, '_' and '-' dropped.
func foldKey(k string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return r
	}, strings.ToLower(foldSpecial.Replace(k)))
}

// foldSpecial maps the letters Go's case folding takes for ASCII ones
// (the Kelvin sign, the long s) to them.
var foldSpecial = strings.NewReplacer("\u212a", "k", "\u017f", "s")

// maxInputKeyDepth bounds how deep canonicalInput looks.
const maxInputKeyDepth = 4

// canonicalInput returns in with each member whose name folds to one of
// readInputKeys but is not spelled so also given under that spelling, in
// in and in the objects it holds (maxInputKeyDepth deep). in is returned
// as it is when no name needs it; otherwise the objects changed are
// copies.
func canonicalInput(in map[string]any) map[string]any {
	out, _ := canonicalObject(in, maxInputKeyDepth)
	return out
}

// canonicalObject is canonicalInput for an object depth levels from the
// last one looked at; changed says the result is a copy.
func canonicalObject(in map[string]any, depth int) (out map[string]any, changed bool) {
	if in == nil || depth == 0 {
		return in, false
	}
	out = in
	copied := func() {
		if !changed {
			out = maps.Clone(in)
			changed = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(in)) {
		v := in[k]
		if nv, ok := canonicalValue(v, depth-1); ok {
			copied()
			out[k], v = nv, nv
		}
		canon, ok := foldedInputKeys[foldKey(k)]
		if !ok || canon == k {
			continue
		}
		if _, has := in[canon]; has {
			continue // the wire refuses two names equal under case folding; a name apart by '_' keeps its own value
		}
		copied()
		out[canon] = v
	}
	return out, changed
}

// canonicalValue is canonicalObject for a member's value: an object, or
// the objects of an array.
func canonicalValue(v any, depth int) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		return canonicalObject(v, depth)
	case []any:
		var out []any
		for i, e := range v {
			if o, ok := e.(map[string]any); ok {
				if no, changed := canonicalObject(o, depth); changed {
					if out == nil {
						out = slices.Clone(v)
					}
					out[i] = no
				}
			}
		}
		return out, out != nil
	}
	return v, false
}
