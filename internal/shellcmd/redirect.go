package shellcmd

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Redirect is a file a redirection opens: ls > out.txt writes out.txt
// before ls runs, whatever ls is.
type Redirect struct {
	// Target is the file name as a word (a static path, a glob, or a
	// name computed at run time).
	Target Word
	// Write: the file is opened for writing (>, >>, >|, &>, &>>, <>,
	// >& file).
	Write bool
	// Read: the file is opened for reading (<, <& file, and <>, which
	// opens it for both: "cat <> .env" reads .env).
	Read bool
	// Dir is where the statement runs, so where a relative Target
	// leads (see Command.Dir).
	Dir Dir
	// FD is the descriptor the file is opened on: the number before the
	// operator, else 0 for a read and 1 for a write; -1 when bash picks
	// it ({name}<file) or it is not a number.
	FD int
	// Via says what opens the file where it is not a redirection
	// operator (zsh's $mapfile, zsh_mapfile.go); empty for one.
	Via string
}

// Duplication is a redirection that copies one descriptor onto another:
// "2>&1" is {To: 2, From: 1}. From is -1 when the descriptor copied is
// not known before the line runs (>&$fd).
type Duplication struct {
	To, From int
}

// descriptor returns the descriptor redirection r opens or copies onto,
// def when it names none; -1 when it is not a number.
func descriptor(r *syntax.Redirect, def int) int {
	if r.N == nil {
		return def
	}
	n, err := strconv.Atoi(r.N.Value)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// addOpened records r, a file zsh opens where bash opens none or
// another (r.Via says how), once: zsh's reading of a line is walked
// besides the line, and meets it again.
func (w *walker) addOpened(r Redirect) {
	same := func(o Redirect) bool {
		return o.Via == r.Via && o.Target == r.Target && o.Read == r.Read && o.Write == r.Write
	}
	if !slices.ContainsFunc(w.a.Redirects, same) {
		w.a.Redirects = append(w.a.Redirects, r)
	}
}

// redirects records the files a statement's redirections open, and the
// descriptors they copy: numbers after >& and <& duplicate descriptors, "-"
// closes one; here-documents open no file.
func (w *walker) redirects(st *syntax.Stmt, src string) {
	for _, r := range st.Redirs {
		if r.Word == nil {
			continue
		}
		var read, write bool
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.ClbOut, syntax.DplOut:
			write = true
		case syntax.RdrInOut:
			read, write = true, true
		case syntax.RdrIn, syntax.DplIn:
			read = true
		default:
			continue
		}
		target := evalWord(r.Word, src)
		fd := 1
		if read && !write {
			fd = 0
		}
		fd = descriptor(r, fd)
		if r.Op == syntax.DplOut || r.Op == syntax.DplIn {
			from := strings.TrimSuffix(target.Text, "-")
			if target.Kind == Static && strings.Trim(from, "0123456789") == "" {
				// "-" closes the descriptor; "N" and "N-" copy N.
				if n, err := strconv.Atoi(from); from != "" {
					if err != nil {
						n = -1
					}
					w.a.Duplications = append(w.a.Duplications, Duplication{To: fd, From: n})
				}
				continue
			}
			if target.Kind != Static {
				// >&$fd copies a descriptor or opens a file: which, the
				// line says only when it runs.
				w.a.Duplications = append(w.a.Duplications, Duplication{To: fd, From: -1})
			}
		}
		if len(r.Word.Parts) == 1 {
			if _, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
				continue // >(cmd): its commands are walked
			}
		}
		// bash brace-expands the word and opens the one name it gives
		// ("cat < .e{n..n}v" reads .env, "echo x > GOVERNANCE.m{d..d}"
		// writes the policy); sh and zsh open the word as written. Each
		// is a file the statement may open.
		targets := []Word{target}
		if fs, ok := fields(r.Word, src); !ok {
			targets = append(targets, Word{Kind: Dynamic, Text: target.Text, Why: "brace expansion too large to list"})
		} else {
			for _, f := range fs {
				if f != target {
					targets = append(targets, f)
				}
			}
		}
		// zsh with EXTENDED_GLOB opens what its "#" and "~" operators
		// make of the word ("echo x > GOVERNANCE.mdX#" writes the policy).
		targets = append(targets, zshExtendedWords(target, w.extendedGlob)...)
		for _, t := range cwdTildeForms(targets) {
			for _, tt := range t {
				w.a.Redirects = append(w.a.Redirects, Redirect{Target: tt, Write: write, Read: read, Dir: w.cur, FD: fd})
			}
		}
	}
}
