package governance

import (
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Programs the bridge does not know may change the files they are given:
// "gofmt -w f", "sponge f", "yq -i ... f", "python3 tool.py f" (a script
// that opens its argument to write), "make f". An operand of such a
// program that names an existing file is decided as a read, and also as a
// write under the policy's own rules: a rule refusing to edit the file
// refuses the command. A rule asking before an edit asks, unless a rule of
// the policy allowed the command (the person vouched for the program).
// The built-in refusal of writes outside the workspace roots is not
// applied to them ("wc /usr/include/stdio.h" is common): a plain argument
// there is asked about as before.

// leavesOperands are programs known to leave the files they name as they
// are: they read them, or write only through options the other tables read
// (sort -o, an output option, a backup). A wrapper's own form is not
// judged by this list: what it runs is (lastFormOnly).
var leavesOperands = map[string]bool{
	// read and print
	"bat": true, "batcat": true, "less": true, "od": true, "hexdump": true, "hd": true,
	"xxd": true, "base64": true, "base32": true, "basenc": true, "bzcat": true, "xzcat": true, "zcat": true,
	"zless": true, "zmore": true, "zdiff": true, "zcmp": true, "tree": true,
	// compare and summarise
	"diff": true, "diff3": true, "colordiff": true, "cmp": true, "comm": true, "md5sum": true, "sha1sum": true,
	"sha224sum": true, "sha256sum": true, "sha384sum": true, "sha512sum": true, "b2sum": true, "cksum": true,
	"sum": true, "shasum": true, "md5": true, "getfacl": true, "lsattr": true, "df": true, "namei": true,
	// filters
	"cut": true, "paste": true, "join": true, "fold": true, "fmt": true, "pr": true, "expand": true,
	"unexpand": true, "rev": true, "column": true, "look": true, "tsort": true, "shuf": true, "jq": true, "tr": true, "numfmt": true,
	"gojq": true, "jaq": true, "awk": true, "gawk": true, "mawk": true, "nawk": true, "uniq": true, "iconv": true,
	// search
	"find": true, "fd": true, "fdfind": true, "ag": true, "ack": true, "locate": true, "which": true,
	"whereis": true, "type": true, "basename": true, "dirname": true,
	// the shell's own commands, and programs that name no file to change
	"cd": true, "pushd": true, "popd": true, "chdir": true, "read": true, "mapfile": true, "readarray": true,
	"exec": true, "xargs": true, "wait": true, "set": true, "shift": true, "local": true, "declare": true,
	"typeset": true, "readonly": true, "let": true, "alias": true, "unalias": true, "umask": true, "ulimit": true,
	"trap": true, "return": true, "break": true, "continue": true, "hash": true, "getopts": true, "pwd": true,
	"env": true, "printenv": true, "date": true, "id": true, "whoami": true, "uname": true, "seq": true,
	"yes": true, "expr": true,
	// programs whose file operands are inputs, or which the other tables read
	"ssh": true, "ssh-add": true, "openssl": true, "curl": true, "wget": true, "tar": true,
	"zip": true, "unzip": true, "source": true, ".": true,
	// checkers with no option that writes a file, which read their sources
	// (compilers are not: gcc -MF, -Wl,-Map=, rustc --emit=dep-info= write
	// files they name; nor are linters and formatters with caches, reports
	// or fixes: eslint --cache-location, prettier --write, semgrep
	// --json-output, yq --in-place)
	"shellcheck": true, "yamllint": true, "hadolint": true, "envsubst": true,
}

// interpreters run the script their first operand names, which they read:
// "python3 tool.py f" may change f, not tool.py. isInterpreter reads a
// versioned name (python3.11, perl5.36.0) as its interpreter's.
var interpreters = map[string]bool{"python": true, "python3": true, "node": true, "nodejs": true, "ruby": true,
	"perl": true, "php": true, "lua": true, "bash": true, "sh": true, "dash": true, "zsh": true, "ksh": true,
	"Rscript": true, "deno": true, "bun": true, "tsx": true, "tclsh": true, "wish": true, "expect": true,
	"ipython": true}

// isInterpreter reports whether the program name is one of interpreters,
// under its own name or a versioned one (shellcmd.InterpreterName).
func isInterpreter(name string) bool {
	return interpreters[name] || interpreters[shellcmd.InterpreterName(name)]
}

// gitLeavesOperands are the git subcommands that leave the files they
// name as they are, or whose writes the other tables read (checkout,
// restore, rm, mv, stash, clean: treewrite_cmd.go; config: gitConfigWrites;
// --output, format-patch, archive, bundle: gitOutputWrites). Any other
// ("interpret-trailers --in-place", "mailinfo MSG PATCH", "credential-store
// --file F") may change them.
var gitLeavesOperands = setOf("add", "am", "annotate", "apply", "archive", "bisect", "blame", "branch", "bundle",
	"cat-file", "check-attr", "check-ignore", "check-ref-format", "checkout", "cherry", "cherry-pick", "clean",
	"clone", "commit", "config", "count-objects", "describe", "diff", "diff-files", "diff-index", "diff-tree",
	"fetch", "for-each-ref", "format-patch", "fsck", "gc", "grep", "help", "init", "log", "ls-files", "ls-remote",
	"ls-tree", "hash-object", "merge", "merge-base", "mv", "name-rev", "notes", "pull", "push", "range-diff", "rebase", "reflog",
	"remote", "reset", "restore", "rev-list", "rev-parse", "revert", "rm", "shortlog", "show", "show-ref", "stash",
	"status", "submodule", "switch", "tag", "update-index", "var", "version", "whatchanged", "worktree")

// goLeavesOperands are the go subcommands that leave the files they name
// as they are ("go fmt" rewrites them; "go run" and "go generate" run
// programs of the agent's; "go mod edit" and "go work edit" rewrite the
// file they are given).
var goLeavesOperands = map[string]bool{"build": true, "test": true, "vet": true, "list": true, "doc": true,
	"version": true, "env": true, "mod": true, "get": true, "install": true, "work": true, "help": true}

// mayWriteOperands reports whether the program of form, the last of its
// command's forms (what runs after every wrapper), may change a file its
// operands name without the bridge knowing it.
func mayWriteOperands(form []shellcmd.Word, lastForm bool) bool {
	if !lastForm || len(form) == 0 || form[0].Kind != shellcmd.Static {
		return false
	}
	if !systemProgram(form[0].Text) {
		return true // whatever program lives there: the agent's "./cat"
	}
	name := filepath.Base(form[0].Text)
	switch {
	case (name == "bat" || name == "batcat") && len(form) > 1 && form[1].Text == "cache",
		name == "tree" && shortLetters(form, "R"):
		// "bat cache --build --target DIR" writes DIR; "tree -R -H"
		// writes a page into every directory it lists.
		return true
	case readsOnly[name], leavesOperands[name], argsNotFiles[name], writesLast[name], name == "tee", name == "dd":
		return false
	case name == "ssh-keygen":
		// Its -f is read by its own table; other operands are written
		// unless it only reads keys (-l, -y, ...): "-M generate OUT".
		return !shortLetters(form, sshKeygenReads)
	case name == "go":
		return len(form) < 2 || !goLeavesOperands[form[1].Text] || len(form) > 2 && form[2].Text == "edit"
	case name == "git":
		return !gitLeavesOperands[gitSubcommandName(form)]
	}
	_, known := operandWriters[name]
	return !known
}

// mayChange decides the existing file n, which a's program may change, as
// a write under the policy's own rules; v is its verdict as a read. ok
// says the write's verdict is the stricter and stands instead. Outside
// the workspace roots the rule naming where n leads decides (the roots'
// deny of a read is a question, or passed over), as it does inside.
func (e *Engine) mayChange(in *reqInfo, a argWord, n string, v verdict, advisories *[]string) (verdict, bool) {
	w := *in
	w.read, w.write = false, true
	wv := e.decidePathLazy(&w, n, advisories)
	if r, ok := e.ruledBeyondRoots(&w, n, wv); ok {
		wv = r
	}
	// Deny and escalate stand whoever allowed the command; a question
	// only where no rule vouched for the program.
	if wv.rule == nil || !(wv.value.Stricter(RequireApproval) || wv.value == RequireApproval && !a.vouched) {
		return verdict{}, false
	}
	if v.value != Allow && passedOver(v.ref) == 0 && !wv.value.Stricter(v.value) {
		return verdict{}, false
	}
	wv.reason = a.program + " may change it (the bridge does not know that " + a.program + " leaves the files it is given as they are): " + wv.text()
	return wv, true
}

// interpreterScript returns the word of form naming the script an
// interpreter runs: its first word that is not an option, after options
// the bridge knows (a shell's, as shellcmd.ShellOptions reads them;
// python's flags, -W and -X; the options knownOptions has for node, deno
// and bun, "--env-file=.env" among them); nil for a form that is not an
// interpreter's, runs no script file (-c, -m), or has an option the bridge
// does not know ("node --cpu-prof-name F x.js"), where every word may be a
// file the program changes.
func interpreterScript(name string, form []shellcmd.Word) *shellcmd.Word {
	if operands, code, ok := shellcmd.ShellOptions(form); ok {
		if code || operands >= len(form) || form[operands].Kind != shellcmd.Static {
			return nil
		}
		return &form[operands]
	}
	python := shellcmd.InterpreterName(name) == "python" || name == "ipython"
	if !isInterpreter(name) && !python {
		return nil
	}
	table := knownOptions[name]
	start := 1
	if len(form) > 1 && table != nil && table.subs != nil {
		if _, ok := table.subs[form[1].Text]; !ok {
			return nil
		}
		start = 2 // deno run, bun run
	}
	for i := start; i < len(form); i++ {
		t := form[i].Text
		switch {
		case form[i].Kind != shellcmd.Static:
			return nil
		case t == "--":
			if i+1 < len(form) && form[i+1].Kind == shellcmd.Static {
				return &form[i+1]
			}
			return nil
		case !strings.HasPrefix(t, "-"):
			return &form[i]
		case python && t[1:] != "" && strings.Trim(t[1:], pythonFlags) == "":
		case python && (t == "-W" || t == "-X"):
			i++ // and its value
		case table != nil:
			switch _, takes := readOption(table, t); takes {
			case takesMaybe:
				return nil // not known
			case takesText:
				i++ // and its value
			}
		default:
			return nil
		}
	}
	return nil
}

// pythonFlags are python's option letters that take no value and leave
// the first operand the script.
const pythonFlags = "bBdEhiIOPqsSuvVx"

// wordSegments returns the names inside the words of form, whose program
// the bridge does not know, after an "=", "," or ":" that is not the
// word's first: a compiler's "-Wl,-Map=F", "--emit=dep-info=F",
// "-fopt-info-all=F", java's "-Xloggc:F" and "-Xlog:gc:F" write F; so may
// a word's first part before such a separator when the word is no option
// ("F,x", "F:/mnt"). Each is decided as a file the program may change
// (argWord.segment): a plain argument of such a shape is often no file at
// all. Each is also decided as a file the program reads (segmentReads): dd's kin
// read "if=F" (dcfldd, dc3dd, sg_dd, ddpt), socat "OPEN:F" and
// "GOPEN:F,rdonly", and a program may split "x,F" at its commas.
func wordSegments(name string, form []shellcmd.Word, readings map[*shellcmd.Word]wordReading) []argWord {
	var out []argWord
	for i := 1; i < len(form); i++ {
		w := form[i]
		if w.Kind != shellcmd.Static || !strings.ContainsAny(w.Text, "=,:") {
			continue
		}
		if r := readings[&form[i]]; r.valueAt > 0 && r.value {
			continue // "--env-file=.env": a value the program only reads
		}
		parts := strings.FieldsFunc(w.Text, func(r rune) bool { return r == '=' || r == ',' || r == ':' })
		if len(parts) < 2 {
			continue // "=", ",,": no part after another
		}
		for k, p := range parts {
			if !strings.HasPrefix(p, "-") && (k > 0 || !strings.HasPrefix(w.Text, "-")) {
				out = append(out, argWord{word: w, text: p, at: &form[i], segment: true, mayWrite: true, program: name})
			}
		}
		out = append(out, segmentReads(w, &form[i], parts)...)
	}
	return out
}

// segmentReads returns the parts of word w (split into parts at "=", ","
// and ":") an unknown program may open to read, each decided as a read
// the way a whole word is (argWord.part): every part that is no option
// ("-Map"), the first only when the word is no option itself ("--in" of
// "--in=F" is the option's name). The rest of a URL's scheme
// ("//host/path" of "https://host/path") names a file of another host and
// is left out.
func segmentReads(w shellcmd.Word, at *shellcmd.Word, parts []string) []argWord {
	var out []argWord
	for _, p := range parts {
		if strings.HasPrefix(p, "-") || strings.HasPrefix(p, "//") {
			continue
		}
		out = append(out, argWord{word: w, text: p, at: at, readOnly: true, part: true})
	}
	return out
}

// programGlobNames returns the files a quoted pattern p may name to a
// program that expands patterns itself ("prettier --write '.github/**/*.yml'"):
// what it matches as a shell glob, with each "**/" as no directory, one
// or two, and where the links in kept lead (keptGlobNames: after "ln -s
// keys kk", 'kk/*.key' names keys/a.key); nothing for a name without a
// pattern's characters.
func (in *reqInfo) programGlobNames(p string) []string {
	if !strings.ContainsAny(p, "*?[") {
		return nil
	}
	var out []string
	for _, v := range []string{p, strings.ReplaceAll(p, "**/", ""), strings.ReplaceAll(p, "**/", "*/"), strings.ReplaceAll(p, "**/", "*/*/")} {
		if names, ok := in.keptGlobNames(v, maxGlobMatches); ok {
			out = append(out, names...)
		}
	}
	return out
}
