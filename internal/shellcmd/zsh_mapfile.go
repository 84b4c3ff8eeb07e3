package shellcmd

import "strings"

// zsh's zsh/mapfile module, which a zmodload on the line or the ~/.zshrc
// an IDE's zsh -i reads loads, ties the associative array mapfile to the
// files of the directory the shell is in: $mapfile[NAME] is the text of
// NAME, mapfile[NAME]=text writes NAME and unset 'mapfile[NAME]' removes
// it. bash reads $mapfile[.env] as an empty $mapfile and the text
// "[.env]", and mapfile[GOVERNANCE.md]=x as an assignment it cannot parse,
// so zmodload zsh/mapfile; echo $mapfile[.env] read .env once the zmodload
// was approved. Each such NAME in a line, whatever its quoting and whether
// or not the line parses, is a file the line may open as a redirection
// does (mapfileUses): read where an expansion takes it, read and written
// anywhere else.

// mapfileVia names, to the person, how a mapfile subscript opens its file.
const mapfileVia = "zsh's $mapfile"

// mapfileUses records the files src's subscripts of mapfile name.
func (w *walker) mapfileUses(src string) {
	const key = "mapfile["
	for i := 0; ; {
		j := strings.Index(src[i:], key)
		if j < 0 {
			return
		}
		at := i + j
		i = at + len(key)
		if at > 0 && identChar(src[at-1]) {
			continue // another name ending in mapfile
		}
		end := subscriptEnd(src, i-1)
		if end < 0 {
			end = len(src)
		}
		read := at > 0 && strings.IndexByte("${)#+=~^", src[at-1]) >= 0
		w.addOpened(Redirect{Target: mapfileName(src[i:end]), Read: true, Write: !read, Dir: w.cur, FD: -1, Via: mapfileVia})
	}
}

// mapfileName is the file a mapfile subscript names: the subscript itself
// where it is plain text (quotes around it taken off), and a name known
// only when the line runs where it expands anything or quotes part of it.
func mapfileName(sub string) Word {
	if len(sub) >= 2 && (sub[0] == '\'' || sub[0] == '"') && sub[len(sub)-1] == sub[0] {
		sub = sub[1 : len(sub)-1]
	}
	if sub == "" || strings.ContainsAny(sub, "$`\\'\"()*?[]{}~ \t\n") {
		return Word{Kind: Dynamic, Text: "mapfile[" + sub + "]", Why: "a mapfile subscript computed when the line runs"}
	}
	return Word{Kind: Static, Text: sub}
}
