package shellcmd

import (
	"slices"
	"strings"
)

// A variable's value can name a file as an argument does: file(1) reads
// its magic database from the files MAGIC lists and prints a line it
// cannot read, so "MAGIC=.env file a.txt" shows .env as "file -m .env
// a.txt" does; cmake runs CMAKE_TOOLCHAIN_FILE; git appends its trace to
// GIT_TRACE's file. The name says nothing of that to a rule allowing the
// program, and no list knows every program's variables, so the value is
// what is judged: every variable's value, whole and as a list of paths
// separated by ':', is a name a program may open.

// EnvValueUse says what a program may do with the files a variable's
// value names.
type EnvValueUse uint8

const (
	// EnvValueMayName: nothing is known of the variable; a program may
	// still read a file its value names.
	EnvValueMayName EnvValueUse = iota
	// EnvValueReads: a program reads the files or directories the value
	// names (configuration, code, data, a search path), so a value not
	// known until the line runs may be any file.
	EnvValueReads
	// EnvValueWrites: a program writes the file or directory the value
	// names.
	EnvValueWrites
)

// envValueWrites are variables naming a file a program writes, besides
// envFileWriters and GIT_TRACE*.
var envValueWrites = map[string]string{
	"GIT_INDEX_FILE":      "git writes the index to the file it names",
	"HISTFILE":            "the shell writes its history to the file it names",
	"DEPENDENCIES_OUTPUT": "gcc writes make dependencies to the file it names",
	"SUNPRO_DEPENDENCIES": "gcc writes make dependencies to the file it names",
}

// envValueReads are variables naming a file a program reads whose names do
// not end as envFileSuffixes say.
var envValueReads = map[string]string{
	"MAGIC":           "file reads its magic database from the files it lists, and prints a line it cannot read",
	"NETRC":           "programs read credentials from the file it names",
	"TZ":              "the C library reads the time zone file it names",
	"TERMINFO":        "programs read terminal descriptions from the directory it names",
	"CURL_CA_BUNDLE":  "curl reads certificates from the file it names",
	"SSL_CERT_DIR":    "TLS libraries read certificates from the directory it names",
	"SSL_CERT_FILE":   "TLS libraries read certificates from the file it names",
	"JAVA_HOME":       "java tools run the programs of the directory it names",
	"PKG_CONFIG_PATH": "pkg-config reads package descriptions from the directories it lists",
	"MANPATH":         "man reads pages from the directories it lists",
	"INFOPATH":        "info reads documents from the directories it lists",
	"AWKPATH":         "gawk reads the programs -f and @include name from the directories it lists",
	"ENV":             "sh runs the file it names at start-up",
	"BASH_ENV":        "bash runs the file it names at start-up",
	"LD_PRELOAD":      "the dynamic loader loads the libraries it lists into every program",
	"LD_AUDIT":        "the dynamic loader loads the libraries it lists into every program",
	"MAKEFILES":       "make reads the makefiles it lists first",
	"KUBECONFIG":      "kubectl reads the files it lists",
	"GOENV":           "go reads its settings from the file it names",
	"INPUTRC":         "readline reads key bindings from the file it names",
	"HOSTALIASES":     "the C library reads host aliases from the file it names",
	"LESSKEYIN":       "less reads key bindings and its environment from the file it names",
	"LESSKEY":         "less reads key bindings and its environment from the file it names",
	"LESSOPEN":        "less runs it as a command",
	"MAIL":            "the shell reads the file it names",
	"WGETRC":          "wget reads its settings from the file it names",
	"MYVIMRC":         "vim runs the file it names",
	"GIT_DIR":         "git uses the repository it names",
	"GIT_WORK_TREE":   "git works on the tree it names",
}

// envFileSuffixes are the endings of a variable name's last part that say
// its value names a file or a directory of them (CMAKE_TOOLCHAIN_FILE,
// ANSIBLE_CONFIG, RIPGREP_CONFIG_PATH, GRADLE_USER_HOME, PSQLRC,
// SSL_CERT_DIR, PYTHONSTARTUP).
var envFileSuffixes = []string{
	"FILE", "FILES", "PATH", "DIR", "DIRS", "HOME", "CONFIG", "CONF", "CFG", "RC", "INIT",
	"PROFILE", "STARTUP", "ROOT", "PREFIX", "INCLUDE", "LIB", "CERTS", "BUNDLE", "SCRIPT",
}

// EnvValueReadKnown reports whether name is a variable known to name only
// what a program reads (envValueReads), not one whose name alone says so.
func EnvValueReadKnown(name string) bool {
	_, ok := envValueReads[name]
	return ok
}

// ClassifyEnvValue says what a program may do with the files the value of
// the variable name names, and why.
func ClassifyEnvValue(name string) (EnvValueUse, string) {
	if why, ok := envValueWrites[name]; ok {
		return EnvValueWrites, why
	}
	if why, ok := envFileWriters[name]; ok {
		return EnvValueWrites, why
	}
	if strings.HasPrefix(name, "GIT_TRACE") {
		return EnvValueWrites, "git writes its trace to the file it names"
	}
	if why, ok := envValueReads[name]; ok {
		return EnvValueReads, why
	}
	if lastPartEnds(name, envFileSuffixes) {
		return EnvValueReads, "its name says a program reads the files it names"
	}
	return EnvValueMayName, "a program may open the file it names"
}

// EnvValueNames returns the names a variable's value may give a program:
// the value whole, and each element of it as a list separated by ':' (a
// search path, MAGIC's list of files, TZ's ":/file"), empty ones left out.
// A URL ("redis://host:6379/0", "sqlite:///./db") is not a list: it is
// the value whole, and a file:// URL its path as well.
func EnvValueNames(value string) []string {
	var out []string
	if value != "" {
		out = append(out, value)
	}
	if scheme, rest, ok := strings.Cut(value, "://"); ok && scheme != "" && !strings.ContainsAny(scheme, "/:") {
		if strings.EqualFold(scheme, "file") && rest != "" {
			out = append(out, rest)
		}
		return out
	}
	if !strings.Contains(value, ":") {
		return out
	}
	for _, el := range strings.Split(value, ":") {
		if el != "" && !slices.Contains(out, el) {
			out = append(out, el)
		}
	}
	return out
}
