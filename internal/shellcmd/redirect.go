package shellcmd

import (
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
}

// redirects records the files a statement's redirections open. Numbers
// and "-" after >& and <& duplicate or close descriptors; here-documents
// open no file.
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
		if r.Op == syntax.DplOut || r.Op == syntax.DplIn {
			if target.Kind == Static && (target.Text == "-" || strings.Trim(target.Text, "0123456789") == "" || strings.Trim(strings.TrimSuffix(target.Text, "-"), "0123456789") == "") {
				continue
			}
		}
		if len(r.Word.Parts) == 1 {
			if _, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
				continue // >(cmd): its commands are walked
			}
		}
		for _, t := range cwdTildeForms([]Word{target}) {
			w.a.Redirects = append(w.a.Redirects, Redirect{Target: t[0], Write: write, Read: read, Dir: w.cur})
		}
	}
}
