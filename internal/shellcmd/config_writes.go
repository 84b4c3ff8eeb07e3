package shellcmd

import (
	"runtime"
	"slices"
	"strings"
)

// Programs keep settings in files of the person's or of the system,
// outside any workspace, and every later command of every project obeys
// them: "go env -w GOFLAGS=-toolexec=./x" has each later go build run ./x,
// "npm config set script-shell ./x" each later npm script. A subcommand
// that sets, unsets or edits such settings (go env -w/-u, npm and pnpm
// config set/delete/edit, npm set, yarn, pip, bundle, poetry, conda,
// composer, kubectl and aws config writers, gh config and auth, git lfs
// install, git maintenance register) writes the file of the scope it is
// given (--global, --location, --user, --site, --local, --file...), and
// the value of a setting that names a program to run is code no rule
// vouches for. The reading forms (go env GOPATH, npm config get, pip
// config list) write nothing.

// ConfigFile is a configuration file a command writes.
type ConfigFile struct {
	// Path is the file: "~/" for the home directory, absolute, or
	// relative to where the command runs.
	Path string
	// Computed says where the file lies is not in the line (npm's global
	// prefix, conda's root): Path only describes it.
	Computed bool
}

// ConfigChange is what a command that changes a program's settings
// writes.
type ConfigChange struct {
	// Program names the command for a reason ("npm config").
	Program string
	// Files are the files it may write, every scope it may mean.
	Files []ConfigFile
	// Keys are the settings it sets a value of, "" for one computed at
	// run time.
	Keys []string
	// programKeys are the settings of Program whose value names a
	// program it runs later.
	programKeys func(key string) (why string, ok bool)
}

// configArgs are a command's words after its subcommand words, read as
// operands and options.
type configArgs struct {
	operands []string            // "" for a word computed at run time
	opts     map[string][]string // an option as written before '=', and its values
	computed bool                // a word computed at run time
}

// splitConfigArgs reads words as operands and options: valued are the
// options that take the next word as their value, and after "--" every
// word is an operand.
func splitConfigArgs(words []Word, valued ...string) configArgs {
	a := configArgs{opts: map[string][]string{}}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w.Kind != Static {
			a.computed = true
			a.operands = append(a.operands, "")
			continue
		}
		t := w.Text
		switch {
		case t == "--":
			for _, o := range words[i+1:] {
				a.operands = append(a.operands, staticText(o))
			}
			return a
		case len(t) > 1 && t[0] == '-':
			name, value, has := strings.Cut(t, "=")
			if !has && slices.Contains(valued, name) && i+1 < len(words) {
				i++
				value = staticText(words[i])
				a.computed = a.computed || words[i].Kind != Static
			}
			a.opts[name] = append(a.opts[name], value)
		default:
			a.operands = append(a.operands, t)
		}
	}
	return a
}

// staticText is w's text when it is static, "" otherwise.
func staticText(w Word) string {
	if w.Kind != Static {
		return ""
	}
	return w.Text
}

// has says whether any of the options names was given.
func (a configArgs) has(names ...string) bool {
	for _, n := range names {
		if _, ok := a.opts[n]; ok {
			return true
		}
	}
	return false
}

// values are the values given to the options names.
func (a configArgs) values(names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, a.opts[n]...)
	}
	return out
}

// operand is the i-th operand, and whether there is one.
func (a configArgs) operand(i int) (string, bool) {
	if i < len(a.operands) {
		return a.operands[i], true
	}
	return "", false
}

// userConfig is the per-person configuration directory of the platform
// (os.UserConfigDir with XDG_CONFIG_HOME unset).
func userConfig(rest string) string {
	if runtime.GOOS == "darwin" {
		return "~/Library/Application Support/" + rest
	}
	return "~/.config/" + rest
}

// ConfigChangeOf returns what form writes when it changes a program's
// settings; ok is false for a form that does not (or only reads them).
// Each reading of an option this package does not know, with a value
// and without (optionReadings), is tried, and the changes joined.
func ConfigChangeOf(form []Word) (c ConfigChange, ok bool) {
	if len(form) == 0 || form[0].Kind != Static || len(form) == 1 && hookInstallers[form[0].Name()] == nil {
		// A program alone changes nothing but a hook manager's install.
		return ConfigChange{}, false
	}
	name := form[0].Name()
	args := form[1:]
	if pythonName.MatchString(name) {
		module, margs, ok := pythonModule(form)
		if !ok || !isPipModule(module) {
			return ConfigChange{}, false
		}
		name, args = "pip", margs
	}
	reader := configReaders[name]
	known := programOptions[name]
	if reader == nil && strings.HasPrefix(name, "pip") && isVersion(strings.TrimPrefix(name, "pip")) {
		reader, known = pipConfig, programOptions["pip"]
	}
	if name == "pnpm" {
		known = programOptions["npm"]
	}
	if reader == nil {
		return ConfigChange{}, false
	}
	var changes []ConfigChange
	for _, reading := range optionReadings(args, known) {
		if c, ok := reader(name, reading); ok {
			changes = append(changes, c)
		}
	}
	if len(changes) == 0 {
		return ConfigChange{}, false
	}
	return mergeChanges(changes), true
}

// isPipModule says python -m runs pip for module: pip, its __main__, or
// a name the pip of a version goes by (pip3).
func isPipModule(module string) bool {
	module = strings.TrimSuffix(module, ".__main__")
	return strings.HasPrefix(module, "pip") && isVersion(strings.TrimPrefix(module, "pip"))
}

// isVersion says s is empty or a version such as "3" or "3.12".
func isVersion(s string) bool {
	return strings.Trim(s, "0123456789.") == ""
}

// configReaders read the forms of the programs whose subcommands change
// their settings.
var configReaders = map[string]func(name string, args []Word) (ConfigChange, bool){
	"go": goEnvConfig, "npm": npmConfig, "pnpm": npmConfig, "yarn": yarnConfig, "bundle": bundleConfig,
	"bundler": bundleConfig, "poetry": poetryConfig, "conda": condaConfig, "mamba": condaConfig,
	"composer": composerConfig, "gh": ghConfig, "git": gitConfigElsewhere, "git-lfs": gitLFSConfig,
	"kubectl": kubectlConfig, "aws": awsConfig,
	"claude": agentConfig, "gemini": agentConfig, "qwen": agentConfig, "iflow": agentConfig, "codex": agentConfig,
	"copilot": agentConfig, "vibe": agentConfig, "amp": agentConfig, "opencode": agentConfig, "acpx": agentConfig,
	"code": editorExtensions, "code-insiders": editorExtensions, "codium": editorExtensions, "cursor": editorExtensions,
	"windsurf": editorExtensions, "pre-commit": hookInstallConfig, "lefthook": hookInstallConfig,
	"overcommit": hookInstallConfig, "husky": hookInstallConfig,
}

// subcommand returns the first operand of args and the words after it,
// skipping the values of the options valued.
func subcommand(args []Word, valued ...string) (sub string, rest []Word, ok bool) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.Kind != Static {
			return "", args[i+1:], true // a computed subcommand may be any
		}
		switch t := w.Text; {
		case t == "--":
			return "", nil, false
		case strings.HasPrefix(t, "-"):
			if !strings.Contains(t, "=") && slices.Contains(valued, t) {
				i++
			}
		default:
			return t, args[i+1:], true
		}
	}
	return "", nil, false
}

// changeWith builds the change of program to files, the keys set and the
// settings that name programs.
func changeWith(program string, files []ConfigFile, keys []string, programKeys func(string) (string, bool)) (ConfigChange, bool) {
	return ConfigChange{Program: program, Files: files, Keys: keys, programKeys: programKeys}, true
}

// homeFiles are the files paths, each in the home directory or absolute.
func homeFiles(paths ...string) []ConfigFile {
	out := make([]ConfigFile, 0, len(paths))
	for _, p := range paths {
		out = append(out, ConfigFile{Path: p})
	}
	return out
}

// goEnvConfig reads "go env -w NAME=VALUE" and "go env -u NAME", after
// go's -C DIR too: they write go's environment file (GOENV, in the user configuration
// directory), whose variables every later go command takes as its
// environment's.
func goEnvConfig(_ string, args []Word) (ConfigChange, bool) {
	sub, rest, ok := subcommand(args, programOptions["go"].valued...)
	if !ok || sub != "env" && sub != "" {
		return ConfigChange{}, false
	}
	a := splitConfigArgs(rest)
	write := a.computed
	for _, o := range []string{"-w", "--w", "-u", "--u"} {
		for _, v := range a.opts[o] {
			write = write || v != "false"
		}
	}
	if !write {
		return ConfigChange{}, false
	}
	var keys []string
	if a.has("-w", "--w") || a.computed {
		for _, op := range a.operands {
			name, _, _ := strings.Cut(op, "=")
			keys = append(keys, name)
		}
	}
	return changeWith("go env", homeFiles(userConfig("go/env")), keys, func(key string) (string, bool) {
		if risk, why := ClassifyEnv(key); risk != EnvPlain {
			return why, true
		}
		return "", false
	})
}

// npmValued are npm's and pnpm's options that take the next word as
// their value, among those that say where settings go.
var npmValued = []string{"--location", "--userconfig", "--globalconfig", "--prefix", "-C", "--dir", "--registry",
	"--loglevel", "--cache", "--workspace", "-w", "--filter"}

// npmConfig reads npm's and pnpm's "config set|delete|edit|fix", "set",
// and npm's login and logout: they write the user's .npmrc (or
// --userconfig), the global npmrc under the install prefix (-g,
// --location=global, --globalconfig) or the project's .npmrc
// (--location=project); pnpm its rc in its configuration directory
// too.
func npmConfig(name string, args []Word) (ConfigChange, bool) {
	sub, rest, ok := subcommand(args, npmValued...)
	if !ok {
		return ConfigChange{}, false
	}
	var keys []string
	switch npmCommand(sub) {
	case "config":
		verb, after, ok := subcommand(rest, npmValued...)
		if !ok || slices.Contains([]string{"get", "list", "ls"}, verb) {
			return ConfigChange{}, false
		}
		rest = after
		if verb == "set" || verb == "" {
			keys = npmKeys(splitConfigArgs(rest, npmValued...).operands)
		}
	case "set":
		keys = npmKeys(splitConfigArgs(rest, npmValued...).operands)
	case "login", "adduser", "logout":
		if name != "npm" {
			return ConfigChange{}, false
		}
	case "":
	default:
		return ConfigChange{}, false
	}
	a := splitConfigArgs(args, npmValued...)
	user := homeFiles("~/.npmrc")
	if name == "pnpm" {
		user = homeFiles(userConfig("pnpm/rc"), "~/.npmrc")
	}
	if u := a.values("--userconfig"); len(u) > 0 {
		user = homeFiles(u...)
	}
	global := []ConfigFile{{Path: "the global npmrc under " + name + "'s install prefix", Computed: true}}
	if g := a.values("--globalconfig"); len(g) > 0 {
		global = homeFiles(g...)
	}
	if name == "pnpm" {
		global = append(global, homeFiles(userConfig("pnpm/rc"))...)
	}
	project := homeFiles(".npmrc")
	if name == "pnpm" {
		project = append(project, homeFiles("pnpm-workspace.yaml")...)
	}
	var files []ConfigFile
	locations := a.values("--location")
	for _, v := range a.values("-g", "--global") {
		if v != "false" {
			locations = append(locations, "global")
		}
	}
	if len(locations) == 0 {
		locations = []string{"user"}
	}
	for _, l := range locations {
		switch l {
		case "user":
			files = append(files, user...)
		case "global":
			files = append(files, global...)
		case "project":
			files = append(files, project...)
		default: // computed, or not one npm knows: any
			files = append(files, user...)
			files = append(files, global...)
			files = append(files, project...)
		}
	}
	return changeWith(name+" config", files, keys, npmProgramKey)
}

// npmKeys are the keys "npm config set key value ..." and "key=value"
// may set: every operand, as it stands or before its '=', since an
// option npm takes a value for may shift which words are keys and which
// values (--otp 123).
func npmKeys(operands []string) []string {
	keys := make([]string, 0, len(operands))
	for _, op := range operands {
		k, _, _ := strings.Cut(op, "=")
		keys = append(keys, k)
	}
	return keys
}

// npmProgramKey says the npm setting key names code npm runs
// (npmCodeKeys, in any case, with '_' for '-').
func npmProgramKey(key string) (string, bool) {
	k := strings.ReplaceAll(strings.ToLower(key), "_", "-")
	if slices.Contains(npmCodeKeys, k) {
		return "npm runs what it names", true
	}
	return "", false
}

// yarnConfig reads "yarn config set|unset|delete": Yarn 1 writes the
// user's .yarnrc, later versions the project's .yarnrc.yml or, with
// -H/--home, the user's; which Yarn runs is not in the line, so each.
func yarnConfig(_ string, args []Word) (ConfigChange, bool) {
	sub, rest, ok := subcommand(args, "--cwd")
	if !ok || sub != "config" && sub != "" {
		return ConfigChange{}, false
	}
	verb, rest, ok := subcommand(rest)
	if !ok || slices.Contains([]string{"get", "list", "current"}, verb) {
		return ConfigChange{}, false
	}
	var keys []string
	if verb == "set" || verb == "" {
		keys = npmKeys(splitConfigArgs(rest).operands)
	}
	files := homeFiles("~/.yarnrc", "~/.yarnrc.yml", ".yarnrc.yml")
	return changeWith("yarn config", files, keys, func(key string) (string, bool) {
		switch strings.ToLower(key) {
		case "yarnpath", "yarn-path", "plugins":
			return "yarn runs the code it names", true
		}
		return npmProgramKey(key)
	})
}

// pipValued are pip's options that take the next word as their value.
var pipValued = []string{"--editor", "--log", "--proxy", "--retries", "--timeout", "--exists-action", "--trusted-host",
	"--cert", "--client-cert", "--cache-dir", "--python", "--keyring-provider", "--use-feature", "--use-deprecated"}

// pipConfig reads "pip config set|unset|edit": the user's pip.conf
// (--user, the default), the system's (--global) or the environment's
// (--site, under the Python's prefix).
func pipConfig(_ string, args []Word) (ConfigChange, bool) {
	sub, rest, ok := subcommand(args, pipValued...)
	if !ok || sub != "config" && sub != "" {
		return ConfigChange{}, false
	}
	verb, _, ok := subcommand(rest, pipValued...)
	if !ok || slices.Contains([]string{"list", "get", "debug"}, verb) {
		return ConfigChange{}, false
	}
	a := splitConfigArgs(args, pipValued...)
	var files []ConfigFile
	if a.has("--global") {
		files = append(files, homeFiles("/etc/xdg/pip/pip.conf", "/etc/pip.conf")...)
	}
	if a.has("--site") {
		files = append(files, ConfigFile{Path: "pip.conf under the Python environment's prefix", Computed: true})
	}
	if a.has("--user") || len(files) == 0 {
		files = append(files, homeFiles(userConfig("pip/pip.conf"), "~/.config/pip/pip.conf", "~/.pip/pip.conf")...)
	}
	return changeWith("pip config", dedupeFiles(files), nil, nil)
}

// dedupeFiles drops the files named twice.
func dedupeFiles(files []ConfigFile) []ConfigFile {
	var out []ConfigFile
	for _, f := range files {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// configKeyNote returns a note when form sets one of its program's
// settings that names a program to run later (go env -w GOFLAGS=..., npm
// config set script-shell ...), or one whose name is computed at run
// time: the line puts a program in place that no rule vouches for.
func configKeyNote(form []Word) (Note, bool) {
	c, ok := ConfigChangeOf(form)
	if !ok || c.programKeys == nil {
		return Note{}, false
	}
	for _, k := range c.Keys {
		if k == "" {
			return Note{Kind: Unparsed, Text: c.Program + " sets a setting whose name is computed at run time; it may name a program to run"}, true
		}
		if why, ok := c.programKeys(k); ok {
			return Note{Kind: Unparsed, Text: c.Program + " sets " + k + ", which names a program to run (" + why + "); no rule vouches for it"}, true
		}
	}
	return Note{}, false
}
