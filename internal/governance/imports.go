package governance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Claude Code and Gemini CLI read instruction files into the model's
// context on their own: CLAUDE.md (at the root, and in a subdirectory when
// a tool first touches a file there), CLAUDE.local.md, .claude/rules/*.md,
// GEMINI.md, and every file those import, to five levels. Each "@path" at
// the start of a word in them is replaced by the text of the file it
// names, relative to the importing file's directory (Claude Code:
// (?:^|\s)@((?:[^\s\\]|\\ )+), a '#' ending the path; Gemini CLI: the run
// of non-blanks after '@' that starts with '.', '/' or a letter), with no
// tool call the hook or the wire ever sees: a sub/CLAUDE.md the agent
// wrote holding "@../.env" put the .env a rule denies reading into the
// model's next request once Claude read sub/b.txt. Since any file can be
// reached through an import, the text of every write the bridge sees is
// judged: each "@path" in it is decided as a read of that path.

// maxImports bounds the "@" names one text is judged on; past it the
// write needs approval.
const maxImports = 1024

// ImportedPaths returns the absolute paths the "@" imports in text could
// name, read from a file in directory dir (absolute): every word starting
// with '@' after the start of the text, a blank or a character no name
// ends with (a quote, a bracket, '=' or ':'), taken whole, without a
// trailing '#' part, without trailing quotes or punctuation, and with
// "\ " read as a space, each joined to dir ("~/" to home). more is true
// when text names more than maxImports.
func ImportedPaths(text, dir, home string) (paths []string, more bool) {
	seen := map[string]bool{}
	add := func(p string) {
		if p == "" || seen[p] {
			return
		}
		if len(seen) >= maxImports {
			more = true
			return
		}
		seen[p] = true
		paths = append(paths, p)
	}
	for i := 0; i < len(text); i++ {
		if text[i] != '@' || !importStarts(text[:i]) {
			continue
		}
		for _, w := range importReadings(text[i+1:]) {
			switch {
			case w == "~" || strings.HasPrefix(w, "~/"):
				if home != "" {
					add(filepath.Join(home, w[1:]))
				}
			case filepath.IsAbs(w):
				add(filepath.Clean(w))
			default:
				add(filepath.Join(dir, w))
			}
		}
	}
	return paths, more
}

// importStarts reports whether an '@' after before starts a word an agent
// may read as an import: at the start, after a blank, or after a
// character a shell or a format puts before a word ("'@.env'", "=@x").
func importStarts(before string) bool {
	if before == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	return unicode.IsSpace(r) || strings.ContainsRune("'\"`([{<=:,;|&>", r)
}

// importBlanks are the ways agents end the name after an '@': Go's
// unicode.IsSpace; JavaScript's \s, which Claude Code's pattern uses (it
// holds U+FEFF and not U+0085); and Gemini CLI's four, space, tab, CR and
// LF, so that "@x\u00a0/../.env" is ".env" to Gemini (Node resolves the
// ".." on the text) and "@x" to the others.
var importBlanks = []func(rune) bool{
	unicode.IsSpace,
	func(r rune) bool { return r == '\ufeff' || r != '\u0085' && unicode.IsSpace(r) },
	func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' },
}

// importReadings returns the names the text after an '@' may stand for:
// the word each agent reads there (importWord, by each of importBlanks),
// in each of its spellings (importSpellings), each once.
func importReadings(s string) []string {
	var out []string
	for _, blank := range importBlanks {
		for _, w := range importSpellings(importWord(s, blank)) {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// importWord returns the name after an '@': the run of characters up to
// the first that blank says ends it, "\ " continuing it as Claude Code
// reads it.
func importWord(s string, blank func(rune) bool) string {
	end := 0
	for end < len(s) {
		r, n := utf8.DecodeRuneInString(s[end:])
		if r == '\\' && strings.HasPrefix(s[end+1:], " ") {
			end += 2
			continue
		}
		if blank(r) {
			break
		}
		end += n
	}
	return s[:end]
}

// importSpellings returns the names word may stand for: as it is, with
// "\ " read as a space, cut at '#', and with trailing quotes and
// punctuation taken off.
func importSpellings(word string) []string {
	out := []string{word}
	unescaped := strings.ReplaceAll(word, `\ `, " ")
	out = append(out, unescaped)
	if i := strings.IndexByte(unescaped, '#'); i >= 0 {
		out = append(out, unescaped[:i])
	}
	for _, w := range out[:len(out):len(out)] {
		out = append(out, strings.TrimRight(w, `'"`+"`"+`)]}>.,;:!?`))
	}
	return out
}

// WithImports returns d, the decision on a request like base (its cwd,
// roots and session) that writes texts to the file file, or the decision
// on the reads the "@" imports in texts make when that is stricter. The
// texts are read from file's directory (base's cwd when file is not
// absolute). A name that exists is decided as fs.read; one that does not
// counts only where a rule, not the policy's default, denies reading it
// (the file may appear later; "@alice" in a commit message names none).
// An import of one of the session's offloads is decided as a read of the
// compression cache, which it is when the text is loaded: the offload
// holds text the agent chose (a command's output), "@" names included.
func WithImports(decide func(Request) Decision, d Decision, base Request, file string, texts ...string) Decision {
	if d.Value == Deny {
		return d
	}
	dir := base.Cwd
	if filepath.IsAbs(file) {
		dir = filepath.Dir(filepath.Clean(file))
	}
	if !filepath.IsAbs(dir) {
		return d
	}
	home, _ := os.UserHomeDir()
	for _, text := range texts {
		paths, more := ImportedPaths(text, dir, home)
		if more && RequireApproval.Stricter(d.Value) {
			d = Decision{Value: RequireApproval, Ref: "imports", Rule: "text an agent loads as instructions imports the files it names",
				Reason: fmt.Sprintf("the text written names more than %d files with '@', which Claude Code and Gemini CLI read into the model's context when they load it as instructions", maxImports)}
		}
		for _, p := range paths {
			_, err := os.Stat(p)
			// No session: the read is the loading agent's, in whatever
			// session next loads the text, never the writing session's
			// read of one of its offloads (Engine.SetOffloadReader),
			// whose text the agent chose and no write of it was judged.
			r := decide(Request{Action: ActionFSRead, Paths: []string{p}, Cwd: base.Cwd, Roots: base.Roots})
			if r.Value == Allow || err != nil && (r.Value != Deny || r.Ref == "default") || !r.Value.Stricter(d.Value) {
				continue
			}
			r.Reason = fmt.Sprintf("the text written imports %s with '@', and Claude Code and Gemini CLI read an imported file into the model's context, with no tool call, when they load the text as instructions (CLAUDE.md, GEMINI.md or a file they import): %s", p, r.Reason)
			d = r
			if d.Value == Deny {
				return d
			}
		}
	}
	return d
}

// InputTexts returns every string of a tool's input, at any depth: the
// text a tool writes (Write's content, Edit's new_string, MultiEdit's
// edits, a command's here-document) is among them.
func InputTexts(input json.RawMessage) []string {
	var v any
	if json.Unmarshal(input, &v) != nil {
		return nil
	}
	var out []string
	for s := range stringsIn(v) {
		if strings.IndexByte(s, '@') >= 0 {
			out = append(out, s)
		}
	}
	return out
}
