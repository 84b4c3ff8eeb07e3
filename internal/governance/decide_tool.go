package governance

import (
	"fmt"
	"path/filepath"
	"strings"
)

// decideURL decides fetching u, by the domain its host names.
func (e *Engine) decideURL(in *reqInfo, u string, advisories *[]string) verdict {
	host := urlHost(u)
	what := fmt.Sprintf("fetching %s", host)
	best := e.pick(in, catFetch, func(_ int, r *rule) bool {
		return r.all || r.domain != "" && matchDomain(r.domain, host)
	}, advisories)
	if best != nil {
		return ruleVerdict(best, what)
	}
	return e.defaultVerdict(in, what)
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
