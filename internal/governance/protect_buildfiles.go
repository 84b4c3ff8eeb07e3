package governance

import (
	"io/fs"
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
// mvn the plugins pom.xml declares, terraform its .tf files' provisioners,
// bun and deno their project's scripts and tasks. Each file's text counts
// as the line's own, as a script's does.

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
	// runsNamed, if not nil, returns the files a project file's text
	// (in dir) names that the tool runs too.
	runsNamed func(text, dir string) []string
	// config, if not "", is a file of the project that is no code but
	// names code the tool runs: read for runsNamed only, not as code
	// (pyproject.toml, whose tool settings name files of every kind).
	config string
	// quiet are the subcommands that run none of the project's code, such
	// as the one that changes its settings (composer config).
	quiet map[string]bool
	// placeOpts are options whose value places the project in another
	// directory as well: a directory (cargo's -C), or the project's config
	// file there (cargo's --manifest-path), relative to the directory an
	// earlier such option gave. That directory's files are read beside
	// those of the directory it runs in, which are read too (after "--"
	// the word may be the program's own).
	placeOpts []string
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
	// terraform apply and destroy run the local-exec provisioners of every
	// .tf file of the directory (a terraform_data resource needs no
	// provider); tofu is its fork.
	"terraform": {files: []string{"*.tf", "*.tf.json"}, dirOpts: []string{"-chdir"}},
	"tofu":      {files: []string{"*.tf", "*.tf.json"}, dirOpts: []string{"-chdir"}},
	// bun runs package.json's scripts as npm does (bun run x, bun x, the
	// lifecycle scripts of bun install) and the preload scripts bunfig.toml
	// names; deno task runs deno.json's tasks.
	"bun": {files: []string{"package.json", "bunfig.toml"}, dirOpts: []string{"--cwd"}, searchUp: true,
		runsNamed: scriptsNamed},
	"deno": {files: []string{"deno.json", "deno.jsonc"}, fileOpts: []string{"-c", "--config"}, dirOpts: []string{"--cwd"}, searchUp: true},
	// Python's package tools build a local project by running its setup.py
	// or the build backend pyproject.toml names, in the tree where its
	// backend-path says so: pip (and python -m pip) the directories its
	// operands name, python -m build its source directory, the project
	// managers the project they run in.
	"pip":   {files: pythonBuildScripts, config: "pyproject.toml", sourceDir: true, runsNamed: inTreeBackend},
	"build": {files: pythonBuildScripts, config: "pyproject.toml", sourceDir: true, runsNamed: inTreeBackend},
	"uv": {files: pythonBuildScripts, config: "pyproject.toml", dirOpts: []string{"--directory", "--project"}, searchUp: true,
		runsNamed: inTreeBackend},
	"poetry": {files: pythonBuildScripts, config: "pyproject.toml", dirOpts: []string{"-C", "--directory"}, searchUp: true,
		runsNamed: inTreeBackend},
	"flit":    {files: pythonBuildScripts, config: "pyproject.toml", searchUp: true, runsNamed: inTreeBackend},
	"maturin": {files: []string{"setup.py", "build.rs"}, config: "pyproject.toml", searchUp: true, runsNamed: inTreeBackend},
	// pdm run and hatch run run the scripts pyproject.toml gives them.
	"pdm":   {files: []string{"setup.py", "pyproject.toml"}, dirOpts: []string{"-p", "--project"}, searchUp: true, runsNamed: inTreeBackend},
	"hatch": {files: []string{"setup.py", "pyproject.toml"}, searchUp: true, runsNamed: inTreeBackend},
	// cargo runs each package's build script (build.rs, or the file its
	// Cargo.toml's build names) before it compiles, for every
	// subcommand that builds: those of its workspace's members too.
	"cargo": {files: []string{"build.rs"}, config: "Cargo.toml", searchUp: true, runsNamed: cargoBuildScripts,
		placeOpts: []string{"-C", "--manifest-path"},
		quiet: setOf("add", "remove", "rm", "update", "generate-lockfile", "search", "version", "help", "fmt", "tree",
			"metadata", "login", "logout", "owner", "new", "init", "locate-project", "pkgid", "vendor", "fetch",
			"uninstall", "yank", "report", "info", "config", "clean")},
	// Other languages' build and task tools, whose project file is code
	// or holds commands they run.
	"bundle": {files: []string{"Gemfile", "gems.rb"}, fileOpts: []string{"--gemfile"}, searchUp: true},
	"gem":    {files: []string{"*.gemspec"}},
	"composer": {files: []string{"composer.json"}, dirOpts: []string{"-d", "--working-dir"},
		quiet: setOf("config", "validate", "show", "info", "search", "help", "list", "about", "diagnose", "licenses",
			"outdated", "depends", "why", "why-not", "prohibits", "suggests", "fund", "self-update", "selfupdate",
			"check-platform-reqs", "audit")},
	"swift":      {files: []string{"Package.swift"}, dirOpts: []string{"--package-path"}},
	"mix":        {files: []string{"mix.exs"}},
	"sbt":        {files: []string{"build.sbt", "project/*.sbt", "project/*.scala"}},
	"dotnet":     {files: []string{"*.csproj", "*.fsproj", "*.vbproj", "*.sln", "Directory.Build.props", "Directory.Build.targets"}},
	"node-gyp":   {files: []string{"binding.gyp"}, dirOpts: []string{"-C", "--directory"}},
	"autoreconf": {files: []string{"configure.ac", "configure.in"}},
	"autoconf":   {files: []string{"configure.ac", "configure.in"}},
	"nix-shell":  {files: []string{"shell.nix", "default.nix"}},
	"nix":        {files: []string{"flake.nix", "shell.nix", "default.nix"}, searchUp: true},
	"lein":       {files: []string{"project.clj"}},
	"cabal":      {files: []string{"*.cabal", "Setup.hs", "cabal.project"}},
	"stack":      {files: []string{"stack.yaml", "package.yaml", "*.cabal", "Setup.hs"}},
	"scons":      {files: []string{"SConstruct", "Sconstruct", "sconstruct", "SConscript"}, fileOpts: []string{"-f", "--file"}},
	"waf":        {files: []string{"wscript"}},
	"invoke":     {files: []string{"tasks.py"}, searchUp: true},
	"inv":        {files: []string{"tasks.py"}, searchUp: true},
	"fab":        {files: []string{"fabfile.py"}, searchUp: true},
	"doit":       {files: []string{"dodo.py"}, fileOpts: []string{"-f", "--file"}},
	"ant":        {files: []string{"build.xml"}, fileOpts: []string{"-f", "-file", "-buildfile"}},
	"grunt":      {files: []string{"Gruntfile.js", "Gruntfile.coffee"}, searchUp: true},
	"gulp":       {files: []string{"gulpfile.js", "gulpfile.mjs", "gulpfile.cjs", "gulpfile.ts", "gulpfile.babel.js"}, fileOpts: []string{"-f", "--gulpfile"}, searchUp: true},
	"jake":       {files: []string{"Jakefile", "Jakefile.js"}, searchUp: true},
	"xmake":      {files: []string{"xmake.lua"}},
	"premake5":   {files: []string{"premake5.lua"}, fileOpts: []string{"--file"}},
	"earthly":    {files: []string{"Earthfile"}},
	"tilt":       {files: []string{"Tiltfile"}, fileOpts: []string{"-f", "--file"}},
	"vagrant":    {files: []string{"Vagrantfile"}, searchUp: true},
	"cdk":        {files: []string{"cdk.json"}},
}

// pythonBuildScripts are the files a Python project's build runs as
// code beside the backend its pyproject.toml names.
var pythonBuildScripts = []string{"setup.py"}

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
	switch {
	case name == "gradlew":
		name = "gradle"
	case strings.HasPrefix(name, "pip") && strings.Trim(name[3:], "0123456789.") == "":
		name = "pip" // pip3, pip3.11
	case shellcmd.InterpreterName(name) == "python":
		// python -m pip, python -m build: the module's own form.
		if m := pythonModuleAt(form); m > 0 && buildTools[form[m].Text].files != nil {
			name, form = form[m].Text, form[m:]
		}
	}
	tool, ok := buildTools[name]
	if !ok || tool.quiet[subcommand(form, tool.dirOpts)] {
		return nil
	}
	var out, dirs, placed []string
	projectFile := true // the tool reads its project file too
	base := dir         // where a placeOpts value is relative to
	for i := 1; i < len(form); i++ {
		w := form[i]
		if w.Kind != shellcmd.Static {
			continue
		}
		opt, value, attached := strings.Cut(w.Text, "=")
		if !attached && strings.HasPrefix(opt, "-") && !strings.HasPrefix(opt, "--") && len(opt) > 2 {
			opt, value, attached = opt[:2], opt[2:], true // -Pscript.cmake
		}
		if slices.Contains(tool.placeOpts, opt) {
			if !attached && i+1 < len(form) {
				i++
				value = form[i].Text
			}
			if p := joinRaw(base, value); filepath.Base(p) == tool.config {
				placed = append(placed, filepath.Dir(p))
			} else {
				placed, base = append(placed, p), p
			}
			continue
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
	for _, d := range append(dirs, placed...) {
		for {
			found := false
			for _, f := range tool.files {
				p := filepath.Join(d, f)
				if strings.ContainsAny(f, "*?[") {
					out = append(out, "\x00"+p) // a glob: expandGlobs reads its matches
					continue
				}
				out = append(out, p)
				if _, err := os.Lstat(p); err == nil {
					found = true
					if tool.runsNamed != nil {
						if text, why := readTextFile(p); why == "" {
							out = append(out, tool.runsNamed(text, d)...)
						}
					}
				}
			}
			if tool.config != "" {
				if text, why := readTextFile(filepath.Join(d, tool.config)); why == "" {
					found = true
					out = append(out, tool.runsNamed(text, d)...)
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

// scriptExtensions are the endings of the JavaScript and TypeScript files
// a runtime loads.
var scriptExtensions = []string{".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"}

// scriptsNamed returns, relative to dir, every quoted string of text that
// ends as a script file does: bunfig.toml's preload = ["./pre.ts"] and
// the test preload beside it are scripts bun runs before any other.
func scriptsNamed(text, dir string) []string {
	var out []string
	for _, q := range []string{`"`, `'`} {
		parts := strings.Split(text, q)
		for i := 1; i < len(parts); i += 2 {
			for _, ext := range scriptExtensions {
				if strings.HasSuffix(parts[i], ext) {
					out = append(out, joinRaw(dir, parts[i]))
					break
				}
			}
		}
	}
	return out
}

// pythonModuleAt returns the index in form, a python command, of the
// module -m names when nothing but python's flags comes before it
// ("python3 -m pip install ."); 0 for none.
func pythonModuleAt(form []shellcmd.Word) int {
	for i := 1; i+1 < len(form); i++ {
		t := form[i].Text
		switch {
		case form[i].Kind != shellcmd.Static || !strings.HasPrefix(t, "-") || t == "-":
			return 0
		case t == "-m":
			return i + 1
		case strings.Trim(t[1:], pythonFlags) != "":
			return 0
		}
	}
	return 0
}

// inTreeBackend returns the module files of the build backend a
// pyproject.toml's text (in dir) names where its backend-path puts it in
// the project's own tree: build-backend = "evil.backend" with
// backend-path = ["."] runs dir/evil/backend.py (or its package's
// __init__.py) to build.
func inTreeBackend(text, dir string) []string {
	backend, paths := "", []string(nil)
	for _, kv := range keyValues(text) {
		key, value := kv[0], kv[1]
		switch key {
		case "build-backend":
			backend = strings.Trim(value, `"'`)
			backend, _, _ = strings.Cut(backend, ":")
		case "backend-path":
			for _, p := range strings.Split(strings.Trim(value, "[]"), ",") {
				if p = strings.Trim(strings.TrimSpace(p), `"'`); p != "" {
					paths = append(paths, p)
				}
			}
		}
	}
	if backend == "" {
		return nil
	}
	module := strings.ReplaceAll(backend, ".", "/")
	var out []string
	for _, p := range paths {
		base := joinRaw(joinRaw(dir, p), module)
		out = append(out, base+".py", base+"/__init__.py")
	}
	return out
}

// subcommand returns the first word of form after its program that is
// no option nor the value of one of dirOpts; "" when there is none.
func subcommand(form []shellcmd.Word, dirOpts []string) string {
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		switch {
		case !strings.HasPrefix(t, "-"):
			return t
		case slices.Contains(dirOpts, t):
			i++ // and its value
		}
	}
	return ""
}

// cargoBuildScripts returns the build scripts a Cargo.toml's text (in
// dir) has cargo run: its package's (the file its build key names), and
// those of every package it reaches, in turn (cargoManifests): each
// dependency given by path, each [patch] and [replace] entry's, each
// workspace member's (a glob member matched now). A manifest the bridge
// cannot read as TOML gives every build.rs beneath its directory; one it
// reaches gives the build.rs of its directory.
func cargoBuildScripts(text, dir string) []string {
	m, why := parseCargoManifest(text, dir)
	if why != "" {
		return buildScriptsBeneath(dir)
	}
	out := m.buildScripts()
	all, _ := cargoManifests(m)
	for _, n := range all[1:] {
		out = append(out, n.buildScripts()...)
	}
	for _, n := range all {
		for _, d := range n.packageDirs() {
			out = append(out, filepath.Join(d, "build.rs"))
		}
	}
	return out
}

// buildScriptsBeneath returns every build.rs beneath dir, up to
// maxTreeEntries entries, for a manifest whose packages are not known.
func buildScriptsBeneath(dir string) []string {
	var out []string
	budget := maxTreeEntries
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if budget--; budget < 0 {
			return fs.SkipAll
		}
		if err == nil && !d.IsDir() && d.Name() == "build.rs" {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// keyValues returns the KEY = VALUE lines of a TOML file's text, each key
// and value with its white space trimmed (the value's quotes kept): what
// a build tool's settings name is read from them.
func keyValues(text string) [][2]string {
	var out [][2]string
	for _, line := range strings.Split(text, "\n") {
		if key, value, ok := strings.Cut(line, "="); ok {
			out = append(out, [2]string{strings.TrimSpace(key), strings.TrimSpace(value)})
		}
	}
	return out
}
