package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// vimFamily are the names vim runs under; each sources the file -S names
// (Session.vim when none follows) and the vimrc -u and -U name, whose Ex
// commands run programs (":!cmd", ":call system()") and write files.
var vimFamily = setOf("vim", "vi", "nvim", "view", "vimdiff", "ex", "gvim", "rvim")

// vimScripts returns the files a vim form sources as scripts: the value of
// -S, -u and -U, as their own word or the next one, but the values that
// name no file (shellcmd.VimNoScript).
func vimScripts(form []shellcmd.Word) []string {
	var out []string
	for i := 1; i < len(form); i++ {
		t := form[i].Text
		if form[i].Kind != shellcmd.Static || t == "--" {
			break
		}
		switch t {
		case "-S", "-u", "-U":
			v := ""
			if i+1 < len(form) && form[i+1].Kind == shellcmd.Static && !strings.HasPrefix(form[i+1].Text, "-") {
				i++
				v = form[i].Text
			} else if t == "-S" {
				v = "Session.vim"
			}
			if v != "" && !shellcmd.VimNoScript(v) {
				out = append(out, v)
			}
		}
	}
	return out
}
