package governance

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Files a command names: "cat .env" opens .env whatever rule allows cat.
// Every static argument word of every form of a simple command that could
// name a file (the command word aside; an option word whole and, for
// --opt=value, its value too) is decided as the path the command will open:
// a relative word joined to the command's cwd, ~/ to HOME, a glob expanded
// against the file system (past maxGlobMatches names, asked) and its last
// segment also matched as a pattern; a word the shell computes when the
// line runs is asked about (runtimeName). Deny and ask path rules apply as to a
// read (a write for destinations: cp, mv, ln, install's last argument,
// every file of tee, dd's of=, and the operands of programs that change
// the files they name, args_writes.go). Outside the workspace roots a destination
// is denied as a redirection is; a plain argument that names an existing
// file there is asked about, not denied ("ls /usr/bin" is common), unless
// a rule decides it. After a cd in the same line a relative word is
// decided where the cd leads (cwd.go); where that is not known, a rule
// that denies its name anywhere asks.

// maxGlobMatches bounds the names one glob word is expanded to; past it
// the command is asked about.
const maxGlobMatches = 1024

// argsNotFiles are commands whose arguments never name files to open.
var argsNotFiles = map[string]bool{"echo": true, "printf": true, "true": true, "false": true, ":": true,
	"sleep": true, "kill": true, "exit": true, "export": true, "unset": true, "test": true, "[": true, "[[": true}

// writesLast are commands whose last operand is written to.
var writesLast = map[string]bool{"cp": true, "mv": true, "ln": true, "install": true, "rsync": true, "scp": true}

// readsOnly are commands that open what they name only to read it, with
// no option that writes a file: a name of theirs that does not exist is
// never created. less is not one: -o/-O/--log-file write its input to a
// file.
var readsOnly = map[string]bool{"ls": true, "cat": true, "head": true, "tail": true, "wc": true, "grep": true,
	"egrep": true, "fgrep": true, "zgrep": true, "rg": true, "stat": true, "file": true, "more": true,
	"readlink": true, "realpath": true, "cmp": true, "nl": true, "strings": true, "du": true, "tac": true}

// argWord is one word of a command judged as a file.
type argWord struct {
	word  shellcmd.Word
	text  string // the text judged (the value of --opt=value)
	write bool
	// readOnly says the command never creates what it names (readsOnly).
	readOnly bool
	// fromTop says the name is relative to the top of git's work tree,
	// which may be any directory from the command's up to its workspace
	// root, not to the command's directory alone.
	fromTop bool
	// entersDir says the command changes the line's directory to the
	// name (cd, pushd): what the line names after it may lead there.
	entersDir bool
	// namedBy says where the name comes from, for the reason; empty
	// means the command's words.
	namedBy string
	// at is the word of the command's forms the name comes from (the
	// word whole, or a part of it: an option's value), nil for a name
	// from elsewhere; decideArgsWith compares it with the words the rule
	// that allowed the command names (ruleNamedWords).
	at *shellcmd.Word
	// pieces are the static pieces, in lower case, of a name a program
	// computes from the line's words (split's prefix and suffix, a
	// backup's name under a suffix from the environment), split where
	// the computed part goes (staticPieces); the name is refused where
	// they could join to a protected location (computedNameProtected).
	pieces []string
	// backupOf is the file a backup is made of under a suffix known
	// only when the line runs, which holds no "/" (SIMPLE_BACKUP_SUFFIX):
	// the name is refused where a protected file is it followed by more.
	backupOf string
	// protectOnly says the name is decided by self-protection alone
	// (pieces, backupOf): another argWord decides the file the command
	// writes.
	protectOnly bool
	// ruleNamed says the rule that allowed the command names the word
	// literally ("test" in Bash(go test:*)): it is the command the policy
	// allows, not a name the command may create (decideArgAt).
	ruleNamed bool
	// notCreated says the name is an option, or an option's value the
	// program never creates a file of (optionReadings): not a name the
	// command may create either.
	notCreated bool
	// mayWrite says the program is not known to leave the file as it
	// is (args_maywrite.go); program is its name, for the reason.
	mayWrite bool
	program  string
	// vouched says a rule of the policy allowed the command: a rule
	// asking before an edit does not ask again for what it may change.
	vouched bool
	// segment says the name is a part of a word after "=", "," or ":"
	// ("-Wl,-Map=F"), decided only as a file the program may change
	// (wordSegments).
	segment bool
	// part says the name is a part of a word of a program the bridge
	// does not know, read as a file (segmentReads): a rule refusing to
	// read it refuses the command, and outside the workspace roots it
	// is not asked about ("make CC=/usr/bin/gcc").
	part bool
	// dirOnly says mayWrite holds only where the name is a directory (a
	// variable's value a program reads files from, or writes into).
	dirOnly bool
	// unplaced says why the name is of no file the bridge can place (a
	// file URL of another host): asked about (args_fileurl.go).
	unplaced string
}

// commandArgs returns the words of c that may name files.
func commandArgs(c *shellcmd.Command) []argWord {
	var out []argWord
	// A go command's package patterns, as the words of a wrapper's form
	// too (nice go test ./...).
	goPatterns := goPackagePatterns(c)
	readings := optionReadings(c)
	for fi, form := range c.Forms {
		if len(form) == 1 {
			// A program alone names no file, but a hook manager run bare
			// (husky) installs.
			out = append(out, userConfigWrites(form)...)
		}
		if len(form) < 2 || form[0].Kind != shellcmd.Static || argsNotFiles[filepath.Base(form[0].Text)] {
			continue
		}
		name := filepath.Base(form[0].Text)
		// "./cat" is whatever program the workspace holds there.
		readsOnlyProgram := readsOnly[name] && systemProgram(form[0].Text)
		first := len(out)
		// After "--" every word is an operand, "-x" a file named so.
		operands := len(form)
		for i := 1; i < len(form); i++ {
			if form[i].Kind == shellcmd.Static && form[i].Text == "--" {
				operands = i + 1
				break
			}
		}
		last := -1
		if writesLast[name] {
			for i := len(form) - 1; i > 0; i-- {
				if i >= operands || !strings.HasPrefix(form[i].Text, "-") {
					last = i
					break
				}
			}
		}
		var messages map[int]bool
		if name == "git" {
			messages = gitMessageWords(form)
			out = append(out, gitConfigWrites(form)...)
			out = append(out, gitOutputWrites(form)...)
		}
		out = append(out, userConfigWrites(form)...)
		out = append(out, mktempWrites(form)...)
		out = append(out, downloadWrites(form)...)
		out = append(out, goOutputDirWrites(form)...)
		out = append(out, wgetExecuteWrites(form)...)
		out = append(out, optionValueWrites(form)...)
		out = append(out, backupWrites(form)...)
		out = append(out, derivedWrites(form)...)
		out = append(out, yqLoadReads(form)...)
		out = append(out, jqImportReads(form)...)
		written := writtenWords(form)
		outputs := outputOptionWords(form)
		into, intoAttached := extractInto(form)
		// The names each word gives are marked with the word (at) when
		// the next begins, and after the last: the loop's body continues
		// early.
		fromWord, prev := len(out), (*shellcmd.Word)(nil)
		markFrom := func() {
			for k := fromWord; k < len(out); k++ {
				out[k].at = prev
			}
			fromWord = len(out)
		}
		for i, w := range form[1:] {
			i++
			markFrom()
			prev = &form[i]
			if messages[i] {
				continue // a commit message, never opened
			}
			text := w.Text
			// from is where text begins in the word (the value of
			// --opt=value), for its reading.
			reading, from := readings[&form[i]], 0
			if w.Kind != shellcmd.Dynamic {
				for _, ref := range contentRefs(text) {
					out = append(out, argWord{word: w, text: ref, readOnly: true})
				}
			}
			changed, isWritten := written[i]
			changed = changed || outputs[i]
			write := i == last || name == "tee" || isWritten || into[i] || outputs[i]
			if v, ok := intoAttached[i]; ok && v != "" {
				out = append(out, argWord{word: w, text: v, write: true})
			}
			switch {
			case i >= operands:
				// a file, whatever it starts with
			case strings.HasPrefix(text, "-"):
				// An option to the table may be a file to the program:
				// getopt stops at the first operand under POSIXLY_CORRECT
				// (the request's env or an assignment can set it), and a
				// program may not know the option at all. So the whole
				// word is judged as a file too.
				out = append(out, argWord{word: w, text: text, write: write, readOnly: readsOnlyProgram, notCreated: reading.notCreated(0)})
				// A short option's value may follow it in the same word,
				// after a cluster of others ("-o/tmp/x", "-rno/tmp/x",
				// "-f.env"): each rest of the word after an option
				// letter may be a file.
				for j := 2; j < len(text) && text[1] != '-' && isOptionLetter(text[j-1]); j++ {
					out = append(out, argWord{word: w, text: text[j:], write: write, readOnly: readsOnlyProgram, notCreated: reading.notCreated(j)})
					if outputs[i] {
						out = append(out, argWord{word: w, text: text[j:], notCreated: reading.notCreated(j)})
					}
				}
				if v, ok := writtenValue(name, text); ok {
					out = append(out, argWord{word: w, text: v, write: true})
					continue
				}
				eq := strings.IndexByte(text, '=')
				if eq < 0 {
					continue
				}
				text, from = text[eq+1:], eq+1
			case name == "dd":
				if k, v, ok := strings.Cut(text, "="); ok {
					text, write, from = v, k == "of", len(k)+1
				}
			case name == "git":
				// REV:PATH (":PATH" the index) is the file PATH as git
				// keeps it: "git show HEAD:.env" prints .env.
				// The rest after each colon, not the first only: a REV
				// may hold one inside "@{...}" (HEAD@{10:00}:.env),
				// and ":N:PATH" is PATH at stage N of the index. A URL's
				// rest ("//host/repo") is a name that is not there.
				for rest := text; ; {
					i := strings.IndexByte(rest, ':')
					if i < 0 {
						break
					}
					rest = rest[i+1:]
					if rest != "" {
						fromTop := !strings.HasPrefix(rest, "./") && !strings.HasPrefix(rest, "../")
						out = append(out, argWord{word: w, text: rest, readOnly: true, fromTop: fromTop})
					}
				}
			}
			if text == "" {
				continue
			}
			// ln never creates a link's target: "ln -s ../lib vendor/lib"
			// stores ../lib in the link, which a later line naming the link
			// is judged on.
			readOnly := readsOnlyProgram || name == "ln" && !write
			if !write && slices.Contains(goPatterns, &form[i]) {
				text, readOnly = goPatternDir(text), true
			}
			out = append(out, argWord{word: w, text: text, write: write, readOnly: readOnly, notCreated: reading.notCreated(from)})
			if changed {
				// Its content is opened, or given a new name no rule
				// covers: decided as a read too.
				out = append(out, argWord{word: w, text: text})
			}
		}
		markFrom()
		out = append(out, fileURLArgs(form, out[first:])...)
		if name == "cd" || name == "pushd" || name == "chdir" {
			for k := first; k < len(out); k++ {
				out[k].entersDir, out[k].readOnly = true, true
			}
		}
		if mayWriteOperands(form, fi == len(c.Forms)-1) {
			script := interpreterScript(name, form)
			for k := first; k < len(out); k++ {
				if a := &out[k]; !a.write && !a.readOnly && !a.notCreated && (script == nil || a.at != script) {
					a.mayWrite, a.program = true, name
				}
			}
			out = append(out, wordSegments(name, form, readings)...)
		}
	}
	return out
}

// contentRefs returns the names a word gives by a convention for "the
// content of this file": the rest after its first "@" (curl's -d @file,
// -H @file, -F name=@file and --data-urlencode name@file, httpie's
// field@file, a compiler's @response file) and after its first "<"
// (curl's -F name=<file), each also cut at ";" or "," (curl's
// -F name=@file;type=...). "curl -d @.env http://host" sends .env. A word
// that uses "@" otherwise (user@host, HEAD@{1}, pkg@1.0) gives a name
// that is not there, which decides nothing.
func contentRefs(text string) []string {
	var out []string
	for _, sep := range "@<" {
		_, rest, ok := strings.Cut(text, string(sep))
		if rest = strings.Trim(rest, `"`); !ok || rest == "" {
			continue
		}
		out = append(out, rest)
		if j := strings.IndexAny(rest, ";,"); j > 0 {
			out = append(out, strings.Trim(rest[:j], `"`))
		}
	}
	return out
}

// isOptionLetter reports whether b may name a short option.
func isOptionLetter(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// decideArgs decides the files the words of c name, where c runs; ok is
// false when the command's own decision covers them all.
func (e *Engine) decideArgs(in *reqInfo, c *shellcmd.Command, advisories *[]string) (verdict, bool) {
	return e.decideArgsWith(in, c, commandArgs(c), nil, false, advisories)
}

// decideArgsWith is decideArgs with the words of c that may name files
// (what the engine kept, or commandArgs), the words of c the rule that
// allowed it names literally (ruleNamedWords; nil when no allow rule
// decided c), and whether a rule of the policy allowed it (vouched).
func (e *Engine) decideArgsWith(in *reqInfo, c *shellcmd.Command, args []argWord, named []*shellcmd.Word, vouched bool, advisories *[]string) (verdict, bool) {
	var worst strictest
	for _, a := range args {
		a.ruleNamed = a.at != nil && slices.Contains(named, a.at)
		a.vouched = vouched
		worst.keepIf(e.decideArg(in, a, c.Dir, advisories))
	}
	for _, a := range e.sourceIncludeArgs(in, c) {
		a.vouched = vouched
		worst.keepIf(e.decideArg(in, a, c.Dir, advisories))
	}
	for _, a := range e.goOverlayArgs(in, c) {
		a.vouched = vouched
		worst.keepIf(e.decideArg(in, a, c.Dir, advisories))
	}
	for _, a := range e.rustcOutputArgs(in, c) {
		a.vouched = vouched
		worst.keepIf(e.decideArg(in, a, c.Dir, advisories))
	}
	for _, a := range e.roffIncludeArgs(in, c) {
		a.vouched = vouched
		worst.keepIf(e.decideArg(in, a, c.Dir, advisories))
	}
	worst.keepIf(e.treeReadVerdict(in, c))
	worst.keepIf(namesFromFileVerdict(c))
	worst.keepIf(goToolFlagsVerdict(c))
	worst.keepIf(ccDriverVerdict(c))
	worst.keepIf(responseFileVerdict(c))
	return worst.result()
}

// decideArg decides the file word a names, in each directory dir (where
// its command runs) may be.
func (e *Engine) decideArg(in *reqInfo, a argWord, dir shellcmd.Dir, advisories *[]string) (verdict, bool) {
	verb := "reading"
	switch {
	case a.write:
		verb = "writing"
	case a.mayWrite:
		verb = "reading or changing"
	}
	namedBy := a.namedBy
	if namedBy == "" {
		namedBy = "named by the command"
	}
	what := verb + " " + a.text + " (" + namedBy + ")"
	if a.entersDir {
		what = fmt.Sprintf("changing directory to %s (named by the command; what the line names after it is decided there)", a.text)
	}
	if a.unplaced != "" {
		return unplacedVerdict(what, a.unplaced), true
	}
	if len(a.pieces) > 0 || a.backupOf != "" {
		if v, ok := e.computedNameProtected(in, a, what, dir); ok {
			return v, true
		}
	}
	if a.protectOnly {
		return verdict{}, false
	}
	p := a.text
	kind := a.word.Kind
	if kind == shellcmd.Dynamic && a.text == a.word.Text {
		if !strings.HasPrefix(p, "~/") || strings.ContainsAny(p[2:], "$`\"'\\") {
			return e.runtimeNameArg(in, a, what, advisories), true
		}
		rest := p[2:]
		if rest, kind = shellcmd.PatternOf(rest); kind == shellcmd.Dynamic {
			return e.runtimeNameArg(in, a, what, advisories), true
		}
		p = filepath.Join(e.home, rest)
	} else if kind == shellcmd.Dynamic {
		return e.runtimeNameArg(in, a, what, advisories), true
	}
	if deviceFiles[p] || fdPath(p) {
		return verdict{}, false
	}
	if filepath.IsAbs(p) {
		return e.decideArgAt(in, a, what, p, kind, "", false, advisories)
	}
	bases, unknown := e.commandDirs(in, dir)
	if unknown {
		if in.req.Cwd != "" {
			// Any file of that name anywhere: asked about, and denied
			// where a rule or self-protection denies the name by
			// itself (decided below, in the first root).
			v := verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
				reason: fmt.Sprintf("%s: the line changes directory before it to %s, so where %s leads is not known", what, unknownWhere(dir), a.text)}
			if len(in.roots) > 0 {
				if w, ok := e.decideArgAt(in, a, what, p, kind, in.roots[0], true, advisories); ok && w.value.Stricter(v.value) {
					v = w
				}
			}
			return v, true
		}
		if len(in.roots) == 0 {
			return verdict{}, false
		}
		return e.decideArgAt(in, a, what, p, kind, in.roots[0], true, advisories)
	}
	var worst strictest
	for _, b := range bases {
		w := what
		if dir.Moved() {
			w = fmt.Sprintf("%s, run in %s", what, b)
		}
		worst.keepIf(e.decideArgAt(in, a, w, p, kind, b, false, advisories))
	}
	return worst.result()
}

// decideArgAt decides the file p (of kind kind) word a names when its
// command runs in base; unknownDir says base only stands for a directory
// that is not known, where a name is matched by its last element.
func (e *Engine) decideArgAt(in *reqInfo, a argWord, what, p string, kind shellcmd.WordKind, base string, unknownDir bool, advisories *[]string) (verdict, bool) {
	if unknownDir {
		p = filepath.Base(p)
	}
	if !filepath.IsAbs(p) {
		if unknownDir {
			p = filepath.Join(base, p)
		} else {
			// Not cleaned: the command opens "link/../x" through the
			// link, not as the x beside it.
			p = joinRaw(base, p)
		}
	}
	var names []string
	tooMany := false
	if kind == shellcmd.Glob {
		var ok bool
		names, ok = in.keptGlobNames(p, maxGlobMatches)
		tooMany = !ok
		// The pattern itself, as a name: a file the line creates before
		// the glob expands, or one a rule names by its last segment.
		names = append(names, shellcmd.Unescape(p))
	} else {
		names = []string{p}
		if a.fromTop && !unknownDir {
			names = append(names, namesAbove(in.roots, filepath.Clean(base), a.text)...)
		}
		if a.mayWrite && !unknownDir {
			names = append(names, in.programGlobNames(p)...)
		}
	}
	sub := *in
	sub.read, sub.write, sub.command = !a.write, a.write, false
	sub.defaultLast = true
	var worst *verdict
	for _, n := range names {
		if a.segment {
			// Only as a file the program may change, whether it is
			// there or not.
			if wv, ok := e.mayChange(&sub, a, n, verdict{value: Allow}, advisories); ok && (worst == nil || wv.value.Stricter(worst.value)) {
				wv.reason = wv.text()
				worst = &wv
			}
			continue
		}
		// Reasons joined only for a verdict weighed below.
		v, write := e.decidePathLazy(&sub, n, advisories), a.write
		// A glob that matches nothing reaches the command as written.
		literal := kind != shellcmd.Glob || len(names) == 1
		if !write && !a.readOnly && !unknownDir && literal && createdIfMissingLooked(sub.facts(n), n) {
			// Nothing to read there, but a command that opens the name
			// may create it (sort -o, touch, go build -o, a dangling
			// link): decided as a write too, the stricter standing.
			w := sub
			w.read, w.write = false, true
			wv := e.decidePathLazy(&w, n, advisories)
			// A word the allowing rule names is a policy rule's word, and
			// an option or a known option's value is the program's, not
			// a file it creates: the policy's own path rules give way to
			// them, the built-in refusals (self-protection, outside the
			// roots) not.
			named := (a.ruleNamed || a.notCreated) && wv.rule != nil
			if !named && wv.value != Allow && wv.ref != "default" && (v.value == Allow || v.ref == "default" ||
				wv.value.Stricter(v.value) || v.ref == "workspace-roots") {
				wv.reason = "it does not exist, so the command may create it: " + wv.text()
				v, write = wv, true
			}
		} else if fi := sub.facts(n).last.fi; !write && a.mayWrite && fi != nil && (!a.dirOnly || fi.IsDir()) {
			if wv, ok := e.mayChange(&sub, a, n, v, advisories); ok {
				v, write = wv, true
			}
		}
		switch {
		case v.value == Allow || v.ref == "default":
			continue
		case v.ref == "workspace-roots" && !write:
			if w, ok := e.ruledBeyondRoots(&sub, n, v); ok {
				v = w // where it leads, a rule restricts
				break
			}
			// Outside the roots a plain argument is asked about, and
			// only when it names something that exists.
			if _, err := os.Lstat(n); err != nil || a.part {
				continue
			}
			v.value = RequireApproval
			v.ruleTx = "require-approval for an existing file outside the workspace roots a command names (built-in)"
		}
		v.reason = v.text()
		if unknownDir && kind != shellcmd.Glob && deniesNameAnywhere(v, filepath.Base(n)) {
			v.reason += "; the line changes directory, and the rule names a file of that name wherever it is"
		} else if (unknownDir || kind == shellcmd.Glob) && v.value == Deny && v.rule != nil {
			v.value = RequireApproval // it may not be that file
			if kind == shellcmd.Glob && n != shellcmd.Unescape(p) {
				v.value = Deny // the glob names it now
			}
			if unknownDir {
				v.value = RequireApproval
				v.reason += "; the line changes directory, so it may be another file of that name"
			}
		}
		if worst == nil || outranks(v, *worst) {
			w := v
			worst = &w
		}
	}
	if kind == shellcmd.Glob && (worst == nil || !worst.value.Stricter(RequireApproval)) {
		if v, ok := e.globMayMatch(&sub, filepath.Base(p)); ok && (worst == nil || v.value.Stricter(worst.value)) {
			worst = &v
		}
	}
	if tooMany && (worst == nil || !worst.value.Stricter(RequireApproval)) {
		return tooManyNames(what), true
	}
	if worst == nil {
		return verdict{}, false
	}
	worst.reason = what + ": " + worst.reason
	return *worst, true
}
