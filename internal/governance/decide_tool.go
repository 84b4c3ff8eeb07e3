package governance

import (
	"fmt"
	"path/filepath"
	"strings"
)

// decideURL decides fetching u, by the domain its host names: the
// strictest decision over every host a fetch of u may reach (urlHosts),
// so that an allow rule vouches only for a URL every reading sends to
// its domain.
func (e *Engine) decideURL(in *reqInfo, u string, advisories *[]string) verdict {
	var out verdict
	for i, host := range urlHosts(u) {
		what := fmt.Sprintf("fetching %s", host)
		var v verdict
		if best := e.pick(in, catFetch, func(_ int, r *rule) bool {
			return r.all || r.domain != "" && matchDomain(r.domain, host)
		}, advisories); best != nil {
			v = ruleVerdict(best, what)
		} else {
			v = e.defaultVerdict(in, what)
		}
		if i == 0 || v.value.Stricter(out.value) {
			out = v
		}
	}
	return out
}

// decideTool decides the tool itself. Its reason is left in pieces
// (verdict.lazy): Decide often drops it.
func (e *Engine) decideTool(in *reqInfo, advisories *[]string) verdict {
	name := in.req.Tool
	if name == "" {
		name = in.req.Title
	}
	what, sep := in.req.Action, " " // what+sep+name: "tool.call Read"
	if name == "" {
		sep = ""
	}
	best := e.pick(in, catTool, func(_ int, r *rule) bool {
		switch {
		case r.cat == catAny || r.all:
			return true
		case r.cat == catTool:
			return globName(r.tool, in.req.Tool, r.fold()) || globName(r.tool, in.req.Title, r.fold())
		}
		return false
	}, advisories)
	if best != nil {
		return ruleVerdictOf(best, what, sep, name)
	}
	return e.defaultVerdictOf(in, what, sep, name)
}

// globName reports whether name, if any, matches the glob pattern;
// with fold, without regard to case.
func globName(pattern, name string, fold bool) bool {
	if name == "" {
		return false
	}
	if fold {
		pattern, name = strings.ToLower(pattern), strings.ToLower(name)
	}
	ok, err := filepath.Match(pattern, name)
	return err == nil && ok
}
