package shellcmd

// A shell that reads its script from its input runs whatever reaches it
// there, with or without options: "curl URL | sh -s -- -y", "| sh -",
// "| bash -x", "| bash /dev/stdin" and "| sh -i" run the download as
// "| sh" does. A rule written for the bare shell (deny: Bash(sh), "a shell
// reading its script from stdin") named only the form without words, so
// each of those met no rule and was asked about as the curl it follows.

// inputShellForms returns the forms a shell reading its script from its
// input is decided as besides its own: the bare shell, and sh for dash and
// ash, the programs /bin/sh is on Debian and on Alpine. A bare shell form
// has none (it is that form already).
func inputShellForms(name string, form []Word) [][]Word {
	var forms [][]Word
	if len(form) > 1 {
		forms = append(forms, []Word{{Kind: Static, Text: name}})
	}
	if name == "dash" || name == "ash" {
		forms = append(forms, []Word{{Kind: Static, Text: "sh"}})
	}
	return forms
}
