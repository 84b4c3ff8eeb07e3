package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// fdValueOptions are fd's options that take the next word as their value.
var fdValueOptions = map[string]bool{"-e": true, "-t": true, "-E": true, "-d": true, "-S": true, "-c": true,
	"-j": true, "-o": true, "--extension": true, "--type": true, "--exclude": true, "--max-depth": true,
	"--min-depth": true, "--exact-depth": true, "--size": true, "--changed-within": true, "--changed-before": true,
	"--change-newer-than": true, "--change-older-than": true, "--newer": true, "--older": true, "--color": true,
	"--threads": true, "--owner": true, "--max-results": true, "--base-directory": true, "--search-path": true,
	"--path-separator": true, "--ignore-file": true, "--format": true, "--batch-size": true, "--and": true}

// fdSearched returns the directories fd (fdfind) searches when it runs a
// command on what it finds (-x, -X, --exec, --exec-batch, or a short
// option cluster holding x or X): its operands after the pattern and each
// --search-path, else ".". ok is false when it runs no command. Like
// find's -exec, such a run acts on every file beneath what it searches.
func fdSearched(form []shellcmd.Word) (dirs []string, ok bool) {
	pattern := false
	for i := 1; i < len(form); i++ {
		w := form[i]
		if w.Kind != shellcmd.Static {
			continue
		}
		t := w.Text
		switch {
		case t == "--exec" || t == "--exec-batch" || strings.HasPrefix(t, "--exec=") || strings.HasPrefix(t, "--exec-batch=") ||
			!strings.HasPrefix(t, "--") && strings.HasPrefix(t, "-") && strings.ContainsAny(t, "xX"):
			ok = true
			i = len(form) // the rest is the command
		case t == "--search-path" && i+1 < len(form):
			dirs = append(dirs, form[i+1].Text)
			i++
		case strings.HasPrefix(t, "--search-path="):
			dirs = append(dirs, strings.TrimPrefix(t, "--search-path="))
		case fdValueOptions[t]:
			i++
		case strings.HasPrefix(t, "-"):
		case !pattern:
			pattern = true
		default:
			dirs = append(dirs, t)
		}
	}
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	return dirs, ok
}
