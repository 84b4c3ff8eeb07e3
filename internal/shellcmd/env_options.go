package shellcmd

import "strings"

// Variables a program reads as part of its own command line: options it
// takes before those the line gives, the command it runs to reach a
// remote host, the archive it writes. The line a rule allows shows none
// of them, so TAR_OPTIONS='--to-command=rm x' makes an allowed or
// approved "tar -xf a.tar" run rm, ZIPOPT='-TT cmd' makes "zip" run cmd,
// UNZIP='-d /elsewhere' makes "unzip a.zip" write outside the workspace
// and TAPE=/elsewhere/t.tar makes "tar c f" write there.

// envProgramRunsCode are option variables through which the program runs
// a command of the value's choosing.
var envProgramRunsCode = map[string]string{
	"TAR_OPTIONS":        "tar takes options from it, --to-command and --checkpoint-action=exec (commands it runs) among them",
	"ZIPOPT":             "zip takes options from it, -TT (a command it runs) among them",
	"ZIP":                "zip takes options from it, -TT (a command it runs) among them",
	"RSYNC_RSH":          "rsync runs it as the command that reaches the remote host",
	"RSYNC_CONNECT_PROG": "rsync runs it as a command to reach a daemon",
	"CVS_RSH":            "cvs runs it as the command that reaches the remote host",
	"SVN_SSH":            "svn runs it as the command that reaches the remote host",
	"GNUMAKEFLAGS":       "make takes options, such as --eval, from it",
	"PARALLEL":           "GNU parallel takes options and commands from it",
	"PARALLEL_SHELL":     "GNU parallel runs its commands with it",
}

// envProgramOptions are option variables through which the program reads
// or writes files, or runs programs, the line does not name.
var envProgramOptions = map[string]string{
	"TAPE":         "tar reads or writes the archive it names when the line gives none",
	"UNZIP":        "unzip takes options from it, -d (where it extracts) among them",
	"UNZIPOPT":     "unzip takes options from it, -d (where it extracts) among them",
	"ZIPINFO":      "zipinfo takes options from it",
	"ZIPINFOOPT":   "zipinfo takes options from it",
	"BZIP":         "bzip2 takes options from it",
	"BZIP2":        "bzip2 takes options from it",
	"XZ_DEFAULTS":  "xz takes options from it",
	"GZIP":         "gzip takes options from it",
	"GREP_OPTIONS": "grep takes options from it",
	"MORE":         "more takes options from it",
	"SHELL":        "programs (script, vim, make's $(SHELL), GNU parallel) run commands with it",
	"FCEDIT":       "bash's fc runs it as the editor",
	"TERMCMD":      "programs run it as a terminal command",
}

// envNameSuffixes are the endings of a variable name's last part that say
// a program takes options, a command or code to load from it (MAVEN_OPTS,
// PYTEST_ADDOPTS, ERL_AFLAGS, CMAKE_C_COMPILER_LAUNCHER, HGEDITOR), for a
// program no list here knows.
var envNameSuffixes = []string{
	"OPT", "OPTS", "OPTIONS", "FLAGS", "ARGS",
	"RSH", "SSH", "SHELL", "EDITOR", "EDIT", "PAGER", "CMD", "COMMAND", "PROG", "PROGRAM",
	"WRAPPER", "LAUNCHER", "RUNNER", "LINKER", "COMPILER", "INTERPRETER",
	"PLUGIN", "PLUGINS", "HOOK", "HOOKS", "PRELOAD",
}

// envOptionReaders are the programs that read option variables.
var envOptionReaders = envReaders{runsCode: envProgramRunsCode, changes: envProgramOptions, byName: optionsByName}

// optionsByName reports whether name ends as option variables' names do
// (envNameSuffixes), and says why that matters.
func optionsByName(name string) (why string, ok bool) {
	if lastPartEnds(name, envNameSuffixes) {
		return "its name says a program takes options, a command or code to load from it", true
	}
	return "", false
}

// lastPartEnds reports whether the last '_'-separated part of the variable
// name, upper-cased, ends with one of suffixes (MAVEN_OPTS, PSQLRC).
func lastPartEnds(name string, suffixes []string) bool {
	last := strings.ToUpper(name[strings.LastIndexByte(name, '_')+1:])
	for _, s := range suffixes {
		if strings.HasSuffix(last, s) {
			return true
		}
	}
	return false
}
