package shellcmd

import "strings"

// EnvRisk says what setting an environment variable can make a shell or
// the programs it starts do.
type EnvRisk uint8

const (
	// EnvPlain: nothing known beyond the value itself.
	EnvPlain EnvRisk = iota
	// EnvChangesCommands: the variable changes which program a name runs
	// or how words are read (PATH, IFS, a pager or editor a tool starts).
	EnvChangesCommands
	// EnvRunsCode: the variable makes a shell, the dynamic loader or an
	// interpreter run code of its choosing (BASH_ENV, LD_PRELOAD,
	// BASH_FUNC_x%%, PROMPT_COMMAND, GIT_SSH_COMMAND).
	EnvRunsCode
)

// envRunsCode are variables whose value is code something runs, or a file
// of code something loads.
var envRunsCode = map[string]string{
	"BASH_ENV":                  "bash runs the file it names at start-up",
	"ENV":                       "sh runs the file it names at start-up",
	"ZDOTDIR":                   "zsh runs the start-up files in the directory it names",
	"PROMPT_COMMAND":            "bash runs it before each prompt",
	"PS0":                       "bash expands it, running command substitutions, before each command",
	"PS1":                       "the shell expands it, running command substitutions",
	"PS2":                       "the shell expands it, running command substitutions",
	"PS4":                       "bash expands it, running command substitutions, when tracing",
	"SHELLOPTS":                 "it turns on shell options such as xtrace in every bash started",
	"BASHOPTS":                  "it turns on shell options in every bash started",
	"LD_PRELOAD":                "the dynamic loader loads the library it names into every program",
	"LD_AUDIT":                  "the dynamic loader loads the library it names into every program",
	"LD_LIBRARY_PATH":           "the dynamic loader looks for libraries there first",
	"DYLD_INSERT_LIBRARIES":     "the dynamic loader loads the library it names into every program",
	"GIT_SSH_COMMAND":           "git runs it as a command",
	"GIT_SSH":                   "git runs it as a command",
	"GIT_EXTERNAL_DIFF":         "git runs it as a command",
	"GIT_PROXY_COMMAND":         "git runs it as a command",
	"GIT_ASKPASS":               "git runs it as a command",
	"SSH_ASKPASS":               "ssh runs it as a command",
	"GIT_EXEC_PATH":             "git runs its subcommands from there",
	"GIT_TEMPLATE_DIR":          "git copies hooks from there",
	"GIT_ALLOW_PROTOCOL":        "it lets git use transports such as ext::, which runs a command the URL names",
	"GIT_CONFIG_GLOBAL":         "git reads configuration (aliases, hooks, pagers) from the file it names",
	"GIT_CONFIG_SYSTEM":         "git reads configuration (aliases, hooks, pagers) from the file it names",
	"GIT_CONFIG_PARAMETERS":     "git takes configuration (aliases, hooks, pagers) from it",
	"GIT_CONFIG_COUNT":          "git takes configuration (aliases, hooks, pagers) from GIT_CONFIG_KEY_n",
	"PYTHONSTARTUP":             "python runs the file it names",
	"PYTHONPATH":                "python imports modules from there first",
	"PYTHONHOME":                "python loads its library from there",
	"PERL5OPT":                  "perl takes options, such as -M modules, from it",
	"PERL5LIB":                  "perl loads modules from there first",
	"PERLLIB":                   "perl loads modules from there first",
	"RUBYOPT":                   "ruby takes options, such as -r libraries, from it",
	"RUBYLIB":                   "ruby loads libraries from there first",
	"NODE_OPTIONS":              "node takes options, such as --require, from it",
	"NODE_PATH":                 "node loads modules from there",
	"JAVA_TOOL_OPTIONS":         "the JVM takes options, such as -javaagent, from it",
	"_JAVA_OPTIONS":             "the JVM takes options, such as -javaagent, from it",
	"LESSOPEN":                  "less runs it as a command",
	"LESSCLOSE":                 "less runs it as a command",
	"MANPAGER":                  "man runs it as a command",
	"BROWSER":                   "programs run it as a command",
	"SUDO_ASKPASS":              "sudo runs it as a command",
	"TERMINAL":                  "programs run it as a command",
	"GIT_SEQUENCE_EDITOR":       "git runs it as a command",
	"XDG_CONFIG_HOME":           "git and other programs read configuration (aliases, hooks, pagers) from there",
	"GOFLAGS":                   "go takes flags, such as -toolexec, from it",
	"GOENV":                     "go reads its settings, GOFLAGS among them, from the file it names",
	"RUSTC_WRAPPER":             "cargo runs it as a command",
	"RUSTC":                     "cargo runs it as a command",
	"CARGO_BUILD_RUSTC_WRAPPER": "cargo runs it as a command",
	"CARGO_HOME":                "cargo reads configuration (a rustc wrapper, runners) from there",
	"MAKEFILES":                 "make reads the makefiles it names first",
	"MAKEFLAGS":                 "make takes options, such as --eval, from it",
	"PYTHONWARNINGS":            "python imports the module a warning category names",
	"PERL5DB":                   "perl runs it as code when debugging",
	"KUBECONFIG":                "kubectl runs the credential commands the file it names lists",
	"AWS_CONFIG_FILE":           "the AWS tools run the credential_process the file it names lists",
	"HGRCPATH":                  "mercurial reads configuration (hooks, aliases) from there",
}

// envChangesCommands are variables that change which program a name runs
// or how a line is read.
var envChangesCommands = map[string]string{
	"PATH":                 "it changes which program a command name runs",
	"IFS":                  "it changes how the shell splits words",
	"CDPATH":               "it changes where cd goes",
	"GLOBIGNORE":           "it changes what globs match",
	"SIMPLE_BACKUP_SUFFIX": "it changes the name cp, mv, install and ln give the file they back up (.md makes GOVERNANCE's backup GOVERNANCE.md)",
	"VERSION_CONTROL":      "it makes cp, mv, install and ln back up the file they replace, under another name",
	"HISTFILE":             "it changes which file the shell writes",
	"HOME":                 "it changes where ~ and start-up files are",
	"PWD":                  "a shell started where it leads takes it as its directory, which cd .. leaves by name (from /proc/self/cwd to /proc/self)",
	"TMPDIR":               "it changes where programs write temporary files",
	"PAGER":                "programs run it as a command",
	"GREP":                 "zgrep, xzgrep and bzgrep run it through eval as their grep",
	"DIFF":                 "zdiff, xzdiff and bzdiff run it through eval as their diff",
	"CMP":                  "zcmp, xzcmp and bzcmp run it through eval as their cmp",
	"LESS":                 "less runs the command a +! in it gives (LESS=$'+!cmd\\n')",
	"SYSTEMD_LESS":         "systemd's pager passes it to less as LESS, which runs the command a +! in it gives",
	"LESSKEYIN":            "less reads key bindings and its environment from the file it names",
	"LESSKEY":              "less reads key bindings and its environment from the file it names",
	"LESSKEY_CONTENT":      "less reads key bindings and its environment from it",
	"LESSEDIT":             "less runs it as the editor command",
	"MANOPT":               "man takes options, such as -P with a pager command, from it",
	"SYSTEMD_PAGER":        "systemd's tools run it as a command",
	"GIT_PAGER":            "git runs it as a command",
	"EDITOR":               "programs run it as a command",
	"VISUAL":               "programs run it as a command",
	"GIT_EDITOR":           "git runs it as a command",
	"GIT_DIR":              "git uses the repository (and its hooks) it names",
	"GIT_WORK_TREE":        "git works on the tree it names",
	"TEXTDOMAIN":           "bash translates $\"...\" strings with it",
	"TEXTDOMAINDIR":        "bash translates $\"...\" strings with it",
	"LC_ALL":               "bash translates $\"...\" strings with it",
	"MAIL":                 "the shell reads the file it names",
	"INPUTRC":              "readline reads key bindings, which can run commands, from it",
	"HOSTALIASES":          "it changes which host a name reaches",
	"http_proxy":           "programs send requests through it",
	"https_proxy":          "programs send requests through it",
	"HTTP_PROXY":           "programs send requests through it",
	"HTTPS_PROXY":          "programs send requests through it",
	"ALL_PROXY":            "programs send requests through it",
	"GIT_COMMON_DIR":       "git uses the repository (and its hooks) it names",
	"GIT_INDEX_FILE":       "git writes the index to the file it names",
	"EXECIGNORE":           "it changes which program a command name runs",
	"ARGV0":                "zsh starts the programs it runs under the name it holds, and a program such as git or busybox acts as the one that name says (git-rm is git rm)",
	"BASH_CMDS":            "bash runs the file an element names for the command its key names, as hash -p makes it",
	"BASH_ALIASES":         "bash expands an element as an alias for the command its key names",
	"BASH_LOADABLES_PATH":  "enable -f loads builtins, code bash runs, from there",
	"POSIXLY_CORRECT":      "it puts bash in POSIX mode, where aliases expand in scripts and commands read otherwise",
	"BASH_COMPAT":          "it makes bash read the line as an older bash does (at 4.2, quotes in \"${x/a/'$(cmd)'}\" are characters)",
	"CC":                   "build tools run it as the C compiler",
	"GOROOT":               "go runs its compiler and linker from there",
	"GOTOOLCHAIN":          "go runs the toolchain it names, downloaded or found in PATH",
	"GOPROXY":              "go downloads modules and toolchains from where it names",
	"GOSUMDB":              "go checks what it downloads against it, or not at all (off)",
	"GONOSUMDB":            "go does not check the checksums of the modules it names",
	"GOPRIVATE":            "go does not check the checksums of the modules it names",
	"GONOPROXY":            "go downloads the modules it names from their repositories",
	"GOINSECURE":           "go downloads the modules it names without checking",
	"GOVCS":                "go runs the version control tools it allows",
	"CGO_CFLAGS":           "cgo passes it to the C compiler, which loads plugins it names",
	"CGO_CPPFLAGS":         "cgo passes it to the C compiler, which loads plugins it names",
	"CGO_CXXFLAGS":         "cgo passes it to the C++ compiler, which loads plugins it names",
	"CGO_FFLAGS":           "cgo passes it to the Fortran compiler, which loads plugins it names",
	"CGO_LDFLAGS":          "cgo passes it to the linker, which loads plugins it names",
	"CXX":                  "build tools run it as the C++ compiler",
	"FC":                   "build tools run it as the Fortran compiler",
	"AR":                   "build tools run it as the archiver",
	"GCCGO":                "go runs it as the compiler with -compiler=gccgo, even for go list",
	"PKG_CONFIG":           "go runs it for a package's #cgo pkg-config line, even for go list -export",
	"GOAUTH":               "go runs the commands it lists to authenticate its downloads",
}

// ClassifyEnv says what setting the variable name can do, and why.
func ClassifyEnv(name string) (EnvRisk, string) {
	if why, ok := envRunsCode[name]; ok {
		return EnvRunsCode, why
	}
	if why, ok := startupCode(name); ok {
		return EnvRunsCode, why
	}
	switch {
	case strings.HasPrefix(name, "BASH_FUNC_"):
		return EnvRunsCode, "bash defines a function from it, which can replace any command"
	case strings.HasPrefix(name, "LD_") || strings.HasPrefix(name, "DYLD_"):
		return EnvRunsCode, "it changes what the dynamic loader loads"
	case strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_"):
		return EnvRunsCode, "git takes configuration (aliases, hooks, pagers) from it"
	case len(name) > 11 && strings.EqualFold(name[:11], "npm_config_"):
		return EnvRunsCode, "npm takes configuration (script-shell, node-options, a userconfig file) from it"
	case strings.HasPrefix(name, "GIT_TRACE"):
		return EnvChangesCommands, "git writes its trace to the file it names"
	}
	if why, ok := envChangesCommands[name]; ok {
		return EnvChangesCommands, why
	}
	if risk, why, ok := envFamilyReaders.classify(name); ok {
		return risk, why
	}
	if risk, why, ok := envOptionReaders.classify(name); ok {
		return risk, why
	}
	if !validName(name) {
		return EnvChangesCommands, "its name is not a plain variable name, so what the shell makes of it is not known"
	}
	return EnvPlain, ""
}

// envReaders are readers of variables whose names two lists and a rule
// classify alike: a variable they run code through is denied, one through
// which they read, write or run what the line does not show is asked
// about, and a name neither list holds is judged by byName unless it is
// one of a family's plain settings (envPlainInFamily).
type envReaders struct {
	runsCode map[string]string                       // names and why, EnvRunsCode
	changes  map[string]string                       // names and why, EnvChangesCommands
	byName   func(name string) (why string, ok bool) // EnvChangesCommands when ok
}

// classify says what the variable name can do to r's readers; ok is false
// for a variable they do not read or read only as a plain setting.
func (r envReaders) classify(name string) (risk EnvRisk, why string, ok bool) {
	if why, ok := r.runsCode[name]; ok {
		return EnvRunsCode, why, true
	}
	if why, ok := r.changes[name]; ok {
		return EnvChangesCommands, why, true
	}
	if envPlainInFamily[name] {
		return EnvPlain, "", false
	}
	if why, ok := r.byName(name); ok {
		return EnvChangesCommands, why, true
	}
	return EnvPlain, "", false
}

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	return s != "" && nameEnd(s) == len(s)
}
