package governance

import (
	"path/filepath"
	"strings"
)

// npm, and pnpm, read the project's .npmrc beside package.json: its
// script-shell (or shell) is the program that runs every script of
// package.json, and its node-options are given to every node a script
// starts, where --require and --import load a file before the script.
// So an .npmrc of the agent's with "script-shell=./evil" makes "npm test"
// run ./evil, whatever the scripts say.

// npmrcFiles returns the project's .npmrc in top, and the files its
// script-shell, shell and node-options' --require, -r and --import name,
// relative to top, as code npm runs there.
func npmrcFiles(top string) []string {
	rc := filepath.Join(top, ".npmrc")
	out := []string{rc}
	text, why := readTextFile(rc)
	if why != "" {
		return out
	}
	for _, e := range npmrcEntries(text) {
		key, value := e.key, e.value
		switch key {
		case "script-shell", "shell":
			out = append(out, joinRaw(top, value))
		case "node-options":
			f := strings.Fields(value)
			for i, w := range f {
				opt, v, attached := strings.Cut(w, "=")
				switch opt {
				case "-r", "--require", "--import":
					if !attached && i+1 < len(f) {
						v = f[i+1]
					}
					out = append(out, joinRaw(top, v))
				}
			}
		}
	}
	return out
}
