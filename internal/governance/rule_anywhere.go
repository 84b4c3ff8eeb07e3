package governance

import "path/filepath"

// A line that changes directory to one known only when it runs ("cd
// "$X" && cat .env", "cd - && ...") leaves the files it then names by a
// relative name unknown: each is asked about, since a rule that names a
// file by its place ("Read(./secrets/**)") may not be about the file the
// line reaches. A rule that names a file by its last element alone
// ("Read(**/.env)", "Edit(*.pem)") is about it wherever the line has gone:
// such a rule's refusal holds.

// deniesNameAnywhere reports whether v is a refusal by a rule whose path
// pattern matches name (a path's last element) in every directory.
func deniesNameAnywhere(v verdict, name string) bool {
	if v.value != Deny || v.rule == nil || v.rule.path == nil {
		return false
	}
	p := v.rule.path
	if p.all {
		return true
	}
	return p.anchor == anchorAny && len(p.segs) == 1 && name != "" && name != "." && name != ".." &&
		p.match(filepath.Join("/", name), nil, false)
}
