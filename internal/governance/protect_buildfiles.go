package governance

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// Build tools run the project file of the directory they run in, as make
// runs its makefile (makefiles) and npm the scripts of package.json
// (projectManifest): cmake its CMakeLists.txt (execute_process, file(WRITE))
// and the scripts -P and -C name, just its justfile's recipes, rake its
// Rakefile, gradle its build and settings scripts and the init script -I
// names, task its Taskfile's commands, ninja build.ninja's, meson
// meson.build's run_command, tox and nox their configuration's commands,
// mvn the plugins pom.xml declares. Each file's text counts as the line's
// own, as a script's does.

// buildTool is where one build tool finds the files it runs.
type buildTool struct {
	// files are the names it looks for where it runs, the first found.
	files []string
	// fileOpts are options whose value names a file it runs; dirOpts
	// options whose value is the directory it runs in instead.
	fileOpts, dirOpts []string
	// sourceDir says a plain operand may be the directory of the
	// project file (cmake .., cmake -S src).
	sourceDir bool
	// searchUp says it looks in each directory above too, nearest
	// first, when none is where it runs (just, rake, task).
	searchUp bool
}

// buildTools maps a program to its buildTool.
var buildTools = map[string]buildTool{
	"cmake": {files: []string{"CMakeLists.txt"}, fileOpts: []string{"-P", "-C"}, dirOpts: []string{"-S"}, sourceDir: true},
	"just": {files: []string{"justfile", "Justfile", ".justfile", "JUSTFILE"}, fileOpts: []string{"-f", "--justfile"},
		dirOpts: []string{"-d", "--working-directory"}, searchUp: true},
	"rake": {files: []string{"Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"}, fileOpts: []string{"-f", "--rakefile"},
		dirOpts: []string{"-C", "--directory"}, searchUp: true},
	"gradle": {files: []string{"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"},
		fileOpts: []string{"-b", "--build-file", "-c", "--settings-file", "-I", "--init-script"}, dirOpts: []string{"-p", "--project-dir"}},
	"task": {files: []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml", "Taskfile.dist.yaml"},
		fileOpts: []string{"-t", "--taskfile"}, dirOpts: []string{"-d", "--dir"}, searchUp: true},
	"ninja": {files: []string{"build.ninja"}, fileOpts: []string{"-f"}, dirOpts: []string{"-C"}},
	"meson": {files: []string{"meson.build"}, sourceDir: true},
	"tox":   {files: []string{"tox.ini"}, fileOpts: []string{"-c"}},
	"nox":   {files: []string{"noxfile.py"}, fileOpts: []string{"-f", "--noxfile"}},
	"mvn":   {files: []string{"pom.xml"}, fileOpts: []string{"-f", "--file"}},
}

// buildFiles returns the files form's build tool runs when it runs in
// dir: each file an option of fileOpts names, else the project file of the
// directory it runs in (dirOpts' value, a source directory operand, or
// dir) or, for a tool that searches up, of the nearest directory above
// holding one. nil for a program that is no build tool.
func buildFiles(form []shellcmd.Word, dir string) []string {
	if len(form) == 0 || form[0].Kind != shellcmd.Static {
		return nil
	}
	name := filepath.Base(form[0].Text)
	if name == "gradlew" {
		name = "gradle"
	}
	tool, ok := buildTools[name]
	if !ok {
		return nil
	}
	var out, dirs []string
	projectFile := true // the tool reads its project file too
	for i := 1; i < len(form); i++ {
		w := form[i]
		if w.Kind != shellcmd.Static {
			continue
		}
		opt, value, attached := strings.Cut(w.Text, "=")
		if !attached && strings.HasPrefix(opt, "-") && !strings.HasPrefix(opt, "--") && len(opt) > 2 {
			opt, value, attached = opt[:2], opt[2:], true // -Pscript.cmake
		}
		isFile, isDir := slices.Contains(tool.fileOpts, opt), slices.Contains(tool.dirOpts, opt)
		switch {
		case (isFile || isDir) && !attached && i+1 < len(form):
			i++
			value = form[i].Text
		case !isFile && !isDir:
			if tool.sourceDir && !strings.HasPrefix(w.Text, "-") {
				dirs = append(dirs, joinRaw(dir, w.Text))
			}
			continue
		}
		switch {
		case isDir:
			dirs = append(dirs, joinRaw(dir, value))
		case name == "cmake" && opt == "-C":
			out = append(out, joinRaw(dir, value)) // an initial cache: the project's file runs too
		default:
			out = append(out, joinRaw(dir, value))
			projectFile = false // the file given instead
		}
	}
	if !projectFile {
		return out
	}
	if len(dirs) == 0 {
		dirs = []string{dir}
	}
	for _, d := range dirs {
		for {
			found := false
			for _, f := range tool.files {
				p := filepath.Join(d, f)
				out = append(out, p)
				if _, err := os.Lstat(p); err == nil {
					found = true
				}
			}
			up := filepath.Dir(d)
			if found || !tool.searchUp || up == d {
				break
			}
			d = up
		}
	}
	return out
}
