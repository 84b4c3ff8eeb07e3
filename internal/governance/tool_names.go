package governance

import (
	"strings"
	"unicode"
)

// Tools other than the agents' own (MCP servers above all) name a file in
// fields of their own spelling: Serena's relative_path, JetBrains'
// pathInProject, target_file, output_path, a list under source_files. A
// field the bridge does not read is a file it does not judge, and the tool
// writes it all the same; so a member is read as a path by its name, not
// only by a list of known names.

// pathWords are the words of a member name that say the member holds a
// path wherever they stand in it (relative_path, pathInProject,
// output_dir_path, file_name).
var pathWords = map[string]bool{"path": true, "paths": true, "filepath": true, "filepaths": true, "filename": true,
	"filenames": true, "directory": true, "directories": true, "folder": true, "folders": true}

// lastPathWords say so as a name's last word only: target_file is a
// file, file_text its content.
var lastPathWords = map[string]bool{"file": true, "files": true, "dirname": true}

// namedPathKey reports whether an input member named k holds a path (or
// a list of them) by its name: a word of pathWords in it, or a word of
// lastPathWords last. Words are split at '_', '-', '.', ' ' and where a
// lower-case letter or digit meets an upper-case one, and compared in
// lower case. "file_name" is read as "filename".
func namedPathKey(k string) bool {
	// Most members name none of the words: no need to split them.
	l := strings.ToLower(k)
	if !strings.Contains(l, "path") && !strings.Contains(l, "file") && !strings.Contains(l, "director") &&
		!strings.Contains(l, "folder") && !strings.Contains(l, "dirname") {
		return false
	}
	// A decoder that ignores case reads "FiLe_PaTh" as file_path: the
	// words are also taken split at separators alone.
	return pathNamed(nameWords(k)) || pathNamed(strings.FieldsFunc(l, func(r rune) bool {
		return r == '_' || r == '-' || r == '.' || r == ' '
	}))
}

// pathNamed reports whether a member name of these words names a path
// (namedPathKey).
func pathNamed(words []string) bool {
	for i, w := range words {
		if pathWords[w] || i+1 < len(words) && w == "file" && words[i+1] == "name" {
			return true
		}
	}
	return len(words) > 0 && lastPathWords[words[len(words)-1]]
}

// nameWords splits a member name into its words, in lower case.
func nameWords(k string) []string {
	var words []string
	var b strings.Builder
	prev := rune(0)
	flush := func() {
		if b.Len() > 0 {
			words = append(words, strings.ToLower(b.String()))
			b.Reset()
		}
	}
	for _, r := range k {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			flush()
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	flush()
	return words
}
