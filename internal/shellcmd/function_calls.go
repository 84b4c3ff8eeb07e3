package shellcmd

import "mvdan.cc/sh/v3/syntax"

// A function's call gives its body the call's words as the positional
// parameters: after f() { "$@"; }, "f rm x" runs rm x, and after
// f() { $1 x; }, "f rm" does. The body, read where the function is
// defined, shows only expansions computed at run time there, so such a
// call was asked about, and a person's approval ran a program a rule
// refuses. Each call of a function the line defines is read again as
// "set -- WORDS; BODY" (the positional parameters held as set gives them),
// and the line's own parameters are held again after it, as the shell
// gives them back when the function returns.

// defineFunction keeps the body of the function fn defines.
func (w *walker) defineFunction(fn *syntax.FuncDecl, src string) {
	if fn.Name == nil || fn.Body == nil {
		return
	}
	if w.funcs == nil {
		w.funcs = map[string]string{}
	}
	w.funcs[fn.Name.Value] = sourceOf(fn.Body, src)
}

// functionCall walks the body of the function the simple command call
// runs, when the line defined it, with the call's words as its positional
// parameters.
func (w *walker) functionCall(call *syntax.CallExpr, head *syntax.Word, src string, depth int) {
	name, ok := LiteralWord(head)
	body, defined := w.funcs[name]
	if !ok || !defined || depth > maxDepth {
		return
	}
	key := "$func:" + name
	if w.expanding[key] {
		return // a function that calls itself: its body is read once
	}
	args := ""
	if last := call.Args[len(call.Args)-1]; last != head {
		start, end := int(head.End().Offset()), int(last.End().Offset())
		if start < 0 || end > len(src) || start > end {
			return
		}
		args = src[start:end]
	}
	if w.expanding == nil {
		w.expanding = map[string]bool{}
	}
	w.expanding[key] = true
	saved := w.savePositional()
	w.line("set --"+args+"\n"+body, depth+1, currentShell)
	w.restorePositional(saved)
	delete(w.expanding, key)
}

// positionalNames are the variables the positional parameters are held as.
var positionalNames = []string{"@", "*", "#", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

// savePositional returns what the line holds of the positional
// parameters, for restorePositional.
func (w *walker) savePositional() map[string]*heldValues {
	saved := map[string]*heldValues{}
	for _, n := range positionalNames {
		if h, ok := w.held[n]; ok {
			saved[n] = &h
		} else {
			saved[n] = nil
		}
	}
	return saved
}

// restorePositional holds the positional parameters as saved.
func (w *walker) restorePositional(saved map[string]*heldValues) {
	for n, h := range saved {
		if h == nil {
			delete(w.held, n)
			continue
		}
		w.held[n] = *h
	}
}
