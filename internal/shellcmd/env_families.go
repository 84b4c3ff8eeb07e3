package shellcmd

import "strings"

// Variables read by the C library in every program, by language runtimes
// and by the libraries programs load. The exact names in env.go are the
// ones whose effect is known; a family here covers the names of a reader
// that takes code, plugins or configuration from its variables, so that a
// variable not listed yet is asked about rather than passed as plain.

// envLibcRunsCode are variables the C library or a tool every system has
// reads to load code; glibc ignores them in setuid programs for that
// reason (its unsecvars list).
var envLibcRunsCode = map[string]string{
	"GCONV_PATH":  "iconv loads the shared objects in the directory it names into any program that converts text",
	"GETCONF_DIR": "getconf runs programs from the directory it names",
}

// envFileWriters are variables that make a program write to the file or
// directory they name.
var envFileWriters = map[string]string{
	"MALLOC_TRACE":         "the C library writes its trace to the file it names",
	"SSLKEYLOGFILE":        "TLS libraries append session keys to the file it names",
	"LESSHISTFILE":         "less writes its history to the file it names",
	"NODE_REPL_HISTORY":    "node writes its history to the file it names",
	"NODE_V8_COVERAGE":     "node writes coverage files into the directory it names",
	"PYTHONPYCACHEPREFIX":  "python writes its compiled modules into the directory it names",
	"SQLITE_HISTORY":       "sqlite3 writes its history to the file it names",
	"MYSQL_HISTFILE":       "mysql writes its history to the file it names",
	"PSQL_HISTORY":         "psql writes its history to the file it names",
	"LLVM_PROFILE_FILE":    "programs built with profiling write their profile to the file it names",
	"GCOV_PREFIX":          "programs built with coverage write their data beneath the directory it names",
	"GOCOVERDIR":           "programs built with coverage write their data into the directory it names",
	"GOTMPDIR":             "go writes temporary files into the directory it names",
	"CCACHE_DIR":           "ccache writes its cache into the directory it names",
	"GIT_REDIRECT_STDOUT":  "git writes its output to the file it names",
	"GIT_REDIRECT_STDERR":  "git writes its errors to the file it names",
	"PYTHON_HISTORY":       "python writes its history to the file it names",
	"PERLDB_OPTS":          "perl's debugger takes options, a file to write among them, from it",
	"OPENSSL_TRACE":        "openssl writes its trace as it names",
	"RUBY_YJIT_PERF_FILE":  "ruby writes a perf map to the file it names",
	"GIT_TRACE2_EVENT_DIR": "git writes its trace into the directory it names",
}

// envFamily is a reader's prefix and what its variables can do.
type envFamily struct {
	prefix string
	why    string
}

// envFamilies are the prefixes of readers that take code, plugins or
// configuration from some of their variables (PYTHONSTARTUP, PERL5OPT,
// NODE_OPTIONS, CARGO_TARGET_<triple>_RUNNER, GTK_MODULES, ...).
var envFamilies = []envFamily{
	{"PYTHON", "python reads PYTHON* variables, some of which load code (PYTHONSTARTUP, PYTHONBREAKPOINT)"},
	{"PERL", "perl reads PERL* variables, some of which load code (PERL5OPT, PERL5LIB)"},
	{"RUBY", "ruby reads RUBY* variables, some of which load code (RUBYOPT, RUBYLIB)"},
	{"GEM_", "ruby loads gems from where GEM_* variables say"},
	{"BUNDLE_", "bundler reads its settings, a Gemfile (ruby code) among them, from BUNDLE_* variables"},
	{"NODE_", "node reads NODE_* variables, some of which load code (NODE_OPTIONS, NODE_PATH)"},
	{"LUA_", "lua loads code from where LUA_* variables say (LUA_PATH, LUA_CPATH)"},
	{"PHP", "php reads its configuration, which loads extensions, from where PHP* variables say"},
	{"R_", "R runs the profiles and loads the libraries R_* variables name"},
	{"JULIA_", "julia loads code from where JULIA_* variables say"},
	{"JAVA_", "the JVM and its tools take options, agents and the java they run from JAVA_* variables"},
	{"_JAVA_", "the JVM takes options, such as -javaagent, from it"},
	{"JDK_", "the JVM takes options, such as -javaagent, from JDK_* variables"},
	{"CLASSPATH", "the JVM loads classes from where it says"},
	{"DOTNET_", "dotnet reads DOTNET_* variables, some of which load code (DOTNET_STARTUP_HOOKS)"},
	{"CORECLR_", "the .NET runtime loads the profiler CORECLR_* variables name"},
	{"COMPlus_", "the .NET runtime takes settings, a profiler among them, from COMPlus_* variables"},
	{"CARGO_", "cargo takes settings, runners and linkers it runs among them, from CARGO_* variables"},
	{"RUSTC", "cargo runs the compiler or wrapper RUSTC* variables name"},
	{"RUSTFLAGS", "cargo passes it to the compiler, which runs the linker it names"},
	{"RUSTDOCFLAGS", "cargo passes it to rustdoc, which runs the linker it names"},
	{"GCC_", "gcc runs its programs from where GCC_* variables say"},
	{"COMPILER_PATH", "gcc runs its programs from where it says"},
	{"OPENSSL_", "openssl loads the configuration, engines and providers OPENSSL_* variables name"},
	{"GTK", "GTK loads the modules GTK* variables name"},
	{"GST_", "GStreamer loads the plugins GST_* variables name"},
	{"QT_", "Qt loads the plugins QT_* variables name"},
	{"GIO_", "GIO loads the modules GIO_* variables name"},
	{"GDK_", "GDK loads the modules GDK_* variables name"},
	{"LIBGL_", "OpenGL loads the drivers LIBGL_* variables name"},
	{"PIP_", "pip takes its settings, where it installs code from among them, from PIP_* variables"},
	{"WGETRC", "wget reads its settings, a command to run among them, from the file it names"},
	{"CURL_HOME", "curl reads its settings, files to write among them, from the directory it names"},
	{"RIPGREP_CONFIG_PATH", "rg reads its options, a program to run on each file among them, from the file it names"},
	{"BAT_CONFIG_PATH", "bat reads its options, a pager to run among them, from the file it names"},
	{"VIM", "vim runs the commands VIM* variables give or name"},
	{"MYVIMRC", "vim runs the file it names"},
	{"GIT_", "git reads GIT_* variables, some of which run commands or change the repository it works on"},
}

// envPlainInFamily are variables of a family above known to change no
// code, plugin or file: a formatting, logging or identity setting.
var envPlainInFamily = map[string]bool{
	"PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true, "PYTHONIOENCODING": true,
	"PYTHONHASHSEED": true, "PYTHONUTF8": true, "PYTHONFAULTHANDLER": true, "PYTHONNOUSERSITE": true,
	"PYTHONSAFEPATH": true, "PYTHONOPTIMIZE": true, "PYTHONVERBOSE": true, "PYTHONDEVMODE": true,
	"PYTHONTRACEMALLOC": true, "PYTHONLEGACYWINDOWSSTDIO": true, "PYTHONCOERCECLOCALE": true,
	"NODE_ENV": true, "NODE_NO_WARNINGS": true, "NODE_DEBUG": true, "NODE_PENDING_DEPRECATION": true,
	"NODE_DISABLE_COLORS": true,
	"CARGO_TERM_COLOR":    true, "CARGO_TERM_VERBOSE": true, "CARGO_TERM_QUIET": true, "CARGO_TERM_PROGRESS_WHEN": true,
	"CARGO_INCREMENTAL": true, "CARGO_NET_OFFLINE": true, "CARGO_BUILD_JOBS": true, "CARGO_PROFILE_RELEASE_DEBUG": true,
	"GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true, "GIT_AUTHOR_DATE": true,
	"GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true, "GIT_COMMITTER_DATE": true,
	"GIT_TERMINAL_PROMPT": true, "GIT_OPTIONAL_LOCKS": true, "GIT_FLUSH": true, "GIT_MERGE_AUTOEDIT": true,
	"GIT_LFS_SKIP_SMUDGE": true, "GIT_LITERAL_PATHSPECS": true, "GIT_GLOB_PATHSPECS": true,
	"GIT_NOGLOB_PATHSPECS": true, "GIT_ICASE_PATHSPECS": true, "GIT_PROGRESS_DELAY": true,
	"GIT_HTTP_USER_AGENT": true, "GIT_MERGE_VERBOSITY": true, "GIT_ADVICE": true,
	"PERL_BADLANG": true, "PERL_HASH_SEED": true, "PERL_UNICODE": true,
	"QT_QPA_PLATFORM": true, "QT_SCALE_FACTOR": true, "QT_AUTO_SCREEN_SCALE_FACTOR": true,
	"GTK_THEME": true, "GDK_BACKEND": true, "GDK_SCALE": true,
}

// envFamilyReaders are the C library, the programs that write to a file
// a variable names, and the families of readers.
var envFamilyReaders = envReaders{runsCode: envLibcRunsCode, changes: envFileWriters, byName: familyOf}

// familyOf returns what the variables of the family name belongs to can
// do; ok is false for a name of no family.
func familyOf(name string) (why string, ok bool) {
	for _, f := range envFamilies {
		if strings.HasPrefix(name, f.prefix) {
			return f.why, true
		}
	}
	return "", false
}
