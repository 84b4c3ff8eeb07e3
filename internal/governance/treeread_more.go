package governance

import (
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// More programs that read every file beneath a directory: those that send
// it elsewhere (scp -r, rclone, aws s3, gsutil, azcopy), back it up
// (restic, borg), compress each file into a copy beside it under another
// name (gzip -r writes .env.gz, which a rule on .env does not name), or
// index it (ctags -R puts the lines it tags into a file).

// moreTreeReadOf returns what one of these programs' forms reads whole.
func moreTreeReadOf(name string, form []shellcmd.Word) (treeRead, bool) {
	switch name {
	case "gzip", "gunzip", "pigz", "unpigz", "zstd", "unzstd", "lz4", "unlz4", "lzop":
		if !compressorRecursive(form) {
			return treeRead{}, false
		}
		_, operands, unknown := splitWords(form[1:], optSet{shortValue: "SoD"}.takesValue)
		return treeRead{reader: name, dirs: operands, cwd: unknown}, true
	case "scp":
		opts, operands, unknown := splitWords(form[1:], optSet{shortValue: "cFiJloPSBDX"}.takesValue)
		if !shortHas(opts, optSet{shortValue: "cFiJloPSBDX"}, 'r') {
			return treeRead{}, false
		}
		if len(operands) > 0 {
			operands = operands[:len(operands)-1] // the destination
		}
		return treeRead{reader: name, dirs: localOperands(operands), cwd: unknown}, true
	case "ctags", "etags", "uctags":
		opts, operands, unknown := splitWords(form[1:], optSet{shortValue: "fo"}.takesValue)
		if !shortHas(opts, optSet{shortValue: "fo"}, 'R') && !longHas(opts, "recurse", "recurse=yes") {
			return treeRead{}, false
		}
		return treeRead{reader: name, dirs: operands, cwd: unknown || len(operands) == 0}, true
	case "acp-bridge":
		return auditServeRead(form)
	}
	return subcommandTreeRead(name, form)
}

// auditServeRead reads "acp-bridge audit serve [--listen ADDR] PATH...":
// a directory it is given stands for every audit log in it, which it
// serves to whoever has the URL it prints (to the agent, when the agent
// runs it), so it reads that directory's files as a search reads a tree.
func auditServeRead(form []shellcmd.Word) (treeRead, bool) {
	if len(form) < 3 || form[1].Text != "audit" || form[2].Text != "serve" ||
		form[1].Kind != shellcmd.Static || form[2].Kind != shellcmd.Static {
		return treeRead{}, false
	}
	// Go's flags: -listen and --listen alike, the value next or after "=".
	_, operands, unknown := splitWords(form[3:], func(t string) bool { return strings.TrimLeft(t, "-") == "listen" })
	return treeRead{reader: "acp-bridge audit serve", dirs: operands, follow: true, cwd: unknown}, true
}

// subcommandTreeRead reads the programs whose subcommand says they read a
// tree: "rclone copy|sync|move|copyto|moveto|bisync SRC DST", "restic
// backup PATH...", "borg create ARCHIVE PATH...", "aws s3 sync|cp|mv SRC
// DST" (cp and mv with --recursive), "gsutil cp|mv|rsync -r SRC... DST",
// "azcopy copy|sync SRC DST". The subcommand is the first word naming one,
// past global options and their values ("restic -r repo backup ."). A
// source that names a remote (host:path, s3://) is not a local directory
// and is not walked.
func subcommandTreeRead(name string, form []shellcmd.Word) (treeRead, bool) {
	words := staticWords(form[1:])
	switch name {
	case "rclone":
		if _, rest, ok := wordAmong(words, "copy", "sync", "move", "copyto", "moveto", "bisync"); ok {
			return sourcesRead(name, rest, 1)
		}
	case "restic":
		if _, rest, ok := wordAmong(words, "backup"); ok {
			return sourcesRead(name, rest, 0)
		}
	case "borg", "borgbackup":
		if _, rest, ok := wordAmong(words, "create"); ok {
			_, paths := firstOperand(rest) // the archive
			return sourcesRead(name, paths, 0)
		}
	case "aws":
		if _, rest, ok := wordAmong(words, "s3"); ok {
			op, args := firstOperand(rest)
			if op == "sync" || (op == "cp" || op == "mv") && slices.Contains(args, "--recursive") {
				return sourcesRead(name+" s3 "+op, args, 1)
			}
		}
	case "gsutil":
		if sub, rest, ok := wordAmong(words, "cp", "mv", "rsync"); ok && (slices.Contains(rest, "-r") || slices.Contains(rest, "-R")) {
			return sourcesRead(name+" "+sub, rest, 1)
		}
	case "azcopy":
		if sub, rest, ok := wordAmong(words, "copy", "sync"); ok {
			return sourcesRead(name+" "+sub, rest, 1)
		}
	}
	return treeRead{}, false
}

// wordAmong returns the first of words that is one of subs, and the words
// after it.
func wordAmong(words []string, subs ...string) (string, []string, bool) {
	for i, w := range words {
		if slices.Contains(subs, w) {
			return w, words[i+1:], true
		}
	}
	return "", nil, false
}

// sourcesRead is the read of a program whose operands in words are the
// directories it reads, but the last dest of them (its destination); a
// word known only when the line runs ("" in words) makes the cwd one too.
func sourcesRead(reader string, words []string, dest int) (treeRead, bool) {
	var ops []string
	unknown := false
	for _, w := range words {
		switch {
		case w == "":
			unknown = true
		case !strings.HasPrefix(w, "-"):
			ops = append(ops, w)
		}
	}
	if len(ops) >= dest {
		ops = ops[:len(ops)-dest]
	}
	return treeRead{reader: reader, dirs: localOperands(ops), cwd: unknown}, true
}

// localOperands drops the operands that name a remote place: a URL
// (s3://b, https://h/x) or scp's and rclone's host:path (a colon before
// any slash).
func localOperands(ops []string) []string {
	var out []string
	for _, op := range ops {
		colon, slash := strings.IndexByte(op, ':'), strings.IndexByte(op, '/')
		if colon > 0 && (slash < 0 || colon < slash) {
			continue
		}
		out = append(out, op)
	}
	return out
}

// compressorRecursive reports whether a compressor's options say -r or
// --recursive (a short cluster holding r).
func compressorRecursive(form []shellcmd.Word) bool {
	for _, w := range form[1:] {
		if w.Kind != shellcmd.Static {
			continue
		}
		t := w.Text
		if t == "--" {
			return false
		}
		if n, ok := strings.CutPrefix(t, "--"); ok && len(n) >= 3 && strings.HasPrefix("recursive", n) ||
			strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsRune(t, 'r') {
			return true
		}
	}
	return false
}

// staticWords returns the words' texts, "" for a word known only when
// the line runs.
func staticWords(form []shellcmd.Word) []string {
	out := make([]string, len(form))
	for i, w := range form {
		if w.Kind == shellcmd.Static || w.Kind == shellcmd.Glob {
			out[i] = w.Text
		}
	}
	return out
}

// firstOperand returns the first word of words that is not an option,
// and the words after it.
func firstOperand(words []string) (string, []string) {
	for i, w := range words {
		if !strings.HasPrefix(w, "-") {
			return w, words[i+1:]
		}
	}
	return "", nil
}
