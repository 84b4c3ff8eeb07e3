package governance

import (
	"path/filepath"
	"strings"
)

// When an agent's fs/* or terminal/create request needs the person's
// approval, the bridge asks in a permission request of its own, and the
// person approves what the IDE shows of it: Zed shows an execute or edit
// call's title and never its rawInput. A title naming only the command line
// or the path as written ("running ls", "writing /ws/notes.md") had the
// person approve a request judged on more: ls run with the agent's PATH
// found the agent's ls; "echo x; printf pwned > z.txt" ran where the title
// showed each argument quoted; a line run in drafts/ wrote there; a write
// to notes.md, a link to drafts/plan.md, wrote drafts/plan.md.
//
// So the title shows everything the request is judged on: the path and,
// when it leads elsewhere, where; the command line as a shell-running IDE
// (Zed) runs it, command and args joined unquoted, and the argv an
// exec-running client runs when that reads otherwise; the directory it
// runs in when that is not the session's; and each variable it sets.

// clientAskTitle returns the title of the bridge's permission request
// about p, an agent's request of method judged in a session whose cwd is
// cwd and roots are roots, for a decision of value.
func clientAskTitle(method string, p clientCallParams, cwd string, roots []string, value Value) string {
	var b strings.Builder
	switch method {
	case "fs/read_text_file", "fs/write_text_file":
		verb := "Read "
		if method == "fs/write_text_file" {
			verb = "Write "
		}
		b.WriteString(verb + shownPath(p.Path, cwd, roots))
	default:
		line := p.Command
		if len(p.Args) > 0 {
			line = strings.Join(append([]string{p.Command}, p.Args...), " ")
		}
		b.WriteString("Run " + commandTitle(line))
		if argv := shellJoin(append([]string{p.Command}, p.Args...)); len(p.Args) > 0 && argv != line {
			b.WriteString(" (as argv: " + commandTitle(argv) + ")")
		}
		if p.Cwd != "" && cleanAbs(p.Cwd, cwd) != cleanAbs(cwd, "") {
			b.WriteString(" in " + commandTitle(displayPath(p.Cwd, cwd)))
		}
		if p.Cwd != "" {
			b.WriteString(leadsTo(p.Cwd, cwd, roots))
		}
		for i, e := range p.Env {
			if i == 0 {
				b.WriteString(" with ")
			} else {
				b.WriteString(", ")
			}
			b.WriteString(commandTitle(e.Name + "=" + e.Value))
		}
	}
	b.WriteString(" (policy: " + string(value) + ")")
	return b.String()
}

// leadsTo returns " (leads to `P`)" when the path p, as the file system
// resolves it now, is another path than p as written; "" when it is the
// same or cannot be resolved (a path that cannot is refused anyway). A
// workspace root that is itself a link (macOS's /tmp) is shown as the
// person named it.
func leadsTo(p, cwd string, roots []string) string {
	if !filepath.IsAbs(p) {
		return ""
	}
	written := cleanPath(p)
	resolved, r := resolvePath(written)
	if r != nil || resolved == written {
		return ""
	}
	for _, root := range roots {
		root = filepath.Clean(root)
		real, r := resolvePath(root)
		if r != nil || real == root {
			continue
		}
		if rest, ok := strings.CutPrefix(resolved, real+"/"); ok {
			resolved = root + "/" + rest
		} else if resolved == real {
			resolved = root
		}
	}
	if resolved == written {
		return ""
	}
	return " (leads to " + commandTitle(displayPath(resolved, cwd)) + ")"
}
