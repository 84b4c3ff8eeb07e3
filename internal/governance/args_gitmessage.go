package governance

import (
	"strings"

	"github.com/acp-bridge/acp-bridge/internal/shellcmd"
)

// git commit's options as its parser reads them, enough to tell which
// words are the value of -m/--message: a commit message, text git never
// opens as a file ("git commit -m "$MSG"", a message from a heredoc).
// Every other word stays a name the command may read: the value of -F,
// -C, -t, an operand (a pathspec).
var (
	// gitCommitShortValues are the short options that take a value: the
	// rest of their word, or the next word.
	gitCommitShortValues = "mFCct"
	// gitCommitShortFlags take no value; u and S take only an attached
	// one (the rest of their word).
	gitCommitShortFlags = "aenoipqsvz"
	// gitCommitLongValues take the next word as their value unless
	// "=value" is attached.
	gitCommitLongValues = setOf("--message", "--file", "--template", "--author", "--date", "--reuse-message",
		"--reedit-message", "--fixup", "--squash", "--cleanup", "--trailer", "--pathspec-from-file")
)

// gitMessageWords returns the indexes in form of the words git commit
// takes as the value of -m or --message, a message and never a file. It
// stops at the first option it does not know, whose value-taking is not
// known, and at "--".
func gitMessageWords(form []shellcmd.Word) map[int]bool {
	_, at, ok := gitSubcommand(form, "commit")
	if !ok {
		return nil
	}
	var out map[int]bool
	for i := at + 1; i < len(form); i++ {
		w := form[i]
		if w.Kind != shellcmd.Static {
			continue // an operand, or an option word known only at run time
		}
		t := w.Text
		switch {
		case t == "--":
			return out
		case strings.HasPrefix(t, "--"):
			if strings.Contains(t, "=") || !gitCommitLongValues[t] {
				if !strings.Contains(t, "=") && !gitCommitLongFlag(t) {
					return out
				}
				continue
			}
			if i+1 < len(form) && t == "--message" {
				if out == nil {
					out = make(map[int]bool)
				}
				out[i+1] = true
			}
			i++
		case len(t) > 1 && t[0] == '-':
			next, known := gitCommitCluster(t[1:])
			if !known {
				return out
			}
			if next != 0 && i+1 < len(form) {
				if next == 'm' {
					if out == nil {
						out = make(map[int]bool)
					}
					out[i+1] = true
				}
				i++
			}
		}
	}
	return out
}

// gitCommitCluster reads a cluster of git commit's short options (the
// letters after "-"): next is the letter whose value is the next word (0
// when none is), known false when a letter is not known.
func gitCommitCluster(letters string) (next byte, known bool) {
	for j := 0; j < len(letters); j++ {
		c := letters[j]
		switch {
		case strings.IndexByte(gitCommitShortValues, c) >= 0:
			if j == len(letters)-1 {
				return c, true
			}
			return 0, true // the rest is its value
		case c == 'u' || c == 'S':
			return 0, true // an optional value, attached
		case strings.IndexByte(gitCommitShortFlags, c) < 0:
			return 0, false
		}
	}
	return 0, true
}

// gitCommitLongFlag reports whether t is one of git commit's long options
// that take no value.
func gitCommitLongFlag(t string) bool {
	switch strings.TrimPrefix(strings.TrimPrefix(t, "--"), "no-") {
	case "all", "amend", "edit", "verify", "signoff", "quiet", "verbose", "dry-run", "short", "porcelain",
		"allow-empty", "allow-empty-message", "only", "include", "interactive", "patch", "reset-author", "status",
		"gpg-sign", "long", "branch", "null", "post-rewrite":
		return true
	}
	return false
}
