package governance

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/tailscale/hujson"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// tsc compiles the project a tsconfig.json describes, which no word of the
// line names: the one -p (--project) gives, else the first up from where it
// runs. Its compilerOptions say where it writes (outFile, outDir,
// declarationDir, tsBuildInfoFile), its files and include which sources it
// reads, and extends which configuration it starts from. The agent writes
// that file with an edit the policy allows, so under a rule allowing tsc,
// "outFile": "GOVERNANCE.md" rewrites the policy, "outDir" outside the
// workspace writes there, and an included k.ts that is a link to .env has
// tsc quote its words in an error. tscProjectVerdict reads the
// configuration when the request is decided and decides what it writes and
// compiles as the same names on the line are.

// maxTSConfigDepth bounds the extends chain the bridge follows; past it the
// command needs approval.
const maxTSConfigDepth = 8

// tscWrittenOptions are the compilerOptions whose value is a file or
// directory tsc writes, relative to the configuration that gives it.
var tscWrittenOptions = []string{"outFile", "out", "outDir", "declarationDir", "tsBuildInfoFile"}

// tscSourceExts are the names tsc compiles from an include pattern or the
// project's directory (with allowJs, JavaScript too).
var tscSourceExts = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

// tscSkippedDirs are the directories tsc leaves out of a project's default
// include.
var tscSkippedDirs = setOf("node_modules", "bower_components", "jspm_packages", ".git")

// tsconfig is what the bridge reads of a tsconfig.json.
type tsconfig struct {
	Extends         jsontext.Value            `json:"extends"`
	CompilerOptions map[string]jsontext.Value `json:"compilerOptions"`
	Files           []string                  `json:"files"`
	Include         []string                  `json:"include"`
	References      jsontext.Value            `json:"references"`
}

// tscProjectVerdict decides the project configuration each tsc form of c
// reads; others says the line runs other commands, which may write it
// first. ok is false when c runs no tsc that reads a configuration.
func (e *Engine) tscProjectVerdict(in *reqInfo, c *shellcmd.Command, others bool, advisories *[]string) (verdict, bool) {
	var worst strictest
	for _, form := range c.Forms {
		if len(form) == 0 || form[0].Kind != shellcmd.Static || filepath.Base(form[0].Text) != "tsc" {
			continue
		}
		worst.keepIf(e.tscFormVerdict(in, c, form, others, advisories))
	}
	return worst.result()
}

// tscAsk is the verdict of a tsc whose project the bridge cannot read.
func tscAsk(why string) verdict {
	return verdict{value: RequireApproval, ref: "unreadable-command",
		ruleTx: "require-approval for commands the bridge cannot read through (built-in)",
		reason: "reading the project configuration tsc compiles: " + why}
}

// tscFormVerdict decides one tsc form.
func (e *Engine) tscFormVerdict(in *reqInfo, c *shellcmd.Command, form []shellcmd.Word, others bool, advisories *[]string) (verdict, bool) {
	project := ""
	for i := 1; i < len(form); i++ {
		w := form[i]
		if w.Kind != shellcmd.Static {
			return tscAsk("a word of the line is computed when it runs"), true
		}
		switch w.Text {
		case "-v", "--version", "-h", "--help", "--all", "--init", "--showConfig":
			return verdict{}, false
		case "-b", "--build":
			return tscAsk("tsc --build compiles the projects the configuration references"), true
		case "-p", "--project":
			if i+1 >= len(form) || form[i+1].Kind != shellcmd.Static {
				return tscAsk("the project's name is not known"), true
			}
			project = form[i+1].Text
			i++
		}
	}
	if others {
		return tscAsk("the line runs other commands, which may make or change it first"), true
	}
	bases, unknown := e.commandDirs(in, c.Dir)
	if unknown || len(bases) != 1 {
		return tscAsk("the line changes directory before it"), true
	}
	config := ""
	if project != "" {
		config = e.operandPath(bases[0], project)
		if fi, err := os.Stat(config); err == nil && fi.IsDir() {
			config = filepath.Join(config, "tsconfig.json")
		}
	} else {
		config = tscFindConfig(in, bases[0])
		if config == "" {
			return verdict{}, false
		}
	}
	var worst strictest
	e.tscConfigVerdict(in, config, 0, &worst, advisories)
	return worst.result()
}

// tscFindConfig returns the tsconfig.json tsc finds from dir up to the
// workspace root holding it, or "" when there is none there.
func tscFindConfig(in *reqInfo, dir string) string {
	for d := dir; in.insideRoots(d); d = filepath.Dir(d) {
		p := filepath.Join(d, "tsconfig.json")
		if _, err := os.Lstat(p); err == nil {
			return p
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return ""
}

// tscConfigVerdict decides the configuration at config, depth extends
// deep: the files its options write, the sources it compiles, and the
// configuration it extends.
func (e *Engine) tscConfigVerdict(in *reqInfo, config string, depth int, worst *strictest, advisories *[]string) {
	name := filepath.Base(config)
	if depth >= maxTSConfigDepth {
		worst.keep(tscAsk(fmt.Sprintf("configurations extend others more than %d deep", maxTSConfigDepth)))
		return
	}
	sub := *in
	sub.read, sub.write, sub.command = true, false, false
	var discard []string
	if v := e.decidePathLazy(&sub, config, &discard); v.value != Allow {
		worst.keep(tscAsk(name + ": reading it is not allowed without asking"))
		return
	}
	resolved, err := filepath.EvalSymlinks(config)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		worst.keep(tscAsk(name + ": it does not exist"))
		return
	case err != nil:
		worst.keep(tscAsk(name + ": it cannot be read now (" + err.Error() + ")"))
		return
	case !in.insideRoots(resolved):
		worst.keep(tscAsk(name + ": it is outside the workspace roots"))
		return
	}
	text, why := readTextFile(resolved)
	if why != "" {
		worst.keep(tscAsk(name + ": " + why))
		return
	}
	var cfg tsconfig
	if err := readTSConfig(text, &cfg); err != nil {
		worst.keep(tscAsk(name + ": " + err.Error()))
		return
	}
	dir := filepath.Dir(config)
	if len(cfg.References) > 0 && string(cfg.References) != "null" {
		worst.keep(tscAsk(name + ": it references other projects"))
	}
	for _, opt := range tscWrittenOptions {
		raw, ok := cfg.CompilerOptions[opt]
		if !ok {
			continue
		}
		var v string
		if json.Unmarshal(raw, &v) != nil {
			worst.keep(tscAsk(name + ": its " + opt + " is not a string"))
			continue
		}
		p := tscPath(dir, v)
		a := argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: p}, text: p, write: true,
			namedBy: "the " + opt + " of " + name + ", where tsc writes"}
		worst.keepIf(e.decideArg(in, a, shellcmd.Dir{}, advisories))
	}
	for _, f := range cfg.Files {
		p := tscPath(dir, f)
		a := argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: p}, text: p, namedBy: "a file " + name + " compiles"}
		worst.keepIf(e.decideArg(in, a, shellcmd.Dir{}, advisories))
	}
	include := cfg.Include
	if include == nil && cfg.Files == nil {
		include = []string{"**/*"}
	}
	budget := maxTreeEntries
	for _, pattern := range include {
		worst.keepIf(e.tscIncludeVerdict(in, dir, pattern, name, &budget, advisories))
	}
	for _, ext := range tscExtends(cfg.Extends) {
		if !strings.HasPrefix(ext, "./") && !strings.HasPrefix(ext, "../") && !filepath.IsAbs(ext) {
			worst.keep(tscAsk(name + ": it extends " + ext + ", a package's configuration the bridge does not look up"))
			continue
		}
		next := tscPath(dir, ext)
		if _, err := os.Stat(next); err != nil && !strings.HasSuffix(next, ".json") {
			next += ".json"
		}
		e.tscConfigVerdict(in, next, depth+1, worst, advisories)
	}
}

// tscExtends returns the configurations an extends value names (a string,
// or since TypeScript 5.0 a list of them).
func tscExtends(raw jsontext.Value) []string {
	if len(raw) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	return []string{string(raw)} // not a package name either: asked about
}

// tscPath returns the absolute path a configuration in dir names by p.
func tscPath(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// tscIncludeVerdict decides the sources an include pattern of the
// configuration in dir gives tsc: every file with a source's extension
// beneath the pattern's directory part (what comes before its first
// wildcard), each decided as a read, so a source that is a link to .env is
// refused as cat .env is.
func (e *Engine) tscIncludeVerdict(in *reqInfo, dir, pattern, name string, budget *int, advisories *[]string) (verdict, bool) {
	base := pattern
	if i := strings.IndexAny(pattern, "*?["); i >= 0 {
		base = filepath.Dir(pattern[:i+1])
	}
	root := tscPath(dir, base)
	var worst strictest
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if *budget--; *budget < 0 {
			return fs.SkipAll
		}
		if d.IsDir() {
			if p != root && tscSkippedDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !tscSource(d.Name()) {
			return nil
		}
		a := argWord{word: shellcmd.Word{Kind: shellcmd.Static, Text: p}, text: p, namedBy: "a source the include " + pattern + " of " + name + " compiles"}
		worst.keepIf(e.decideArg(in, a, shellcmd.Dir{}, advisories))
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		worst.keep(tscAsk(name + ": its include " + pattern + " cannot be read now (" + err.Error() + ")"))
	}
	if *budget < 0 {
		worst.keep(tscAsk(fmt.Sprintf("%s: its sources are more than %d entries", name, maxTreeEntries)))
	}
	return worst.result()
}

// tscSource reports whether tsc compiles a file of this name from an
// include pattern.
func tscSource(name string) bool {
	for _, ext := range tscSourceExts {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// readTSConfig decodes a tsconfig file's text into cfg: JSON with comments
// and trailing commas (hujson's JWCC, what tsc accepts of it), its names
// read as tsc reads them, case-exact. A name given twice is an error, so a
// file the bridge and tsc could read two ways is asked about.
func readTSConfig(text string, cfg *tsconfig) error {
	std, err := hujson.Standardize([]byte(text))
	if err != nil {
		return fmt.Errorf("the bridge cannot read it as JSON with comments (%v)", err)
	}
	if err := json.Unmarshal(std, cfg); err != nil {
		return fmt.Errorf("the bridge cannot read it as one JSON object with each name once (%v)", err)
	}
	return nil
}
