package shellcmd

import "strings"

// envStartupCode are variables whose value is code, or a place code is
// loaded from, that an editor or interpreter runs as it starts, before it
// does what its command line asks: "vim a.txt" runs ":!cmd" from EXINIT.
var envStartupCode = map[string]string{
	"EXINIT":         "vi, vim and ex run its editor commands (:!cmd runs a shell command) at start-up",
	"NEXINIT":        "nvi runs its editor commands (:!cmd runs a shell command) at start-up",
	"VIMINIT":        "vim runs its editor commands (:!cmd runs a shell command) at start-up",
	"GVIMINIT":       "gvim runs its editor commands (:!cmd runs a shell command) at start-up",
	"PYTHONUSERBASE": "python imports usercustomize from beneath it at start-up",
	"IPYTHONDIR":     "ipython runs the start-up scripts of its profiles there",
	"FPATH":          "ksh and zsh load functions, which replace commands, from the files there",
	"EMACSLOADPATH":  "emacs runs site-start from there at start-up",
}

// startupCode says whether the variable name holds code an editor or
// interpreter runs at start-up, and why: an envStartupCode name, or lua's
// LUA_INIT and its versioned LUA_INIT_5_4, whose value lua runs as code
// (or as the file it names, after an @).
func startupCode(name string) (why string, ok bool) {
	if why, ok := envStartupCode[name]; ok {
		return why, true
	}
	if name == "LUA_INIT" || strings.HasPrefix(name, "LUA_INIT_") {
		return "lua runs its code (or the file an @ names) at start-up", true
	}
	return "", false
}
