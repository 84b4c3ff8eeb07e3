package shellcmd

import (
	"slices"
	"strings"
)

// Tool runners run any command in an environment they set up: "uv run rm
// x", "poetry run rm x", "bundle exec rm x", "pyenv exec rm x" run rm x.
// A rule allowing "uv run" is written for "uv run pytest"; the command
// after the subcommand is the runner's next form, as timeout's is, so a
// rule refusing rm refuses "uv run rm x" while "uv run pytest" stays the
// runner's rule's to allow. Options between the subcommand and the
// command are read by each runner's known options; after one it does not
// know, which may take the next word as its value, every later word is
// tried as the command too, as a command of its own.

// runner is how a tool runner takes the command it runs.
type runner struct {
	// subs are the subcommands that run a command ("run", "tool run").
	subs [][]string
	// values are options that take the next word as their value;
	// flags are options known to take none.
	values, flags []string
	// shells are options whose value is a shell command line
	// (nix-shell --run, mise exec -c); commands are options after
	// which the words are the command (nix develop -c).
	shells, commands []string
	// afterDashes says the operands before "--" or a command option are
	// names (tools, environments, installables), not the command.
	afterDashes bool
	// version says a first operand may name a version (nvm exec 20).
	version bool
	// pythonScripts says a command ending ".py", or one after --script,
	// is a script the runner gives Python ("uv run tool.py"), not a
	// program looked up in PATH.
	pythonScripts bool
}

// runners maps a program to how it runs commands.
var runners = map[string]runner{
	"uv": {subs: [][]string{{"run"}, {"tool", "run"}},
		values: []string{"--with", "--with-editable", "--with-requirements", "--python", "-p", "--directory", "--project",
			"--package", "--env-file", "--extra", "--group", "--index", "--default-index", "--from", "-w"},
		flags: []string{"--frozen", "--locked", "--no-sync", "--isolated", "--no-project", "--all-extras", "--dev",
			"--no-dev", "--active", "--quiet", "-q", "--verbose", "-v", "--offline", "--no-cache", "--script", "--module", "-m"},
		pythonScripts: true},
	"poetry":     {subs: [][]string{{"run"}}, values: []string{"--directory", "-C", "--project", "-P"}},
	"pipenv":     {subs: [][]string{{"run"}}},
	"bundle":     {subs: [][]string{{"exec"}}},
	"pyenv":      {subs: [][]string{{"exec"}}},
	"rbenv":      {subs: [][]string{{"exec"}}},
	"nodenv":     {subs: [][]string{{"exec"}}},
	"asdf":       {subs: [][]string{{"exec"}}},
	"conda":      {subs: [][]string{{"run"}}, values: []string{"-n", "--name", "-p", "--prefix", "--cwd"}, flags: []string{"--no-capture-output", "--live-stream"}},
	"mamba":      {subs: [][]string{{"run"}}, values: []string{"-n", "--name", "-p", "--prefix", "--cwd"}, flags: []string{"--no-capture-output", "--live-stream"}},
	"micromamba": {subs: [][]string{{"run"}}, values: []string{"-n", "--name", "-p", "--prefix", "--cwd"}},
	"pdm":        {subs: [][]string{{"run"}}, pythonScripts: true},
	"hatch":      {subs: [][]string{{"run"}}},
	"rye":        {subs: [][]string{{"run"}}},
	"pixi":       {subs: [][]string{{"run"}, {"exec"}}, values: []string{"-e", "--environment", "--manifest-path"}},
	"devbox":     {subs: [][]string{{"run"}}},
	"pnpm": {subs: [][]string{{"exec"}, {"dlx"}}, shells: []string{"-c", "--shell-mode"}, values: []string{"--package", "--filter", "-F", "-C", "--dir", "--workspace-dir"},
		flags: []string{"-r", "--recursive", "--parallel", "--no-bail", "--silent", "-s", "--report-summary"}},
	"yarn":            {subs: [][]string{{"exec"}, {"dlx"}}, values: []string{"-p", "--package", "--cwd"}, flags: []string{"-q", "--quiet"}},
	"volta":           {subs: [][]string{{"run"}}, values: []string{"--node", "--npm", "--yarn", "--pnpm"}},
	"fnm":             {subs: [][]string{{"exec"}}, values: []string{"--using"}},
	"nvm":             {subs: [][]string{{"exec"}, {"run"}}, version: true},
	"toolbox":         {subs: [][]string{{"run"}}, values: []string{"-c", "--container", "-r", "--release", "-d", "--distro"}},
	"tox":             {subs: [][]string{{"exec"}}, afterDashes: true},
	"mise":            {subs: [][]string{{"exec"}, {"x"}}, afterDashes: true, shells: []string{"-c", "--command"}},
	"rtx":             {subs: [][]string{{"exec"}, {"x"}}, afterDashes: true, shells: []string{"-c", "--command"}},
	"nix-shell":       {subs: [][]string{{}}, shells: []string{"--run", "--command"}},
	"nix":             {subs: [][]string{{"develop"}, {"shell"}}, afterDashes: true, commands: []string{"-c", "--command"}},
	"distrobox-enter": {subs: [][]string{{}}, afterDashes: true},
	"flatpak-spawn":   {subs: [][]string{{}}},
	"proot":           {subs: [][]string{{}}},
	"corepack":        {subs: [][]string{{}}},
}

// runnerHandler returns the handler of a tool runner, or nil.
func runnerHandler(name string) handler {
	r, ok := runners[name]
	if !ok {
		return nil
	}
	return r.handle
}

// handle finds the command a runner's form runs.
func (r runner) handle(form []Word) step {
	i := 1
	for i < len(form) && !r.matchSub(form, i) {
		t := staticText(form[i])
		switch {
		case form[i].Kind == Static && strings.HasPrefix(t, "-"):
			i++ // the program's own options
			continue
		case i > 1 && strings.HasPrefix(staticText(form[i-1]), "-") && !strings.Contains(staticText(form[i-1]), "=") &&
			r.matchSub(form, i+1):
			i++ // the value of one ("pnpm --filter web exec")
			continue
		}
		break
	}
	sub := r.matchSub(form, i)
	if !sub {
		return step{}
	}
	i += r.subLen(form, i)
	st := step{acts: true}
	unknown, script := false, false
	start := -1
	for ; i < len(form); i++ {
		wd := form[i]
		if wd.Kind != Static {
			st.notes = append(st.notes, Note{Kind: NotStatic, Text: form[0].Text + " is given a word computed at run time: " + wd.String()})
			start = i
			break
		}
		t := wd.Text
		if t == "--" {
			start = i + 1
			break
		}
		name, value, attached := strings.Cut(t, "=")
		switch {
		case !strings.HasPrefix(t, "-"):
			if r.afterDashes {
				continue // a tool or environment name
			}
			if r.version && start < 0 && !unknown && looksLikeVersion(t) {
				continue
			}
			start = i
		case slices.Contains(r.shells, name):
			if !attached && i+1 < len(form) {
				i++
				value, attached = form[i].Text, form[i].Kind == Static
				if !attached {
					st.notes = append(st.notes, Note{Kind: NotStatic, Text: form[0].Text + " runs shell code that is not static: " + form[i].String()})
					continue
				}
			}
			st.shell = append(st.shell, shellRun{word: Word{Kind: Static, Text: value}, langs: dialectsOf("sh")})
			continue
		case slices.Contains(r.commands, t):
			start = i + 1
		case slices.Contains(r.values, name):
			if !attached {
				i++
			}
			continue
		case slices.Contains(r.flags, name):
			script = script || name == "--script"
			continue
		default:
			unknown = true // it may take the next word as its value
			continue
		}
		break
	}
	if start < 0 || start >= len(form) {
		return st
	}
	st.next = form[start:]
	if r.pythonScripts && (script || strings.HasSuffix(staticText(st.next[0]), ".py")) {
		st.next = append([]Word{{Kind: Static, Text: "python"}}, st.next...)
	}
	if unknown {
		for j := start + 1; j < len(form) && len(st.others) < 8; j++ {
			if form[j].Kind == Static && !strings.HasPrefix(form[j].Text, "-") {
				st.others = append(st.others, form[j:])
			}
		}
	}
	return st
}

// matchSub reports whether one of r's subcommands starts at form[i].
func (r runner) matchSub(form []Word, i int) bool {
	return r.subLen(form, i) >= 0
}

// subLen returns the length of the longest subcommand of r at form[i], -1
// when none is there.
func (r runner) subLen(form []Word, i int) int {
	best := -1
	for _, s := range r.subs {
		if hasWords(form, i, s) && len(s) > best {
			best = len(s)
		}
	}
	return best
}

// hasWords reports whether form[i:] starts with the static words ws.
func hasWords(form []Word, i int, ws []string) bool {
	if i+len(ws) > len(form) {
		return false
	}
	for k, w := range ws {
		if form[i+k].Kind != Static || form[i+k].Text != w {
			return false
		}
	}
	return true
}

// looksLikeVersion reports whether t names a version to nvm (20, v20.1,
// lts/iron, node, stable, system).
func looksLikeVersion(t string) bool {
	switch {
	case t == "node" || t == "stable" || t == "system" || t == "iojs" || strings.HasPrefix(t, "lts/"):
		return true
	}
	t = strings.TrimPrefix(t, "v")
	return t != "" && strings.Trim(t, "0123456789.") == ""
}
