package governance

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// gitConfigScripts returns the files the configuration a git form gives
// with -c makes git run or read as configuration, when it runs in dirs:
// every hook in the directory core.hooksPath names (as the glob DIR/*,
// which expandGlobs expands where the command runs, and for a relative
// DIR at each directory the top of the work tree may be, where git
// resolves it), and the file include.path or an includeIf's path names,
// whose aliases and command keys git runs. The line shows only the
// directory or the file; their text counts as the line's own.
func gitConfigScripts(form []shellcmd.Word, roots, dirs []string) []string {
	if len(form) == 0 || form[0].Kind != shellcmd.Static || filepath.Base(form[0].Text) != "git" {
		return nil
	}
	var out []string
	for _, kv := range shellcmd.GitOptions(form).Configs {
		text := kv.Text
		if kv.Kind != shellcmd.Static && len(text) > 1 && text[0] == '"' && strings.Count(text, `"`) == 2 && strings.HasSuffix(text, `"`) {
			text = text[1 : len(text)-1] // "key=$PWD/x" quoted whole
		}
		key, value, ok := strings.Cut(text, "=")
		key = strings.ToLower(key)
		if kv.Kind != shellcmd.Static {
			// A value written from the line's directory ($PWD/x) names
			// what ./x names; any other is known only at run time, and
			// asked about as such.
			if value, ok = shellcmd.CwdRelative(value); !ok || strings.ContainsAny(key, "$`\"'") {
				continue
			}
		}
		switch {
		case !ok || value == "":
		case key == "core.hookspath":
			out = append(out, "\x00"+path.Join(globQuote(value), "*")) // expandGlobs
			if !filepath.IsAbs(value) {
				tops, _ := topCandidates(roots, dirs)
				for _, top := range tops {
					out = append(out, "\x00"+path.Join(globQuote(top), globQuote(value), "*"))
				}
			}
		case key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path"):
			out = append(out, value)
		}
	}
	return out
}

// globQuote escapes the pattern characters of name, a directory named
// as it is.
func globQuote(name string) string {
	var b strings.Builder
	for _, r := range name {
		if strings.ContainsRune(`*?[\\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
