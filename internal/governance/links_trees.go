package governance

import "slices"

// A directory a command reads or changes whole may be a link a line the
// engine let run makes, not there yet when the command is decided: after
// "ln -s . kk", "grep -r API_KEY kk/" reads the workspace's .env, while the
// walk of kk finds nothing. So the directories such a command names are
// walked also where the kept links lead (keptForms).

// keptForms returns the forms of the path p that only the kept links give
// (madeLinks.extend, extendDotDot), none of which the file system shows
// now: the places a walk of p reaches once those links are made. A path
// those links leave unjudgeable has none here; it is refused where it is
// judged as a path.
func (in *reqInfo) keptForms(p string) []string {
	if in.links == nil || in.links.n.Load() == 0 {
		return nil
	}
	all, r := in.pathForms(p)
	if r != nil {
		return nil
	}
	now, r := pathForms(p, in.roots...)
	if r != nil {
		return nil
	}
	var out []string
	for _, f := range all {
		if !slices.Contains(now, f) && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}
