package governance

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// A file: URL names a local file to any program that opens it: curl
// reads "file:///ws/%2eenv" as /ws/.env, gio and a browser as well, and
// "curl -T src file:///ws/secrets/a.key" writes secrets/a.key. Besides the
// name the word is (a path as well as a URL: "cat x://../.env"), each
// file: URL among the words of a command is decided as the path it names,
// percent-decoded (file:/p, file:///p, file://localhost/p; a URL of
// another host or holding an invalid escape is asked about), as its word
// is (a read, a write, a file the program may change) and as a write where
// the program writes what the URL names: curl's upload (-T,
// --upload-file), gio's and its kin's copy, move, save, remove, trash,
// rename, set and mkdir. curl's own globbing of a URL ({a,b}, [a-z],
// unless -g) is expanded to every URL it gives; one too large or not
// read is asked about. A curl URL without a scheme is a file URL when
// --proto-default may be file (args_fileurl_protodefault.go).

// urlWriterSubcommands are programs whose subcommand writes the URLs it
// is given: "last" its last operand (a copy's target: the others are
// read), "all" every one (moved, saved, removed, renamed, changed, made).
var urlWriterSubcommands = map[string]map[string]string{
	"gio": {"copy": "last", "move": "all", "save": "all", "remove": "all", "trash": "all", "rename": "all",
		"set": "all", "mkdir": "all"},
	"kioclient":  kioWrites,
	"kioclient5": kioWrites,
	"kioclient6": kioWrites,
	"kfmclient":  kioWrites,
}

// kioWrites are the subcommands of KDE's kioclient that write the URLs
// they are given.
var kioWrites = map[string]string{"copy": "last", "cp": "last", "move": "all", "mv": "all", "remove": "all",
	"rm": "all", "mkdir": "all"}

// urlWriterPrograms are programs that write the URLs they are given, as
// urlWriterSubcommands says (gio's older gvfs-* names, kde-cp and kde-mv).
var urlWriterPrograms = map[string]string{"gvfs-copy": "last", "kde-cp": "last", "gvfs-move": "all",
	"kde-mv": "all", "gvfs-save": "all", "gvfs-rm": "all", "gvfs-trash": "all", "gvfs-rename": "all",
	"gvfs-set-attribute": "all", "gvfs-mkdir": "all"}

// urlPatternPrograms are programs whose words that look like URLs are
// patterns they search for, and which open no URL: "grep -rn 'file://'
// src" looks for the text.
var urlPatternPrograms = setOf("grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "ugrep", "sed", "awk",
	"gawk", "mawk", "nawk")

// fileURLArgs returns the paths the file: URLs among args (the names one
// form of a command gives, each marked with the word it comes from) open,
// decided as their words are and as writes where the program writes them
// (see above), and the files curl's upload reads by its own globbing.
func fileURLArgs(form []shellcmd.Word, args []argWord) []argWord {
	name := filepath.Base(form[0].Text)
	if urlPatternPrograms[name] && systemProgram(form[0].Text) {
		return nil
	}
	if name != "curl" && !slices.ContainsFunc(args, func(a argWord) bool { return isFileURL(shellcmd.Unescape(a.text)) }) {
		return nil
	}
	var up curlUpload
	if name == "curl" {
		up = curlUploadOf(form)
		if more := curlDefaultFileArgs(form); len(more) > 0 {
			args = append(args[:len(args):len(args)], more...)
		}
	}
	writer := urlWriterOf(form)
	var out []argWord
	if name == "curl" {
		for _, f := range up.files {
			if f.err != nil || len(f.names) > 1 || len(f.names) == 1 && f.names[0] != f.text {
				out = append(out, curlUploadReads(f)...)
			}
		}
	}
	for _, a := range args {
		if a.word.Kind == shellcmd.Dynamic || a.unplaced != "" {
			continue
		}
		text := a.text
		if a.word.Kind == shellcmd.Glob {
			text = shellcmd.Unescape(text) // passed on as written when it matches nothing
		}
		if !isFileURL(text) {
			continue
		}
		write := a.write || writer.written[a.at]
		var into []string // names written inside the URL's directory
		if name == "curl" && up.uploads && !up.values[a.at] {
			write = true
			if strings.HasSuffix(strings.SplitN(text, "?", 2)[0], "/") {
				into = up.baseNames()
			}
		}
		if a.at != nil && a.at == writer.dest {
			into = writer.into
		}
		urls := []string{text}
		if name == "curl" && !up.globoff && strings.ContainsAny(text, "{[") {
			expanded, err := curlGlob(text, maxGlobMatches)
			if err != nil {
				out = append(out, fileURLAsk(a, text, fmt.Sprintf("curl expands the URL %q itself, and %v", text, err), write))
			}
			urls = append(urls, expanded...)
		}
		for _, u := range urls {
			paths, why := fileURLPaths(u)
			if why != "" {
				out = append(out, fileURLAsk(a, text, why, write))
			}
			for _, p := range paths {
				out = append(out, fileURLArg(a, text, p, write))
				for _, n := range into {
					out = append(out, fileURLArg(a, text, strings.TrimSuffix(p, "/")+"/"+n, true))
				}
				if writer.renamed != "" && a.at != nil && a.at == writer.dest {
					out = append(out, fileURLArg(a, text, path.Dir(strings.TrimSuffix(p, "/"))+"/"+writer.renamed, true))
				}
			}
		}
	}
	return out
}

// fileURLArg is the path p the file URL u of word a names, decided as a
// is, and as a write when write says the program writes it.
func fileURLArg(a argWord, u, p string, write bool) argWord {
	b := a
	b.word = shellcmd.Word{Kind: shellcmd.Static, Text: p}
	b.text, b.write, b.segment = p, write, false
	b.namedBy = fileURLNamedBy + strconv.Quote(u)
	if write {
		b.readOnly, b.notCreated, b.mayWrite = false, false, false
	}
	return b
}

// fileURLNamedBy begins the namedBy of a path a file URL names.
const fileURLNamedBy = "named by the command's file URL "

// namesFileURL reports whether a is a path a file URL names, or the
// question on one the bridge cannot place: decided wherever the URL is
// read from (a curl configuration's "url"), as a read as well.
func (a argWord) namesFileURL() bool {
	return strings.HasPrefix(a.namedBy, fileURLNamedBy) || a.unplaced != ""
}

// fileURLAsk is the question on the file URL u of word a, which names a
// file the bridge cannot place (why); write says the program writes it.
func fileURLAsk(a argWord, u, why string, write bool) argWord {
	b := a
	b.word = shellcmd.Word{Kind: shellcmd.Static, Text: u}
	b.text, b.unplaced, b.segment, b.write = u, why, false, write
	return b
}

// unplacedVerdict is the decision on a word naming a file the bridge
// cannot place (a file URL of another host, or with an invalid escape):
// the person is asked, as for a name known only when the line runs.
func unplacedVerdict(what, why string) verdict {
	return verdict{value: RequireApproval, ref: "unreadable-command", ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
		reason: what + ": " + why}
}

// isFileURL reports whether s is a URL of the file scheme, in any case.
func isFileURL(s string) bool {
	scheme, _, ok := strings.Cut(s, ":")
	return ok && strings.EqualFold(scheme, "file")
}

// fileURLPaths returns the local paths the file URL u may name to the
// programs that open it: its path percent-decoded (curl, GLib, Node),
// with and without a query or fragment (curl drops them, GLib keeps a
// "?"), as written and with its dot segments removed (curl removes them
// from the URL, the kernel follows links through them), and undecoded (a
// program that only strips the scheme). why says why it names a file the
// bridge cannot place: one on another host, or an escape that is not one.
// "file:rel" names rel where the command runs (npm's file:../pkg).
func fileURLPaths(u string) (paths []string, why string) {
	_, rest, _ := strings.Cut(u, ":")
	raws := []string{rest}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		raws = append(raws, rest[:i])
	}
	add := func(p string) {
		if p != "" && !strings.ContainsRune(p, 0) && !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	for _, r := range raws {
		p := r
		if after, ok := strings.CutPrefix(r, "//"); ok {
			host, local, slash := strings.Cut(after, "/")
			switch {
			case strings.ContainsAny(host, " \t\n\"'<>\\^`{|}"):
				continue // no host: text that only begins like a URL ("file:// is ...")
			case !slash && host == "":
				continue // "file://" names nothing
			}
			if host != "" && !strings.EqualFold(host, "localhost") && host != "127.0.0.1" {
				return paths, fmt.Sprintf("the file URL %q names a file on the host %q, which the bridge cannot place", u, host)
			}
			p = "/" + local
		}
		dec, err := percentDecode(p)
		if err != nil {
			return paths, fmt.Sprintf("the file URL %q %v, so which file it names depends on the program", u, err)
		}
		add(dec)
		if c := path.Clean(dec); c != "." {
			add(c)
		}
		add(p)
	}
	return paths, ""
}

// percentDecode decodes s's %XX escapes; err says it holds a "%" that is
// no escape, or one of a NUL, which readers take differently.
func percentDecode(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) || unhex(s[i+1]) < 0 || unhex(s[i+2]) < 0 {
			return "", errors.New("holds a % that is no escape")
		}
		c := byte(unhex(s[i+1])<<4 | unhex(s[i+2]))
		if c == 0 {
			return "", errors.New("holds an escaped NUL")
		}
		b.WriteByte(c)
		i += 2
	}
	return b.String(), nil
}

// unhex is the value of the hexadecimal digit c, -1 for another byte.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// urlWriter is what a program of urlWriterSubcommands or
// urlWriterPrograms writes of the words of its form.
type urlWriter struct {
	// written are the operand words it writes.
	written map[*shellcmd.Word]bool
	// dest is the word of a copy's or move's target, or of the file a
	// rename renames.
	dest *shellcmd.Word
	// into are the names of the files a copy or move puts inside its
	// target when that is a directory (its sources' last elements).
	into []string
	// renamed is the new name a rename gives dest in its directory.
	renamed string
}

// urlWriterOf returns what the program of form writes of its operands
// when it is one that writes the URLs it is given (see above).
func urlWriterOf(form []shellcmd.Word) urlWriter {
	w := urlWriter{written: map[*shellcmd.Word]bool{}}
	name := filepath.Base(form[0].Text)
	how, first := urlWriterPrograms[name], 1
	if subs, ok := urlWriterSubcommands[name]; ok && len(form) > 1 {
		how, first = subs[form[1].Text], 2
	}
	if how == "" {
		return w
	}
	var ops []int
	for i := first; i < len(form); i++ {
		if form[i].Text == "--" {
			for i++; i < len(form); i++ {
				ops = append(ops, i)
			}
			break
		}
		if !strings.HasPrefix(form[i].Text, "-") || form[i].Text == "-" {
			ops = append(ops, i)
		}
	}
	if len(ops) == 0 {
		return w
	}
	switch {
	case how == "last":
		w.written[&form[ops[len(ops)-1]]] = true
	default:
		for _, i := range ops {
			w.written[&form[i]] = true
		}
	}
	if strings.HasSuffix(name, "rename") || len(form) > 1 && form[1].Text == "rename" {
		if len(ops) > 1 {
			w.dest, w.renamed = &form[ops[0]], form[ops[1]].Text
			delete(w.written, &form[ops[1]])
		}
		return w
	}
	if how == "last" || strings.HasSuffix(name, "move") || strings.HasSuffix(name, "-mv") || len(form) > 1 && (form[1].Text == "move" || form[1].Text == "mv") {
		w.dest = &form[ops[len(ops)-1]]
		for _, i := range ops[:len(ops)-1] {
			src := form[i].Text
			if isFileURL(src) {
				if ps, _ := fileURLPaths(src); len(ps) > 0 {
					src = ps[0]
				}
			}
			if b := path.Base(src); b != "/" && b != "." && b != ".." {
				w.into = append(w.into, b)
			}
		}
	}
	return w
}
