package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestScriptFilesListed lists the script files a line's sed and awk read
// their script from, in every form the tools take one (-f F, -fF, -nf F,
// --file=F, --file F, a prefix of --file, -E, --exec, several -f, a file
// fed on the input or a descriptor), each with a ScriptFile note for the
// caller to replace once it has read the file.
func TestScriptFilesListed(t *testing.T) {
	for _, tt := range []struct {
		line string
		want string // the files, joined by " "
	}{
		{"sed -f s.sed a.txt", "sed:s.sed"},
		{"sed -fs.sed a.txt", "sed:s.sed"},
		{"sed -nf s.sed a.txt", "sed:s.sed"},
		{"sed --file=s.sed a.txt", "sed:s.sed"},
		{"sed --file s.sed a.txt", "sed:s.sed"},
		{"sed --fi=s.sed a.txt", "sed:s.sed"},
		{"sed -e p -f s.sed -f t.sed a.txt", "sed:s.sed sed:t.sed"},
		{"sed -n p a.txt -f s.sed", "sed:s.sed"},
		{"gsed -f s.sed a.txt", "sed:s.sed"},
		{"awk -f s.awk a.txt", "awk:s.awk"},
		{"awk -F: -f s.awk -f t.awk a.txt", "awk:s.awk awk:t.awk"},
		{"gawk --file=s.awk", "awk:s.awk"},
		{"mawk -E s.awk", "awk:s.awk"},
		{"nawk --exec s.awk", "awk:s.awk"},
		{"awk -f - < s.awk", "awk:s.awk"},
		{"awk -f /dev/fd/3 3< s.awk", "awk:s.awk"},
		{"timeout 5 sed -f s.sed a.txt", "sed:s.sed"},
		{"busybox awk -f s.awk", "awk:s.awk"},
		{"sed -f - a.txt <<< p", ""},
		{"sed -n 1,5p a.txt", ""},
		{"awk '{print}' -f s.awk", ""}, // awk stops at its program: -f is a file to read
	} {
		a := Analyze(tt.line, Options{})
		var got []string
		for _, c := range a.Commands {
			notes := 0
			for _, n := range c.Notes {
				if n.Kind == ScriptFile {
					notes++
				}
			}
			if notes != len(c.Scripts) {
				t.Errorf("Analyze(%q): %d ScriptFile notes for %d scripts", tt.line, notes, len(c.Scripts))
			}
			for _, s := range c.Scripts {
				got = append(got, s.Lang+":"+s.Name.Text)
				if f := c.Forms[s.Form]; !strings.HasSuffix(f[0].Name(), s.Lang) {
					t.Errorf("Analyze(%q): script %s is of form %q", tt.line, s.Name.Text, joinedForm(f))
				}
			}
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("Analyze(%q): script files %q, want %q", tt.line, g, tt.want)
		}
	}
}

// TestAnalyzeScript judges a script file's text as the same text on the
// line: the notes it gives and the commands it runs, where the tool runs.
func TestAnalyzeScript(t *testing.T) {
	dir := Dir{Paths: []string{"sub"}}
	for _, tt := range []struct {
		lang, text string
		kinds      []NoteKind
		runs       []string // the forms of the commands it runs
	}{
		{"sed", "s/a/b/\n1,5p\n", nil, nil},
		{"sed", "e cat .env\n", []NoteKind{RunsCode}, []string{"cat .env"}},
		{"sed", "/x/ {\n  e rm x\n}\n", []NoteKind{RunsCode}, []string{"rm x"}},
		{"sed", "s/.*/rm x/e\n", []NoteKind{RunsCode, NotStatic}, []string{"rm x"}},
		{"sed", "r .env\n", []NoteKind{OpensFiles}, nil},
		{"sed", "1e echo hi\nr .env\n", []NoteKind{RunsCode, OpensFiles}, []string{"echo hi"}},
		{"awk", "{ print $1 }\n", nil, nil},
		{"awk", "BEGIN { system(\"\\162m x\") }\n", []NoteKind{RunsCode}, []string{"rm x"}},
		{"awk", "{ print | \"sh\" }\n", []NoteKind{RunsCode}, []string{"sh"}},
		{"awk", "{ system($0) }\n", []NoteKind{RunsCode, NotStatic}, nil},
		{"awk", "@include \"lib.awk\"\nBEGIN { f() }\n", []NoteKind{OpensFiles}, nil},
		{"awk", "@load \"ext\"\n", []NoteKind{OpensFiles}, nil},
		{"perl", "system('rm x')", []NoteKind{Unparsed}, nil},
	} {
		notes, a := AnalyzeScript(tt.lang, tt.text, dir, Options{})
		var kinds []NoteKind
		for _, n := range notes {
			kinds = append(kinds, n.Kind)
		}
		if !slices.Equal(kinds, tt.kinds) {
			t.Errorf("AnalyzeScript(%s, %q): note kinds %v, want %v (%v)", tt.lang, tt.text, kinds, tt.kinds, notes)
		}
		for _, want := range tt.runs {
			if !slices.Contains(formsOf(a), want) {
				t.Errorf("AnalyzeScript(%s, %q): runs %q, want %q among them", tt.lang, tt.text, formsOf(a), want)
			}
		}
		for _, c := range a.Commands {
			if !slices.Equal(c.Dir.Paths, dir.Paths) {
				t.Errorf("AnalyzeScript(%s, %q): %q runs in %v, want %v", tt.lang, tt.text, c.Source, c.Dir, dir)
			}
		}
		if len(tt.runs) == 0 && len(a.Commands) > 0 {
			t.Errorf("AnalyzeScript(%s, %q): runs %q, want nothing", tt.lang, tt.text, formsOf(a))
		}
	}
}

// joinedForm returns a form's words joined by spaces.
func joinedForm(f []Word) string {
	var parts []string
	for _, w := range f {
		parts = append(parts, w.Text)
	}
	return strings.Join(parts, " ")
}

// FuzzAnalyzeScript judges any text as a sed or awk script file: it
// never panics, and a script that gives commands to run is noted as
// running commands, which is what makes a rule naming the tool decide
// them as commands of the line.
func FuzzAnalyzeScript(f *testing.F) {
	for _, s := range []string{"e cat .env\n", "s/.*/rm x/e\n", "/a/ {\n e ls\n}\nr .env\n", "1,5p", `s/a\/e/b/w /dev/stdout`,
		`BEGIN { system("\162m x") }`, `{ print | "sh" }`, `"id" | getline v`, `@include "x"`, "{ system($0) }", `/a|b/ { print > "o" }`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, lang := range []string{"sed", "awk"} {
			notes, a := AnalyzeScript(lang, text, Dir{Paths: []string{"sub"}}, Options{})
			if len(a.Commands) > 0 && !slices.ContainsFunc(notes, func(n Note) bool { return n.Kind == RunsCode }) {
				t.Fatalf("AnalyzeScript(%s, %q) runs %q, not noted as running commands: %v", lang, text, formsOf(a), notes)
			}
		}
	})
}
