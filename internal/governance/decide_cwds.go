package governance

import "slices"

// decideEach decides req, then each request variants makes of it (they
// share req's other fields); the strictest decision stands (the first of
// equals), with every decision's subjects and advisories.
func (e *Engine) decideEach(req Request, subjects bool, variants []Request) Decision {
	out := e.decideKeeping(req, subjects)
	for _, v := range variants {
		out = strictestOf(out, e.decideKeeping(v, subjects))
	}
	return out
}

// decideInEachCwd decides req, whose command may run in req.Cwd or in any
// of req.OtherCwds (tool_workdir.go), once in each directory, with that
// directory as the command's cwd and as the path judged as where it runs.
func (e *Engine) decideInEachCwd(req Request, subjects bool) Decision {
	others := req.OtherCwds
	req.OtherCwds = nil
	return e.decideEach(req, subjects, variantsOf(req, others, func(v *Request, dir string) {
		v.Cwd = dir
		v.Paths = appendNew(slices.DeleteFunc(slices.Clone(req.Paths), func(p string) bool { return p == req.Cwd }), dir)
	}))
}

// decideEachCommand decides req, whose input names req.Command and each
// of req.OtherCommands (tool_command.go), once for each command line.
func (e *Engine) decideEachCommand(req Request, subjects bool) Decision {
	others := req.OtherCommands
	req.OtherCommands = nil
	return e.decideEach(req, subjects, variantsOf(req, others, func(v *Request, c string) { v.Command = c }))
}

// variantsOf returns a copy of req for each of values, which set writes
// into its copy.
func variantsOf(req Request, values []string, set func(v *Request, value string)) []Request {
	variants := make([]Request, len(values))
	for i, value := range values {
		variants[i] = req
		set(&variants[i], value)
	}
	return variants
}

// strictestOf returns the stricter of out and d (out of equals), with the
// subjects and advisories of both.
func strictestOf(out, d Decision) Decision {
	all := append(out.Subjects, d.Subjects...)
	advisories := out.Advisories
	for _, a := range d.Advisories {
		if !slices.Contains(advisories, a) {
			advisories = append(advisories, a)
		}
	}
	if d.Value.Stricter(out.Value) {
		out = d
	}
	out.Subjects, out.Advisories = all, advisories
	return out
}
