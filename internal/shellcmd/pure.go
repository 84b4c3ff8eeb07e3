package shellcmd

// Pure reports whether Analyze(line, opts) is the same whatever opts and
// the file system hold: line is made only of ASCII letters, digits, spaces
// and the punctuation / . _ - , : + @ % =. The file system is looked at
// for one thing, a glob in command position (matched in Options.Dir), and
// a glob needs '*', '?' or '['; without quotes, backslashes, '$' or braces
// no word of the line, nor of a shell string it runs (sh -c ls), can hold
// one. A caller may keep the analysis of a pure line and use it again.
func Pure(line string) bool {
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == ' ', c == '/', c == '.', c == '_', c == '-', c == ',', c == ':', c == '+', c == '@', c == '%', c == '=':
		default:
			return false
		}
	}
	return true
}
