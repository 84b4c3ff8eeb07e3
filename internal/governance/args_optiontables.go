package governance

// What the bridge knows of the options of the programs a newcomer's
// allowed lines run most (go test -run TestX, cargo build --release
// --target x86_64, npm test --silent): enough to tell which of their words
// are options, and which option values are never a file the program
// creates (optionReadings). An option not in a table may take the next
// word as its value, which may be such a file: that word is judged as
// any other (createdIfMissing). The tables leave out every option whose
// value is a file or directory the program may write (go's -o,
// -coverprofile, -outputdir; cargo's --manifest-path, whose Cargo.lock
// and target/ it writes beside, --target-dir, --config; npm's --prefix),
// or runs a program (go's -exec, -toolexec). go's lists of its tools'
// flags (-gcflags, -ldflags) are judged as lists (goToolFlagsVerdict).

// programOptions is how one program reads the options of some of its
// subcommands.
type programOptions struct {
	// subs are the subcommands (the word after the program's name) the
	// table is for; the value says the options are read after the
	// operands too (go test ./... -run X), else the table ends at the
	// first operand (go run . -count 3: the rest are the program's).
	// A table without subs is the program's own, read up to its
	// operands.
	subs map[string]bool
	// wholeNames: an option is a whole name after one dash or two, with
	// "=value" attached ("-run=X", "--count", as Go's flag package and
	// npm read them); else getopt_long's "--name[=value]" and clusters of
	// short letters whose last may take the rest as its value ("-vj4").
	wholeNames bool
	// flags take no value.
	flags map[string]bool
	// texts take a value the program never creates a file of: a pattern,
	// a number, a duration, a name, a file it only reads.
	texts map[string]bool
	// ends are options after which the words are another program's (go
	// test -args: the test binary's).
	ends map[string]bool
	// textOperands is how many operands, first, are never files
	// (timeout's duration); the words after them are the command the
	// program runs, read by its own form.
	textOperands int
}

// setOf returns the set of the words of list.
func setOf(list ...string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

// knownOptions maps a program's name to how it reads its options.
var knownOptions = map[string]*programOptions{
	"go": {
		subs: map[string]bool{"test": true, "build": false, "vet": false, "install": false, "list": false, "run": false,
			"generate": false},
		wholeNames: true,
		flags:      goBoolFlags,
		texts: setOf("run", "skip", "bench", "benchtime", "count", "cpu", "parallel", "timeout", "tags", "p", "shuffle",
			"list", "fuzz", "fuzztime", "fuzzminimizetime", "covermode", "coverpkg", "mod", "buildmode", "compiler",
			"vet", "buildvcs",
			// Lists of a tool's flags, judged whole (goToolFlagsVerdict).
			"gcflags", "ldflags", "asmflags", "gccgoflags"),
		ends: setOf("args"),
	},
	"cargo": {
		subs: map[string]bool{"build": true, "b": true, "check": true, "c": true, "test": true, "t": true, "run": true,
			"r": true, "clippy": true, "doc": true, "bench": true},
		flags: setOf("release", "r", "all-features", "no-default-features", "workspace", "all", "all-targets", "lib",
			"bins", "tests", "benches", "examples", "locked", "frozen", "offline", "verbose", "v", "quiet", "q",
			"no-fail-fast", "no-run", "doc", "keep-going", "ignore-rust-version", "no-deps", "open"),
		texts: setOf("target", "package", "p", "features", "F", "jobs", "j", "bin", "example", "test", "bench",
			"exclude", "profile", "color", "message-format"),
	},
	"npm": {
		subs: map[string]bool{"test": true, "t": true, "tst": true, "run": true, "run-script": true, "ci": true,
			"install": true, "i": true, "start": true},
		wholeNames: true,
		flags: setOf("silent", "s", "if-present", "workspaces", "ws", "include-workspace-root", "save-dev", "D",
			"save", "S", "no-save", "save-exact", "E", "legacy-peer-deps", "force", "f", "prefer-offline", "offline",
			"no-audit", "no-fund", "production", "dry-run", "ignore-scripts", "quiet", "verbose"),
		texts: setOf("workspace", "w", "loglevel", "omit", "include", "registry", "tag"),
	},
	// Wrappers: the words before the command they run.
	"timeout": {flags: setOf("foreground", "preserve-status", "verbose", "v"), texts: setOf("kill-after", "k", "signal", "s"),
		textOperands: 1},
	"nice": {texts: setOf("adjustment", "n")},
	// Files programs only read, given by an option: an environment or
	// variables file (the script an interpreter runs is its first operand,
	// args_maywrite.go).
	"node":      {texts: setOf("env-file", "env-file-if-exists")},
	"bun":       {subs: map[string]bool{"run": false}, texts: setOf("env-file")},
	"deno":      {subs: map[string]bool{"run": false, "test": false}, texts: setOf("env-file")},
	"docker":    {subs: map[string]bool{"run": false, "create": false}, texts: setOf("env-file")},
	"dotenv":    {texts: setOf("f", "file")},
	"terraform": {subs: map[string]bool{"plan": false, "apply": false, "destroy": false, "refresh": false}, wholeNames: true, texts: setOf("var-file")},
	"stdbuf":    {texts: setOf("input", "output", "error", "i", "o", "e")},
}
