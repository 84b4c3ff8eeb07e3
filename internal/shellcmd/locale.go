package shellcmd

import "regexp"

// Bash reads a line's bytes in the character set of its locale (LC_ALL,
// else LC_CTYPE, else LANG): in GBK, BIG5, Shift_JIS and the like the
// second byte of a two-byte character may be 0x5C, a backslash, so
// "echo €\; rm x" (e2 82 | ac 5c | ;) ends echo at the ';' and runs rm x
// under LANG=zh_CN.GBK, while the bridge, reading bytes, sees an escaped
// ';' and one echo. The terminal's env sets the locale before bash starts;
// an assignment on one line of bash -c sets it for the lines after it, and
// LOCPATH makes any name, one that says UTF-8 included, a locale of the
// agent's making.

// localeVars are the variables whose value picks the character set bash
// reads a line in.
var localeVars = map[string]bool{"LANG": true, "LC_CTYPE": true, "LC_ALL": true}

// plainLocale matches a locale whose character set is read as the bridge
// reads a line: C, POSIX, none, or one whose codeset is UTF-8.
var plainLocale = regexp.MustCompile(`^(|C|POSIX|[A-Za-z_]+(\.(?i:utf-?8))(@[A-Za-z0-9_]+)?)$`)

// LocaleCharset says why setting name to value may make bash read the
// line's bytes as other characters than the bridge does, or "" when it
// cannot: a locale variable set to a locale not known to be C, POSIX or
// UTF-8 (or to a value known only when the line runs), or LOCPATH, under
// which any locale name is a definition the agent may have written.
func LocaleCharset(name, value string, static bool) string {
	if name == "LOCPATH" {
		return "the C library loads locales, their character sets included, from the directories it names, so a locale named UTF-8 may read bytes otherwise"
	}
	if !localeVars[name] || static && plainLocale.MatchString(value) {
		return ""
	}
	return "bash reads the line in the character set of the locale it names, in which a two-byte character may end in the byte of a backslash or quote the bridge reads as one"
}
