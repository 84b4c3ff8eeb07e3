package shellcmd

import "strconv"

// A text tool's script file is read where the script comes from: a file
// the line names is the caller's to read when it decides (its text is
// not the line's, and may be the agent's own), and a descriptor the
// statement feeds ("sed -f - <<< 'e cmd'", "awk -f /dev/fd/3 3<<<...")
// is the here-document's or here-string's text, judged here as the
// script it is. A descriptor fed a file ("awk -f - < s.awk") is that
// file; one fed by a pipe or with expansions is not known.

// Script is a script file a text tool reads its script from (sed -f,
// awk -f): its text is to be judged as the tool's script (AnalyzeScript).
type Script struct {
	// Lang is the script's language: "sed" or "awk".
	Lang string
	// Tool is the program as the line names it ("gawk").
	Tool string
	// Name is the file's name as the line gives it, relative to where
	// the command runs (Command.Dir).
	Name Word
	// Form is the index in Command.Forms of the tool's form.
	Form int
}

// scriptRef is a script file a tool's options name (step.scripts).
type scriptRef struct {
	tool *scriptTool
	name string // the program, as the line names it
	file string
}

// scriptSources reads where the scripts of st come from: a script the
// statement feeds on a descriptor is judged into st, and a file becomes
// one of c's Scripts, noted until a caller reads it.
func (w *walker) scriptSources(c *Command, st *step, hop int) {
	for _, ref := range st.scripts {
		script := ref.tool.script
		fd, fed := 0, ref.file == "-"
		if !fed {
			fd, fed = fdScript(Word{Kind: Static, Text: ref.file})
		}
		name := Word{Kind: Static, Text: ref.file}
		if fed {
			in := w.fds[fd]
			switch {
			case in != nil && in.known:
				ref.tool.judge(st, ref.name, []string{in.text})
				continue
			case in != nil && in.file != nil:
				name = *in.file
			default:
				what := "descriptor " + strconv.Itoa(fd)
				if in != nil {
					what = in.what
				} else if fd == 0 {
					what = "its input"
				}
				st.notes = append(st.notes, Note{Kind: NotStatic, Text: ref.name + " reads its " + script + " from " + what + ", known only when the line runs"})
				continue
			}
		}
		c.Scripts = append(c.Scripts, Script{Lang: ref.tool.lang, Tool: ref.name, Name: name, Form: hop})
		st.notes = append(st.notes, Note{Kind: ScriptFile, Text: ref.name + " runs the " + script + " in the file " + name.String() + ", which the line does not show"})
	}
}

// AnalyzeScript judges text as a script file of the language lang
// ("sed", "awk") that a command running in dir reads: the notes the
// same text given on the line would give the command (that it runs
// commands, opens files it names, runs one known only when the line
// runs), and the commands it gives to run, analysed as sh code that
// runs in dir. An unknown language gives an Unparsed note.
func AnalyzeScript(lang, text string, dir Dir, opts Options) ([]Note, *Analysis) {
	a := &Analysis{Line: text}
	t := scriptTools[lang]
	if t == nil {
		return []Note{{Kind: Unparsed, Text: "the bridge does not read " + lang + " scripts"}}, a
	}
	var st step
	t.judge(&st, lang, []string{text})
	w := newWalker(a, opts)
	w.cur = dir
	for _, s := range st.shell {
		w.line(s.word.Text, 1, s.langs)
	}
	w.checkEvaluations()
	return st.notes, a
}
