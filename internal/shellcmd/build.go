package shellcmd

import "strings"

// step is what one form of a command runs, as its program's grammar says.
type step struct {
	// next is the form the program runs next (nil: it runs no command).
	next []Word
	// others are further commands it runs (find's second -exec).
	others [][]Word
	// shell are strings it runs as shell code.
	shell []shellRun
	// notes say what the analysis could not follow.
	notes []Note
	// assigns are variables it sets for what it runs (env NAME=value).
	assigns []Assignment
	// stdinShell, when set, says the program is a shell reading its
	// commands from standard input, in these dialects.
	stdinShell dialects
	// stdinAsks says the program runs its input's lines as commands
	// without being a shell (GNU parallel): input the line does not show
	// needs approval whatever rule names the program, where a shell's is
	// code a rule naming the shell vouches for.
	stdinAsks bool
	// fdShell, when set, says the program is a shell reading its
	// commands from descriptor fdScript (fd_scripts.go), in these
	// dialects.
	fdShell  dialects
	fdScript int
	// inputForms are the forms a shell reading its script from its
	// input is decided as besides its own (inputShellForms) where that
	// input is not text the line shows.
	inputForms [][]Word
	// shellScript is the file a shell or source runs as its script
	// (bash s.sh, . ./env.sh), listed in Command.ShellScripts.
	shellScript *Word
	// startupScript is the start-up file a shell runs first
	// (bash --rcfile F -i, --init-file F).
	startupScript *Word
	// scripts are the script files a text tool reads (scriptSources).
	scripts []scriptRef
	// chdir, when set, says the program runs what it runs in another
	// directory, and how.
	chdir string
	// acts says the program does work of its own besides the shell code
	// it runs (git rebase --exec): it is decided as a command too.
	acts bool
	// elsewhere, when set, says what the program runs runs in a directory
	// the line does not show, while its own words are where it runs.
	elsewhere string
	// atTop says what the program runs runs at the top of the git work
	// tree holding the directory it runs in, moved by the relative
	// directories of topFrom first (git -C).
	atTop   bool
	topFrom []string
}

// shellRun is a string a program runs as shell code.
type shellRun struct {
	word  Word
	langs dialects
	// params are the words a shell's -c string takes as its positional
	// parameters, $0 first (positional_params.go).
	params []Word
	// unseen are the forms the shell is decided as besides its own
	// where word is not static (inputShellForms): code the line does not
	// show is the bare shell's, as code it reads from its input is.
	unseen [][]Word
}

// formNotes read a form whose command word is static for what makes it
// need approval besides what its handler finds: an option that runs code,
// a program whose own commands run the shell, npm's and cargo's
// configuration, gh's aliases and extensions, a program's persisted
// setting that names a program (configKeyNote).
var formNotes = []func([]Word) (Note, bool){codeOptionNote, escapeNote, npmConfigNote, cargoConfigNote, ghNote, configKeyNote}

// handler reads one form whose command word is static.
type handler func(form []Word) step

// build fills c with words and what they run, then adds it. No words run
// nothing (a wrapper whose command a glob took, as in timeout *): no
// command is added.
func (w *walker) build(c *Command, words []Word, in *stdin, depth int) {
	if len(words) == 0 {
		return
	}
	idx := len(w.a.Commands)
	w.a.Commands = append(w.a.Commands, c)
	form := words
	for hop := 0; len(form) > 0; hop++ {
		c.Forms = append(c.Forms, form)
		if hop > maxDepth {
			c.Notes = append(c.Notes, Note{Kind: Unparsed, Text: "wrappers nested too deep", Form: hop})
			break
		}
		head := form[0]
		if head.Kind != Static {
			c.Notes = append(c.Notes, Note{Kind: NotStatic, Text: "the command word is not static: " + head.String(), Form: hop})
			// It may be a shell ($SHELL -c '...'): a later word that
			// looks like shell code is read as such.
			for _, wd := range form[1:] {
				if wd.Kind == Static && strings.ContainsAny(wd.Text, " \t\n;&|`$()<>") {
					w.line(wd.Text, depth+1, dialectsOf("sh"))
				}
			}
			if head.Kind == Glob && depth <= maxDepth {
				seen := map[string]bool{}
				for _, m := range append(globFiles(w.opts.Dir, head.Text), globCandidates(head.Text)...) {
					if seen[m] {
						continue
					}
					seen[m] = true
					expanded := append([]Word{{Kind: Static, Text: m}}, form[1:]...)
					w.build(&Command{Source: c.Source, Dir: c.Dir, Notes: []Note{{Kind: NotStatic, Text: "the glob " + head.Text + " can match " + m}}}, expanded, in, depth)
				}
			}
			break
		}
		switch head.Name() {
		case "cd", "pushd", "popd":
			w.a.ChangesDir = true
		}
		for _, note := range formNotes {
			if n, ok := note(form); ok {
				n.Form = hop
				c.Notes = append(c.Notes, n)
			}
		}
		if why := noPathOf(form); why != "" && c.NoPath == "" {
			c.NoPath = why
		}
		w.shellState(form)
		w.optionCommands(c, form, hop, depth)
		w.makeOperandValues(c, form, depth)
		w.zshPromptArgs(c, form, depth)
		switch head.Text {
		case "set":
			if orders, changes, known := w.setParameters(form); changes {
				w.positional(orders, known)
			}
			w.setArray(form, c.Dir, depth)
		case "shift":
			w.shiftParameters(form)
		}
		h := handlers[head.Name()]
		if h == nil {
			h = interpreterHandler(head.Name())
		}
		if h == nil {
			h = runnerHandler(head.Name())
		}
		if h == nil {
			h = shellFamilyHandler(head.Name())
		}
		if h == nil {
			w.unknownProgram(c, form, depth)
			break
		}
		st := h(form)
		w.scriptSources(c, &st, hop)
		for _, sc := range []*Word{st.startupScript, st.shellScript} {
			if sc != nil {
				c.ShellScripts = append(c.ShellScripts, ShellScript{Name: *sc, Form: hop})
			}
		}
		for _, n := range st.notes {
			n.Form = hop
			c.Notes = append(c.Notes, n)
		}
		pathNamed := strings.Contains(head.Text, "/")
		if pathNamed && len(st.next) > 0 {
			// A wrapper named by its path is whatever program lives there
			// (an agent's ./env script): what it would run is a command of
			// its own, judged besides it, never in its place.
			st.others = append([][]Word{st.next}, st.others...)
			st.next = nil
		}
		c.Transparent = !pathNamed && !st.acts && len(st.next) == 0 && (len(st.shell) > 0 || st.stdinShell != nil && in != nil && in.known)
		if st.chdir == "" && execInDirs(form) {
			st.chdir = "find -execdir runs its command in the directory of each file found"
		}
		if st.chdir != "" {
			// What it runs runs in another directory (env -C, sudo -D,
			// find -execdir): its forms' relative names lead somewhere
			// the line does not show.
			c.Dir = unknownDir(st.chdir)
		}
		assigns := st.assigns
		var array *heldArray
		if in != nil && in.known {
			switch head.Text {
			case "read":
				if ifs, known := w.ifs(); known {
					if vs, arr := readValues(form, in.text, ifs); vs != nil {
						assigns, array = vs, arr
					}
				}
			case "mapfile", "readarray":
				if name, elems, ok := mapfileElements(form, in.text); ok {
					array = &heldArray{name: name, elems: elems}
					assigns = nil
					for _, e := range elems {
						assigns = append(assigns, Assignment{Name: name, Value: e, Static: true})
					}
				}
			}
		}
		var prev heldValues
		before := false
		if array != nil {
			prev, before = w.held[array.name]
		}
		for _, a := range assigns {
			// What it runs reads the value where it runs (env -C DIR).
			a.Dir = c.Dir
			w.assign(a, depth)
		}
		if array != nil {
			w.arrayElements(array.name, [][]string{array.elems}, prev, before)
		}
		// Shell code it runs starts where it runs.
		runDir := c.Dir
		switch {
		case st.elsewhere != "":
			runDir = unknownDir(st.elsewhere)
		case st.atTop:
			runDir = topOf(c.Dir, st.topFrom)
		}
		w.cur = runDir
		for _, s := range st.shell {
			if s.word.Kind != Static {
				c.Notes = append(c.Notes, Note{Kind: NotStatic, Text: "runs shell code that is not static: " + s.word.String(), Form: hop})
				for _, o := range s.unseen {
					w.a.Commands = append(w.a.Commands, &Command{Source: c.Source, Dir: c.Dir, Forms: [][]Word{o}})
				}
				continue
			}
			w.line(s.word.Text, depth+1, s.langs)
			if text, ok := withParams(s.word.Text, s.params); ok {
				w.line(text, depth+1, s.langs)
			}
		}
		for _, o := range st.others {
			w.build(&Command{Source: c.Source, Dir: runDir}, o, nil, depth)
		}
		if in == nil || !in.known {
			// The same shell reading the same input (a pipe, a file),
			// decided by the rules naming it and nothing else: the
			// shell's own form carries what the bridge cannot read.
			for _, o := range st.inputForms {
				w.a.Commands = append(w.a.Commands, &Command{Source: c.Source, Dir: c.Dir, Forms: [][]Word{o}})
			}
		}
		if st.stdinShell != nil {
			switch {
			case in != nil && in.known:
				w.line(in.text, depth+1, st.stdinShell)
			case in != nil:
				if in.file != nil && !st.stdinAsks {
					c.ShellScripts = append(c.ShellScripts, ShellScript{Name: *in.file, Form: hop})
				}
				c.Notes = append(c.Notes, Note{Kind: stdinKind(st), Text: head.Text + " runs the commands in " + in.what, Form: hop})
			default:
				c.Notes = append(c.Notes, Note{Kind: stdinKind(st), Text: head.Text + " runs the commands it reads from its input", Form: hop})
			}
		}
		if st.fdShell != nil {
			w.fdShellCode(c, head, st.fdScript, st.fdShell, hop, depth)
		}
		form = st.next
	}
	if key := c.key(); w.seen[key] {
		w.a.Commands = append(w.a.Commands[:idx], w.a.Commands[idx+1:]...)
	} else {
		w.seen[key] = true
	}
}

// rest returns form[i:], or nil when i is past its end.
func rest(form []Word, i int) []Word {
	if i >= len(form) {
		return nil
	}
	return form[i:]
}

// joined returns the words from i on as one shell string, the way a
// program that joins its arguments with spaces and runs them with sh -c
// (watch, sudo -s, parallel) does. The result is Dynamic if any word is.
func joined(form []Word, i int) Word {
	out := Word{Kind: Static}
	for j := i; j < len(form); j++ {
		if j > i {
			out.Text += " "
		}
		out.Text += form[j].Text
		if form[j].Kind == Dynamic {
			out.Kind, out.Why = Dynamic, form[j].Why
		}
	}
	return out
}

// execInDirs reports whether form is a find that runs commands in the
// directory of each file found (-execdir, -okdir).
func execInDirs(form []Word) bool {
	if len(form) == 0 || form[0].Name() != "find" {
		return false
	}
	for _, w := range form[1:] {
		if w.Kind == Static && (w.Text == "-execdir" || w.Text == "-okdir") {
			return true
		}
	}
	return false
}

// topOf returns the directory of a command git runs at the top of the
// work tree holding d, after git's -C options from (each relative to the
// one before, or absolute).
func topOf(d Dir, from []string) Dir {
	if d.Unknown {
		return d
	}
	paths := d.paths()
	for _, f := range from {
		moved := make([]string, 0, len(paths))
		for _, p := range paths {
			switch {
			case strings.HasPrefix(f, "/"):
				p = f
			case p == "":
				p = f
			default:
				p += "/" + f
			}
			if len(p) > maxDirLen {
				return unknownDir("git -C names a directory too long to follow")
			}
			moved = append(moved, p)
		}
		paths = moved
	}
	return Dir{Paths: paths, AtTop: true, Searched: d.Searched}
}

// optionCommands reads the commands form's options give its program to
// run (optionCommands) as shell code of their own.
func (w *walker) optionCommands(c *Command, form []Word, hop, depth int) {
	runs, notes, elsewhere := optionCommands(form)
	if len(runs) > 0 {
		// Decided in turn below, and a command no rule for another program
		// vouches for: approval unless a rule names this one.
		notes = append(notes, Note{Kind: RunsCode, Text: form[0].Text + " runs a command one of its options gives"})
	}
	for _, n := range notes {
		n.Form = hop
		c.Notes = append(c.Notes, n)
	}
	if len(runs) == 0 {
		return
	}
	w.cur = c.Dir
	if elsewhere != "" {
		w.cur = unknownDir(elsewhere)
	}
	for _, r := range runs {
		if r.Kind != Static {
			c.Notes = append(c.Notes, Note{Kind: NotStatic, Text: "runs shell code that is not static: " + r.String(), Form: hop})
			continue
		}
		w.line(r.Text, depth+1, dialectsOf("sh"))
	}
}

// stdinKind is the kind of note on a program of step st that runs
// commands from an input the line does not show.
func stdinKind(st step) NoteKind {
	if st.stdinAsks {
		return NotStatic
	}
	return RunsCode
}
