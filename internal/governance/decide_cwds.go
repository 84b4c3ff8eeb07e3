package governance

import "slices"

// decideInEachCwd decides req, whose command may run in req.Cwd or in any
// of req.OtherCwds (tool_workdir.go), once in each directory, with that
// directory as the command's cwd and as the path judged as where it runs;
// the strictest decision stands (the first of equals), with every
// decision's subjects and advisories.
func (e *Engine) decideInEachCwd(req Request, subjects bool) Decision {
	others := req.OtherCwds
	req.OtherCwds = nil
	out := e.decideKeeping(req, subjects)
	for _, dir := range others {
		in := req
		in.Cwd = dir
		in.Paths = appendNew(slices.DeleteFunc(slices.Clone(req.Paths), func(p string) bool { return p == req.Cwd }), dir)
		out = strictestOf(out, e.decideKeeping(in, subjects))
	}
	return out
}

// decideEachCommand decides req, whose input names req.Command and each
// of req.OtherCommands (tool_command.go), once for each command line; the
// strictest decision stands (the first of equals), with every decision's
// subjects and advisories.
func (e *Engine) decideEachCommand(req Request, subjects bool) Decision {
	others := req.OtherCommands
	req.OtherCommands = nil
	out := e.decideKeeping(req, subjects)
	for _, c := range others {
		in := req
		in.Command = c
		out = strictestOf(out, e.decideKeeping(in, subjects))
	}
	return out
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
